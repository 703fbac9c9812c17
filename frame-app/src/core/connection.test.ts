import type * as Protocol from '@doorway/shared/Protocol'
import { atom, createStore } from 'jotai'
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Connector } from './connectors/Connector.js'
import { accountAtom, accountEventAtom, activeStatusAtom, disconnectAtom, establishAtom, restoreAtom, storedConnectorId } from './connection.js'
import * as Events from './events.js'
import { type Host, hostAtom } from './host.js'
import { hostWalletsAtom } from './wallets.js'

// Storage picks its backend when imported and Node has no localStorage: give it the frame's
// partitioned-cookie path on the shared fake jar, as in a browser that blocks third-party storage.
const jar = await vi.hoisted(async () => {
  const { cookieJar } = await import('./cookieJar.testing.js')
  const jar = cookieJar()
  vi.stubGlobal('document', jar)
  return jar
})
afterAll(() => vi.unstubAllGlobals())

// spec §4 start-up sync: how long a stored connection waits for its wallet (connection.ts keeps
// this value private, so the spec's 3 s is written here).
const deadlineMs = 3_000

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const wallet: Protocol.WalletInfo = {
  uuid: crypto.randomUUID(),
  name: 'Doorway Wallet',
  icon: 'data:image/svg+xml,',
  rdns: 'dev.doorway.wallet',
  type: 'ANNOUNCED',
}

/** The last page load: a connection made through `establishAtom`, which stores the session. */
function storeSession(connectorId: string) {
  const connector: Connector = { id: connectorId, name: connectorId, type: 'ANNOUNCED', namespaces: ['eip155'], request: async () => null }
  createStore().set(establishAtom, { account: { connector, address, chainId: 'eip155:1' }, restored: false })
  expect(storedConnectorId()).toBe(connectorId)
}

/**
 * A store on a fake host: `answers` are the announced wallet's replies by RPC method (an Error rejects),
 * `events` what the frame told the host, `requests` the wallet requests the host ran.
 */
function setup(answers: Record<string, unknown> = {}) {
  const store = createStore()
  const events: Protocol.FrameEvent[] = []
  const requests: { uuid: string; method: string }[] = []
  const call = async (method: string, params: unknown) => {
    if (method === 'event') return void events.push(params as Protocol.FrameEvent)
    const { uuid, request } = params as { uuid: string; request: Protocol.RpcRequest }
    requests.push({ uuid, method: request.method })
    const answer = answers[request.method]
    if (answer instanceof Error) throw answer
    return answer
  }
  store.set(hostAtom, { host: { call } as unknown as Host, warn: () => {} })
  return { store, events, requests }
}

