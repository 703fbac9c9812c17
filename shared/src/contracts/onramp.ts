/**
 * The onramp provider's routes that the api calls (api/src/routes/onramp.ts), in the contract of Coinbase
 * Onramp's public API, which devnet/src/onrampSandbox.ts plays locally: production is a change of the
 * api's `onramp.providerUrl`. Contract.ts says how a table is read. The answers are open objects: the
 * real provider adds fields as it likes, and the api reads only these. The sandbox page's own routes
 * (checkout, the bank's callback) are the sandbox's business, not the api's, and are not here.
 */
import * as Contract from '../Contract.js'
import * as S from './Described.js'

const text = (max: number) => S.string({ max })
/** A decimal amount as Coinbase writes it. */
const decimal = S.string({ pattern: /^[0-9]{1,30}(\.[0-9]{1,30})?$/ })

/** Money as Coinbase writes it: a decimal string and its currency. */
export const money = S.open({ value: decimal, currency: text(16) })
export type Money = S.Infer<typeof money>

/** A payment method's limits in one payment currency, as decimal text. */
const limit = S.open({ id: text(256), min: S.string({ pattern: /^[0-9]{1,12}(\.[0-9]{1,8})?$/ }), max: S.string({ pattern: /^[0-9]{1,12}(\.[0-9]{1,8})?$/ }) })
const network = S.open({ name: text(64), display_name: text(64), chain_id: text(80), contract_address: text(128) })
export const options = S.open({
  payment_currencies: S.array(S.open({ id: text(16), limits: S.array(limit, 1000) }), 1000),
  purchase_currencies: S.array(S.open({ id: text(64), name: text(64), symbol: text(16), networks: S.array(network, 1000) }), 1000),
})
export type Options = S.Infer<typeof options>

export const quote = S.open({
  payment_total: money,
  payment_subtotal: money,
  purchase_amount: money,
  coinbase_fee: money,
  network_fee: money,
  quote_id: text(128),
})
export type Quote = S.Infer<typeof quote>

/** An order, in the shape of Coinbase's transaction status. */
export const order = S.open({
  transaction_id: S.string({ min: 1, max: 128 }),
  status: text(64),
  wallet_address: text(128),
  purchase_currency: text(64),
  purchase_network: text(80),
  purchase_amount: money,
  created_at: S.refine(text(40), (x) => !Number.isNaN(Date.parse(x)), { format: 'date-time' }),
  /** The delivery's transaction, once sent: '' (or absent) before. */
  tx_hash: S.optional(S.union(text(128), S.literal(null))),
  failure_reason: S.optional(text(512)),
})
export type Order = S.Infer<typeof order>
export const transactions = S.open({
  transactions: S.array(order, 1000),
  /** '' (or absent) on the last page. */
  next_page_key: S.optional(S.union(text(400), S.literal(null))),
})

/** Coinbase's bounds: partnerUserId under 50 characters; a transactions page of at most 100. */
export const limits = { partnerUserIdLength: 49, maxPageSize: 100 }

/** The methods the api asks about (the modal's card and bank account), by the provider's ids. */
export const paymentMethods = ['CARD', 'ACH_BANK_ACCOUNT'] as const

export const table = {
  options: Contract.route({
    method: 'GET',
    path: '/onramp/v1/buy/options',
    summary: 'What can be paid with and bought',
    query: { country: Contract.field(S.optional(text(2))) },
    result: options,
    errors: [400],
  }),
  quote: Contract.route({
    method: 'POST',
    path: '/onramp/v1/buy/quote',
    summary: 'The price of a purchase, fees included',
    // each checked against what is sold, which the refusal names
    body: {
      purchase_currency: Contract.field(text(64)),
      purchase_network: Contract.field(S.optional(text(80))),
      payment_amount: Contract.field(S.union(S.number, text(16))),
      payment_currency: Contract.field(text(16)),
      payment_method: Contract.field(S.optional(S.oneOf(paymentMethods))),
      country: Contract.field(S.optional(text(2))),
    },
    result: quote,
    errors: [400],
  }),
  transactions: Contract.route({
    method: 'GET',
    path: '/onramp/v1/buy/user/:partnerUserId/transactions',
    summary: "A partner user's orders, newest first",
    params: {
      partnerUserId: Contract.field(S.string({ min: 1, max: limits.partnerUserIdLength }), `partner_user_id must be 1 to ${limits.partnerUserIdLength} characters`),
    },
    query: {
      page_size: Contract.field(
        S.optional(S.refine(S.string({ max: Number.POSITIVE_INFINITY }), (x) => Number.isInteger(Number(x)) && Number(x) >= 1 && Number(x) <= limits.maxPageSize, {
            type: 'integer',
            minimum: 1,
            maximum: limits.maxPageSize,
          }),
        ),
        `page_size must be an integer from 1 to ${limits.maxPageSize}`,
      ),
      // the last order of the page before: only the provider knows whether it is one it gave
      page_key: Contract.field(S.optional(text(400))),
    },
    result: transactions,
    errors: [400],
  }),
}
export type Table = typeof table
