/**
 * JSON-RPC to the configured nodes (EVM, and Solana's, which speaks JSON-RPC 2.0 too), with a timeout
 * and the caller's cancellation. Injected, so tests can count calls.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { Config } from './config.js'
import { HttpError } from './http.js'

export type Rpc = (chainId: ChainId, method: string, params?: unknown[], signal?: AbortSignal) => Promise<unknown>

export const timeoutMs = 10_000

/** The node answered with a JSON-RPC error (a reverted eth_call, an unknown method), as opposed to not answering. */
export class RpcError extends HttpError {
  constructor(message: string) {
    super(502, message)
  }
}

/** The upstream said it is overloaded (HTTP 429 or 503): the client may try again, so 503 rather than 502. */
export const busy = (status: number) => status === 429 || status === 503

export function create(config: Pick<Config, 'networks'>): Rpc {
  let id = 0
  return async (chainId, method, params = [], signal) => {
    const network = config.networks[chainId]
    if (!network) throw new HttpError(400, `Unsupported network ${chainId}`)
    // A Bitcoin network is read through Esplora (chains/Esplora.ts); asking it JSON-RPC is the api's own bug.
    if (network.kind === 'bip122') throw new Error(`${chainId} has no JSON-RPC node`)
    const timeout = AbortSignal.timeout(timeoutMs)
    const response = await fetch(network.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    }).catch(() => {
      throw new HttpError(502, `The node for ${chainId} did not answer`)
    })
    if (busy(response.status)) throw new HttpError(503, `The node for ${chainId} is busy (HTTP ${response.status}); try again shortly`)
    const body: unknown = await response.json().catch(() => {
      throw new HttpError(502, `The node for ${chainId} answered with something other than JSON`)
    })
    const { result, error } = (body ?? {}) as { result?: unknown; error?: { message?: unknown } }
    if (error) throw new RpcError(`The node for ${chainId} answered: ${typeof error.message === 'string' ? error.message.slice(0, 300) : 'an error'}`)
    return result
  }
}
