import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, type MockInstance, test, vi } from 'vitest'
import type { OnrampOptions, Transaction } from '../../api/client.js'
// The call chunks client.ts imports on demand, loaded ahead so fake timers see the calls at once.
import '../../api/accountPages.js'
import '../../api/onrampCalls.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { historyAtom as activityAtom } from '../activity/activity.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { type Host, hostAtom } from '../../core/host.js'
import {
  buyAtom,
  buyStateAtom,
  canBuyAtom,
  currentQuoteAtom,
  followOrderAtom,
  loadOnrampOptionsAtom,
  onrampAssetAtom,
  onrampCheckAtom,
  onrampFormAtom,
  onrampOptionsAtom,
  onrampQuoteAtom,
  ordersAtom,
  retryOrderAtom,
  setOnrampAmountAtom,
  setOnrampCurrencyAtom,
  setOnrampMethodAtom,
} from './onramp.js'
import { historyAtom, routeAtom } from '../../core/router.js'

const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const provider = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const hash = `0x${'ab'.repeat(32)}`
const buyUrl = 'http://127.0.0.1:8793/onramp/sandbox?session=1'
const anvil = { caipNetworkId: 'eip155:31337' as Caip.ChainId, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true }
const config = { projectId: 'p', sdkType: 'appkit', sdkVersion: 'test', networks: [anvil], features: { analytics: false, onramp: true } } as unknown as Protocol.Config

const on = (contract = '') => ({ name: 'eip155:31337', display_name: 'Anvil', chain_id: '31337', contract_address: contract })
const liveOptions: OnrampOptions = {
  purchaseCurrencies: [
    { id: 'DUSD', name: 'Doorway USD', symbol: 'DUSD', networks: [on('0x5FbDB2315678afecb367f032d93F642f64180aa3')] },
    { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [on()] },
  ],
  paymentCurrencies: [
    { id: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
    { id: 'EUR', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
  ],
}
const quoteFor = (body: { amount: string; paymentCurrency: string }) => ({
  coinbaseFee: { amount: '1.00', currency: body.paymentCurrency },
  networkFee: { amount: '0.50', currency: body.paymentCurrency },
  paymentSubtotal: { amount: '98.50', currency: body.paymentCurrency },
  paymentTotal: { amount: body.amount, currency: body.paymentCurrency },
  purchaseAmount: { amount: '0.03283333', currency: 'ETH' },
  quoteId: `q-${body.amount}`,
})

/** An onramp order as the api lists it with onramp=coinbase. */
function order(id: string, at: number, state: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED', failureReason?: string): Transaction {
  const status = state === 'SUCCESS' ? 'confirmed' : state === 'FAILED' ? 'failed' : 'pending'
  return {
    id: `onramp:${id}`,
    metadata: {
      operationType: 'buy',
      hash: state === 'SUCCESS' ? hash : '',
      minedAt: new Date(at).toISOString(),
      sentFrom: provider,
      sentTo: user,
      status,
      nonce: 0,
      chain: 'eip155:31337',
      onrampStatus: `ONRAMP_TRANSACTION_STATUS_${state}`,
      ...(failureReason ? { failureReason } : {}),
    },
    transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.03283333' } }],
  }
}

type Reply = { status: number; body?: unknown }
let replies: { options: Reply; quote: Reply | ((body: any) => Reply); url: Reply; history: Reply; balance: Reply }
let fetchMock: MockInstance<typeof fetch>
let holdQuotes: Promise<void> | undefined

const fetched = (path: string) => fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname === path)
const bodies = (path: string) => fetched(path).map(([, init]) => JSON.parse(String(init?.body)))
const quoted = () => bodies('/v1/onramp/quote').map((b) => b.amount)
const historyCalls = () => fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname.endsWith('/history'))

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(Date.parse('2025-03-01T10:00:00Z'))
  holdQuotes = undefined
  replies = {
    options: { status: 200, body: liveOptions },
    quote: (body) => ({ status: 200, body: quoteFor(body) }),
    url: { status: 200, body: { url: buyUrl } },
    history: { status: 200, body: { data: [], next: null } },
    balance: { status: 200, body: { balances: [] } },
  }
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input))
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    if (url.pathname === '/v1/onramp/quote' && holdQuotes) {
      const signal = init?.signal
      await Promise.race([holdQuotes, new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))])
    }
    const reply =
      url.pathname === '/v1/onramp/options'
        ? replies.options
        : url.pathname === '/v1/onramp/quote'
          ? typeof replies.quote === 'function'
            ? replies.quote(body)
            : replies.quote
          : url.pathname === '/v1/generators/onrampurl'
            ? replies.url
            : url.pathname.endsWith('/history')
              ? replies.history
              : url.pathname.endsWith('/balance')
                ? replies.balance
                : { status: 404, body: { message: 'no route' } }
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
})

