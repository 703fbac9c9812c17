import * as Caip from '@doorway/shared/Caip'
import * as DelegationFramework from '@doorway/shared/DelegationFramework'
import type * as Permissions from '@doorway/shared/Permissions'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { approveText } from '@doorway/shared/texts/approve'
import { format } from '@doorway/shared/Texts'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBytes,
  isAddress,
  isHex,
  maxUint256,
  serializeTransaction,
  size,
  slice,
  toFunctionSelector,
  type TransactionSerializableEIP1559,
} from 'viem'
import * as DescribeSession from './describeSession.js'
import * as UserOperation from './describeUserOperation.js'
import * as Display from './internal/display.js'
import { InvalidRequest } from './internal/errors.js'
import * as TypedData from './internal/typedData.js'

// What an unsafe request asks, decoded by the secure-site itself (docs/embedded-wallet.md §7 Rendering): the frame
// that forwards it is not trusted, so every param is checked here and anything malformed is refused
// before it is shown.

export { InvalidRequest }

/** Longest personal_sign message, in bytes, and longest typed-data document, in characters. */
export const maxMessageBytes = 65_536

export type Method = 'personal_sign' | 'eth_signTypedData_v4' | 'eth_sendTransaction' | 'eth_signUserOperation' | 'eth_signDelegation' | 'doorway_revokeSession'

export type Request = {
  method: Method
  params: readonly unknown[]
  /** CAIP-2, e.g. 'eip155:31337' */
  chainId: string
  /** The embedded wallet's own (EOA) key address: the signer, and the smart account's owner. */
  from: Address
  /**
   * The person's smart account (issue 25): the account shown and signed for is the one `from` owns with
   * this Delegation Framework, derived here, never an address the frame names. Only a pinned deployment
   * (DelegationFramework.pinnedFor) is taken, and its addresses are the pinned ones.
   */
  smartAccount?: SmartAccount.Environment
  chainName?: string
  nativeSymbol?: string
  /** The native coin's price in the dapp's currency, as the frame knows it. */
  fiat?: { price: number; currency: string }
  /** Unix seconds (default: the clock): when a session's limits start and whether it is already over. */
  now?: number
  /** The modal's locale (`configure`), for a session's dates. */
  locale?: string
}

export type Row = {
  label: string
  value: string
  mono?: boolean
  /** A row the person must not miss: what the wallet could not read. */
  tone?: 'warning'
  /** Starts a group of the rows that follow (a call of a batch, "Call 1 of 2"): its label is the heading. */
  heading?: boolean
}

/** What the approval screen shows, and exactly what the signer signs once it is approved. */
export type Description = {
  method: Method
  title: string
  rows: readonly Row[]
  /** The host row's label when the dapp did not ask (a revoke the person starts in Account): else "Requested by". */
  hostLabel?: string
  /** personal_sign: the message bytes (EIP-191). */
  message?: Hex
  /** eth_signTypedData_v4: only the typed fields, integers as bigints; for viem's `signTypedData`. */
  typedData?: TypedData.Definition
  /** eth_sendTransaction: for viem's `signTransaction` as is. */
  transaction?: TransactionSerializableEIP1559
  /** eth_signUserOperation, doorway_revokeSession: the operation read, and the EIP-712 data the owner key signs for it (viem's `signTypedData`). */
  userOperation?: { operation: SmartAccount.UserOperation; typedData: ReturnType<typeof SmartAccount.userOperationTypedData> }
  /** eth_signDelegation: the session's delegation, and the EIP-712 data the owner key signs for it. */
  delegation?: { delegation: Permissions.Delegation; typedData: ReturnType<typeof Permissions.delegationTypedData> }
  /** doorway_revokeSession: the message the owner key also signs (EIP-191), for the api's record of the revoke. */
  revoke?: { message: string }
}

type Context = {
  request: Request
  chainId: number
  /** The address shown and signed for: the key's own, or its smart account's. */
  from: Address
  owner: Address
  /** The pinned deployment the frame's `smartAccount` named. */
  smartAccount: DelegationFramework.Environment | undefined
  rows: Row[]
}

const describers = {
  personal_sign: personalSign,
  eth_signTypedData_v4: signTypedData,
  eth_sendTransaction: sendTransaction,
  eth_signUserOperation: signUserOperation,
  eth_signDelegation: (params, context) => DescribeSession.signDelegation(params, sessionContext(context, 'eth_signDelegation')),
  doorway_revokeSession: (params, context) => DescribeSession.revokeSession(params, sessionContext(context, 'doorway_revokeSession')),
} as const satisfies Record<Method, (params: readonly unknown[], context: Context) => Description>

