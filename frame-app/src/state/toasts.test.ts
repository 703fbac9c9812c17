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