function setup() {
  const store = createStore()
  const connector: Connector = { id: 'test.wallet', name: 'Test Wallet', type: 'ANNOUNCED', namespaces: ['eip155'], request: vi.fn(async () => '0x0') }
  const events: Protocol.FrameEvent[] = []
  const call = async (method: string, params: unknown) => void (method === 'event' && events.push(params as Protocol.FrameEvent))
  store.set(configAtom, config)
  store.set(hostAtom, { host: { call } as unknown as Host, warn: () => {} })
  store.set(accountAtom, { connector, address: user, chainId: 'eip155:31337' })
  store.set(historyAtom, [{ view: 'Account' }, { view: 'OnRamp' }])
  return { store, events }
}
type Store = ReturnType<typeof setup>['store']

/** Loads the options, types an amount and lets the debounce run and the quote arrive. */
async function fill(store: Store, amount = '100') {
  await store.set(loadOnrampOptionsAtom)
  const answered = store.set(setOnrampAmountAtom, amount)
  await vi.advanceTimersByTimeAsync(400)
  await answered
}

describe('loadOnrampOptionsAtom', () => {
  test('behavior: live options are not the fallback; the default asset is the active chain\'s native currency', async () => {
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    expect(store.get(onrampOptionsAtom)).toMatchObject({ status: 'ready', fallback: false })
    expect(store.get(onrampAssetAtom)?.key).toBe('ETH|eip155:31337')
    expect(store.get(onrampCheckAtom)).toMatchObject({ fallback: false, currencies: ['USD', 'EUR'], methods: ['card', 'ACH_BANK_ACCOUNT'] })
  })

  test('behavior: when the api fails, the sample options stand in, marked as the fallback, and Buy is not offered (spec §8)', async () => {
    replies.options = { status: 503, body: { message: 'down' } }
    const { store } = setup()
    await fill(store)
    expect(store.get(onrampOptionsAtom)).toMatchObject({ status: 'ready', fallback: true })
    expect(store.get(onrampAssetAtom)?.key).toBe('ETH|eip155:31337')
    expect(store.get(canBuyAtom)).toMatchObject({ offered: false, ready: false })
    await expect(store.set(buyAtom)).resolves.toBe('refused')
    expect(fetched('/v1/generators/onrampurl')).toEqual([])
  })

  test('behavior: Retry asks again, and live options replace the sample ones', async () => {
    replies.options = { status: 503, body: {} }
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    replies.options = { status: 200, body: liveOptions }
    await store.set(loadOnrampOptionsAtom, { retry: true })
    expect(store.get(onrampOptionsAtom)).toMatchObject({ fallback: false })
    expect(fetched('/v1/onramp/options')).toHaveLength(2)
  })
})