beforeEach(() => {
  jar.cookies.clear()
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

describe('restoreAtom', () => {
  test('behavior: a stored wallet the host does not announce stays connecting for 3 s, then is disconnected and forgotten (spec §4)', async () => {
    storeSession(wallet.rdns)
    const { store, requests } = setup()
    await store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('connecting')
    vi.advanceTimersByTime(deadlineMs - 1)
    expect(store.get(activeStatusAtom)).toBe('connecting')
    expect(storedConnectorId()).toBe(wallet.rdns)
    vi.advanceTimersByTime(1)
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    expect(store.get(accountAtom)).toBeNull()
    expect(storedConnectorId()).toBeUndefined()
    expect(requests).toEqual([])
  })

  test('behavior: a stored wallet announced late, before the 3 s pass, is restored and the deadline does not undo it (spec §4)', async () => {
    storeSession(wallet.rdns)
    const { store } = setup({ eth_accounts: [address], eth_chainId: '0x1' })
    await store.set(restoreAtom)
    vi.advanceTimersByTime(deadlineMs - 1_000)
    // The host's wallet list changed: restore runs again (host/connect.ts).
    store.set(hostWalletsAtom, [wallet])
    await store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('connected')
    vi.advanceTimersByTime(deadlineMs)
    expect(store.get(activeStatusAtom)).toBe('connected')
    expect(store.get(accountAtom)?.address).toBe(address)
    expect(storedConnectorId()).toBe(wallet.rdns)
  })

  test('behavior: the announced wallet answering eth_accounts with no account is disconnected and forgotten (spec §4)', async () => {
    storeSession(wallet.rdns)
    const { store, requests } = setup({ eth_accounts: [], eth_chainId: '0x1' })
    store.set(hostWalletsAtom, [wallet])
    const done = store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('connecting')
    await done
    expect(requests).toEqual([{ uuid: wallet.uuid, method: 'eth_accounts' }])
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    expect(store.get(accountAtom)).toBeNull()
    expect(storedConnectorId()).toBeUndefined()
  })

  test('error: the announced wallet failing eth_accounts is disconnected and forgotten (spec §4)', async () => {
    storeSession(wallet.rdns)
    const { store } = setup({ eth_accounts: new Error('wallet locked') })
    store.set(hostWalletsAtom, [wallet])
    await store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    expect(storedConnectorId()).toBeUndefined()
  })

  test('behavior: the announced wallet answering with an account is connected without a prompt and without settling an open() (spec §4)', async () => {
    storeSession(wallet.rdns)
    const { store, events, requests } = setup({ eth_accounts: [address], eth_chainId: '0x1' })
    store.set(hostWalletsAtom, [wallet])
    const done = store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('connecting')
    await done
    expect(store.get(activeStatusAtom)).toBe('connected')
    expect(store.get(accountAtom)).toMatchObject({ address, chainId: 'eip155:1', connector: { id: wallet.rdns, hostUuid: wallet.uuid } })
    // No eth_requestAccounts: the wallet shows no prompt.
    expect(requests.map((r) => r.method)).toEqual(['eth_accounts', 'eth_chainId'])
    const account = { address, caipAddress: `eip155:1:${address}`, chainId: 'eip155:1' }
    expect(events).toEqual([{ type: 'connect', account }])
    expect(events.some((e) => e.type === 'result')).toBe(false)
    expect(storedConnectorId()).toBe(wallet.rdns)
  })

  test('behavior: a stored WalletConnect session is left to the WalletConnect restore (spec §4)', async () => {
    storeSession('walletConnect')
    const { store, events, requests } = setup({ eth_accounts: [address], eth_chainId: '0x1' })
    store.set(hostWalletsAtom, [wallet])
    await store.set(restoreAtom)
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    vi.advanceTimersByTime(deadlineMs)
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    expect(store.get(accountAtom)).toBeNull()
    expect(storedConnectorId()).toBe('walletConnect')
    expect(requests).toEqual([])
    expect(events).toEqual([])
  })
})

describe('events', () => {
  /** A store whose handlers record the core's connection events; `take` is what a connected handler answers. */
  function subscribed(take: boolean) {
    const { store, events } = setup()
    const seen: string[] = []
    const record = (answer = false) =>
      atom(null, (_get, _set, event: Events.Event) => {
        seen.push('account' in event ? `${event.type} ${event.account.address}` : event.type)
        return answer
      })
    Events.on(store, 'connected', record(take))
    Events.on(store, 'accountChanged', record())
    Events.on(store, 'disconnected', record())
    return { store, events, seen }
  }
  const connector: Connector = { id: wallet.rdns, name: wallet.name, type: 'ANNOUNCED', namespaces: ['eip155'], request: async () => null }
  const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  test('behavior: the core publishes connected, accountChanged and disconnected as they happen', async () => {
    const { store, seen } = subscribed(false)
    store.set(establishAtom, { account: { connector, address, chainId: 'eip155:1' }, restored: false })
    store.set(accountEventAtom, { event: 'accountsChanged', data: [other] })
    store.set(accountEventAtom, { event: 'chainChanged', data: '0x2' })
    await store.set(disconnectAtom)
    await store.set(disconnectAtom)
    expect(seen).toEqual([`connected ${address}`, `accountChanged ${other}`, 'disconnected'])
  })
  test('behavior: a connected handler answering true settles open() itself; otherwise the core does', () => {
    for (const take of [false, true]) {
      const { store, events } = subscribed(take)
      store.set(establishAtom, { account: { connector, address, chainId: 'eip155:1' }, restored: false })
      expect(events.some((e) => e.type === 'result')).toBe(!take)
    }
  })
})
