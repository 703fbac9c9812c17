import * as Caip from '@doorway/shared/Caip'
import { approveText } from '@doorway/shared/texts/approve'
import { format } from '@doorway/shared/Texts'
import { base64 } from '@scure/base'
import { bytesToHex } from 'viem'
import * as SolanaTransaction from '../wallet/SolanaTransaction.js'
import type { Row } from './describe.js'
import * as Display from './internal/display.js'
import { InvalidRequest } from './internal/errors.js'
import * as Instructions from './internal/solanaInstructions.js'

// What a Solana request asks, read by the secure-site itself from the bytes it will sign
// (docs/embedded-wallet.md §7): the frame is not trusted, so a transaction this wallet should not sign
// (another fee payer, another signer, lookup tables, bytes that do not parse) is refused before the
// person is asked, and what is shown is read from exactly the bytes that are signed.

export type Method = 'solana_signTransaction' | 'solana_signMessage'

export const methods: readonly Method[] = ['solana_signTransaction', 'solana_signMessage']

/** Longest solana_signMessage message, in bytes. */
export const maxMessageBytes = 65_536

export type Request = {
  method: Method
  params: readonly unknown[]
  /** CAIP-2, e.g. 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' */
  chainId: string
  /** The embedded wallet's own Solana address (base58). */
  from: string
  chainName?: string
  /** SOL's price in the dapp's currency, as the frame knows it. */
  fiat?: { price: number; currency: string }
}

export type Description = {
  method: Method
  title: string
  rows: readonly Row[]
  /** solana_signMessage: exactly the bytes signed. */
  message?: Uint8Array
  /** solana_signTransaction: its message bytes are signed, and the signature goes in slot 0. */
  transaction?: SolanaTransaction.Transaction
}

export function isMethod(method: string): method is Method {
  return (methods as readonly string[]).includes(method)
}

/** Decodes and checks a Solana request for the approval screen; throws InvalidRequest when malformed or not this wallet's. */
export function describe(request: Request): Description {
  if (!isMethod(request.method)) throw new InvalidRequest(`Unsupported method: ${String(request.method)}`)
  if (!Array.isArray(request.params)) throw new InvalidRequest(`${request.method}: params is not a list`)
  if (request.params.length !== 1) throw new InvalidRequest(`${request.method}: expected 1 param, got ${request.params.length}`)
  const network: Row = { label: approveText.network, value: networkLabel(request) }
  return request.method === 'solana_signMessage' ? signMessage(request, network) : signTransaction(request, network)
}

// The transaction names no chain (its blockhash ties it to one), so the name is the frame's, for reading only.
function networkLabel(request: Request): string {
  const reference = Caip.isChainId(request.chainId) && request.chainId.startsWith('solana:') ? request.chainId.slice('solana:'.length) : undefined
  if (reference === undefined) throw new InvalidRequest(`The network ${String(request.chainId)} is not a Solana network`)
  const name = request.chainName
  if (name === undefined) return format(approveText.solanaNetwork, { id: Display.shortKey(reference) })
  if (typeof name !== 'string' || name.length === 0 || name.length > 64 || !Display.isSafeText(name)) throw new InvalidRequest('chainName is not a short plain text')
  return name
}

/** Standard base64 with its padding, read strictly: a string that does not re-encode to itself is refused. */
function decodeBase64(value: unknown, maxBytes: number, what: string): Uint8Array {
  const maxChars = Math.ceil(maxBytes / 3) * 4
  if (typeof value !== 'string' || value.length === 0 || value.length > maxChars) throw new InvalidRequest(`${what} is not base64 of at most ${maxBytes} bytes`)
  let bytes: Uint8Array
  try {
    bytes = base64.decode(value)
  } catch (cause) {
    throw new InvalidRequest(`${what} is not base64`, { cause })
  }
  if (base64.encode(bytes) !== value) throw new InvalidRequest(`${what} is not canonical base64`)
  if (bytes.length > maxBytes) throw new InvalidRequest(`${what} is over ${maxBytes} bytes`)
  return bytes
}

