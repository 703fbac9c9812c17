/** JSON-RPC to the configured nodes, with a timeout. Injected, so tests can count calls. */
import type { ChainId } from '@doorway/shared/Caip'
import type { Config } from './config.js'
import { HttpError } from './http.js'

export type Rpc = (chainId: ChainId, method: string, params?: unknown[]) => Promise<unknown>

export const timeoutMs = 10_000

/** The node answered with a JSON-RPC error (a reverted eth_call, an unknown method), as opposed to not answering. */
export class RpcError extends HttpError {
  constructor(message: string) {
    super(502, message)
  }
}

export function create(config: Pick<Config, 'networks'>): Rpc {
  let id = 0
  return async (chainId, method, params = []) => {
    const network = config.networks[chainId]
    if (!network) throw new HttpError(400, `Unsupported network ${chainId}`)
    const response = await fetch(network.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    }).catch(() => {
      throw new HttpError(502, `The node for ${chainId} did not answer`)
    })
    const body: unknown = await response.json().catch(() => {
      throw new HttpError(502, `The node for ${chainId} answered with something other than JSON`)
    })
    const { result, error } = body as { result?: unknown; error?: { message: string } }
    if (error) throw new RpcError(`The node for ${chainId} answered: ${error.message}`)
    return result
  }
}
