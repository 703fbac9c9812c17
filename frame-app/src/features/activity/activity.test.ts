import type * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Client from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import {
  byYear,
  fetchHistoryAtom,
  recordOnrampAtom,
  hasPendingAtom,
  historyAtom,
  historyFailedAtom,
  monthGroups,
  pendingAtom,
  pendingRefreshMs,
  pollPendingAtom,
  recordPendingAtom,
  visible,
} from './activity.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom, chainChangedAtom } from '../../core/connection.js'
import { chooseTokenAtom, sendTokenAtom, setAmountAtom, setReceiverAtom } from '../send/send.js'
import { toastAtom } from '../../core/toasts.js'
import { tokensAtom } from '../balances/tokens.js'
import { usdc } from '../balances/balances.testing.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
})

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** A transaction mined at a local time (the time zone Intl shows), on Anvil unless told. */
function tx(n: number, at: Date, options: { chain?: string; transfers?: Client.Transfer[]; status?: 'confirmed' | 'failed' } = {}): Client.Transaction {
  return {
    id: `tx${n}`,
    metadata: {
      operationType: 'receive',
      hash: hashOf(n),
      minedAt: at.toISOString(),
      sentFrom: bob,
      sentTo: alice,
      status: options.status ?? 'confirmed',
      nonce: n,
      chain: options.chain ?? 'eip155:31337',
    },
    transfers: options.transfers ?? [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '1' } }],
  }
}
const nft = (spam: boolean): Client.Transfer => ({ nft_info: { name: spam ? 'Free Prize' : 'Door #7', flags: { is_spam: spam } }, direction: 'in', quantity: { numeric: '1' } })
const page = (data: Client.Transaction[], next: string | null = null) => ({ data, next })

const anvil = (caipNetworkId: Caip.ChainId) => ({ caipNetworkId, name: caipNetworkId, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true })

function connected(chainId: Caip.ChainId = 'eip155:31337', features: object = { analytics: false }) {
  const store = createStore()
  store.set(configAtom, { networks: [anvil('eip155:31337'), anvil('eip155:31338')], projectId: 'p', sdkType: 'appkit', sdkVersion: 'v', features } as unknown as Protocol.Config)
  store.set(accountAtom, { connector: {} as Connector, address: alice, chainId })
  const history = vi.spyOn(store.get(apiAtom), 'history')
  return { store, history }
}

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe('monthGroups', () => {
  const entries = [
    tx(1, new Date(2025, 0, 20, 9)),
    tx(2, new Date(2024, 11, 31, 23, 30)),
    tx(3, new Date(2025, 0, 1, 0, 15)),
    tx(4, new Date(2024, 10, 2, 12)),
    tx(5, new Date(2024, 11, 1, 8)),
  ]
  const titled = (now: Date) => monthGroups(byYear(entries), now).map((g) => [g.title, g.transactions.map((t) => t.id)])

  test('behavior: by month, newest first; the year shows only when it is not the current one (spec §2)', () => {
    expect(titled(new Date(2025, 1, 10))).toEqual([
      ['January', ['tx1', 'tx3']],
      ['December 2024', ['tx2', 'tx5']],
      ['November 2024', ['tx4']],
    ])
  })

  test('behavior: a year later, every group names its year', () => {
    expect(titled(new Date(2026, 0, 1)).map(([title]) => title)).toEqual(['January 2025', 'December 2024', 'November 2024'])
  })

  test('behavior: on the last day of 2024, its months drop the year and the next year keeps it', () => {
    expect(titled(new Date(2024, 11, 31, 23, 59)).map(([title]) => title)).toEqual(['January 2025', 'December', 'November'])
  })

  test('behavior: transactionsByYear is year → month → entries', () => {
    expect(Object.keys(byYear(entries))).toEqual(['2024', '2025'])
    expect(byYear(entries)[2024]![11]!.map((t) => t.id)).toEqual(['tx2', 'tx5'])
  })
})

