import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { walletConnectText } from '@doorway/shared/texts/walletConnect'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type * as WalletConnect from './walletConnectConnector.js'
import { alertAtom } from '../../core/alerts.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom, activeStatusAtom } from '../../core/connection.js'
import { relayTimeoutMs, restoreWalletConnectAtom } from './walletConnect.js'
import { alertKey } from './walletConnectClient.js'
import { cancelPairingAtom, pairAtom, pairingAtom, refreshPairingAtom } from './walletConnectPairing.js'

// Storage picks its backend when imported and Node has no localStorage: the frame's cookie path on a fake jar.
const jar = await vi.hoisted(async () => {
  const { cookieJar } = await import('../../core/cookieJar.testing.js')
  const jar = cookieJar()
  vi.stubGlobal('document', jar)
  return jar
})
afterAll(() => vi.unstubAllGlobals())

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

// The lazy connector chunk, replaced by a scripted client: each pair() waits for the test to answer.
type Attempt = { onUri(uri: string): void; resolve(): void; reject(error: unknown): void }
const fake = vi.hoisted(() => ({ attempts: [] as Attempt[], aborts: 0, creates: 0, listeners: new Set<(e: unknown) => void>() }))
vi.mock('./walletConnectConnector.js', () => ({
  create: async (): Promise<Partial<WalletConnect.WalletConnect>> => {
    fake.creates++
    return {
      connector: {
        id: 'walletConnect',
        name: 'WalletConnect',
        type: 'WALLET_CONNECT',
        namespaces: ['eip155'],
        request: async ({ method }) => (method === 'eth_chainId' ? '0x7a69' : [address]),
      },
      peer: () => ({ name: 'Test Wallet' }),
      pair: (onUri) => new Promise<void>((resolve, reject) => fake.attempts.push({ onUri, resolve, reject })),
      abort: () => {
        fake.aborts++
        fake.attempts.at(-1)?.reject(new DOMException('replaced', 'AbortError'))
      },
      subscribe: (listener) => (fake.listeners.add(listener as never), () => fake.listeners.delete(listener as never)),
    }
  },
}))

function setup() {
  const store = createStore()
  store.set(configAtom, { projectId: 'p', networks: [{ caipNetworkId: 'eip155:31337' }] } as unknown as Protocol.Config)
  store.set(hostOriginAtom, 'http://localhost:5173')
  return store
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => {
  jar.cookies.clear()
  fake.attempts.length = 0
  fake.aborts = 0
  fake.creates = 0
  fake.listeners.clear()
})
afterEach(() => vi.useRealTimers())

describe('pairing (issue 5, spec §9)', () => {
  test('behavior: loading, then the URI with a 4-minute expiry, then connected with the account', async () => {
    const store = setup()
    const done = store.set(pairAtom)
    expect(store.get(pairingAtom)).toEqual({ status: 'loading' })
    await tick()
    const before = Date.now()
    fake.attempts[0]!.onUri('wc:one@2')
    const pairing = store.get(pairingAtom)
    expect(pairing).toMatchObject({ status: 'ready', uri: 'wc:one@2' })
    expect(pairing.status === 'ready' && pairing.expiresAt - before).toBeGreaterThanOrEqual(Constants.pairingLifetimeMs - 5)
    // A QR on screen is not a connection yet: the dapp still reads disconnected.
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    fake.attempts[0]!.resolve()
    await done
    expect(store.get(accountAtom)).toMatchObject({ address, chainId: 'eip155:31337', connector: { name: 'Test Wallet' } })
    expect(store.get(activeStatusAtom)).toBe('connected')
  })

  test('behavior: within 10 s of expiry the pairing is replaced by a fresh URI; earlier it is kept', async () => {
    const store = setup()
    void store.set(pairAtom)
    await tick()
    fake.attempts[0]!.onUri('wc:one@2')
    const { expiresAt } = store.get(pairingAtom) as { expiresAt: number }
    store.set(refreshPairingAtom, expiresAt - Constants.pairingExpiryMarginMs - 1)
    expect(fake.attempts).toHaveLength(1)
    store.set(refreshPairingAtom, expiresAt - Constants.pairingExpiryMarginMs)
    await tick()
    await tick()
    expect(fake.aborts).toBe(1)
    expect(fake.attempts).toHaveLength(2)
    fake.attempts[1]!.onUri('wc:two@2')
    expect(store.get(pairingAtom)).toMatchObject({ status: 'ready', uri: 'wc:two@2' })
  })

  test('error: a rejected proposal shows the rejection; retry pairs again with a new URI', async () => {
    const store = setup()
    const first = store.set(pairAtom)
    await tick()
    fake.attempts[0]!.onUri('wc:one@2')
    fake.attempts[0]!.reject(Errors.userRejected())
    await first
    expect(store.get(pairingAtom)).toEqual({ status: 'rejected' })
    expect(store.get(activeStatusAtom)).toBe('disconnected')
    void store.set(pairAtom)
    await tick()
    fake.attempts[1]!.onUri('wc:two@2')
    expect(store.get(pairingAtom)).toMatchObject({ status: 'ready', uri: 'wc:two@2' })
  })

  test('error: a relay refusing the origin fails the pairing with its message and raises the alert once', async () => {
    const store = setup()
    const first = store.set(pairAtom)
    await tick()
    fake.attempts[0]!.reject(new Error('Unauthorized: origin not allowed'))
    await first
    expect(store.get(pairingAtom)).toEqual({ status: 'failed', message: 'Unauthorized: origin not allowed' })
    expect(store.get(alertAtom)?.key).toBe('unverifiedDomain')
  })

  test('error: no URI within 15 s fails the attempt with a message; retry starts over', async () => {
    vi.useFakeTimers()
    const store = setup()
    const first = store.set(pairAtom)
    await vi.advanceTimersByTimeAsync(relayTimeoutMs - 1)
    expect(store.get(pairingAtom)).toEqual({ status: 'loading' })
    await vi.advanceTimersByTimeAsync(1)
    expect(store.get(pairingAtom)).toEqual({ status: 'failed', message: walletConnectText.relayTimeout })
    await first
    vi.useRealTimers()
    void store.set(pairAtom)
    await tick()
    fake.attempts.at(-1)!.onUri('wc:late@2')
    expect(store.get(pairingAtom)).toMatchObject({ status: 'ready', uri: 'wc:late@2' })
    // The loaded client is reused, not left behind with a second one beside it.
    expect(fake.creates).toBe(1)
    expect(fake.listeners.size).toBe(1)
  })

  test('behavior: leaving the view cancels the attempt; a late answer connects nobody', async () => {
    const store = setup()
    const done = store.set(pairAtom)
    await tick()
    fake.attempts[0]!.onUri('wc:one@2')
    store.set(cancelPairingAtom)
    await tick()
    expect(fake.aborts).toBe(1)
    await done
    expect(store.get(pairingAtom)).toEqual({ status: 'idle' })
    expect(store.get(accountAtom)).toBeNull()
    expect(store.get(activeStatusAtom)).toBe('disconnected')
  })
})

