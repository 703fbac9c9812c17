/**
 * GET /v1/account/{account}/history (spec §7): the account's transactions, newest first, 20 a page. On EVM
 * networks from the persistent index of the configured chains (indexer.ts), synced first so a block mined
 * a moment ago is seen; on a Solana or Bitcoin network from its node or Esplora server, which answer by
 * address (chains/SolanaHistory.ts, chains/Bitcoin.ts). `chainId` narrows it to one network (spec §5:
 * history is filtered to the connected chain); without it every configured EVM network is merged by time,
 * and a Solana or Bitcoin account must name its network. With `onramp=coinbase`, the account's orders at
 * the onramp provider instead (routes/onramp.ts).
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Api from '@doorway/shared/contracts/api'
import type { HistoryPage, Transaction } from '@doorway/shared/contracts/api/history'
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Cache from '../cache.js'
import * as Addresses from '../chains/Addresses.js'
import * as Bitcoin from '../chains/Bitcoin.js'
import * as Esplora from '../chains/Esplora.js'
import type * as Solana from '../chains/Solana.js'
import * as SolanaHistory from '../chains/SolanaHistory.js'
import * as Http from '../http.js'
import * as Indexer from '../indexer.js'
import * as Nfts from '../nfts.js'
import type { HistoryKey } from '../storage/Storage.js'
import * as Onramp from './onramp.js'

export const pageSize = 20

/** How long a Solana transaction's details are reused: once confirmed they do not change. */
export const solanaTransactionCacheMs = 10 * 60_000

export function routes(deps: Deps) {
  const { config } = deps
  const app = new Hono()
  const esplora = deps.esplora ?? Esplora.create(config)
  const solanaTransactions = Cache.create<Solana.ParsedTransaction>(deps.now, solanaTransactionCacheMs, 5_000)
  Http.register(app, config.projects)(Api.table.history, async ({ params: { account }, query }, c) => {
    const chainId = query.chainId as string | undefined
    const cursor = query.cursor as string | undefined
    // The account's orders at the onramp provider, with their own cursor (routes/onramp.ts).
    if (query.onramp) return Onramp.history(config, account, { chainId, cursor })
    const signal = c.req.raw.signal
    const other = otherNetwork(config, account, chainId)
    if (other?.network.kind === 'solana')
      return SolanaHistory.page({ deps, transactions: solanaTransactions, signal }, other.chainId, other.network, other.address, Http.cursor(cursor, SolanaHistory.isKey))
    if (other?.network.kind === 'bip122') {
      const context = { esplora, now: deps.now(), signal, prices: config.prices, publicUrl: config.publicUrl }
      return Bitcoin.history(context, other.chainId, other.network, other.address, Http.cursor(cursor, Bitcoin.isKey))
    }
    return evmHistory(deps, account, chainId, cursor)
  })
  return app
}

/**
 * The Solana or Bitcoin network `chainId` names, with the account as it takes it (400 when it cannot be
 * an account there); undefined for an EVM network, an unconfigured one, or none named, which only an EVM
 * account may leave out.
 */
function otherNetwork(config: Deps['config'], account: string, requested: string | undefined) {
  if (requested === undefined) {
    if (!Addresses.isEvm(account) && Addresses.isAny(account))
      throw Http.badRequest('Missing chainId: the history of a Solana or Bitcoin account is read one network at a time')
    Http.address(account, 'account')
    return undefined
  }
  const chainId = Http.chainId(requested)
  const network = config.networks[chainId]
  if (!network || !Assets.serves(chainId, network)) return undefined
  const address = Addresses.check(chainId, account, 'account')
  return network.kind === 'solana' || network.kind === 'bip122' ? { chainId, network, address } : undefined
}

/** The merged page of the EVM networks' index. */
async function evmHistory(deps: Deps, account: string, chainId: string | undefined, cursorText: string | undefined): Promise<HistoryPage> {
  const { config, storage, indexer } = deps
  const cursor = Http.cursor(cursorText, isKey)
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