describe('visible', () => {
  const at = new Date(2025, 0, 1)
  test.each([
    ['a token transfer', [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in' as const, quantity: { numeric: '1' } }], true],
    ['only spam NFTs', [nft(true), nft(true)], false],
    ['a spam NFT beside a real one', [nft(true), nft(false)], true],
    ['a spam NFT beside a token', [nft(true), { fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'out' as const, quantity: { numeric: '1' } }], true],
    ['no transfers (a contract call)', [], true],
  ])('behavior: a transaction with %s is shown: %s (spec §5)', (_, transfers, shown) => {
    expect(visible([tx(1, at, { transfers })], 'eip155:31337')).toHaveLength(shown ? 1 : 0)
  })

  test('behavior: only the connected chain, whatever the api sent (spec §5)', () => {
    const list = [tx(1, at), tx(2, at, { chain: 'eip155:31338' }), tx(3, at, { chain: 'eip155:1' })]
    expect(visible(list, 'eip155:31337').map((t) => t.id)).toEqual(['tx1'])
    expect(visible(list, 'eip155:31338').map((t) => t.id)).toEqual(['tx2'])
  })
})

describe('fetchHistoryAtom', () => {
  const at = new Date(2025, 0, 10)

  test('behavior: before any fetch, the History state of spec §3 is empty', () => {
    const { store } = connected()
    expect(store.get(historyAtom)).toEqual({ transactions: [], coinbaseTransactions: {}, transactionsByYear: {}, next: undefined, loading: false, empty: false })
  })

  test('behavior: the first page of the connected account on its chain, loading while it travels', async () => {
    const { store, history } = connected()
    const answer = deferred<Client.HistoryPage>()
    history.mockReturnValue(answer.promise)
    const done = store.set(fetchHistoryAtom)
    expect(history).toHaveBeenCalledWith(alice, { chainId: 'eip155:31337', cursor: undefined })
    expect(store.get(historyAtom).loading).toBe(true)
    answer.resolve(page([tx(1, at), tx(2, at, { transfers: [nft(true)] }), tx(3, at, { chain: 'eip155:1' })], 'c2'))
    await done
    const state = store.get(historyAtom)
    expect(state).toMatchObject({ next: 'c2', loading: false, empty: false, coinbaseTransactions: {} })
    expect(state.transactions.map((t) => t.id)).toEqual(['tx1'])
    expect(state.transactionsByYear[2025]![0]!.map((t) => t.id)).toEqual(['tx1'])
  })

  test('behavior: the next page asks with the cursor and is appended; the last page has no cursor', async () => {
    const { store, history } = connected()
    history.mockResolvedValueOnce(page([tx(2, at), tx(1, at)], 'c2')).mockResolvedValueOnce(page([tx(1, at), tx(0, at)]))
    await store.set(fetchHistoryAtom, 'first')
    await store.set(fetchHistoryAtom, 'next')
    expect(history).toHaveBeenLastCalledWith(alice, { chainId: 'eip155:31337', cursor: 'c2' })
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['tx2', 'tx1', 'tx0'])
    expect(store.get(historyAtom).next).toBeUndefined()
    await store.set(fetchHistoryAtom, 'next')
    expect(history).toHaveBeenCalledTimes(2)
  })

  test('behavior: a refresh of the first page adds what is new on top and keeps later pages and their cursor', async () => {
    const { store, history } = connected()
    history
      .mockResolvedValueOnce(page([tx(3, at)], 'c1'))
      .mockResolvedValueOnce(page([tx(2, at)], 'c2'))
      .mockResolvedValueOnce(page([tx(4, at), tx(3, at)], 'fresh'))
    await store.set(fetchHistoryAtom, 'first')
    await store.set(fetchHistoryAtom, 'next')
    await store.set(fetchHistoryAtom, 'first')
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['tx4', 'tx3', 'tx2'])
    expect(store.get(historyAtom).next).toBe('c2')
  })

  test('behavior: no transactions is the empty state', async () => {
    const { store, history } = connected()
    history.mockResolvedValue(page([]))
    await store.set(fetchHistoryAtom)
    expect(store.get(historyAtom)).toMatchObject({ transactions: [], empty: true, loading: false })
  })

  test("error: a failure shows 'Failed to fetch transactions' and sets the empty state (spec §8)", async () => {
    const { store, history } = connected()
    history.mockRejectedValue(new Client.ApiError(500, 'down'))
    await store.set(fetchHistoryAtom)
    expect(store.get(historyAtom)).toMatchObject({ transactions: [], empty: true, loading: false })
    expect(store.get(historyFailedAtom)).toBe(true)
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: 'Failed to fetch transactions' })
  })

  test('error: a failed next page keeps the entries and the cursor, so Retry asks for the same page', async () => {
    const { store, history } = connected()
    history.mockResolvedValueOnce(page([tx(1, at)], 'c2')).mockRejectedValueOnce(new DOMException('late', 'TimeoutError'))
    await store.set(fetchHistoryAtom)
    await store.set(fetchHistoryAtom, 'next')
    expect(store.get(historyAtom)).toMatchObject({ next: 'c2', empty: true, loading: false })
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['tx1'])
    history.mockResolvedValueOnce(page([tx(0, at)]))
    await store.set(fetchHistoryAtom, 'next')
    expect(history).toHaveBeenLastCalledWith(alice, { chainId: 'eip155:31337', cursor: 'c2' })
    expect(store.get(historyFailedAtom)).toBe(false)
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['tx1', 'tx0'])
  })

  test('param: without an account nothing is fetched (spec §5: needs an account address)', async () => {
    const { store, history } = connected()
    store.set(accountAtom, null)
    await store.set(fetchHistoryAtom)
    expect(history).not.toHaveBeenCalled()
  })

  test('param: a network the dapp does not configure is empty without calling (spec §7)', async () => {
    const { store, history } = connected('eip155:1')
    await store.set(fetchHistoryAtom)
    expect(history).not.toHaveBeenCalled()
    expect(store.get(historyAtom).empty).toBe(true)
    expect(store.get(toastAtom).toast).toBeNull()
  })

  test.each([
    ['account', (store: ReturnType<typeof createStore>) => store.set(accountAtom, { connector: {} as Connector, address: bob, chainId: 'eip155:31337' })],
    ['chain', (store: ReturnType<typeof createStore>) => store.set(chainChangedAtom, 'eip155:31338')],
  ])('behavior: another %s resets the state, and an answer for the one before is dropped', async (_, change) => {
    const { store, history } = connected()
    history.mockResolvedValueOnce(page([tx(1, at)], 'c2'))
    await store.set(fetchHistoryAtom)
    const late = deferred<Client.HistoryPage>()
    history.mockReturnValueOnce(late.promise)
    const next = store.set(fetchHistoryAtom, 'next')
    change(store)
    expect(store.get(historyAtom)).toEqual({ transactions: [], coinbaseTransactions: {}, transactionsByYear: {}, next: undefined, loading: false, empty: false })
    late.resolve(page([tx(0, at)]))
    await next
    expect(store.get(historyAtom).transactions).toEqual([])
  })
})