describe('the quote', () => {
  test('behavior: asked once typing pauses for 400 ms, for the last amount, with the method', async () => {
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    void store.set(setOnrampAmountAtom, '1')
    await vi.advanceTimersByTimeAsync(399)
    const answered = store.set(setOnrampAmountAtom, '120')
    await vi.advanceTimersByTimeAsync(399)
    expect(quoted()).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await answered
    expect(bodies('/v1/onramp/quote')).toEqual([{ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '120.00', network: 'eip155:31337', paymentMethod: 'card' }])
    expect(store.get(currentQuoteAtom)).toMatchObject({ status: 'ready', quote: { quoteId: 'q-120.00' } })
    expect(store.get(canBuyAtom)).toEqual({ offered: true, ready: true, estimate: false })
  })

  test('behavior: a newer amount cancels the quote in flight; only the newer one is shown', async () => {
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    let release!: () => void
    holdQuotes = new Promise((r) => (release = r))
    void store.set(setOnrampAmountAtom, '100')
    await vi.advanceTimersByTimeAsync(400)
    const first = fetched('/v1/onramp/quote')[0]![1]!.signal!
    expect(first.aborted).toBe(false)
    const answered = store.set(setOnrampAmountAtom, '200')
    expect(first.aborted).toBe(true)
    holdQuotes = undefined
    release()
    await vi.advanceTimersByTimeAsync(400)
    await answered
    expect(quoted()).toEqual(['100.00', '200.00'])
    expect(store.get(currentQuoteAtom)).toMatchObject({ status: 'ready', quote: { quoteId: 'q-200.00' } })
  })

  test.each([
    ['below the card limit', '5', 'card', 'USD', 'Card payments are from $10.00 to $7,500.00'],
    ['above the card limit', '8000', 'card', 'USD', 'Card payments are from $10.00 to $7,500.00'],
    ['above the bank limit in EUR', '30000', 'ACH_BANK_ACCOUNT', 'EUR', 'Bank payments are from €10.00 to €25,000.00'],
  ] as const)('behavior: an amount %s is explained and nothing is quoted', async (_, amount, method, currency, message) => {
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    await store.set(setOnrampMethodAtom, method)
    await store.set(setOnrampCurrencyAtom, currency)
    const answered = store.set(setOnrampAmountAtom, amount)
    await vi.advanceTimersByTimeAsync(400)
    await answered
    expect(store.get(onrampCheckAtom)?.amount).toEqual({ ok: false, error: message })
    expect(quoted()).toEqual([])
    expect(store.get(onrampQuoteAtom)).toEqual({ status: 'idle' })
    expect(store.get(canBuyAtom).ready).toBe(false)
  })

  test('behavior: 8000 by bank is within its limits and quoted', async () => {
    const { store } = setup()
    await store.set(loadOnrampOptionsAtom)
    await store.set(setOnrampMethodAtom, 'ACH_BANK_ACCOUNT')
    await fill(store, '8000')
    expect(bodies('/v1/onramp/quote').at(-1)).toMatchObject({ amount: '8000.00', paymentMethod: 'ACH_BANK_ACCOUNT' })
  })

  test('behavior: a failed quote is the mocked one: an estimate, Buy not offered nor done (spec §8)', async () => {
    replies.quote = { status: 500, body: { message: 'down' } }
    const { store } = setup()
    await fill(store)
    expect(store.get(currentQuoteAtom)).toMatchObject({ status: 'ready', quote: { quoteId: 'mocked-quote-id' } })
    expect(store.get(canBuyAtom)).toEqual({ offered: false, ready: false, estimate: true })
    await expect(store.set(buyAtom)).resolves.toBe('refused')
    expect(fetched('/v1/generators/onrampurl')).toEqual([])
  })
})

describe('buyAtom', () => {
  test('behavior: asks for the buy page (spec §7 body), has the SDK open it, and moves to the progress', async () => {
    const { store, events } = setup()
    await fill(store)
    await expect(store.set(buyAtom)).resolves.toBe('opened')
    expect(bodies('/v1/generators/onrampurl')).toEqual([
      {
        destinationWallets: [{ address: user, blockchains: ['eip155:31337'], assets: ['ETH'] }],
        defaultNetwork: 'eip155:31337',
        partnerUserId: user,
        defaultExperience: 'buy',
        presetFiatAmount: 100,
      },
    ])
    expect(events).toEqual([{ type: 'navigate', url: buyUrl }])
    const route = store.get(routeAtom)
    expect(route).toMatchObject({ view: 'OnRampProgress' })
    expect(store.get(historyAtom).map((r) => r.view)).toEqual(['Account', 'OnRampProgress'])
    const order = store.get(ordersAtom)[(route as { order: string }).order]
    expect(order).toMatchObject({ url: buyUrl, amount: '100.00', currency: 'USD', method: 'card', expected: '0.03283333', status: 'waiting', startedAt: Date.now() })
  })

  test('error: an empty url (unsupported network, spec §7) says so and stays on the form', async () => {
    replies.url = { status: 200, body: { url: '' } }
    const { store, events } = setup()
    await fill(store)
    await expect(store.set(buyAtom)).resolves.toBe('failed')
    expect(store.get(buyStateAtom)).toEqual({ busy: false, error: 'Buying is not available on this network.' })
    expect(events).toEqual([])
    expect(store.get(routeAtom)).toEqual({ view: 'OnRamp' })
  })

  test('error: the api refusing says why', async () => {
    replies.url = { status: 400, body: { message: 'Invalid partnerUserId: expected 1 to 49 characters' } }
    const { store } = setup()
    await fill(store)
    await expect(store.set(buyAtom)).resolves.toBe('failed')
    expect(store.get(buyStateAtom).error).toBe('The payment page could not be opened: Invalid partnerUserId: expected 1 to 49 characters')
  })
})

