/**
 * Schemas of the account's history and NFT pages (spec §3 Transaction), for client.ts's `history` and
 * `nfts`. Their own module so they load with the Activity and NFTs tabs, not with the frame.
 */
import * as S from '@doorway/shared/Schema'

// GET /v1/account/{address}/history (spec §3 Transaction, §7): a page of the account's transactions.
// 'buy' is an onramp order (spec §7 onramp=coinbase), listed beside the chain's own operations.
const operationTypes = ['send', 'receive', 'deposit', 'withdraw', 'borrow', 'repay', 'burn', 'claim', 'mint', 'trade', 'approve', 'execute', 'deploy', 'buy'] as const
export type OperationType = (typeof operationTypes)[number]
/** A time the api gives as ISO 8601: refused when Date cannot read it, so no row shows 'Invalid Date'. */
const isoTime: S.Schema<string> = (x): x is string => S.string({ max: 40 })(x) && !Number.isNaN(Date.parse(x))
// NFT and collection names come from token metadata, which anyone writes: generous, but bounded.
const name = S.string({ max: 1024 })
// Images are shown by <img>: only http(s), never javascript: or data:.
const image = S.object({ url: S.url })
const cursor = S.union(S.string({ min: 1, max: 512 }), S.literal(null))
const transfer = S.object({
  fungible_info: S.optional(S.object({ name, symbol: S.string({ max: 64 }), icon: S.optional(image) })),
  nft_info: S.optional(
    S.object({
      name,
      content: S.optional(S.object({ preview: S.optional(image) })),
      flags: S.object({ is_spam: S.boolean }),
      collection: S.optional(S.object({ name })),
      token_id: S.optional(S.string({ max: 80 })),
      contract: S.optional(S.string({ max: 128 })),
      standard: S.optional(S.string({ max: 16 })),
    }),
  ),
  direction: S.literal('in', 'out', 'self'),
  quantity: S.object({ numeric: S.string({ max: 96 }) }),
  value: S.optional(S.number),
  price: S.optional(S.number),
  // A token's own sender and recipient: for an ERC-20 send the transaction goes to the token contract.
  sender: S.optional(S.string({ max: 128 })),
  recipient: S.optional(S.string({ max: 128 })),
})
export type Transfer = S.Infer<typeof transfer>
// An onramp order's own state at the provider (history with onramp=coinbase), and its words on a failure.
export const onrampStatuses = ['ONRAMP_TRANSACTION_STATUS_SUCCESS', 'ONRAMP_TRANSACTION_STATUS_FAILED', 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS'] as const
export type OnrampStatus = (typeof onrampStatuses)[number]
const transaction = S.object({
  id: S.string({ min: 1, max: 256 }),
  metadata: S.object({
    operationType: S.oneOf(operationTypes),
    // An onramp order not paid yet has no transaction: its hash is empty.
    hash: S.string({ max: 128 }),
    minedAt: isoTime,
    sentFrom: S.string({ max: 128 }),
    sentTo: S.string({ max: 128 }),
    status: S.literal('confirmed', 'failed', 'pending'),
    nonce: S.number,
    chain: S.string({ max: 80 }),
    onrampStatus: S.optional(S.oneOf(onrampStatuses)),
    failureReason: S.optional(S.string({ max: 512 })),
  }),
  transfers: S.array(transfer, 64),
})
export type Transaction = S.Infer<typeof transaction>
// The api pages by 20; a bound well above it keeps a broken server from flooding the list.
export const historyPage = S.object({ data: S.array(transaction, 100), next: cursor })
export type HistoryPage = S.Infer<typeof historyPage>
// GET /v1/account/{address}/nfts: a page of the NFTs the account holds.
const count: S.Schema<number> = (x): x is number => Number.isSafeInteger(x) && (x as number) >= 0
const nft = S.object({
  id: S.string({ min: 1, max: 256 }),
  chain: S.string({ max: 80 }),
  contract: S.string({ max: 128 }),
  tokenId: S.string({ max: 80 }),
  standard: S.literal('erc721', 'erc1155'),
  name,
  collection: S.object({ name }),
  // How many the account holds (ERC-1155 can be many); a count in decimal digits or a number.
  amount: S.union(S.string({ min: 1, max: 78, pattern: /^\d+$/ }), count),
  content: S.optional(S.object({ preview: image })),
  flags: S.object({ is_spam: S.boolean }),
})
export type Nft = Omit<S.Infer<typeof nft>, 'amount'> & { amount: string }
export type NftPage = { data: Nft[]; next: string | null }
export const nftPage = S.object({ data: S.array(nft, 100), next: cursor })

/** The amount as a decimal string, whichever way the api wrote it. */
export function fromNftPage(page: S.Infer<typeof nftPage>): NftPage {
  return { data: page.data.map((n) => ({ ...n, amount: String(n.amount) })), next: page.next }
}
