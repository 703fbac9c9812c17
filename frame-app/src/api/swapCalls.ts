/**
 * The swap answers (spec §7 /v1/convert/*, POST /v1/fungible/price) for client.ts's swap calls: their
 * schemas are the api's contract (shared/src/contracts/api/convert.ts), in a module of their own so they
 * load with the Swap chunk, not with the frame (as accountPages.ts).
 */
export { allowance, approveTransaction, prices, quotes, swapTokens, swapTransaction } from '@doorway/shared/contracts/api/convert'
export type { ApproveTransaction, Quote, SwapToken, SwapTransaction } from '@doorway/shared/contracts/api/convert'
