import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { showToastAtom, toastAtom, toastVisibleMs } from './toasts.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('showToastAtom', () => {
  test('behavior: shows at once when nothing is on screen', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'success', message: 'Transaction started' })
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { message: 'Transaction started' } })
  })

  test('behavior: a new toast waits 150 ms for the previous one to close', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'loading', message: 'first' })
    store.set(showToastAtom, { variant: 'error', message: 'second' })
    expect(store.get(toastAtom)).toMatchObject({ visible: false, toast: { message: 'first' } })
    vi.advanceTimersByTime(149)
    expect(store.get(toastAtom).toast?.message).toBe('first')
    vi.advanceTimersByTime(1)
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { message: 'second' } })
  })

  test('behavior: success and error hide by themselves, loading stays', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'success', message: 'done' })
    vi.advanceTimersByTime(toastVisibleMs)
    expect(store.get(toastAtom).visible).toBe(false)
    store.set(showToastAtom, { variant: 'loading', message: 'working' })
    vi.advanceTimersByTime(toastVisibleMs * 10)
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { message: 'working' } })
  })

  test('behavior: an info toast shows and hides by itself like success', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'info', message: 'Request declined' })
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { variant: 'info', message: 'Request declined' } })
    vi.advanceTimersByTime(toastVisibleMs - 1)
    expect(store.get(toastAtom).visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(store.get(toastAtom)).toMatchObject({ visible: false, toast: { variant: 'info' } })
  })

  test('behavior: the detail is kept on the toast', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'error', message: 'Something went wrong', detail: 'insufficient funds for gas' })
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: 'Something went wrong', detail: 'insufficient funds for gas' })
  })

  test.each<[string, { detail?: string }, number]>([
    ['with a detail stays 6 s', { detail: 'The wallet said no' }, 6_000],
    ['without a detail stays 2.5 s', {}, 2_500],
    ['with an empty detail stays 2.5 s', { detail: '' }, 2_500],
  ])('behavior: a toast %s', (_, extra, ms) => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'info', message: 'Request declined', ...extra })
    vi.advanceTimersByTime(ms - 1)
    expect(store.get(toastAtom).visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(store.get(toastAtom).visible).toBe(false)
  })

  test.each(['success', 'info', 'error'] as const)('behavior: a %s toast with a detail stays 6 s', (variant) => {
    const store = createStore()
    store.set(showToastAtom, { variant, message: 'm', detail: 'd' })
    vi.advanceTimersByTime(5_999)
    expect(store.get(toastAtom).visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(store.get(toastAtom).visible).toBe(false)
  })

  test('behavior: a loading toast with a detail still stays until replaced', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'loading', message: 'Sending', detail: 'Confirm in your wallet' })
    vi.advanceTimersByTime(60_000)
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { detail: 'Confirm in your wallet' } })
  })

  test('behavior: a swapped-in toast with a detail stays 6 s from when it shows', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'loading', message: 'Sending' })
    store.set(showToastAtom, { variant: 'error', message: 'Something went wrong', detail: 'nonce too low' })
    vi.advanceTimersByTime(150)
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { detail: 'nonce too low' } })
    vi.advanceTimersByTime(5_999)
    expect(store.get(toastAtom).visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(store.get(toastAtom).visible).toBe(false)
  })

  test('behavior: a new toast cancels the 6 s hide of the previous one', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'info', message: 'first', detail: 'long' })
    vi.advanceTimersByTime(1_000)
    store.set(showToastAtom, { variant: 'loading', message: 'second' })
    vi.advanceTimersByTime(150 + 6_000)
    expect(store.get(toastAtom)).toMatchObject({ visible: true, toast: { message: 'second' } })
  })

  test('behavior: each toast gets a fresh 128-bit id', () => {
    const store = createStore()
    store.set(showToastAtom, { variant: 'success', message: 'a' })
    expect(store.get(toastAtom).toast?.id).toMatch(/^[0-9a-f]{32}$/)
  })

  test('behavior: stores do not share timers', () => {
    const a = createStore()
    const b = createStore()
    a.set(showToastAtom, { variant: 'loading', message: 'a1' })
    b.set(showToastAtom, { variant: 'loading', message: 'b1' })
    a.set(showToastAtom, { variant: 'loading', message: 'a2' })
    vi.advanceTimersByTime(150)
    expect(a.get(toastAtom).toast?.message).toBe('a2')
    expect(b.get(toastAtom)).toMatchObject({ visible: true, toast: { message: 'b1' } })
  })
})
