import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type Backend, cookieBackend } from '../../core/storage.js'
import * as WalletConnectStorage from './walletConnectStorage.js'
import { cookieJar as jar } from '../../core/cookieJar.testing.js'

/** A Map as backend, counting writes. */
function mapBackend(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries))
  const writes: string[] = []
  const backend: Backend = {
    get: (name) => map.get(name) ?? null,
    set: (name, value) => void (writes.push(name), map.set(name, value)),
    remove: (name) => void (writes.push(name), map.delete(name)),
  }
  return { map, writes, backend }
}

const topic = 'a'.repeat(64)
const keys = {
  keychain: 'wc@2:core:0.3//keychain',
  subscription: 'wc@2:core:0.3//subscription',
  session: 'wc@2:client:0.3//session',
  namespaces: `wc@2:universal_provider:/namespaces${topic}`,
  optionalNamespaces: `wc@2:universal_provider:/optionalNamespaces${topic}`,
  messages: 'wc@2:core:0.3//messages',
  history: 'wc@2:core:0.3//history',
  expirer: 'wc@2:core:0.3//expirer',
  pairing: 'wc@2:core:0.3//pairing',
  proposal: 'wc@2:client:0.3//proposal',
  request: 'wc@2:client:0.3//request',
  callStatus: 'call_status',
}
const values: Record<keyof typeof keys, unknown> = {
  keychain: { [topic]: 'b'.repeat(64) },
  subscription: [{ topic, relay: { protocol: 'irn' }, id: 'c'.repeat(64) }],
  session: [{ topic, expiry: 1 }],
  namespaces: { eip155: { chains: ['eip155:1'] } },
  optionalNamespaces: { eip155: { rpcMap: { 1: 'http://127.0.0.1:8545' } } },
  messages: { [topic]: { d: 'e' } },
  history: [{ id: 1, topic }],
  expirer: [{ target: `topic:${topic}`, expiry: 1 }],
  pairing: [{ topic }],
  proposal: [],
  request: [],
  callStatus: {},
}

async function fill(storage: WalletConnectStorage.WalletConnectStorage, names: readonly (keyof typeof keys)[]) {
  for (const name of names) await storage.setItem(keys[name], values[name])
}

