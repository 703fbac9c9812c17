import type * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { type Hex, keccak256, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, type MockInstance, test, vi } from 'vitest'
import type { Balance } from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { historyAtom as activityAtom } from '../activity/activity.js'
import { eth, usdc } from '../balances/balances.testing.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { type Host, hostAtom } from '../../core/host.js'
import { historyAtom, routeAtom } from '../../core/router.js'
import {
  approveAtom,
  chooseSwapTokenAtom,
  flipAtom,
  freshQuoteAtom,
  preparePreviewAtom,
  previewAtom,
  quoteAtom,
  setPayAmountAtom,
  swapAtom,
  swapCheckAtom,
  swapFormAtom,
  swapNoticeAtom,
  swapsAtom,
} from './swap.js'
import { dusdToken, ethToken, quote } from './swap.testing.js'
import { toastAtom } from '../../core/toasts.js'
import { tokensAtom } from '../balances/tokens.js'

const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const router = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
const hash: Hex = `0x${'ab'.repeat(32)}`
const approveHash: Hex = `0x${'cd'.repeat(32)}`
const dusd: Balance = { ...usdc, name: 'Doorway USD', symbol: 'DUSD', address: dusdToken.address, price: 1, value: 500, quantity: { decimals: '18', numeric: '500' } }
const anvil = { caipNetworkId: 'eip155:31337' as Caip.ChainId, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true }
const config = { projectId: 'p', sdkType: 'appkit', sdkVersion: 'test', networks: [anvil], features: { analytics: false } } as unknown as Protocol.Config

type Reply = { status: number; body?: unknown }
let replies: Record<'quotes' | 'allowance' | 'approve' | 'build' | 'gasPrice' | 'balance', Reply>
let fetchMock: MockInstance<typeof fetch>
/** Quote requests wait for this when set (to see one cancelled in flight). */
let holdQuotes: Promise<void> | undefined

const routes: Record<string, keyof typeof replies> = {
  '/v1/convert/quotes': 'quotes',
  '/v1/convert/allowance': 'allowance',
  '/v1/convert/build-approve': 'approve',
  '/v1/convert/build-transaction': 'build',
  '/v1/convert/gas-price': 'gasPrice',
}
const fetched = (path: string) => fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname === path)
const quoted = () => fetched('/v1/convert/quotes').map(([input]) => new URL(String(input)).searchParams.get('amount'))

beforeEach(() => {
  vi.useFakeTimers()
  holdQuotes = undefined
  replies = {
    quotes: { status: 200, body: { quotes: [quote()] } },
    allowance: { status: 200, body: { allowance: '0' } },
    approve: { status: 200, body: { tx: { from: user, to: dusdToken.address.split(':')[2], data: '0x095ea7b3', value: '0', eip155: { gas: '60000', gasPrice: '1' } } } },
    build: { status: 200, body: { tx: { from: user, to: router, data: '0x7ff36ab5', amount: String(10n ** 18n), eip155: { gas: '150000', gasPrice: '1' } } } },
    gasPrice: { status: 200, body: { standard: '2000000000', fast: '2200000000', instant: '2500000000' } },
    balance: { status: 200, body: { balances: [eth, dusd] } },
  }
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input))
    const key = routes[url.pathname] ?? (url.pathname.endsWith('/balance') ? 'balance' : undefined)
    if (key === 'quotes' && holdQuotes) {
      const signal = init?.signal
      await Promise.race([holdQuotes, new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))])
    }
    const { status, body } = key ? replies[key] : { status: 404, body: { message: 'no route' } }
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
})
afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
})

