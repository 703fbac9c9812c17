/**
 * The onramp's spec §8 fallbacks: built-in sample options, and a mocked quote with id mocked-quote-id.
 * Loaded with the onramp's calls (onrampCalls.ts) and rules, so they ship with the OnRamp chunk and not
 * with the frame.
 */
import type { OnrampOptions, OnrampQuote } from '@doorway/shared/contracts/api/onramp'

export type {
  OnrampNetwork,
  OnrampOptions,
  OnrampQuote,
  PaymentMethod,
  PurchaseCurrency,
  QuoteRequest,
  UrlRequest,
} from '@doorway/shared/contracts/api/onramp'

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
