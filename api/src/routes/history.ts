/**
 * GET /v1/account/{account}/history (spec §7): the account's transactions, newest first, 20 a page, from
 * the in-memory index of the configured chains (indexer.ts). `chainId` narrows it to one network (spec §5:
 * history is filtered to the connected chain); without it every configured EVM network is merged by time.
 */
import type { ChainId } from '@doorway/shared/Caip'
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Http from '../http.js'
import * as Indexer from '../indexer.js'

export const pageSize = 20

export function routes(deps: Deps) {
  const { config } = deps
  const indexer = Indexer.create({ rpc: deps.rpc })
  return new Hono().get('/v1/account/:account/history', async (c) => {
    Http.project(c, config.projects)
    // spec §5: fetching transactions needs an account address
    const account = Http.address(c.req.param('account'), 'account')
    const cursor = decodeCursor(c.req.query('cursor'))
    const onramp = c.req.query('onramp')
    if (onramp !== undefined && onramp !== 'coinbase') throw Http.badRequest('Invalid onramp: expected coinbase')
    const requested = c.req.query('chainId')
    const chains = requested === undefined ? evmChains(config) : [Http.chainId(requested)].filter((id) => evmChains(config).includes(id))
    // The onramp sandbox records no purchases yet, so onramp history is empty; unsupported networks are
    // empty without calling (spec §7).
    if (onramp || chains.length === 0) return c.json({ data: [], next: null })

    await Promise.all(chains.map((id) => indexer.sync(id)))
    const entries = chains
      .flatMap((id) => indexer.entries(id, account))
      .map((entry) => ({ entry, key: keyOf(entry) }))
      .sort((a, b) => compare(b.key, a.key))
      .filter(({ key }) => !cursor || compare(key, cursor) < 0)
    const page = entries.slice(0, pageSize)
    const data = page.map(({ entry }) =>
      Indexer.describe(entry, account, { network: config.networks[entry.chainId]!, prices: config.prices, publicUrl: config.publicUrl }),
    )
    const next = entries.length > pageSize ? encodeCursor(page.at(-1)!.key) : null
    return c.json({ data, next })
  })
}

function evmChains(config: Deps['config']): ChainId[] {
  return (Object.keys(config.networks) as ChainId[]).filter(Assets.isEvm)
}

/**
 * The cursor is the position of a page's last transaction (time, chain, block, index), so it stays valid
 * while newer blocks are indexed. Opaque to clients: base64url JSON.
 */
type Key = [timestamp: number, chainId: string, block: number, index: number]

const keyOf = (entry: Indexer.Entry): Key => [entry.timestamp, entry.chainId, entry.block, entry.index]

function compare(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1
  return 0
}

const encodeCursor = (key: Key) => Buffer.from(JSON.stringify(key)).toString('base64url')

/** undefined for the first page; 400 for anything this server did not hand out. */
function decodeCursor(value: string | undefined): Key | undefined {
  if (!value) return undefined
  let key: unknown
  try {
    key = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'))
  } catch {}
  const [timestamp, chainId, block, index] = Array.isArray(key) ? (key as unknown[]) : []
  const valid =
    Array.isArray(key) && key.length === 4 && [timestamp, block, index].every((n) => Number.isSafeInteger(n) && (n as number) >= 0) && typeof chainId === 'string'
  if (!valid || encodeCursor(key as Key) !== value) throw Http.badRequest('Invalid cursor')
  return key as Key
}
