/**
 * The history and NFT pages (spec §3 Transaction, §7) for client.ts's `history` and `nfts`: their
 * schemas are the api's contract (shared/src/contracts/api/history.ts and nfts.ts), in a module of their
 * own so they load with the Activity and NFTs tabs, not with the frame.
 */
import type { Nft, nftPage } from '@doorway/shared/contracts/api/nfts'
import type * as S from '@doorway/shared/Schema'

export { historyPage, onrampStatuses } from '@doorway/shared/contracts/api/history'
export type { HistoryPage, OnrampStatus, OperationType, Transaction, Transfer } from '@doorway/shared/contracts/api/history'
export { nftPage } from '@doorway/shared/contracts/api/nfts'
export type { Nft }

export type NftPage = { data: Nft[]; next: string | null }

/** The amount as a decimal string, whichever way the api wrote it. */
export function fromNftPage(page: S.Infer<typeof nftPage>): NftPage {
  return { data: page.data.map((n) => ({ ...n, amount: String(n.amount) })), next: page.next }
}