describe('session events (spec §4)', () => {
  async function paired() {
    const store = setup()
    const done = store.set(pairAtom)
    await tick()
    fake.attempts[0]!.resolve()
    await done
    const emit = (event: WalletConnect.Event) => fake.listeners.forEach((listener) => listener(event))
    return { store, emit }
  }

  test('behavior: the session follows its wallet: accounts, chain, then disconnect', async () => {
    const { store, emit } = await paired()
    emit({ type: 'accountsChanged', accounts: ['eip155:31337:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] })
    expect(store.get(accountAtom)?.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    emit({ type: 'chainChanged', chainId: 'eip155:1' })
    expect(store.get(accountAtom)?.chainId).toBe('eip155:1')
    emit({ type: 'disconnect' })
    expect(store.get(accountAtom)).toBeNull()
    expect(store.get(activeStatusAtom)).toBe('disconnected')
  })

  test('error: a relay error raises its alert, connected or not', async () => {
    const { store, emit } = await paired()
    emit({ type: 'error', error: new Error('Unauthorized: invalid key') })
    expect(store.get(alertAtom)?.key).toBe('projectIdInvalid')
    expect(store.get(activeStatusAtom)).toBe('connected')
  })
})

describe('restoreWalletConnectAtom (spec §4)', () => {
  test('behavior: a stored session is connecting at once, then connected again without a pairing', async () => {
    const first = setup()
    const done = first.set(pairAtom)
    await tick()
    fake.attempts[0]!.resolve()
    await done
    const store = setup()
    const restoring = store.set(restoreWalletConnectAtom)
    expect(store.get(activeStatusAtom)).toBe('connecting')
    await restoring
    expect(store.get(accountAtom)).toMatchObject({ address, chainId: 'eip155:31337', connector: { name: 'Test Wallet' } })
    expect(store.get(activeStatusAtom)).toBe('connected')
    expect(fake.attempts).toHaveLength(1)
  })

  test('behavior: without a stored session nothing loads', async () => {
    const store = setup()
    await store.set(restoreWalletConnectAtom)
    expect(fake.creates).toBe(0)
    expect(store.get(activeStatusAtom)).toBe('disconnected')
  })
})

test.each([
  ['Unauthorized: origin not allowed', 'unverifiedDomain'],
  ['Unauthorized: invalid key', 'projectIdInvalid'],
  ['JWT validation error: JWT Token is not yet valid', 'sessionExpired'],
  ['socket hang up', undefined],
])('behavior: the provider error %j maps to the alert %s', (message, key) => {
  expect(alertKey(new Error(message))).toBe(key)
})
