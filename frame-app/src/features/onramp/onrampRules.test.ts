import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'
import { describe, expect, test } from 'vitest'
import type { OnrampOptions, OnrampQuote, Transaction } from '../../api/client.js'
import * as Fallbacks from '../../api/fallbacks.js'
import * as Rules from './onrampRules.js'

const network = (id: number, name: string, symbol = 'ETH'): Protocol.Network => ({
  caipNetworkId: `eip155:${id}` as Caip.ChainId,
  name,
  nativeCurrency: { name: 'Ether', symbol, decimals: 18 },
  testnet: true,
})
const anvil = network(31337, 'Anvil')
const anvil2 = network(31338, 'Anvil 2')
const on = (id: number, contract = '') => ({ name: `eip155:${id}`, display_name: `Chain ${id}`, chain_id: String(id), contract_address: contract })
const dusd = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** The api's live options: its own limits, only USD. */
const live: OnrampOptions = {
  purchaseCurrencies: [
    { id: 'DUSD', name: 'Doorway USD', symbol: 'DUSD', networks: [on(31337, dusd)] },
    { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [on(31337), on(31338), on(1)] },
    { id: 'SOL', name: 'Solana', symbol: 'SOL', networks: [{ name: 'solana:mainnet', display_name: 'Solana', chain_id: 'mainnet', contract_address: '' }] },
  ],
  paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '20.00', max: '500.00' }] }],
}

describe('assets', () => {
  test('behavior: only purchase currencies on the dapp networks, one entry per network', () => {
    expect(Rules.assets(live, [anvil, anvil2]).map((a) => [a.key, a.chainId, a.networkName])).toEqual([
      ['DUSD|eip155:31337', 'eip155:31337', 'Anvil'],
      ['ETH|eip155:31337', 'eip155:31337', 'Anvil'],
      ['ETH|eip155:31338', 'eip155:31338', 'Anvil 2'],
    ])
  })

  test('behavior: a network named otherwise is matched by its EVM chain id', () => {
    const options = { ...live, purchaseCurrencies: [{ id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [{ ...on(31337), name: 'anvil' }] }] }
    expect(Rules.assets(options, [anvil]).map((a) => a.chainId)).toEqual(['eip155:31337'])
  })

  test('behavior: the sample options offer ETH on the local devnet', () => {
    expect(Rules.assets(Fallbacks.onrampOptions, [anvil]).map((a) => a.key)).toEqual(['ETH|eip155:31337'])
  })
})

describe('defaultAsset', () => {
  const list = Rules.assets(live, [anvil, anvil2])
  test.each([
    ['the native currency of the active chain', anvil, 'ETH|eip155:31337'],
    ['the native currency of the other chain when it is active', anvil2, 'ETH|eip155:31338'],
    ['the first thing listed when nothing is on the active chain', network(10, 'OP'), 'DUSD|eip155:31337'],
  ])('behavior: %s', (_, active, key) => {
    expect(Rules.defaultAsset(list, active)?.key).toBe(key)
  })

  test('behavior: nothing to buy, no default', () => {
    expect(Rules.defaultAsset([], anvil)).toBeUndefined()
  })
})