type Answers = Record<string, (params: unknown) => unknown>
function setup(wallet: Answers = {}) {
  const store = createStore()
  const answers: Answers = {
    eth_sendTransaction: ([tx]: any) => (tx.data === '0x095ea7b3' ? approveHash : hash),
    eth_getTransactionReceipt: () => ({ status: '0x1', logs: [] }),
    ...wallet,
  }
  const request = vi.fn(async ({ method, params }: Protocol.RpcRequest) => {
    const answer = answers[method]
    if (!answer) throw Errors.unsupportedMethod()
    return answer(params)
  })
  const connector: Connector = { id: 'test.wallet', name: 'Test Wallet', type: 'ANNOUNCED', namespaces: ['eip155'], request }
  const events: Protocol.FrameEvent[] = []
  const call = async (method: string, params: unknown) => void (method === 'event' && events.push(params as Protocol.FrameEvent))
  store.set(configAtom, config)
  store.set(hostAtom, { host: { call } as unknown as Host, warn: () => {} })
  store.set(accountAtom, { connector, address: user, chainId: 'eip155:31337' })
  store.set(tokensAtom, { status: 'ready', balances: [eth, dusd], lastFailure: null })
  store.set(historyAtom, [{ view: 'Account' }, { view: 'Swap' }, { view: 'SwapPreview' }])
  const sent = () => request.mock.calls.filter(([r]) => r.method === 'eth_sendTransaction').map(([r]) => (r.params as any[])[0])
  return { store, request, events, sent }
}
type Store = ReturnType<typeof setup>['store']

/** Chooses the pair and types an amount, then lets the debounce run and the quote arrive. */
async function fill(store: Store, from = ethToken, to = dusdToken, amount = '1') {
  store.set(swapFormAtom, (f) => ({ ...f, from, to }))
  const answered = store.set(setPayAmountAtom, amount)
  await vi.advanceTimersByTimeAsync(400)
  await answered
}

describe('requestQuoteAtom (through the form)', () => {
  test('behavior: asks once typing pauses for 400 ms, for the last amount', async () => {
    const { store } = setup()
    store.set(swapFormAtom, (f) => ({ ...f, from: ethToken, to: dusdToken }))
    void store.set(setPayAmountAtom, '1')
    await vi.advanceTimersByTimeAsync(399)
    const answered = store.set(setPayAmountAtom, '12')
    await vi.advanceTimersByTimeAsync(399)
    expect(quoted()).toEqual([])
    expect(store.get(quoteAtom).status).toBe('loading')
    await vi.advanceTimersByTimeAsync(1)
    await answered
    expect(quoted()).toEqual([String(12n * 10n ** 18n)])
    expect(store.get(quoteAtom)).toMatchObject({ status: 'ready', quote: quote() })
  })

  test('behavior: a newer amount cancels the quote in flight (AbortController)', async () => {
    const { store } = setup()
    let release!: () => void
    holdQuotes = new Promise((resolve) => (release = resolve))
    store.set(swapFormAtom, (f) => ({ ...f, from: ethToken, to: dusdToken }))
    void store.set(setPayAmountAtom, '1')
    await vi.advanceTimersByTimeAsync(400)
    await vi.waitFor(() => expect(quoted()).toHaveLength(1))
    const first = fetched('/v1/convert/quotes')[0]![1]!.signal!
    expect(first.aborted).toBe(false)
    const answered = store.set(setPayAmountAtom, '2')
    expect(first.aborted).toBe(true)
    release()
    await vi.advanceTimersByTimeAsync(400)
    await answered
    expect(quoted()).toEqual([String(10n ** 18n), String(2n * 10n ** 18n)])
    expect(store.get(quoteAtom)).toMatchObject({ status: 'ready', key: expect.stringContaining(String(2n * 10n ** 18n)) })
  })

  test('param: the gas price of the api prices the network fee', async () => {
    const { store } = setup()
    await fill(store)
    expect(new URL(String(fetched('/v1/convert/quotes')[0]![0])).searchParams.get('gasPrice')).toBe('2000000000')
  })

  test('behavior: an amount that cannot be quoted clears the quote, without asking', async () => {
    const { store } = setup()
    await fill(store, ethToken, dusdToken, '0')
    expect(quoted()).toEqual([])
    expect(store.get(quoteAtom)).toEqual({ status: 'idle' })
  })
})