/** Decodes and checks an unsafe request for the approval screen; throws InvalidRequest when malformed. */
export function describe(request: Request): Description {
  if (!Object.hasOwn(describers, request.method)) throw new InvalidRequest(`Unsupported method: ${String(request.method)}`)
  if (!Array.isArray(request.params)) throw new InvalidRequest(`${request.method}: params is not a list`)
  const chainId = eip155Chain(request.chainId)
  if (!isAddress(request.from, { strict: false })) throw new InvalidRequest('The wallet address is not an address')
  const owner = getAddress(request.from)
  const smartAccount = request.smartAccount === undefined ? undefined : pinned(request.smartAccount)
  const from = smartAccount ? SmartAccount.counterfactual(owner, smartAccount).address : owner
  const rows: Row[] = [
    { label: approveText.network, value: networkLabel(request) },
    { label: approveText.from, value: from, mono: true },
    // The dapp knows only the smart account's address; the key signs, and the account checks it (ERC-1271).
    ...(smartAccount ? [{ label: approveText.signsAs, value: approveText.smartAccount }] : []),
  ]
  return describers[request.method](request.params, { request, chainId, from, owner, smartAccount, rows })
}

// The frame names the deployment but is not trusted with its addresses: another factory or implementation is
// another account, and another DelegationManager or enforcer could check nothing (docs/embedded-wallet.md
// "Smart sessions"). Only a pinned one is taken, and from then on its addresses are the pinned ones.
function pinned(environment: SmartAccount.Environment): DelegationFramework.Environment {
  const entry = DelegationFramework.pinnedFor(environment)
  if (!entry) throw new InvalidRequest(`The smart account's Delegation Framework (DelegationManager ${String(environment?.DelegationManager)}) is not a deployment this wallet trusts`)
  return entry
}

function sessionContext(context: Context, method: Method): DescribeSession.Context {
  const { request, smartAccount } = context
  if (!smartAccount) throw new InvalidRequest(`${method}: sessions are granted and revoked only by this wallet's smart account`)
  return {
    chainId: context.chainId,
    owner: context.owner,
    account: context.from,
    environment: smartAccount,
    network: context.rows[0]!,
    symbol: optionalText(request.nativeSymbol, 'nativeSymbol') ?? 'ETH',
    fiat: request.fiat,
    now: request.now ?? Math.floor(Date.now() / 1000),
    locale: request.locale,
  }
}

function eip155Chain(id: string): number {
  const chainId = Caip.isChainId(id) && id.startsWith('eip155:') ? Number(id.slice('eip155:'.length)) : Number.NaN
  if (!Number.isSafeInteger(chainId)) throw new InvalidRequest(`The network ${String(id)} is not an EIP-155 chain`)
  return chainId
}

// The name and symbol come from the frame, which is not trusted: the chain id beside the name is what
// is signed for. People read "Anvil (31337)", not a CAIP-2 id.
function networkLabel(request: Request): string {
  const name = optionalText(request.chainName, 'chainName')
  const id = request.chainId.startsWith('eip155:') ? request.chainId.slice('eip155:'.length) : request.chainId
  if (name === undefined) return format(approveText.chainNumbered, { id })
  // A name that already says its number ("Anvil 31337") is not repeated with it.
  return new RegExp(`(^|\\D)${id}($|\\D)`).test(name) ? name : `${name} (${id})`
}

function optionalText(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.length === 0 || value.length > 64 || !Display.isSafeText(value))
    throw new InvalidRequest(`${what} is not a short plain text`)
  return value
}

function exactly(params: readonly unknown[], count: number, method: Method): unknown[] {
  if (params.length !== count) throw new InvalidRequest(`${method}: expected ${count} params, got ${params.length}`)
  return [...params]
}

function sameAddress(value: unknown, from: Address, what: string) {
  if (typeof value !== 'string' || !isAddress(value, { strict: false }) || value.toLowerCase() !== from.toLowerCase())
    throw new InvalidRequest(`${what} is not this wallet's address`)
}

function hexBytes(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0)
    throw new InvalidRequest(`${what} is not 0x-prefixed hex bytes`)
  return value
}

