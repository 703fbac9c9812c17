/**
 * The onramp calls' schemas (spec §3 Onramp options and quote, §7) and the spec §8 fallbacks: built-in
 * sample options, and a mocked quote with id mocked-quote-id. Their own module, loaded by client.ts
 * with the onramp's first call, so they ship with the OnRamp chunk and not with the frame.
 */
import * as S from '@doorway/shared/Schema'

const limit = S.object({ id: S.string({ max: 64 }), min: S.string({ max: 32 }), max: S.string({ max: 32 }) })
const paymentCurrency = S.object({ id: S.string({ max: 16 }), payment_method_limits: S.array(limit, 16) })
const network = S.object({
  name: S.string({ max: 64 }),
  display_name: S.string({ max: 64 }),
  chain_id: S.string({ max: 80 }),
  contract_address: S.string({ max: 128 }),
})
const purchaseCurrency = S.object({ id: S.string({ max: 64 }), name: S.string({ max: 64 }), symbol: S.string({ max: 16 }), networks: S.array(network, 64) })
export const isOnrampOptions = S.object({ paymentCurrencies: S.array(paymentCurrency, 64), purchaseCurrencies: S.array(purchaseCurrency, 256) })
export type OnrampOptions = S.Infer<typeof isOnrampOptions>
export type PurchaseCurrency = S.Infer<typeof purchaseCurrency>
export type OnrampNetwork = S.Infer<typeof network>

const amount = S.object({ amount: S.string({ max: 64 }), currency: S.string({ max: 16 }) })
export const isOnrampQuote = S.object({
  coinbaseFee: amount,
  networkFee: amount,
  paymentSubtotal: amount,
  paymentTotal: amount,
  purchaseAmount: amount,
  quoteId: S.string({ max: 128 }),
})
export type OnrampQuote = S.Infer<typeof isOnrampQuote>

/** POST /v1/generators/onrampurl: the provider's buy page; empty where the network is unsupported (spec §7). */
export const isOnrampUrl = S.object({ url: S.union(S.url, S.literal('')) })

/** The payment methods of the limits: a card, or a bank account (ACH). */
export type PaymentMethod = 'card' | 'ACH_BANK_ACCOUNT'

export type QuoteRequest = { purchaseCurrency: string; paymentCurrency: string; amount: string; network: string; paymentMethod?: PaymentMethod }
export type UrlRequest = {
  destinationWallets: { address: string; blockchains?: string[]; assets?: string[] }[]
  defaultNetwork: string
  partnerUserId: string
  defaultExperience: 'buy'
  presetCryptoAmount?: number
  presetFiatAmount?: number
}

// spec §5: payment limits of the fallback data, for USD and EUR.
const limits = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' },
]
const on = (chainId: number, name: string, contract = '') => ({ name: `eip155:${chainId}`, display_name: name, chain_id: String(chainId), contract_address: contract })

/** Sample data only: shown so the form can be seen, never bought from. The local devnet is among them. */
export const onrampOptions: OnrampOptions = {
  paymentCurrencies: [
    { id: 'USD', payment_method_limits: limits },
    { id: 'EUR', payment_method_limits: limits },
  ],
  purchaseCurrencies: [
    { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [on(1, 'Ethereum'), on(10, 'OP Mainnet'), on(8453, 'Base'), on(42161, 'Arbitrum One'), on(31337, 'Anvil')] },
    {
      id: 'USDC',
      name: 'USD Coin',
      symbol: 'USDC',
      networks: [on(1, 'Ethereum', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'), on(8453, 'Base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')],
    },
  ],
}

export const mockedQuoteId = 'mocked-quote-id'

/** A quote that says what was asked, at no fee, clearly marked as mocked by its id. */
export function mockedQuote(request: { purchaseCurrency: string; paymentCurrency: string; amount: string }): OnrampQuote {
  const zero = { amount: '0', currency: request.paymentCurrency }
  const paid = { amount: request.amount, currency: request.paymentCurrency }
  return {
    coinbaseFee: zero,
    networkFee: zero,
    paymentSubtotal: paid,
    paymentTotal: paid,
    purchaseAmount: { amount: '0', currency: request.purchaseCurrency },
    quoteId: mockedQuoteId,
  }
}
