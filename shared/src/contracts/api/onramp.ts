/**
 * The answers of spec §7's onramp routes (spec §3 Onramp options and quote), which the api reshapes
 * from its provider's (contracts/onramp.ts) and the frame checks (loaded with its OnRamp view). The
 * route table is contracts/api.ts.
 */
import * as S from '../Described.js'

/** The payment methods of the limits: a card, or a bank account (ACH). */
export const paymentMethods = ['card', 'ACH_BANK_ACCOUNT'] as const
export type PaymentMethod = (typeof paymentMethods)[number]

const limit = S.object({ id: S.string({ max: 64 }), min: S.string({ max: 32 }), max: S.string({ max: 32 }) })
const paymentCurrency = S.object({ id: S.string({ max: 16 }), payment_method_limits: S.array(limit, 16) })
export const network = S.object({
  name: S.string({ max: 64 }),
  display_name: S.string({ max: 64 }),
  chain_id: S.string({ max: 80 }),
  contract_address: S.string({ max: 128 }),
})
export type OnrampNetwork = S.Infer<typeof network>
export const purchaseCurrency = S.object({ id: S.string({ max: 64 }), name: S.string({ max: 64 }), symbol: S.string({ max: 16 }), networks: S.array(network, 64) })
export type PurchaseCurrency = S.Infer<typeof purchaseCurrency>
/** GET /v1/onramp/options: the methods the modal offers, limits to the cent. */
export const options = S.object({ paymentCurrencies: S.array(paymentCurrency, 64), purchaseCurrencies: S.array(purchaseCurrency, 256) })
export type OnrampOptions = S.Infer<typeof options>

/** Money as spec §3 writes it. */
export const amount = S.object({ amount: S.string({ max: 64 }), currency: S.string({ max: 16 }) })
/** POST /v1/onramp/quote: each amount `{ amount, currency }`. */
export const quote = S.object({
  coinbaseFee: amount,
  networkFee: amount,
  paymentSubtotal: amount,
  paymentTotal: amount,
  purchaseAmount: amount,
  quoteId: S.string({ max: 128 }),
})
export type OnrampQuote = S.Infer<typeof quote>

/** POST /v1/generators/onrampurl: the provider's buy page; empty where the network is unsupported (spec §7). */
export const url = S.object({ url: S.union(S.url, S.literal('')) })

export type QuoteRequest = { purchaseCurrency: string; paymentCurrency: string; amount: string; network: string; paymentMethod?: PaymentMethod }
export type UrlRequest = {
  destinationWallets: { address: string; blockchains?: string[]; assets?: string[] }[]
  defaultNetwork: string
  partnerUserId: string
  defaultExperience: 'buy'
  presetCryptoAmount?: number
  presetFiatAmount?: number
}