function personalSign(params: readonly unknown[], { rows, from }: Context): Description {
  const [message, address] = exactly(params, 2, 'personal_sign')
  sameAddress(address, from, 'personal_sign: the address')
  const hex = hexBytes(message, 'personal_sign: the message')
  if (size(hex) > maxMessageBytes) throw new InvalidRequest(`personal_sign: the message is over ${maxMessageBytes} bytes`)
  const text = Display.text(hexToBytes(hex))
  const row: Row =
    text === undefined ? { label: approveText.messageHex, value: hex, mono: true } : { label: approveText.message, value: text }
  return { method: 'personal_sign', title: approveText.methods.personal_sign, rows: [...rows, row], message: hex }
}

function signTypedData(params: readonly unknown[], { rows, from, chainId }: Context): Description {
  const [address, input] = exactly(params, 2, 'eth_signTypedData_v4')
  sameAddress(address, from, 'eth_signTypedData_v4: the address')
  const typedData = TypedData.parse(input, { maxChars: maxMessageBytes, chainId })
  return {
    method: 'eth_signTypedData_v4',
    title: approveText.methods.eth_signTypedData_v4,
    rows: [
      ...rows,
      { label: approveText.domain, value: TypedData.domainLines(typedData).join('\n'), mono: true },
      { label: approveText.primaryType, value: typedData.primaryType, mono: true },
      { label: approveText.typedData, value: TypedData.messageLines(typedData).join('\n'), mono: true },
    ],
    typedData,
  }
}

const transactionKeys = new Set(['from', 'to', 'value', 'data', 'gas', 'nonce', 'maxFeePerGas', 'maxPriorityFeePerGas', 'chainId', 'type'])
// JSON-RPC QUANTITY: 0x-hex without leading zeros.
const quantityPattern = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/

function invalidTransaction(reason: string): InvalidRequest {
  return new InvalidRequest(`eth_sendTransaction: ${reason}`)
}

function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !quantityPattern.test(value)) throw invalidTransaction(`${what} is not a hex quantity`)
  const n = BigInt(value)
  if (n > maxUint256) throw invalidTransaction(`${what} is too large`)
  return n
}

function sendTransaction(params: readonly unknown[], context: Context): Description {
  if (context.smartAccount) throw invalidTransaction('a smart account sends user operations, not transactions')
  const [tx] = exactly(params, 1, 'eth_sendTransaction')
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) throw invalidTransaction('the transaction is not an object')
  const transaction = toTransaction(tx as Record<string, unknown>, context)
  const symbol = optionalText(context.request.nativeSymbol, 'nativeSymbol') ?? 'ETH'
  const { to, data, value, gas, maxFeePerGas } = transaction
  return {
    method: 'eth_sendTransaction',
    title: approveText.methods.eth_sendTransaction,
    rows: [
      ...context.rows,
      to ? { label: approveText.to, value: to, mono: true } : { label: approveText.to, value: approveText.contractCreation },
      { label: approveText.value, value: Display.native(value, symbol, context.request.fiat) },
      { label: approveText.fee, value: Display.native(gas * maxFeePerGas, symbol, context.request.fiat) },
      ...callRows(to, data),
    ],
    transaction,
  }
}

function signUserOperation(params: readonly unknown[], context: Context): Description {
  const { smartAccount, owner, chainId, request } = context
  if (!smartAccount) throw new InvalidRequest('eth_signUserOperation: this wallet signs operations only for its smart account')
  const [input] = exactly(params, 1, 'eth_signUserOperation')
  const { operation, calls } = UserOperation.parse(input, { owner, environment: smartAccount })
  const symbol = optionalText(request.nativeSymbol, 'nativeSymbol') ?? 'ETH'
  const session = sessionContext(context, 'eth_signUserOperation')
  const callRowsOf = (call: SmartAccount.Call, i: number): Row[] => [
    ...(calls.length > 1 ? [{ label: format(approveText.callNumbered, { n: i + 1, count: calls.length }), value: '', heading: true }] : []),
    { label: approveText.to, value: call.to, mono: true },
    { label: approveText.value, value: Display.native(call.value, symbol, request.fiat) },
    // Disabling one of this wallet's sessions reads as what it is, not as data.
    ...(DescribeSession.disableCallRows(call, session) ?? callRows(call.to, call.data)),
  ]
  const fee = UserOperation.fee(operation, { symbol, fiat: request.fiat })
  return {
    method: 'eth_signUserOperation',
    title: approveText.methods.eth_signUserOperation,
    rows: [
      ...context.rows,
      // Its first operation deploys the account (ERC-4337 factory): the person learns it is made now.
      ...(operation.factory ? [{ label: approveText.smartAccount, value: approveText.accountCreated }] : []),
      ...calls.flatMap(callRowsOf),
      fee,
    ],
    userOperation: { operation, typedData: SmartAccount.userOperationTypedData(operation, { chainId, entryPoint: smartAccount.EntryPoint }) },
  }
}

