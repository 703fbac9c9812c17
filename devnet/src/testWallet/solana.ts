/**
 * The test wallet's solana namespace: its account (dev key 0 of solana/keys.ts) and its answers to the
 * WalletConnect solana methods (docs: WalletConnect chain support for Solana; payloads in
 * shared/notes/namespaces.md §3). Transactions are sent to the devnet's Solana chain (solana/rpc.ts).
 */
import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { Connection, type Keypair, PACKET_DATA_SIZE, type SendOptions, VersionedTransaction } from '@solana/web3.js'
import * as SolanaKeys from '../solana/keys.js'
import { RpcError, rpcErrors } from './errors.js'
import * as Params from './params.js'

export const methods = [
  'solana_signTransaction',
  'solana_signAndSendTransaction',
  'solana_signMessage',
  'solana_getAccounts',
  'solana_requestAccounts',
] as const
export const events = [] as const

export type Options = { rpcUrl: string; chainId: `solana:${string}` }
export type Account = Options & { keypair: Keypair; /** base58 */ address: string }

/** How long a send to the chain may take before the request fails. */
export const sendTimeoutMs = 15_000

export function account(options: Options): Account {
  const keypair = SolanaKeys.keypair(0)
  return { ...options, keypair, address: keypair.publicKey.toBase58() }
}

export async function answer(account: Account, method: string, params: unknown): Promise<unknown> {
  switch (method) {
    case 'solana_getAccounts':
    case 'solana_requestAccounts':
      return [{ pubkey: account.address }]
    case 'solana_signMessage':
      return signMessage(account, Params.object(params))
    case 'solana_signTransaction': {
      const { transaction, signature } = sign(account, Params.object(params))
      return { signature: base58.encode(signature), transaction: base64.encode(transaction.serialize()) }
    }
    case 'solana_signAndSendTransaction':
      return { signature: await signAndSend(account, Params.object(params)) }
    default:
      throw new RpcError(rpcErrors.unsupported)
  }
}

/** ed25519 over the message's raw bytes, as Wallet Standard's solana:signMessage signs. */
function signMessage(account: Account, params: Params.Fields) {
  const message = Params.bytes(params, 'message', base58.decode)
  if (Params.string(params, 'pubkey', 64) !== account.address) throw new RpcError(rpcErrors.unauthorized)
  return { signature: base58.encode(ed25519.sign(message, account.keypair.secretKey.slice(0, 32))) }
}

/**
 * Signs a wire transaction (legacy or v0: VersionedTransaction reads both) as one of its signers, and
 * returns it with the wallet's signature. A transaction that does not ask for the wallet's key is an
 * account the dapp was not given.
 */
function sign(account: Account, params: Params.Fields) {
  const bytes = Params.bytes(params, 'transaction', base64.decode, Math.ceil(PACKET_DATA_SIZE / 3) * 4)
  let transaction: VersionedTransaction
  try {
    transaction = VersionedTransaction.deserialize(bytes)
  } catch {
    throw Params.invalid('transaction is not a Solana transaction.')
  }
  const { staticAccountKeys, header } = transaction.message
  const index = staticAccountKeys.slice(0, header.numRequiredSignatures).findIndex((key) => key.equals(account.keypair.publicKey))
  if (index < 0) throw new RpcError(rpcErrors.unauthorized)
  transaction.sign([account.keypair])
  return { transaction, signature: transaction.signatures[index]! }
}

async function signAndSend(account: Account, params: Params.Fields): Promise<string> {
  const options = sendOptions(params.sendOptions)
  const { transaction } = sign(account, params)
  const connection = new Connection(account.rpcUrl, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(sendTimeoutMs) }),
  })
  // The chain's own refusal (a failed preflight, an unknown blockhash) reaches the dapp as the error.
  return connection.sendRawTransaction(transaction.serialize(), options)
}

const commitments = new Set(['processed', 'confirmed', 'finalized'])

/** The SendOptions a dapp may pass, each checked; anything else in them is ignored. */
function sendOptions(value: unknown): SendOptions {
  if (value === undefined) return {}
  const fields = Params.object(value, 'sendOptions')
  const { skipPreflight, preflightCommitment, maxRetries, minContextSlot } = fields
  const options: SendOptions = {}
  if (skipPreflight !== undefined) options.skipPreflight = Params.optionalBoolean(fields, 'skipPreflight')
  if (preflightCommitment !== undefined) {
    if (typeof preflightCommitment !== 'string' || !commitments.has(preflightCommitment))
      throw Params.invalid('sendOptions.preflightCommitment must be processed, confirmed or finalized.')
    options.preflightCommitment = preflightCommitment as SendOptions['preflightCommitment']
  }
  for (const [key, n] of [['maxRetries', maxRetries], ['minContextSlot', minContextSlot]] as const) {
    if (n === undefined) continue
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw Params.invalid(`sendOptions.${key} must be a non-negative integer.`)
    options[key] = n
  }
  return options
}