describe('freshQuoteAtom', () => {
  test('behavior: a quote under 30 s old is used as it is; an older one is asked for again', async () => {
    const { store } = setup()
    await fill(store)
    await vi.advanceTimersByTimeAsync(30_000)
    await expect(store.set(freshQuoteAtom)).resolves.toMatchObject({ refreshed: false })
    expect(quoted()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    await expect(store.set(freshQuoteAtom)).resolves.toMatchObject({ refreshed: false })
    expect(quoted()).toHaveLength(2)
  })
})

describe('swapCheckAtom', () => {
  test('behavior: ready with a quote and the funds', async () => {
    const { store } = setup()
    await fill(store)
    expect(store.get(swapCheckAtom)).toEqual({ ready: true })
  })

  test('error: more than the balance is "Not enough DUSD"', async () => {
    const { store } = setup()
    await fill(store, dusdToken, ethToken, '501')
    expect(store.get(swapCheckAtom)).toEqual({ ready: false, error: 'Not enough DUSD' })
  })

  test('error: the native token must also pay the network fee', async () => {
    const { store } = setup()
    await fill(store, ethToken, dusdToken, '2')
    expect(store.get(swapCheckAtom)).toEqual({ ready: false, error: 'Not enough ETH to pay the network fee' })
  })

  test.each([
    ['No liquidity for this pair', 'No liquidity for this pair: nothing can be swapped between ETH and DUSD yet.', false],
    ["Amount exceeds the pool's liquidity", 'This amount is more than the pool can trade. Try a smaller amount.', false],
    ['Network not supported for Swaps', 'Network not supported for Swaps', false],
    ['Invalid amount: expected a positive integer in base units', 'The quote failed: Invalid amount: expected a positive integer in base units', true],
  ])('error: a 400 "%s" reads "%s" (Retry: %s)', async (message, error, retry) => {
    replies.quotes = { status: 400, body: { message } }
    const { store } = setup()
    await fill(store)
    expect(store.get(swapCheckAtom)).toEqual({ ready: false, error, retry })
  })

  test('error: no quote at all is no route', async () => {
    replies.quotes = { status: 200, body: { quotes: [] } }
    const { store } = setup()
    await fill(store)
    expect(store.get(swapCheckAtom)).toEqual({ ready: false, error: 'No route from ETH to DUSD.', retry: false })
  })

  test('error: a slippage out of range', async () => {
    const { store } = setup()
    await fill(store)
    store.set(swapFormAtom, (f) => ({ ...f, slippage: '51' }))
    expect(store.get(swapCheckAtom)).toEqual({ ready: false, error: 'Enter a slippage from 0.01 % to 50 %.' })
  })
})

describe('flipAtom and chooseSwapTokenAtom', () => {
  test('behavior: flip pays what was to be received, the quoted amount exactly', async () => {
    const { store } = setup()
    await fill(store)
    void store.set(flipAtom)
    expect(store.get(swapFormAtom)).toMatchObject({ from: dusdToken, to: ethToken, amount: '2990.12' })
  })

  test('behavior: choosing the other side\'s token swaps the two', async () => {
    const { store } = setup()
    await fill(store)
    void store.set(chooseSwapTokenAtom, 'to', ethToken)
    expect(store.get(swapFormAtom)).toMatchObject({ from: dusdToken, to: ethToken })
  })
})

describe('approve then swap', () => {
  test('behavior: an allowance short of the amount makes two steps; the approval is read back, then the swap goes', async () => {
    const { store, sent, events } = setup()
    await fill(store, dusdToken, ethToken, '100')
    await store.set(preparePreviewAtom)
    expect(store.get(previewAtom)).toMatchObject({ status: 'ready', steps: ['approve', 'swap'], step: 'approve' })

    replies.allowance = { status: 200, body: { allowance: String(100n * 10n ** 18n) } }
    await expect(store.set(approveAtom)).resolves.toEqual({ status: 'approved', hash: approveHash })
    expect(fetched('/v1/convert/allowance')).toHaveLength(2)
    expect(new URL(String(fetched('/v1/convert/build-approve')[0]![0])).searchParams.get('amount')).toBe(String(100n * 10n ** 18n))
    expect(store.get(previewAtom)).toMatchObject({ steps: ['approve', 'swap'], step: 'swap', busy: undefined })
    expect(store.get(toastAtom).toast?.message).toBe('Transaction started')

    await expect(store.set(swapAtom)).resolves.toEqual({ status: 'swapped', hash })
    expect(sent()).toEqual([
      { from: user, to: dusdToken.address.split(':')[2], data: '0x095ea7b3', value: '0x0', gas: '0xea60' },
      { from: user, to: router, data: '0x7ff36ab5', value: toHex(10n ** 18n), gas: '0x249f0' },
    ])
    expect(JSON.parse(fetched('/v1/convert/build-transaction')[0]![1]!.body as string)).toMatchObject({ amount: String(100n * 10n ** 18n), eip155: { slippage: 1 } })
    expect(events).toContainEqual({ type: 'result', result: { status: 'swapped', hash, chainId: 'eip155:31337' } })
    expect(store.get(routeAtom)).toEqual({ view: 'SwapResult', hash, chainId: 'eip155:31337' })
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'SwapResult', hash, chainId: 'eip155:31337' }])
  })

  test('behavior: an approval that is still short after mining is not taken for done', async () => {
    const { store } = setup()
    await fill(store, dusdToken, ethToken, '100')
    await store.set(preparePreviewAtom)
    await expect(store.set(approveAtom)).resolves.toMatchObject({ status: 'failed' })
    expect(store.get(previewAtom)).toMatchObject({ step: 'approve', message: 'The approval failed on chain. Nothing was swapped.' })
  })

  test('behavior: enough allowance is one step', async () => {
    replies.allowance = { status: 200, body: { allowance: String(10n ** 30n) } }
    const { store } = setup()
    await fill(store, dusdToken, ethToken, '100')
    await store.set(preparePreviewAtom)
    expect(store.get(previewAtom)).toMatchObject({ steps: ['swap'], step: 'swap' })
  })

  test('behavior: the native token is never approved (no allowance asked)', async () => {
    const { store } = setup()
    await fill(store)
    await store.set(preparePreviewAtom)
    expect(store.get(previewAtom)).toMatchObject({ steps: ['swap'] })
    expect(fetched('/v1/convert/allowance')).toHaveLength(0)
  })

  test('behavior: a double click asks the wallet once', async () => {
    const { store, sent } = setup()
    await fill(store)
    await store.set(preparePreviewAtom)
    const [first, second] = await Promise.all([store.set(swapAtom), store.set(swapAtom)])
    expect([first.status, second.status]).toEqual(['swapped', 'busy'])
    expect(sent()).toHaveLength(1)
  })

  test('behavior: a 4001 is calm news; the preview stays', async () => {
    const { store } = setup({ eth_sendTransaction: () => Promise.reject(Errors.userRejected()) })
    await fill(store)
    await store.set(preparePreviewAtom)
    await expect(store.set(swapAtom)).resolves.toEqual({ status: 'rejected' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'info', message: 'You cancelled the request in your wallet. Nothing was swapped.' })
    expect(store.get(previewAtom)).toMatchObject({ step: 'swap', busy: undefined, message: undefined })
    expect(store.get(routeAtom)).toEqual({ view: 'SwapPreview' })
  })

  test('behavior: the build carries the accepted quote\'s toAmount, so the bound is what the person saw', async () => {
    const { store } = setup()
    await fill(store)
    await store.set(preparePreviewAtom)
    const shown = store.get(quoteAtom)
    if (shown.status !== 'ready') throw new Error('no quote shown')
    await store.set(swapAtom)
    expect(JSON.parse(fetched('/v1/convert/build-transaction')[0]![1]!.body as string)).toMatchObject({ toAmount: shown.quote.toAmount })
  })

  test('error: a pool that moved beyond the slippage since the quote (409) sends nothing, says so and quotes again', async () => {
    const { store, sent } = setup()
    await fill(store)
    await store.set(preparePreviewAtom)
    const asked = fetched('/v1/convert/quotes').length
    replies.build = { status: 409, body: { message: 'The price moved beyond the slippage since the quote' } }
    await expect(store.set(swapAtom)).resolves.toEqual({ status: 'requoted' })
    expect(sent()).toHaveLength(0)
    expect(store.get(previewAtom)).toMatchObject({ busy: undefined, message: 'The price moved more than your 1 % slippage; nothing was swapped.' })
    await vi.advanceTimersByTimeAsync(0)
    expect(fetched('/v1/convert/quotes').length).toBeGreaterThan(asked)
  })

  test('behavior: a quote over 30 s old is asked again before the swap; a lower one is shown first', async () => {
    const { store, sent } = setup()
    await fill(store)
    await store.set(preparePreviewAtom)
    await vi.advanceTimersByTimeAsync(30_001)
    replies.quotes = { status: 200, body: { quotes: [quote({ toAmount: String(2900n * 10n ** 18n) })] } }
    await expect(store.set(swapAtom)).resolves.toEqual({ status: 'requoted' })
    expect(sent()).toHaveLength(0)
    expect(store.get(previewAtom).notice).toBe('The quote was more than 30 seconds old: these are the new numbers.')
    await expect(store.set(swapAtom)).resolves.toMatchObject({ status: 'swapped' })
  })
})