type Transaction = TransactionSerializableEIP1559 & {
  to?: Address
  data?: Hex
  value: bigint
  gas: bigint
  maxFeePerGas: bigint
}

function toTransaction(tx: Record<string, unknown>, { from, chainId }: Context): Transaction {
  for (const key of Object.keys(tx)) if (!transactionKeys.has(key)) throw invalidTransaction(`unexpected field ${key}`)
  sameAddress(tx.from, from, 'eth_sendTransaction: from')
  if (tx.type !== undefined && tx.type !== '0x2') throw invalidTransaction('only EIP-1559 (type 0x2) transactions are signed')
  if (tx.chainId !== undefined && quantity(tx.chainId, 'chainId') !== BigInt(chainId))
    throw invalidTransaction(`chainId ${String(tx.chainId)} is not the chain of this request (${chainId})`)
  const to = recipient(tx.to)
  // lower case, so the selector reads as viem computes it
  const data = tx.data === undefined ? undefined : (hexBytes(tx.data, 'eth_sendTransaction: data').toLowerCase() as Hex)
  // A creation without code would lock the value in an empty account.
  if (!to && (!data || data === '0x')) throw invalidTransaction('a contract creation needs data')
  const nonce = quantity(tx.nonce, 'nonce')
  if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidTransaction('nonce is too large')
  const gas = quantity(tx.gas, 'gas')
  if (gas === 0n) throw invalidTransaction('gas is 0')
  const transaction: Transaction = {
    type: 'eip1559',
    chainId,
    nonce: Number(nonce),
    gas,
    maxFeePerGas: quantity(tx.maxFeePerGas, 'maxFeePerGas'),
    maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
    value: tx.value === undefined ? 0n : quantity(tx.value, 'value'),
    ...(to ? { to } : {}),
    ...(data ? { data } : {}),
  }
  try {
    serializeTransaction(transaction) // viem's own checks (fee order, chain id): what it refuses is never shown
  } catch (cause) {
    throw new InvalidRequest('eth_sendTransaction: the transaction cannot be signed', { cause })
  }
  return transaction
}

/** `to`, checksummed; undefined for a contract creation. */
function recipient(to: unknown): Address | undefined {
  if (to === undefined) return undefined
  // strict: a mixed-case address with a wrong checksum is a typo, not this recipient
  if (typeof to !== 'string' || !isAddress(to)) throw invalidTransaction('to is not an address')
  return getAddress(to)
}

// ERC-20 calls a person can read; other calls show their selector and length.
const erc20Calls = erc20Abi.filter(
  (item): item is Extract<(typeof erc20Abi)[number], { type: 'function' }> =>
    item.type === 'function' && ['transfer', 'transferFrom', 'approve'].includes(item.name),
)
const erc20Selectors = new Map(erc20Calls.map((item) => [toFunctionSelector(item), item]))

function callRows(to: Address | undefined, data: Hex | undefined): Row[] {
  if (!data || data === '0x') return []
  const length = Display.bytes(size(data))
  if (!to) return [{ label: approveText.data, value: length, mono: true }]
  const call = erc20Call(data)
  if (call) return [{ label: approveText.call, value: call, mono: true }]
  const selector = size(data) >= 4 ? slice(data, 0, 4) : data
  return [{ label: approveText.data, value: `${selector} · ${length}`, mono: true }]
}

/** 'transfer\nto: 0x…\nvalue: 1,000' when `data` is exactly an ERC-20 transfer, transferFrom or approve. */
function erc20Call(data: Hex): string | undefined {
  const item = size(data) >= 4 ? erc20Selectors.get(slice(data, 0, 4)) : undefined
  if (!item) return undefined
  const args = decodeErc20(data)
  // Only the canonical encoding is shown decoded: dirty padding or trailing bytes could be read
  // differently by the contract than by this screen.
  if (!args || encodeFunctionData({ abi: [item], args } as never) !== data) return undefined
  const lines = item.inputs.map((input, i) => {
    const arg = args[i]
    return `${input.name}: ${typeof arg === 'bigint' ? Display.integer(arg) : getAddress(arg as string)}`
  })
  return [item.name, ...lines].join('\n')
}

function decodeErc20(data: Hex): readonly unknown[] | undefined {
  try {
    return decodeFunctionData({ abi: erc20Abi, data }).args
  } catch {
    return undefined // a known selector with malformed arguments: shown as raw data instead
  }
}
