/**
 * Puts a signed transaction on the chain and follows it until it lands, by polling (never a websocket:
 * real nodes rate-limit subscriptions, notes/namespaces.md §1 frame rule). A transaction that has not
 * landed once the chain is past its last valid block height never will: it expired, and nothing was sent.
 */
import * as S from '@doorway/shared/Schema'
import { ExpiredError, FailedError, InsufficientFundsError, RentError, RpcError, RpcUnavailableError, SendFailedError } from './SolanaErrors.js'
import { solanaText } from '@doorway/shared/texts/solana'
import type { Rpc } from './SolanaRpc.js'
import { signatureOf, toBase64 } from './SolanaWire.js'
import { base58, integer, loose, nullable, withContext } from './internal/shape.js'

export declare namespace broadcast {
  type Options = { signal?: AbortSignal }
}

/**
 * Sends signed wire bytes with preflight on; resolves with the signature (the transaction's id). A
 * simulation that fails says why: an unknown blockhash is ExpiredError, an account left below its
 * rent-exempt minimum RentError, a fee the payer cannot pay InsufficientFundsError; anything else is
 * spec §8 SendFailedError with the program logs.
 */
export async function broadcast(rpc: Rpc, signed: Uint8Array, options: broadcast.Options = {}): Promise<string> {
  const { signal } = options
  const id = signatureOf(signed)
  try {
    const params = [toBase64(signed), { encoding: 'base64', skipPreflight: false, preflightCommitment: 'confirmed' }]
    const signature = await rpc.call('sendTransaction', params, base58, signal)
    // The node names the transaction by its first signature; any other answer is not about these bytes.
    if (signature !== id) throw new SendFailedError(new Error(`The node answered signature ${signature} for ${id}`))
    return signature
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw sendError(error)
  }
}

function sendError(error: unknown): Error {
  if (error instanceof RpcUnavailableError) return new SendFailedError(error)
  if (!(error instanceof RpcError)) return error instanceof Error ? error : new SendFailedError(error)
  const err = (error.data as { err?: unknown } | undefined)?.err
  const name = typeof err === 'string' ? err : typeof err === 'object' && err !== null ? Object.keys(err)[0] : undefined
  if (name === 'BlockhashNotFound' || /blockhash not found/i.test(error.message)) return new ExpiredError(error)
  if (name === 'InsufficientFundsForRent') return new RentError('unknown', undefined, error)
  if (name === 'InsufficientFundsForFee') return new InsufficientFundsError({ message: solanaText.insufficientFee, asset: 'SOL', cause: error })
  return new SendFailedError(error)
}

export declare namespace confirm {
  type Options = {
    signal?: AbortSignal
    /** Between two polls; 1 s by default (a slot is about 400 ms). */
    intervalMs?: number
    /** Node failures in a row tolerated before giving up (a dropped request is no reason to stop following). */
    retries?: number
  }
  type ReturnType = { slot: number }
}

export const defaultIntervalMs = 1_000
export const defaultRetries = 3

const status = nullable(
  loose({
    slot: integer,
    err: (x): x is unknown => x !== undefined,
    confirmationStatus: S.optional(nullable(S.literal('processed', 'confirmed', 'finalized'))),
  }),
)
const statuses = withContext(S.array(status, 1))

/**
 * Resolves with the slot once the transaction is confirmed. Throws FailedError when it landed and
 * failed, ExpiredError once the chain is past `lastValidBlockHeight` without it, the signal's reason when
 * cancelled, and spec §8 SendFailedError after `retries` node failures in a row.
 */
export async function confirm(rpc: Rpc, signature: string, lastValidBlockHeight: number, options: confirm.Options = {}): Promise<confirm.ReturnType> {
  const { signal, intervalMs = defaultIntervalMs, retries = defaultRetries } = options
  let failures = 0
  for (;;) {
    try {
      const landed = await poll(rpc, signature, lastValidBlockHeight, signal)
      if (landed) return landed
      failures = 0
    } catch (error) {
      if (signal?.aborted) throw signal.reason
      if (!(error instanceof RpcUnavailableError || error instanceof RpcError)) throw error
      if (++failures > retries) throw new SendFailedError(error)
    }
    await sleep(intervalMs, signal)
  }
}

/** One look: the slot once confirmed, undefined while still in flight; throws once failed or expired. */
async function poll(rpc: Rpc, signature: string, lastValidBlockHeight: number, signal: AbortSignal | undefined) {
  const landed = await statusOf(rpc, signature, signal)
  if (landed) return landed
  const height = await rpc.call('getBlockHeight', [{ commitment: 'confirmed' }], integer, signal)
  if (height <= lastValidBlockHeight) return undefined
  // It may have landed between the two reads: look once more before calling it expired.
  const last = await statusOf(rpc, signature, signal)
  if (last) return last
  throw new ExpiredError()
}

async function statusOf(rpc: Rpc, signature: string, signal: AbortSignal | undefined): Promise<{ slot: number } | undefined> {
  const { value } = await rpc.call('getSignatureStatuses', [[signature], { searchTransactionHistory: false }], statuses, signal)
  const found = value[0]
  if (!found) return undefined
  if (found.err !== null) throw new FailedError(found.err, found.slot)
  // Nodes before 1.5 give no level: `confirmations: null` then means rooted.
  const level = found.confirmationStatus ?? ((found as { confirmations?: unknown }).confirmations === null ? 'finalized' : 'processed')
  return level === 'confirmed' || level === 'finalized' ? { slot: found.slot } : undefined
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const done = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', done)
      resolve()
    }, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