describe('trackSwapAtom (through swapAtom)', () => {
  const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`

  test('behavior: confirmed, with what came in from the receipt; balances read again; Activity shows the trade pending', async () => {
    const logs = [{ address: dusdToken.address.split(':')[2], topics: [keccak256(toHex('Transfer(address,address,uint256)')), word(router), word(user)], data: toHex(2990n * 10n ** 18n, { size: 32 }) }]
    const { store } = setup({ eth_getTransactionReceipt: () => ({ status: '0x1', logs }) })
    await fill(store)
    await store.set(preparePreviewAtom)
    expect(store.get(activityAtom).transactions).toHaveLength(0)
    await store.set(swapAtom)
    const [pending] = store.get(activityAtom).transactions
    expect(pending!.metadata).toMatchObject({ operationType: 'trade', status: 'pending', hash })
    expect(pending!.transfers.map((t) => [t.direction, t.fungible_info?.symbol, t.quantity.numeric])).toEqual([
      ['out', 'ETH', '1'],
      ['in', 'DUSD', '2990.12'],
    ])
    await vi.advanceTimersByTimeAsync(0)
    expect(store.get(swapsAtom)[hash]).toMatchObject({ status: 'confirmed', received: 2990n * 10n ** 18n, minimum: (299012n * 10n ** 16n * 99n) / 100n })
    expect(fetched('/v1/account/' + user + '/balance').length).toBeGreaterThan(0)
    expect(store.get(swapFormAtom).amount).toBe('')
  })

  test('behavior: a swap that reverts (the price moved beyond the slippage) keeps the form, says so, and quotes again', async () => {
    let mined = false
    const { store } = setup({ eth_getTransactionReceipt: () => (mined ? { status: '0x0', logs: [] } : null) })
    await fill(store)
    await store.set(preparePreviewAtom)
    await store.set(swapAtom)
    expect(store.get(swapsAtom)[hash]?.status).toBe('pending')
    mined = true
    await vi.advanceTimersByTimeAsync(1_000)
    expect(store.get(swapsAtom)[hash]?.status).toBe('failed')
    expect(store.get(swapNoticeAtom)).toBe('The price moved more than your 1 % slippage; nothing was swapped.')
    expect(store.get(swapFormAtom)).toMatchObject({ from: ethToken, to: dusdToken, amount: '1', slippage: '1' })
    await vi.advanceTimersByTimeAsync(0)
    // the form's quote, then the fresh one after the revert (the preview's was under 30 s old)
    expect(quoted()).toHaveLength(2)
    expect(store.get(quoteAtom).status).toBe('ready')
  })
})
