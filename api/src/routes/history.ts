/**
 * GET /v1/account/{account}/history (spec §7): the account's transactions, newest first, 20 a page, from
 * the persistent index of the configured chains (indexer.ts), synced first so a block mined a moment ago
 * is seen. `chainId` narrows it to one network (spec §5: history is filtered to the connected chain);
 * without it every configured EVM network is merged by time. With `onramp=coinbase`, the account's orders at
 * the onramp provider instead (routes/onramp.ts).
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Api from '@doorway/shared/contracts/api'
import type { Transaction } from '@doorway/shared/contracts/api/history'
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Http from '../http.js'
import * as Indexer from '../indexer.js'
import * as Nfts from '../nfts.js'
import type { HistoryKey } from '../storage/Storage.js'
import * as Onramp from './onramp.js'

export const pageSize = 20

export function routes(deps: Deps) {
  const { config, storage, indexer } = deps
  const app = new Hono()
  Http.register(app, config.projects)(Api.table.history, async ({ params: { account }, query }) => {
    const chainId = query.chainId as string | undefined
    // The account's orders at the onramp provider, with their own cursor (routes/onramp.ts).
    if (query.onramp) return Onramp.history(config, account, { chainId, cursor: query.cursor as string | undefined })
    const cursor = Http.cursor(query.cursor as string | undefined, isKey)
    const chains = evmChains(config, chainId)
    // Unsupported networks are empty without calling (spec §7).
    if (chains.length === 0) return { data: [], next: null }

    await Promise.all(chains.map((id) => indexer.sync(id)))
    const entries = await storage.index.history(account, chains, { before: cursor, limit: pageSize + 1 })
    const page = entries.slice(0, pageSize)
    const nfts = await Nfts.metadata(deps, Indexer.nftKeys(page, account))
    const data: Transaction[] = page.map((entry) =>
      Indexer.describe(entry, account, { network: config.networks[entry.chainId]!, prices: config.prices, publicUrl: config.publicUrl, nfts }),
    )
    const last = page.at(-1)
    const next = entries.length > pageSize && last ? Http.encodeCursor([last.timestamp, last.chainId, last.block, last.index] satisfies HistoryKey) : null
    return { data, next }
  })
  return app
}

/** The requested network if this server indexes it (else none), or every configured EVM network. */
export function evmChains(config: Deps['config'], requested: string | undefined): ChainId[] {
  const all = (Object.keys(config.networks) as ChainId[]).filter(Assets.isEvm)
  return requested === undefined ? all : [Http.chainId(requested)].filter((id) => all.includes(id))
}

/**
 * The cursor is the position of a page's last transaction (time, chain, block, index), so it stays valid
 * while newer blocks are indexed.
 */
function isKey(key: unknown[]): key is HistoryKey {
  const [timestamp, chainId, block, index] = key
  return key.length === 4 && [timestamp, block, index].every((n) => Number.isSafeInteger(n) && (n as number) >= 0) && typeof chainId === 'string'
}
