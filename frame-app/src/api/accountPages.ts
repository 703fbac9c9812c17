/**
 * The history and NFT calls (spec §3 Transaction, §7), the client's `history` and `nfts`: a module of its
 * own, with their answers' schemas (the api's contract, shared/src/contracts/api/history.ts and nfts.ts),
 * so that they load with the Activity and NFTs tabs, not with the frame.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as History from '@doorway/shared/contracts/api/history'
import * as Nfts from '@doorway/shared/contracts/api/nfts'
import type * as S from '@doorway/shared/Schema'
import { call, type Context } from './client.js'

export { onrampStatuses } from '@doorway/shared/contracts/api/history'
export type { HistoryPage, OnrampStatus, OperationType, Transaction, Transfer } from '@doorway/shared/contracts/api/history'
export type { Nft } from '@doorway/shared/contracts/api/nfts'

export type NftPage = { data: Nfts.Nft[]; next: string | null }

/**
 * spec §7 GET /v1/account/{account}/history: one page, newest first; `cursor` is the previous page's
 * `next`. With `onramp: 'coinbase'`, the account's onramp orders ('buy').
 */
export function history(context: Context, address: string, params: { chainId: ChainId; cursor?: string | undefined; onramp?: 'coinbase' | undefined }, signal?: AbortSignal) {
  const query = { chainId: params.chainId, cursor: params.cursor || undefined, onramp: params.onramp }
  return call<'GET /v1/account/:account/history'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/history`, History.historyPage, { query, signal })
}

/** GET /v1/account/{address}/nfts: one page of the NFTs the account holds on `chainId`. */
export async function nfts(context: Context, address: string, params: { chainId: ChainId; cursor?: string | undefined }, signal?: AbortSignal) {
  const query = { chainId: params.chainId, cursor: params.cursor || undefined }
  return fromNftPage(await call<'GET /v1/account/:address/nfts'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/nfts`, Nfts.nftPage, { query, signal }))
}

/** The amount as a decimal string, whichever way the api wrote it. */
function fromNftPage(page: S.Infer<typeof Nfts.nftPage>): NftPage {
  return { data: page.data.map((n) => ({ ...n, amount: String(n.amount) })), next: page.next }
}
