/**
 * Schemas of the swap answers (spec §7 /v1/convert/*, POST /v1/fungible/price), for client.ts's swap
 * calls. Their own module so they load with the Swap chunk, not with the frame (as accountPages.ts).
 */
import * as Caip from '@doorway/shared/Caip'
import * as S from '@doorway/shared/Schema'

// A CAIP-10 token id; the native token is eip155:<id>:0xeeee…eeee.
const tokenId: S.Schema<Caip.AccountId> = (x): x is Caip.AccountId => S.string({ max: 200 })(x) && Caip.isAccountId(x)
/** An integer as the api writes amounts: decimal digits (or 0x hex, which BigInt reads alike). */
const integer = S.string({ min: 1, max: 80, pattern: /^(\d+|0x[\da-f]+)$/i })
const address = S.string({ pattern: /^0x[\da-f]{40}$/i })
const decimals: S.Schema<number> = (x): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 77
// Images are shown by <img>: http(s) only, or none.
const image = S.union(S.url, S.literal(''))

// GET /v1/convert/tokens: the tokens that have a pool on the chain.
const swapToken = S.object({
  name: S.string({ max: 128 }),
  symbol: S.string({ min: 1, max: 32 }),
  address: tokenId,
  decimals,
  logoUri: image,
  eip2612: S.boolean,
})
export type SwapToken = S.Infer<typeof swapToken>
export const swapTokens = S.object({ tokens: S.array(swapToken, 500) })

// GET /v1/convert/quotes: amounts in base units; priceImpact and fee.percent are percentages.
const quote = S.object({
  id: S.union(S.string({ max: 128 }), S.literal(null)),
  fromAccount: tokenId,
  toAccount: tokenId,
  fromAmount: integer,
  toAmount: integer,
  route: S.array(S.string({ max: 200 }), 8),
  priceImpact: S.number,
  fee: S.object({ percent: S.number, amount: integer, token: S.union(S.string({ max: 200 }), S.isPlainObject) }),
  networkFee: S.optional(S.object({ gas: integer, gasPrice: integer, amount: integer })),
})
export type Quote = S.Infer<typeof quote>
export const quotes = S.object({ quotes: S.array(quote, 8) })

// GET /v1/convert/allowance: what the exchange may take of the token (native: max uint256).
export const allowance = S.object({ allowance: integer })

// GET /v1/convert/build-approve and POST /v1/convert/build-transaction: a transaction for the wallet.
const eip155 = S.object({ gas: integer, gasPrice: integer })
const data = S.string({ max: 100_000, pattern: /^0x[\da-f]*$/i })
// `tx: null` is spec §7's empty answer for a network the api does not serve.
const approveTx = S.object({ from: address, to: address, data, value: integer, eip155 })
export const approveTransaction = S.object({ tx: S.union(approveTx, S.literal(null)) })
const swapTx = S.object({ from: address, to: address, data, amount: integer, eip155 })
// The api adds what it built the swap with: the quote, the minimum received and the deadline.
export const swapTransaction = S.object({
  tx: S.union(swapTx, S.literal(null)),
  toAmount: S.optional(integer),
  amountOutMin: S.optional(integer),
  deadline: S.optional(S.number),
})
export type SwapTransaction = S.Infer<typeof swapTx>
export type ApproveTransaction = S.Infer<typeof approveTx>

// POST /v1/fungible/price: US dollar prices of tokens the account may not hold.
export const prices = S.object({
  fungibles: S.array(S.object({ name: S.string({ max: 128 }), symbol: S.string({ max: 32 }), iconUrl: S.string({ max: 2048 }), price: S.number, address: S.string({ max: 200 }) }), 100),
})
