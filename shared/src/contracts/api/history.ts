/**
 * spec §3 Transaction: the one shape of a history entry, which the api's index (api/src/indexer.ts) and
 * its onramp orders (history with onramp=coinbase) answer with, and the frame checks on receipt
 * (GET /v1/account/{account}/history, spec §7). The route table is contracts/api.ts. The frame loads
 * this module with its Activity tab, not with its first script.
 */
import * as S from '../Described.js'

export const operationTypes = ['send', 'receive', 'deposit', 'withdraw', 'borrow', 'repay', 'burn', 'claim', 'mint', 'trade', 'approve', 'execute', 'deploy', 'buy'] as const
/** spec §2 history display; 'buy' is an onramp order (spec §7 onramp=coinbase). */
export type OperationType = (typeof operationTypes)[number]

/** A time given as ISO 8601: refused when Date cannot read it, so no row shows 'Invalid Date'. */
export const isoTime = S.refine(S.string({ max: 40 }), (x) => !Number.isNaN(Date.parse(x)), { format: 'date-time' })
// NFT and collection names come from token metadata, which anyone writes: generous, but bounded.
export const name = S.string({ max: 1024 })
// Images are shown by <img>: only http(s), never javascript: or data:.
export const image = S.object({ url: S.url })
/** The next page's cursor, opaque; null on the last page. */
export const cursor = S.union(S.string({ min: 1, max: 512 }), S.literal(null))

/** spec §3: fungible_info or nft_info; nft_info's collection, contract, token_id and standard are ours, beside the spec's. */
export const transfer = S.object({
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
  /** An exact decimal string in whole units; for an NFT its count (1 for ERC-721). */
  quantity: S.object({ numeric: S.string({ max: 96 }) }),
  /** USD, when the token has a price. */
  value: S.optional(S.number),
  price: S.optional(S.number),
  // A token's own sender and recipient: for an ERC-20 send the transaction goes to the token contract.
  sender: S.optional(S.string({ max: 128 })),
  recipient: S.optional(S.string({ max: 128 })),
})
export type Transfer = S.Infer<typeof transfer>

/** An onramp order's own state at the provider (history with onramp=coinbase). */
export const onrampStatuses = ['ONRAMP_TRANSACTION_STATUS_SUCCESS', 'ONRAMP_TRANSACTION_STATUS_FAILED', 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS'] as const
export type OnrampStatus = (typeof onrampStatuses)[number]

/** A transaction as one address sees it (the shape of Reown's blockchain API). */
export const transaction = S.object({
  id: S.string({ min: 1, max: 256 }),
  metadata: S.object({
    operationType: S.literal(...operationTypes),
    // An onramp order not paid yet has no transaction: its hash is empty.
    hash: S.string({ max: 128 }),
    minedAt: isoTime,
    sentFrom: S.string({ max: 128 }),
    sentTo: S.string({ max: 128 }),
    /** 'pending': not mined yet (an onramp order under way); the index holds mined ones only. */
    status: S.literal('confirmed', 'failed', 'pending'),
    nonce: S.number,
    /** CAIP-2 network id. */
    chain: S.string({ max: 80 }),
    onrampStatus: S.optional(S.literal(...onrampStatuses)),
    failureReason: S.optional(S.string({ max: 512 })),
  }),
  transfers: S.array(transfer, 64),
})
export type Transaction = S.Infer<typeof transaction>

// The api pages by 20; a bound well above it keeps a broken server from flooding the list.
export const historyPage = S.object({ data: S.array(transaction, 100), next: cursor })
export type HistoryPage = S.Infer<typeof historyPage>
