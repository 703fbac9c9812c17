/**
 * A JSON-RPC 2.0 client for a Solana node, over fetch. Chosen over web3.js's `Connection`: its methods
 * take no AbortSignal, so a call could time out (through a custom fetch) but never be cancelled by the
 * person leaving the view, and its answers are trusted as they come. Here every call has a timeout and a
 * signal, checks the answer against a guard, and fails with a typed error. No websocket is ever opened:
 * confirmations poll (docs notes/namespaces.md §1, frame rule).
 */
import * as Ids from '@doorway/shared/Ids'
import type * as S from '@doorway/shared/Schema'
import { RpcError, RpcUnavailableError } from './SolanaErrors.js'
import { loose } from './internal/shape.js'

export type Rpc = {
  readonly url: string
  /**
   * Calls `method`; resolves with its result once `check` accepts it. Throws RpcError for the node's
   * error object, RpcUnavailableError when the node cannot be reached, answers late or answers nonsense,
   * and the signal's reason when the caller cancels.
   */
  call<T>(method: string, params: readonly unknown[], check: S.Schema<T>, signal?: AbortSignal): Promise<T>
}

/** Long enough for a busy public node, short enough that a dead one does not hold the person. */
export const defaultTimeoutMs = 15_000

export declare namespace create {
  type Options = { timeoutMs?: number; fetch?: typeof fetch }
}

export function create(url: string, options: create.Options = {}): Rpc {
  const { timeoutMs = defaultTimeoutMs } = options
  if (!/^https?:\/\//.test(url)) throw new TypeError(`SolanaRpc.create: expected an http(s) URL, got ${url}`)
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`SolanaRpc.create: timeoutMs must be positive, got ${timeoutMs}`)
  const context = { url, timeoutMs, fetch: options.fetch ?? ((input, init) => fetch(input, init)) } satisfies Context
  return { url, call: (method, params, check, signal) => call(context, method, params, check, signal) }
}

type Context = { url: string; timeoutMs: number; fetch: typeof fetch }

const envelope = loose({
  jsonrpc: (x): x is '2.0' => x === '2.0',
  id: (x): x is string | null => typeof x === 'string' || x === null,
})
const errorObject = loose({
  code: (x): x is number => Number.isInteger(x),
  message: (x): x is string => typeof x === 'string',
})

async function call<T>(context: Context, method: string, params: readonly unknown[], check: S.Schema<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted()
  const timeout = AbortSignal.timeout(context.timeoutMs)
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout
  const id = Ids.random()
  const unavailable = (reason: RpcUnavailableError.Reason, extra: { status?: number; cause?: unknown } = {}) =>
    new RpcUnavailableError({ reason, method, ...extra })
  let body: unknown
  try {
    const response = await context.fetch(context.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: both,
    })
    // A node answers a JSON-RPC error with 200 (or a 4xx/5xx carrying the same body): read the body first.
    body = await response.json().catch((cause: unknown) => {
      throw response.ok ? unavailable('invalid', { cause }) : unavailable('http', { status: response.status, cause })
    })
    if (!response.ok && !hasError(body)) throw unavailable('http', { status: response.status })
  } catch (error) {
    // The caller's cancel is not a failure of the node: it surfaces as the caller's own reason.
    if (signal?.aborted) throw signal.reason
    if (error instanceof RpcUnavailableError) throw error
    throw unavailable(timeout.aborted ? 'timeout' : 'network', { cause: error })
  }
  return answer(body, id, check, unavailable)
}

function hasError(body: unknown): boolean {
  return typeof body === 'object' && body !== null && errorObject((body as { error?: unknown }).error)
}

function answer<T>(body: unknown, id: string, check: S.Schema<T>, unavailable: (reason: 'invalid') => RpcUnavailableError): T {
  const { error, result } = (envelope(body) ? body : {}) as { error?: unknown; result?: unknown }
  // An error the node could not tie to a request (a parse error) carries id null.
  if (!envelope(body) || (body.id !== id && !(body.id === null && errorObject(error)))) throw unavailable('invalid')
  if (errorObject(error)) throw new RpcError({ code: error.code, message: error.message, data: (error as { data?: unknown }).data })
  if (!check(result)) throw unavailable('invalid')
  return result
}