describe('followOrderAtom', () => {
  async function bought() {
    const { store } = setup()
    await fill(store)
    await store.set(buyAtom)
    const id = (store.get(routeAtom) as { order: string }).order
    return { store, id, startedAt: store.get(ordersAtom)[id]!.startedAt }
  }

  test('behavior: every 3 s with onramp=coinbase; in progress, then success: the amount, the hash, balances read again', async () => {
    const { store, id, startedAt } = await bought()
    const refreshes = store.get(balanceRefreshAtom)
    const stop = store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(2_999)
    expect(historyCalls()).toHaveLength(0)
    replies.history = { status: 200, body: { data: [order('o1', startedAt + 1_000, 'IN_PROGRESS')], next: null } }
    await vi.advanceTimersByTimeAsync(1)
    expect(Object.fromEntries(new URL(String(historyCalls()[0]![0])).searchParams)).toMatchObject({ onramp: 'coinbase', chainId: 'eip155:31337' })
    expect(store.get(ordersAtom)[id]).toMatchObject({ status: 'sending' })
    replies.history = { status: 200, body: { data: [order('o1', startedAt + 1_000, 'SUCCESS')], next: null } }
    await vi.advanceTimersByTimeAsync(3_000)
    expect(store.get(ordersAtom)[id]).toMatchObject({ status: 'success', hash, received: '0.033 ETH' })
    expect(store.get(balanceRefreshAtom)).toBe(refreshes + 1)
    const balance = fetchMock.mock.calls.find(([input]) => new URL(String(input)).pathname.endsWith('/balance'))
    expect(new URL(String(balance![0])).searchParams.get('forceUpdate')).toBe('true')
    // Finished: no more reads.
    await vi.advanceTimersByTimeAsync(9_000)
    expect(historyCalls()).toHaveLength(2)
    stop()
  })

  test('behavior: the order is recorded in History state\'s coinbaseTransactions', async () => {
    const { store, id, startedAt } = await bought()
    const at = startedAt + 1_000
    replies.history = { status: 200, body: { data: [order('o1', at, 'SUCCESS')], next: null } }
    store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(3_000)
    const date = new Date(at)
    const history = store.get(activityAtom)
    expect(history.coinbaseTransactions[date.getFullYear()]![date.getMonth()]!.map((t) => t.id)).toEqual(['onramp:o1'])
    expect(history.transactions.map((t) => t.id)).toEqual(['onramp:o1'])
  })

  test('behavior: a failed order shows the provider\'s reason; Try again goes back to the form with the amount kept', async () => {
    const { store, id, startedAt } = await bought()
    replies.history = { status: 200, body: { data: [order('o1', startedAt + 500, 'FAILED', 'Your card was declined by the issuer')], next: null } }
    store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(3_000)
    expect(store.get(ordersAtom)[id]).toMatchObject({ status: 'failed', failureReason: 'Your card was declined by the issuer' })
    store.set(onrampFormAtom, (f) => ({ ...f, amount: '' }))
    const quotedAgain = store.set(retryOrderAtom, id)
    expect(store.get(routeAtom)).toEqual({ view: 'OnRamp' })
    expect(store.get(onrampFormAtom)).toMatchObject({ amount: '100.00', currency: 'USD', method: 'card', asset: 'ETH|eip155:31337' })
    await quotedAgain
    expect(store.get(currentQuoteAtom)).toMatchObject({ status: 'ready' })
  })

  test('behavior: orders from before the buy started are not this one', async () => {
    const { store, id, startedAt } = await bought()
    replies.history = { status: 200, body: { data: [order('old', startedAt - 60_000, 'SUCCESS'), order('older', startedAt - 1, 'FAILED', 'old')], next: null } }
    store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(9_000)
    expect(historyCalls()).toHaveLength(3)
    expect(store.get(ordersAtom)[id]).toMatchObject({ status: 'waiting' })
  })

  test('behavior: a failed read is tried again at the next turn', async () => {
    const { store, id, startedAt } = await bought()
    replies.history = { status: 502, body: { message: 'node down' } }
    store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(3_000)
    replies.history = { status: 200, body: { data: [order('o1', startedAt + 1, 'SUCCESS')], next: null } }
    await vi.advanceTimersByTimeAsync(3_000)
    expect(store.get(ordersAtom)[id]).toMatchObject({ status: 'success' })
  })

  test('behavior: stopping (the view closes) cancels the timer: nothing more is read', async () => {
    const { store, id } = await bought()
    const stop = store.set(followOrderAtom, id)
    await vi.advanceTimersByTimeAsync(6_000)
    expect(historyCalls()).toHaveLength(2)
    stop()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(historyCalls()).toHaveLength(2)
  })
})