describe('limitsOf', () => {
  test.each([
    ['fallback USD card', Fallbacks.onrampOptions, 'USD', 'card', { min: '10.00', max: '7500.00' }],
    ['fallback USD bank', Fallbacks.onrampOptions, 'USD', 'ACH_BANK_ACCOUNT', { min: '10.00', max: '25000.00' }],
    ['fallback EUR card', Fallbacks.onrampOptions, 'EUR', 'card', { min: '10.00', max: '7500.00' }],
    ['fallback EUR bank', Fallbacks.onrampOptions, 'EUR', 'ACH_BANK_ACCOUNT', { min: '10.00', max: '25000.00' }],
    ['live USD card', live, 'USD', 'card', { min: '20.00', max: '500.00' }],
    ['live USD bank (not offered)', live, 'USD', 'ACH_BANK_ACCOUNT', undefined],
    ['live EUR card (no such currency)', live, 'EUR', 'card', undefined],
  ] as const)('behavior: spec §5 %s', (_, options, currency, method, expected) => {
    expect(Rules.limitsOf(options, currency, method)).toEqual(expected)
  })

  test('behavior: method ids are compared without case', () => {
    const options = { ...live, paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'ach_bank_account', min: '5.00', max: '50.00' }] }] }
    expect(Rules.limitsOf(options, 'USD', 'ACH_BANK_ACCOUNT')).toEqual({ min: '5.00', max: '50.00' })
    expect(Rules.methodsOf(options, 'USD')).toEqual(['ACH_BANK_ACCOUNT'])
  })

  test('behavior: the methods a currency offers', () => {
    expect(Rules.methodsOf(Fallbacks.onrampOptions, 'EUR')).toEqual(['card', 'ACH_BANK_ACCOUNT'])
    expect(Rules.methodsOf(live, 'USD')).toEqual(['card'])
  })
})

describe('checkAmount', () => {
  const card = { min: '10.00', max: '7500.00' }
  const bank = { min: '10.00', max: '25000.00' }
  test.each([
    ['100', 'card', 'USD', card, { ok: true, amount: '100.00' }],
    ['10', 'card', 'USD', card, { ok: true, amount: '10.00' }],
    ['7500.00', 'card', 'USD', card, { ok: true, amount: '7500.00' }],
    ['99.5', 'card', 'USD', card, { ok: true, amount: '99.50' }],
    [' 250 ', 'card', 'USD', card, { ok: true, amount: '250.00' }],
    ['', 'card', 'USD', card, { ok: false }],
    ['9.99', 'card', 'USD', card, { ok: false, error: 'Card payments are from $10.00 to $7,500.00' }],
    ['7500.01', 'card', 'USD', card, { ok: false, error: 'Card payments are from $10.00 to $7,500.00' }],
    ['8000', 'card', 'EUR', card, { ok: false, error: 'Card payments are from €10.00 to €7,500.00' }],
    ['8000', 'ACH_BANK_ACCOUNT', 'USD', bank, { ok: true, amount: '8000.00' }],
    ['25000.01', 'ACH_BANK_ACCOUNT', 'USD', bank, { ok: false, error: 'Bank payments are from $10.00 to $25,000.00' }],
    ['5', 'ACH_BANK_ACCOUNT', 'EUR', bank, { ok: false, error: 'Bank payments are from €10.00 to €25,000.00' }],
    ['1.234', 'card', 'USD', card, { ok: false, error: 'Enter an amount with at most 2 decimals.' }],
    ['abc', 'card', 'USD', card, { ok: false, error: 'Enter an amount with at most 2 decimals.' }],
    ['-5', 'card', 'USD', card, { ok: false, error: 'Enter an amount with at most 2 decimals.' }],
    ['100', 'card', 'USD', undefined, { ok: false }],
  ] as const)('behavior: %j by %s in %s', (text, method, currency, limits, expected) => {
    expect(Rules.checkAmount(text, method, currency, limits)).toEqual(expected)
  })

  test('behavior: live limits are the options\' own', () => {
    const limits = Rules.limitsOf(live, 'USD', 'card')
    expect(Rules.checkAmount('15', 'card', 'USD', limits)).toEqual({ ok: false, error: 'Card payments are from $20.00 to $500.00' })
    expect(Rules.checkAmount('1000', 'card', 'USD', Rules.limitsOf(Fallbacks.onrampOptions, 'USD', 'card'))).toEqual({ ok: true, amount: '1000.00' })
  })
})