/** What a storage created over the same backend reads back: a reload. */
const reload = (backend: Backend) => WalletConnectStorage.create({ backend }).getEntries()

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('create', () => {
  test('behavior: every key reads back from memory, the volatile ones too', async () => {
    const storage = WalletConnectStorage.create({ backend: mapBackend().backend })
    await fill(storage, ['session', 'messages'])
    expect(await storage.getItem(keys.messages)).toEqual(values.messages)
    expect(await storage.getKeys()).toEqual([keys.session, keys.messages])
    await storage.removeItem(keys.messages)
    expect(await storage.getEntries()).toEqual([[keys.session, values.session]])
    expect(await storage.getItem('missing')).toBeUndefined()
  })

  test('behavior: reads are what was written, not what the caller mutated since', async () => {
    const storage = WalletConnectStorage.create({ backend: mapBackend().backend })
    const keychain: Record<string, string> = { x: '1' }
    await storage.setItem(keys.keychain, keychain)
    keychain.y = '2'
    expect(await storage.getItem(keys.keychain)).toEqual({ x: '1' })
  })

  test('behavior: only the keys a reload needs are persisted', async () => {
    const { backend } = mapBackend()
    const storage = WalletConnectStorage.create({ backend })
    await fill(storage, Object.keys(keys) as (keyof typeof keys)[])
    storage.flush()
    expect((await reload(backend)).map(([key]) => key.replace(topic, '<topic>'))).toMatchInlineSnapshot(`
      [
        "wc@2:core:0.3//keychain",
        "wc@2:core:0.3//subscription",
        "wc@2:client:0.3//session",
        "wc@2:universal_provider:/namespaces<topic>",
        "wc@2:universal_provider:/optionalNamespaces<topic>",
      ]
    `)
    expect(Object.fromEntries(await reload(backend))[keys.session]).toEqual(values.session)
  })

  test('behavior: writes are coalesced into one persist after a short delay', async () => {
    const { backend, writes } = mapBackend()
    const storage = WalletConnectStorage.create({ backend })
    await fill(storage, ['session'])
    for (let i = 0; i < 20; i++) await storage.setItem(keys.keychain, { i: String(i) })
    expect(writes).toEqual([])
    await vi.advanceTimersByTimeAsync(100)
    expect(writes).toEqual(['@doorway/wc.0', '@doorway/wc'])
    expect(await reload(backend)).toEqual([
      [keys.session, values.session],
      [keys.keychain, { i: '19' }],
    ])
  })

  test('behavior: volatile writes and unchanged values never touch the backend', async () => {
    const { backend, writes } = mapBackend()
    const storage = WalletConnectStorage.create({ backend })
    await fill(storage, ['session'])
    storage.flush()
    writes.length = 0
    await fill(storage, ['messages', 'history', 'request', 'session'])
    await vi.advanceTimersByTimeAsync(100)
    expect(writes).toEqual([])
  })

  test('behavior: pagehide persists at once', async () => {
    const { backend, map } = mapBackend()
    const page = new EventTarget()
    const storage = WalletConnectStorage.create({ backend, page })
    await fill(storage, ['session'])
    page.dispatchEvent(new Event('pagehide'))
    expect(map.get('@doorway/wc')).toBe('1')
  })

  test('behavior: without a session nothing is persisted, and ending it removes the cookies', async () => {
    const doc = jar()
    const storage = WalletConnectStorage.create({ backend: cookieBackend(doc) })
    await fill(storage, ['keychain', 'subscription'])
    storage.flush()
    expect(doc.cookie).toBe('')
    await fill(storage, ['session'])
    storage.flush()
    expect(doc.cookie).not.toBe('')
    await storage.setItem(keys.session, [])
    storage.flush()
    expect(doc.cookie).toBe('')
  })

  test('behavior: a value bigger than a cookie round-trips in cookie-sized chunks', async () => {
    const doc = jar()
    const storage = WalletConnectStorage.create({ backend: cookieBackend(doc) })
    const session = [{ topic, peer: { metadata: { description: 'ü"; '.repeat(400) } } }]
    await storage.setItem(keys.session, session)
    storage.flush()
    expect([...doc.cookies.keys()]).toEqual(['%40doorway%2Fwc.0', '%40doorway%2Fwc.1', '%40doorway%2Fwc.2', '%40doorway%2Fwc'])
    for (const value of doc.cookies.values()) expect(value.length).toBeLessThanOrEqual(3_500)
    expect(await reload(cookieBackend(doc))).toEqual([[keys.session, session]])
  })

  test('behavior: a smaller value removes the chunks it no longer needs', async () => {
    const doc = jar()
    const storage = WalletConnectStorage.create({ backend: cookieBackend(doc) })
    await storage.setItem(keys.session, [{ topic, description: 'x'.repeat(7_500) }])
    storage.flush()
    expect(doc.cookies.size).toBe(4)
    await storage.setItem(keys.session, values.session)
    storage.flush()
    expect([...doc.cookies.keys()]).toEqual(['%40doorway%2Fwc.0', '%40doorway%2Fwc'])
    expect(await reload(cookieBackend(doc))).toEqual([[keys.session, values.session]])
  })

  test('behavior: state too big for the cookie budget is not persisted rather than left stale', async () => {
    const doc = jar()
    const storage = WalletConnectStorage.create({ backend: cookieBackend(doc) })
    await fill(storage, ['session'])
    storage.flush()
    await storage.setItem(keys.session, [{ topic, description: 'x'.repeat(20_000) }])
    storage.flush()
    expect(doc.cookies.size).toBe(0)
  })

  test('behavior: clear forgets everything, in memory and persisted', async () => {
    const doc = jar()
    const storage = WalletConnectStorage.create({ backend: cookieBackend(doc) })
    await fill(storage, ['keychain', 'session', 'messages'])
    storage.flush()
    storage.clear()
    expect(await storage.getKeys()).toEqual([])
    expect(doc.cookie).toBe('')
  })

  test.each([
    ['JSON that does not parse', { '@doorway/wc': '1', '@doorway/wc.0': '{"wc@2:client:0.3//session":[' }],
    ['a missing chunk', { '@doorway/wc': '2', '@doorway/wc.0': '{}' }],
    ['a count that is no number', { '@doorway/wc': 'many', '@doorway/wc.0': '{}' }],
    ['a count beyond the budget', { '@doorway/wc': '99', '@doorway/wc.0': '{}' }],
    ['a blob that is no object', { '@doorway/wc': '1', '@doorway/wc.0': '[1,2]' }],
    ['foreign keys', { '@doorway/wc': '1', '@doorway/wc.0': '{"wc@2:core:0.3//messages":{},"other":1}' }],
    ['a persisted key of the wrong shape', { '@doorway/wc': '1', '@doorway/wc.0': '{"wc@2:client:0.3//session":{}}' }],
  ])('error: %s is dropped, never thrown', async (_, entries) => {
    expect(await reload(mapBackend(entries).backend)).toEqual([])
  })

  test('error: foreign keys beside valid ones are dropped, the valid ones kept', async () => {
    const blob = JSON.stringify({ [keys.session]: values.session, [keys.messages]: values.messages })
    expect(await reload(mapBackend({ '@doorway/wc': '1', '@doorway/wc.0': blob }).backend)).toEqual([[keys.session, values.session]])
  })

  test('error: a backend that throws leaves a working memory store', async () => {
    const fail = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    }
    const storage = WalletConnectStorage.create({ backend: { get: fail, set: fail, remove: fail } })
    await fill(storage, ['session'])
    expect(() => storage.flush()).not.toThrow()
    expect(await storage.getItem(keys.session)).toEqual(values.session)
  })
})
