import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { configAtom } from './config.js'
import { hostAtom } from './host.js'
import { statusAtom } from './connection.js'
import {
  closeModalAtom,
  goBackAtom,
  modalStateAtom,
  openAtom,
  openModalAtom,
  shakeAtom,
  shakeModalAtom,
} from './modal.js'
import { historyAtom, pushAtom } from './router.js'

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
