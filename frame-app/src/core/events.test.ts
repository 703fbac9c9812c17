import { atom, createStore } from 'jotai'
import { describe, expect, test } from 'vitest'
import * as Events from './events.js'

/** A handler that records what it was told and answers `answer`. */
function recorder(seen: string[], name: string, answer = false) {
  return atom(null, (_get, _set, event: Events.Event<'closing'>) => {
    seen.push(`${name}:${event.type}:${event.silent}`)
    return answer
  })
}

describe('publishAtom', () => {
  test('behavior: tells the handlers of that event, in the order they subscribed', () => {
    const store = createStore()
    const seen: string[] = []
    Events.on(store, 'closing', recorder(seen, 'a'))
    Events.on(store, 'disconnected', atom(null, () => void seen.push('other')))
    Events.on(store, 'closing', recorder(seen, 'b'))
    store.set(Events.publishAtom, { type: 'closing', silent: true })
    expect(seen).toEqual(['a:closing:true', 'b:closing:true'])
  })
  test('behavior: answers whether a handler took the event over', () => {
    const store = createStore()
    expect(store.set(Events.publishAtom, { type: 'closing', silent: false })).toBe(false)
    Events.on(store, 'closing', recorder([], 'a'))
    expect(store.set(Events.publishAtom, { type: 'closing', silent: false })).toBe(false)
    const seen: string[] = []
    Events.on(store, 'closing', recorder(seen, 'b', true))
    Events.on(store, 'closing', recorder(seen, 'c'))
    expect(store.set(Events.publishAtom, { type: 'closing', silent: false })).toBe(true)
    // Every handler is told, even after one took it over.
    expect(seen).toEqual(['b:closing:false', 'c:closing:false'])
  })
  test('behavior: a handler runs in the publishing store', () => {
    const store = createStore()
    const count = atom(0)
    Events.on(store, 'disconnected', atom(null, (_get, set) => set(count, (n) => n + 1)))
    store.set(Events.publishAtom, { type: 'disconnected' })
    expect(store.get(count)).toBe(1)
  })
  test('behavior: each store has its own handlers (one store per modal instance)', () => {
    const [a, b] = [createStore(), createStore()]
    const seen: string[] = []
    Events.on(a, 'closing', recorder(seen, 'a'))
    b.set(Events.publishAtom, { type: 'closing', silent: false })
    expect(seen).toEqual([])
  })
})
