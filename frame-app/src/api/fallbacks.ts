/** spec §8 fallbacks: built-in sample onramp options, and a mocked quote with id mocked-quote-id. */
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

// spec §5: payment limits of the fallback data, for USD and EUR.
const limits = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' },
]

export const onrampOptions: OnrampOptions = {
  paymentCurrencies: [
    { id: 'USD', payment_method_limits: limits },
    { id: 'EUR', payment_method_limits: limits },
  ],
  purchaseCurrencies: [
    {
      id: 'ETH',
      name: 'Ether',
      symbol: 'ETH',
      networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '' }],
    },
  ],
}

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
    quoteId: 'mocked-quote-id',
  }
}