describe('pending sends', () => {
  const sentAt = new Date(2025, 0, 10, 12)
  const pending = { hash: `0x${'ab'.repeat(32)}`, chainId: 'eip155:31337' as const, from: alice, to: bob, token: { name: 'USD Coin', symbol: 'USDC', iconUrl: 'http://api.test/i' }, amount: '25.5' }

  test('behavior: a recorded send shows at once as a pending send on top, before any fetch', () => {
    vi.setSystemTime(sentAt)
    const { store } = connected()
    store.set(recordPendingAtom, pending)
    const [entry] = store.get(historyAtom).transactions
    expect(entry).toEqual({
      id: `pending:${pending.hash}`,
      metadata: { operationType: 'send', hash: pending.hash, minedAt: sentAt.toISOString(), sentFrom: alice, sentTo: bob, status: 'pending', nonce: -1, chain: 'eip155:31337' },
      transfers: [{ fungible_info: { name: 'USD Coin', symbol: 'USDC', icon: { url: 'http://api.test/i' } }, direction: 'out', quantity: { numeric: '25.5' } }],
    })
    expect(store.get(hasPendingAtom)).toBe(true)
  })

  test('behavior: only for the account and chain that sent it', () => {
    const { store } = connected()
    store.set(recordPendingAtom, pending)
    store.set(chainChangedAtom, 'eip155:31338')
    expect(store.get(historyAtom).transactions).toEqual([])
    store.set(chainChangedAtom, 'eip155:31337')
    expect(store.get(historyAtom).transactions).toHaveLength(1)
  })

  test("behavior: replaced by the api's entry once indexed (matched by hash, any case)", async () => {
    vi.setSystemTime(sentAt)
    const { store, history } = connected()
    store.set(recordPendingAtom, pending)
    history.mockResolvedValueOnce(page([tx(1, new Date(2025, 0, 9))]))
    await store.set(fetchHistoryAtom)
    expect(store.get(historyAtom).transactions.map((t) => [t.id, t.metadata.status])).toEqual([
      [`pending:${pending.hash}`, 'pending'],
      ['tx1', 'confirmed'],
    ])
    const indexed = { ...tx(9, sentAt), metadata: { ...tx(9, sentAt).metadata, hash: `0x${'AB'.repeat(32)}`, operationType: 'send' as const } }
    history.mockResolvedValueOnce(page([indexed, tx(1, new Date(2025, 0, 9))]))
    await store.set(fetchHistoryAtom)
    expect(store.get(historyAtom).transactions.map((t) => [t.id, t.metadata.status])).toEqual([
      ['tx9', 'confirmed'],
      ['tx1', 'confirmed'],
    ])
    expect(store.get(pendingAtom)).toEqual([])
    expect(store.get(hasPendingAtom)).toBe(false)
  })

  test('behavior: while one is shown, the first page is fetched again every few seconds until it is mined', async () => {
    const { store, history } = connected()
    store.set(recordPendingAtom, pending)
    history.mockResolvedValue(page([]))
    const stop = store.set(pollPendingAtom)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs - 1)
    expect(history).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs)
    expect(history).toHaveBeenCalledTimes(2)
    expect(history).toHaveBeenLastCalledWith(alice, { chainId: 'eip155:31337', cursor: undefined })
    history.mockResolvedValue(page([{ ...tx(9, sentAt), metadata: { ...tx(9, sentAt).metadata, hash: pending.hash } }]))
    await vi.advanceTimersByTimeAsync(pendingRefreshMs)
    expect(store.get(hasPendingAtom)).toBe(false)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs * 5)
    expect(history).toHaveBeenCalledTimes(3)
    stop()
  })

  test('behavior: once the receipt wait is over (25 s), it asks at the spec\'s pending polling interval, 30 s (spec §9)', async () => {
    const { store, history } = connected()
    store.set(recordPendingAtom, pending)
    history.mockResolvedValue(page([]))
    const stop = store.set(pollPendingAtom)
    const now = Constants.receiptWaitMs + pendingRefreshMs
    await vi.advanceTimersByTimeAsync(now)
    // every few seconds while the receipt is awaited, the last of those just after it
    const early = history.mock.calls.length
    expect(early).toBe(Math.floor(now / pendingRefreshMs))
    const last = early * pendingRefreshMs
    await vi.advanceTimersByTimeAsync(last + Constants.pendingTransactionPollMs - now - 1)
    expect(history).toHaveBeenCalledTimes(early)
    await vi.advanceTimersByTimeAsync(1)
    expect(history).toHaveBeenCalledTimes(early + 1)
    stop()
  })

  test('behavior: stopping cancels the timer (the tab closed)', async () => {
    const { store, history } = connected()
    store.set(recordPendingAtom, pending)
    history.mockResolvedValue(page([]))
    const stop = store.set(pollPendingAtom)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs / 2)
    stop()
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs * 4)
    expect(history).not.toHaveBeenCalled()
  })

  test('error: a failure stops the polling (Retry starts it again)', async () => {
    const { store, history } = connected()
    store.set(recordPendingAtom, pending)
    history.mockRejectedValue(new Client.ApiError(502, 'down'))
    const stop = store.set(pollPendingAtom)
    await vi.advanceTimersByTimeAsync(pendingRefreshMs * 4)
    expect(history).toHaveBeenCalledTimes(1)
    expect(store.get(historyFailedAtom)).toBe(true)
    expect(store.get(historyAtom).transactions).toHaveLength(1)
    stop()
  })

  test('behavior: the Send flow records its send as soon as the wallet returns the hash', async () => {
    vi.setSystemTime(sentAt)
    const { store } = connected()
    const hash = `0x${'cd'.repeat(32)}`
    const request = vi.fn(async ({ method }: Protocol.RpcRequest) => (method === 'eth_sendTransaction' ? hash : null))
    store.set(accountAtom, { connector: { id: 'w', name: 'W', type: 'ANNOUNCED', namespaces: ['eip155'], request } as Connector, address: alice, chainId: 'eip155:31337' })
    store.set(tokensAtom, { status: 'ready', balances: [usdc], lastFailure: null })
    store.set(chooseTokenAtom, usdc)
    store.set(setAmountAtom, '25.5')
    store.set(setReceiverAtom, { address: bob })
    await store.set(sendTokenAtom)
    expect(store.get(pendingAtom)).toEqual([
      { hash, chainId: 'eip155:31337', from: alice, to: bob, token: { name: 'USD Coin', symbol: 'USDC', iconUrl: usdc.iconUrl }, amount: '25.5', sentAt: sentAt.getTime() },
    ])
    expect(store.get(historyAtom).transactions.map((t) => [t.metadata.hash, t.metadata.status])).toEqual([[hash, 'pending']])
  })
})