describe('quoteLines', () => {
  const quote: OnrampQuote = {
    coinbaseFee: { amount: '1.00', currency: 'USD' },
    networkFee: { amount: '0.50', currency: 'USD' },
    paymentSubtotal: { amount: '98.50', currency: 'USD' },
    paymentTotal: { amount: '100.00', currency: 'USD' },
    purchaseAmount: { amount: '0.03283333', currency: 'ETH' },
    quoteId: 'q1',
  }
  test('behavior: you pay, the fees together, you get at 3 decimals (spec §9)', () => {
    expect(Rules.quoteLines(quote)).toEqual({ pay: '$100.00', fees: '$1.50', get: '0.033 ETH' })
    expect(Rules.isMocked(quote)).toBe(false)
  })

  test('behavior: the mocked quote (spec §8) shows what is paid and nothing it cannot know', () => {
    const mocked = Fallbacks.mockedQuote({ purchaseCurrency: 'ETH', paymentCurrency: 'EUR', amount: '100.00' })
    expect(Rules.isMocked(mocked)).toBe(true)
    expect(Rules.quoteLines(mocked)).toEqual({ pay: '€100.00', fees: '—', get: '—' })
  })
})

describe('urlRequest', () => {
  test('behavior: spec §7 body: the address receives the asset on its network, partnerUserId is the address, buy', () => {
    const [eth] = Rules.assets(live, [anvil]).filter((a) => a.currency.symbol === 'ETH')
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    expect(Rules.urlRequest(address, eth!, '100.00')).toEqual({
      destinationWallets: [{ address, blockchains: ['eip155:31337'], assets: ['ETH'] }],
      defaultNetwork: 'eip155:31337',
      partnerUserId: address,
      defaultExperience: 'buy',
      presetFiatAmount: 100,
    })
  })

  test('behavior: the quote request names the currency, network and method', () => {
    const [eth] = Rules.assets(live, [anvil]).filter((a) => a.currency.symbol === 'ETH')
    const request = Rules.quoteRequest(eth!, 'USD', '100.00', 'card')
    expect(request).toEqual({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100.00', network: 'eip155:31337', paymentMethod: 'card' })
    expect(Rules.quoteKey(request)).not.toBe(Rules.quoteKey({ ...request, paymentMethod: 'ACH_BANK_ACCOUNT' }))
  })
})

describe('orders', () => {
  const startedAt = Date.parse('2025-03-01T10:00:00Z')
  const order = (id: string, at: string, metadata: Partial<Transaction['metadata']> = {}): Transaction => ({
    id: `onramp:${id}`,
    metadata: {
      operationType: 'buy',
      hash: `0x${'ab'.repeat(32)}`,
      minedAt: at,
      sentFrom: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      sentTo: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      status: 'confirmed',
      nonce: 0,
      chain: 'eip155:31337',
      onrampStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
      ...metadata,
    },
    transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.03283333' } }],
  })

  test('behavior: only an order created since the buy started, the newest', () => {
    const before = order('old', '2025-03-01T09:59:59Z')
    const first = order('a', '2025-03-01T10:00:05Z')
    const second = order('b', '2025-03-01T10:01:00Z')
    expect(Rules.orderSince([before], startedAt)).toBeUndefined()
    expect(Rules.orderSince([first, before, second], startedAt)?.id).toBe('onramp:b')
    expect(Rules.orderSince([{ ...second, metadata: { ...second.metadata, operationType: 'receive' } }], startedAt)).toBeUndefined()
  })

  test.each([
    ['success, with what came in and the hash', {}, { status: 'success', hash: `0x${'ab'.repeat(32)}`, received: '0.033 ETH' }],
    ['in progress', { status: 'pending', hash: '', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' }, { status: 'sending' }],
    ['failed, with the reason', { status: 'failed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_FAILED', failureReason: 'Card declined' }, { status: 'failed', failureReason: 'Card declined' }],
    ['failed without a reason', { status: 'failed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_FAILED' }, { status: 'failed', failureReason: undefined }],
    ['no provider status: the transaction\'s', { status: 'failed', onrampStatus: undefined }, { status: 'failed', failureReason: undefined }],
  ] as const)('behavior: outcome %s', (_, metadata, expected) => {
    expect(Rules.outcomeOf(order('x', '2025-03-01T10:00:05Z', metadata))).toEqual(expected)
  })
})
