/**
 * GET requests to the Esplora servers of the configured Bitcoin networks (Blockstream's and
 * mempool.space's API; the devnet's stand-in locally), with a timeout and the caller's cancellation.
 * Injected through Deps like the RPC, so tests can count calls.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { Config } from '../config.js'
import { HttpError } from '../http.js'
import * as Rpc from '../rpc.js'

/** The JSON answer of GET {esploraUrl}{path} on `chainId`'s server. */
export type Esplora = (chainId: ChainId, path: string, signal?: AbortSignal) => Promise<unknown>

export const timeoutMs = Rpc.timeoutMs

export function create(config: Pick<Config, 'networks'>): Esplora {
  return async (chainId, path, signal) => {
    const network = config.networks[chainId]
    if (network?.kind !== 'bip122') throw new Error(`${chainId} has no Esplora server`)
    const timeout = AbortSignal.timeout(timeoutMs)
    const base = network.esploraUrl.replace(/\/+$/, '')
    const response = await fetch(`${base}${path}`, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout }).catch(() => {
      throw new HttpError(502, `The Esplora server for ${chainId} did not answer`)
    })
    if (Rpc.busy(response.status)) throw new HttpError(503, `The Esplora server for ${chainId} is busy (HTTP ${response.status}); try again shortly`)
    const text = await response.text().catch(() => {
      throw new HttpError(502, `The Esplora server for ${chainId} did not answer`)
    })
    // Esplora answers its errors as plain text; the first line says enough.
    if (!response.ok) throw new HttpError(502, `The Esplora server for ${chainId} answered HTTP ${response.status}: ${text.split('\n')[0]!.slice(0, 200)}`)
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new HttpError(502, `The Esplora server for ${chainId} answered with something other than JSON`)
    }
  }
}
