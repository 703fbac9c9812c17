import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { configAtom } from './config.js'
import { hostAtom } from './host.js'
import { statusAtom } from './connection.js'
import {
  closeModalAtom,
  goBackAtom,
  homeAtom,
  intentAtom,
  openAtom,
  openModalAtom,
  shakeAtom,
  shakeModalAtom,
} from './modal.js'
import { directionAtom, historyAtom, pushAtom } from './router.js'
import { modalStateAtom } from '../host/modalState.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function setup(config: Partial<Protocol.Config> = {}) {
  const store = createStore()
  store.set(configAtom, { basic: false, embedded: false, ...config } as Protocol.Config)
  const call = vi.fn((..._args: unknown[]) => Promise.resolve(null))
  store.set(hostAtom, { host: { call } as never, warn: vi.fn() })
  // What the host was told about closes.
  const closes = () => call.mock.calls.filter(([, event]) => (event as { type: string }).type === 'close')
  return { store, closes }
}

describe('openModalAtom', () => {
  test('behavior: opens on Connect when disconnected', () => {
    const { store } = setup()
    store.set(openModalAtom)
    expect(store.get(modalStateAtom)).toEqual({ open: true, view: 'Connect', loading: false, status: 'disconnected' })
  })
  test('behavior: opens on Account when connected', () => {
    const { store } = setup()
    store.set(statusAtom, { eip155: 'connected' })
    store.set(openModalAtom)
    expect(store.get(modalStateAtom).view).toBe('Account')
  })
  test('behavior: resets the history each time it opens', () => {
    const { store } = setup()
    store.set(openModalAtom)
    store.set(pushAtom, { view: 'AllWallets' })
    store.set(openModalAtom, { view: 'Networks' })
    expect(store.get(historyAtom)).toEqual([{ view: 'Networks' }])
  })
})

describe('goBackAtom', () => {
  test('behavior: pops to the previous view and stays open', () => {
    const { store, closes } = setup()
    store.set(openModalAtom)
    store.set(pushAtom, { view: 'AllWallets' })
    store.set(goBackAtom)
    expect(store.get(modalStateAtom)).toMatchObject({ open: true, view: 'Connect' })
    expect(closes()).toEqual([])
  })
  test('behavior: closes at the root and tells the host', () => {
    const { store, closes } = setup()
    store.set(openModalAtom)
    store.set(goBackAtom)
    expect(store.get(openAtom)).toBe(false)
    expect(closes()).toEqual([['event', { type: 'close', result: { status: 'closed' } }]])
  })
  test('behavior: closes when the history holds UnsupportedChain', () => {
    const { store } = setup()
    store.set(openModalAtom, { view: 'UnsupportedChain' })
    store.set(pushAtom, { view: 'Networks' })
    store.set(goBackAtom)
    expect(store.get(openAtom)).toBe(false)
  })
})

describe('closeModalAtom', () => {
  test.each([
    [false, 'Connect'],
    [true, 'Account'],
  ] as const)('behavior: embedded, connected=%s, stays open and resets to %s', (connected, view) => {
    const { store, closes } = setup({ embedded: true })
    if (connected) store.set(statusAtom, { eip155: 'connected' })
    store.set(openModalAtom, { view: 'Networks' })
    store.set(pushAtom, { view: 'AllWallets' })
    store.set(closeModalAtom)
    expect(store.get(historyAtom)).toEqual([{ view }])
    expect(store.get(openAtom)).toBe(true)
    expect(closes()).toHaveLength(1)
  })
})

describe('the view drawn ahead while closed (issue 14)', () => {
  test('behavior: closing draws the view the next opening shows, with no transition', () => {
    const { store } = setup()
    store.set(openModalAtom, { view: 'Networks' })
    store.set(pushAtom, { view: 'AllWallets' })
    store.set(closeModalAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
    expect(store.get(directionAtom)).toBe('none')
  })
  test('behavior: the drawn view follows the connection while closed, and never while open', () => {
    const { store } = setup()
    store.set(statusAtom, { eip155: 'connected' })
    store.set(homeAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }])
    store.set(openModalAtom)
    store.set(pushAtom, { view: 'Networks' })
    store.set(statusAtom, { eip155: 'disconnected' })
    store.set(homeAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Account' }, { view: 'Networks' }])
  })
  test('behavior: opening without a view shows the drawn one as it is; an explicit view is drawn on open', () => {
    const { store } = setup()
    store.set(homeAtom)
    const drawn = store.get(historyAtom)
    store.set(openModalAtom)
    expect(store.get(historyAtom)).toBe(drawn)
    store.set(closeModalAtom)
    store.set(openModalAtom, { view: 'Networks' })
    expect(store.get(historyAtom)).toEqual([{ view: 'Networks' }])
  })
  test('behavior: WalletConnect-only mode does not draw the pairing ahead (no relay before intent)', () => {
    const { store } = setup({ basic: true })
    store.set(homeAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
    store.set(openModalAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'ConnectingWalletConnectBasic' }])
  })
  test('behavior: intent is known from the first opening on', () => {
    const { store } = setup()
    expect(store.get(intentAtom)).toBe(false)
    store.set(openModalAtom)
    store.set(closeModalAtom)
    expect(store.get(intentAtom)).toBe(true)
  })
})

describe('shakeModalAtom', () => {
  test('behavior: shakes for 500 ms', () => {
    const { store } = setup()
    store.set(shakeModalAtom)
    expect(store.get(shakeAtom)).toBe(true)
    vi.advanceTimersByTime(499)
    expect(store.get(shakeAtom)).toBe(true)
    vi.advanceTimersByTime(1)
    expect(store.get(shakeAtom)).toBe(false)
  })
})