describe("onramp orders (issue 12: History state's coinbaseTransactions)", () => {
  const march = new Date(2025, 2, 3, 12)
  const february = new Date(2025, 1, 20, 9)
  /** An onramp order as the api lists it with onramp=coinbase; its transaction's hash is `n`'s. */
  function bought(n: number, at: Date, state: 'SUCCESS' | 'FAILED' | 'IN_PROGRESS' = 'SUCCESS'): Client.Transaction {
    const base = tx(n, at)
    return {
      ...base,
      id: `onramp:o${n}`,
      metadata: {
        ...base.metadata,
        operationType: 'buy',
        hash: state === 'SUCCESS' ? hashOf(n) : '',
        nonce: 0,
        status: state === 'SUCCESS' ? 'confirmed' : state === 'FAILED' ? 'failed' : 'pending',
        onrampStatus: `ONRAMP_TRANSACTION_STATUS_${state}`,
      },
    }
  }
  const withOnramp = (onramp = true) => connected('eip155:31337', { analytics: false, onramp })

  test('behavior: the first page reads the onramp orders beside the chain history, once, and merges them', async () => {
    const { store, history } = withOnramp()
    history.mockImplementation(async (_, params) => (params.onramp ? page([bought(7, march)]) : page([tx(1, february), tx(2, new Date(2025, 2, 5))])))
    await store.set(fetchHistoryAtom)
    await vi.runAllTimersAsync()
    await store.set(fetchHistoryAtom)
    expect(history.mock.calls.map(([, params]) => params.onramp)).toEqual(['coinbase', undefined, undefined])
    const state = store.get(historyAtom)
    expect(state.transactions.map((t) => t.id)).toEqual(['tx2', 'onramp:o7', 'tx1'])
    expect(state.transactionsByYear[2025]![2]!.map((t) => t.id)).toEqual(['tx2', 'onramp:o7'])
  })

  test('behavior: coinbaseTransactions groups the orders by year and month, newest first', () => {
    const { store } = withOnramp()
    store.set(recordOnrampAtom, { address: alice, chainId: 'eip155:31337', transactions: [bought(1, february), bought(2, march), bought(3, new Date(2025, 2, 9), 'FAILED'), bought(4, new Date(2024, 11, 30))] })
    const { coinbaseTransactions, empty } = store.get(historyAtom)
    const ids = (list: Client.Transaction[] | undefined) => list?.map((t) => t.id)
    expect(Object.keys(coinbaseTransactions)).toEqual(['2024', '2025'])
    expect(ids(coinbaseTransactions[2025]![2])).toEqual(['onramp:o3', 'onramp:o2'])
    expect(ids(coinbaseTransactions[2025]![1])).toEqual(['onramp:o1'])
    expect(ids(coinbaseTransactions[2024]![11])).toEqual(['onramp:o4'])
    expect(empty).toBe(false)
  })

  test('behavior: a newer listing of an order replaces the older; only buys of this account and chain are kept', () => {
    const { store } = withOnramp()
    store.set(recordOnrampAtom, { address: alice, chainId: 'eip155:31337', transactions: [bought(1, march, 'IN_PROGRESS')] })
    store.set(recordOnrampAtom, { address: alice, chainId: 'eip155:31337', transactions: [bought(1, march), tx(9, march), { ...bought(2, march), metadata: { ...bought(2, march).metadata, chain: 'eip155:1' } }] })
    store.set(recordOnrampAtom, { address: bob, chainId: 'eip155:31337', transactions: [bought(3, march)] })
    const listed = store.get(historyAtom).transactions
    expect(listed.map((t) => [t.id, t.metadata.onrampStatus])).toEqual([['onramp:o1', 'ONRAMP_TRANSACTION_STATUS_SUCCESS']])
  })

  test("behavior: the provider's transfer, listed by the chain as a receive, gives way to its order", async () => {
    const { store, history } = withOnramp()
    history.mockImplementation(async (_, params) => (params.onramp ? page([bought(5, march)]) : page([tx(5, march), tx(6, february)])))
    await store.set(fetchHistoryAtom)
    await vi.runAllTimersAsync()
    expect(store.get(historyAtom).transactions.map((t) => [t.id, t.metadata.operationType])).toEqual([
      ['onramp:o5', 'buy'],
      ['tx6', 'receive'],
    ])
  })

  test('behavior: a failed read of the orders is quiet and asked again with the next first page', async () => {
    const { store, history } = withOnramp()
    let fail = true
    history.mockImplementation(async (_, params) => {
      if (params.onramp && fail) throw new Client.ApiError(502, 'down')
      return params.onramp ? page([bought(1, march)]) : page([tx(2, february)])
    })
    await store.set(fetchHistoryAtom)
    await vi.runAllTimersAsync()
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['tx2'])
    expect(store.get(toastAtom).toast).toBeNull()
    fail = false
    await store.set(fetchHistoryAtom)
    await vi.runAllTimersAsync()
    expect(store.get(historyAtom).transactions.map((t) => t.id)).toEqual(['onramp:o1', 'tx2'])
  })

  test('param: with features.onramp off, no onramp orders are asked for', async () => {
    const { store, history } = withOnramp(false)
    history.mockResolvedValue(page([tx(1, february)]))
    await store.set(fetchHistoryAtom)
    expect(history.mock.calls.map(([, params]) => params.onramp)).toEqual([undefined])
  })
})
