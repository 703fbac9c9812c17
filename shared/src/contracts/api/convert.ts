/**
 * The answers of spec §7's swap routes (/v1/convert/*, the gas price among them) and POST
 * /v1/fungible/price, in the shapes of Reown's blockchain API with our additions beside them; the api
 * gives them and the frame checks them (loaded with its Swap and Send views). The route table is
 * contracts/api.ts.
 */
import * as Caip from '../../Caip.js'
import * as S from '../Described.js'

/** A CAIP-10 token id; the native token is eip155:<id>:0xeeee…eeee. */
export const tokenId = S.refine(S.string({ max: 200 }), Caip.isAccountId, { description: 'CAIP-10 account id' })
/** An integer as the api writes amounts: decimal digits (or 0x hex, which BigInt reads alike). */
const integer = S.string({ min: 1, max: 80, pattern: /^(\d+|0x[\da-fA-F]+)$/ })
const address = S.string({ pattern: /^0x[\da-fA-F]{40}$/ })
// Images are shown by <img>: http(s) only, or none.
const image = S.union(S.url, S.literal(''))

/** GET /v1/convert/tokens: the tokens that have a pool on the chain. */
export const swapToken = S.object({
  name: S.string({ max: 128 }),
  symbol: S.string({ min: 1, max: 32 }),
  address: tokenId,
  // (a refined number rather than S.integer: the frame's first script then needs no integer builder)
  decimals: S.refine(S.number, (x) => Number.isInteger(x) && x >= 0 && x <= 77, { type: 'integer', minimum: 0, maximum: 77 }),
  logoUri: image,
  eip2612: S.boolean,
})
export type SwapToken = S.Infer<typeof swapToken>
export const swapTokens = S.object({ tokens: S.array(swapToken, 500) })

/** GET /v1/convert/quotes: amounts in base units; priceImpact and fee.percent are percentages. */
export const quote = S.object({
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

const wei = S.string({ min: 1, max: 78, pattern: /^\d+$/ })
/** GET /v1/convert/gas-price: the node's price and two faster tiers, in wei per gas. */
export const gasPrice = S.object({ standard: wei, fast: wei, instant: wei })

/** GET /v1/convert/allowance: what the exchange may take of the token (native: max uint256). */
export const allowance = S.object({ allowance: integer })

// GET /v1/convert/build-approve and POST /v1/convert/build-transaction: a transaction for the wallet.
const eip155 = S.object({ gas: integer, gasPrice: integer })
const data = S.string({ max: 100_000, pattern: /^0x[\da-fA-F]*$/ })
// `tx: null` is spec §7's empty answer for a network the api does not serve.
const approveTx = S.object({ from: address, to: address, data, value: integer, eip155 })
export type ApproveTransaction = S.Infer<typeof approveTx>
export const approveTransaction = S.object({ tx: S.union(approveTx, S.literal(null)) })
const swapTx = S.object({ from: address, to: address, data, amount: integer, eip155 })
export type SwapTransaction = S.Infer<typeof swapTx>
/** The api adds what it built the swap with: the quote, the minimum received and the deadline. */
export const swapTransaction = S.object({
  tx: S.union(swapTx, S.literal(null)),
  toAmount: S.optional(integer),
  amountOutMin: S.optional(integer),
  deadline: S.optional(S.number),
})

/** POST /v1/fungible/price: US dollar prices of tokens the account may not hold. */
export const fungible = S.object({ name: S.string({ max: 128 }), symbol: S.string({ max: 32 }), iconUrl: S.string({ max: 2048 }), price: S.number, address: S.string({ max: 200 }) })
export type Fungible = S.Infer<typeof fungible>
export const prices = S.object({ fungibles: S.array(fungible, 100) })
