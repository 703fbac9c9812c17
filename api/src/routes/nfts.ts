/**
 * NFTs (issue 10), beside spec §7: GET /v1/account/{address}/nfts, the account's holdings from the
 * index (indexer.ts keeps balances per owner, contract and token id from the transfers), 20 a page, spam
 * included with its flag (the modal hides it); and GET /public/getNftImage/{caip2}/{contract}/{tokenId},
 * the image the metadata names, served by this api (the preview URLs point here).
 */
import * as Api from '@doorway/shared/contracts/api'
import type { Nft } from '@doorway/shared/contracts/api/nfts'
import { Hono } from 'hono'
import { getAddress } from 'viem'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import * as Nfts from '../nfts.js'
import type { HoldingKey, NftHolding } from '../storage/Storage.js'
import { evmChains } from './history.js'

export const pageSize = 20

export type { Nft }

// Images change rarely and their URL names the token: cache long; inert when opened directly.
const imageHeaders = {
  'cache-control': 'public, max-age=31536000, immutable',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'x-content-type-options': 'nosniff',
} as const

export function routes(deps: Deps) {
  const { config, storage, indexer } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.nfts, async ({ params: { address: owner }, query }) => {
    const cursor = Http.cursor(query.cursor as string | undefined, isKey)
    const chains = evmChains(config, query.chainId as string | undefined)
    // spec §7: an unsupported network answers empty without calling anything
    if (chains.length === 0) return { data: [], next: null }

    await Promise.all(chains.map((id) => indexer.sync(id)))
    const rows = await storage.index.holdings(owner, chains, { after: cursor, limit: pageSize + 1 })
    const page = rows.slice(0, pageSize)
    const metadata = await Nfts.metadata(deps, page)
    const data = page.map((holding) => nft(holding, metadata, config))
    const last = page.at(-1)
    const next = rows.length > pageSize && last ? Http.encodeCursor([last.chainId, last.contract, last.tokenId] satisfies HoldingKey) : null
    return { data, next }
  })

  // Only tokens whose metadata the index has read (their preview URLs were handed out): a request for
  // any other id costs no node call and stores nothing.
  on(Api.table.nftImage, async ({ params: { chain, contract, tokenId } }, c) => {
    const [metadata] = await storage.nfts.get([{ chainId: chain, contract, tokenId }])
    const image = metadata?.image && Nfts.hasImage(metadata.image) ? await Nfts.image(metadata.image, Nfts.fetchOptions(config)) : undefined
    if (!image) throw new Http.HttpError(404, 'No image')
    return c.body(image.bytes as Uint8Array<ArrayBuffer>, 200, { ...imageHeaders, 'content-type': image.type })
  })

  return app
}

function nft(holding: NftHolding, metadata: ReadonlyMap<string, Parameters<typeof Nfts.display>[1]>, config: Deps['config']): Nft {
  const contract = getAddress(holding.contract)
  const display = Nfts.display(holding, metadata.get(Nfts.keyOf(holding)), { publicUrl: config.publicUrl, network: config.networks[holding.chainId]! })
  return {
    id: `${holding.chainId}:${contract}:${holding.tokenId}`,
    chain: holding.chainId,
    contract,
    tokenId: holding.tokenId,
    standard: holding.standard,
    ...display,
    amount: holding.amount,
  }
}

const tokenIdPattern = /^(0|[1-9]\d{0,77})$/

// A holdings cursor is the page's last (chain, lowercase contract, token id).
function isKey(key: unknown[]): key is HoldingKey {
  const [chainId, contract, tokenId] = key
  return key.length === 3 && typeof chainId === 'string' && typeof contract === 'string' && /^0x[0-9a-f]{40}$/.test(contract) && typeof tokenId === 'string' && tokenIdPattern.test(tokenId)
}