function signMessage(request: Request, network: Row): Description {
  const message = decodeBase64(request.params[0], maxMessageBytes, 'solana_signMessage: the message')
  // A message that is a transaction would be a transaction signed blind: it goes through solana_signTransaction, described.
  if (parses(() => SolanaTransaction.parseMessage(message)) || parses(() => SolanaTransaction.parse(message)))
    throw new InvalidRequest('solana_signMessage: the message is a Solana transaction; it can only be signed as one')
  const text = Display.text(message)
  const shown: Row = text === undefined ? { label: approveText.messageHex, value: bytesToHex(message), mono: true } : { label: approveText.message, value: text }
  return {
    method: 'solana_signMessage',
    title: approveText.methods.solana_signMessage,
    rows: [network, { label: approveText.account, value: request.from, mono: true }, shown],
    message,
  }
}

function parses(read: () => unknown): boolean {
  try {
    read()
    return true
  } catch {
    return false
  }
}

function signTransaction(request: Request, network: Row): Description {
  const wire = decodeBase64(request.params[0], SolanaTransaction.maxBytes, 'solana_signTransaction: the transaction')
  let transaction: SolanaTransaction.Transaction
  try {
    transaction = SolanaTransaction.parse(wire)
  } catch (cause) {
    throw new InvalidRequest(`solana_signTransaction: ${cause instanceof Error ? cause.message : 'the bytes are not a transaction'}`, { cause })
  }
  const { message } = transaction
  const feePayer = message.accountKeys[0]!
  if (feePayer !== request.from) throw new InvalidRequest(`solana_signTransaction: the fee payer ${feePayer} is not this wallet's address`)
  // This wallet signs alone: a transaction that needs another signer is not one it can complete.
  if (message.header.requiredSignatures !== 1)
    throw new InvalidRequest(`solana_signTransaction: the transaction needs ${message.header.requiredSignatures} signers; this wallet signs only its own`)
  const context: Instructions.Context = { from: request.from, owners: Instructions.associatedOwners(message.instructions), fiat: request.fiat }
  const described = message.instructions.map((instruction) => Instructions.describe(instruction, context))
  const warning: Row[] = described.some((words) => words.unknown) ? [{ label: approveText.warning, value: approveText.unknownProgram, tone: 'warning' }] : []
  const actions = described.flatMap((words, i): Row[] => [{ label: format(approveText.instruction, { n: i + 1 }), value: words.text }, ...words.details])
  return {
    method: 'solana_signTransaction',
    title: approveText.methods.solana_signTransaction,
    rows: [...warning, network, { label: approveText.feePayer, value: feePayer, mono: true }, { label: approveText.fee, value: Display.sol(maxFee(message), request.fiat) }, ...actions],
    transaction,
  }
}

/** Solana's fee rules (docs/embedded-wallet.md §7). */
export const fees = { lamportsPerSignature: 5_000n, unitsPerInstruction: 200_000n, maxUnits: 1_400_000n } as const

/**
 * The most the transaction can cost: 5000 lamports a signature (the precompiles' included) plus the
 * priority fee, price × limit in micro-lamports, rounded up. Without a limit the runtime's default is
 * at most 200,000 units an instruction, capped at 1.4 M. A budget set twice fails at the runtime: refused here.
 */
function maxFee(message: SolanaTransaction.Message): bigint {
  const budget = new Map<number, bigint>()
  let signatures = BigInt(message.header.requiredSignatures)
  let others = 0n
  for (const instruction of message.instructions) {
    signatures += BigInt(Instructions.precompileSignatures(instruction))
    const set = instruction.programId === Instructions.programs.computeBudget ? Instructions.readBudget(instruction.data) : undefined
    if (!set) others++
    else if (budget.has(set.kind)) throw new InvalidRequest('solana_signTransaction: the transaction sets the same compute budget twice')
    else budget.set(set.kind, set.value)
  }
  const requested = budget.get(2) ?? others * fees.unitsPerInstruction
  const units = requested < fees.maxUnits ? requested : fees.maxUnits
  const price = budget.get(3) ?? 0n
  return signatures * fees.lamportsPerSignature + (price * units + 999_999n) / 1_000_000n
}
