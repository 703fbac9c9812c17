import { expose } from 'comlink'
import { describe, expect, test, vi } from 'vitest'
import * as Channel from './Channel.js'
import * as Errors from './Errors.js'
import * as S from './Schema.js'

const params = {
  greet: S.object({ name: S.string({ max: 8 }) }),
  fail: S.object({ kind: S.literal('typed', 'plain') }),
  hang: S.object({}),
  lie: S.object({}),
}
const results = { greet: S.string(), fail: S.literal(null), hang: S.literal(null), lie: S.number }
type Api = { params: typeof params; results: typeof results }
type None = { params: Record<string, never>; results: Record<string, never> }

function pair(serverExpose: Channel.Expose = expose) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn: vi.fn(), debug: vi.fn() }
  const calls = vi.fn()
  const server = Channel.create<Api, None>({
    port: port1,
    log,
    accepts: params,
    expects: {},
    expose: serverExpose,
    handlers: {
      greet: ({ name }) => {
        calls(name)
        return `hello ${name}`
      },
      fail: ({ kind }) => {
        throw kind === 'typed' ? Errors.userRejected() : new Error('secret internals at /srv/app.ts:12')
      },
      hang: () => new Promise<null>(() => {}),
      lie: () => 'not a number' as never,
    },
  })
  const clientLog = { warn: vi.fn(), debug: vi.fn() }
  const client = Channel.create<None, Api>({ port: port2, log: clientLog, accepts: {}, expects: results, handlers: {}, expose: Channel.respond })
  return { client, server, log, clientLog, calls, port2 }
}

/** Waits until the server side has logged `count` ignored messages: no sleeps. */
async function ignored(log: { warn: ReturnType<typeof vi.fn> }, count = 1) {
  await vi.waitFor(() => expect(log.warn).toHaveBeenCalledTimes(count))
}

describe.each([
  ['comlink expose', expose],
  ['respond', Channel.respond],
] as const)('create (served by %s)', (_, serverExpose) => {
  test('behavior: a call resolves with the handler result', async () => {
    const { client } = pair(serverExpose)
    await expect(client.call('greet', { name: 'ada' })).resolves.toBe('hello ada')
  })

  test('error: a typed error crosses with its code and message', async () => {
    const { client } = pair(serverExpose)
    const error = await client.call('fail', { kind: 'typed' }).catch((e) => e)
    expect([error.code, error.message]).toEqual([4001, 'User rejected the request.'])
  })

  test('error: an unexpected error crosses as 5000 without its internals', async () => {
    const { client } = pair(serverExpose)
    const error = await client.call('fail', { kind: 'plain' }).catch((e) => e)
    expect([error.code, error.message]).toEqual([5000, 'Something went wrong'])
  })
})

describe('create: calls', () => {
  test('param: params that fail the schema are refused by the receiver, which answers -32602 at once', async () => {
    const { client, calls, log } = pair()
    await expect(client.call('greet', { name: 'far too long a name' }, { timeoutMs: 60_000 })).rejects.toMatchObject({ code: -32602, message: 'Invalid method parameter(s).' })
    expect(log.warn).toHaveBeenCalledWith('ignored call', ['greet'])
    expect(calls).not.toHaveBeenCalled()
  })

  test('error: times out', async () => {
    const { client } = pair()
    await expect(client.call('hang', {}, { timeoutMs: 20 })).rejects.toThrow('Request timed out')
  })

  test('error: an abort signal cancels', async () => {
    const { client } = pair()
    const controller = new AbortController()
    const pending = client.call('hang', {}, { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toThrow('Request was aborted')
  })

  test('error: cancelAll rejects every pending call with the given error', async () => {
    const { client } = pair()
    const pending = [client.call('hang', {}), client.call('hang', {})]
    client.cancelAll(Errors.userRejected())
    for (const p of pending) await expect(p).rejects.toMatchObject({ code: 4001 })
  })

  test('error: a reply that fails the result schema is refused and logged', async () => {
    const { client, clientLog } = pair()
    await expect(client.call('lie', {})).rejects.toMatchObject({ code: 5000 })
    expect(clientLog.warn).toHaveBeenCalledWith('ignored reply', 'lie')
  })

  test('behavior: each call gets a fresh random 128-bit id', async () => {
    const { port1, port2 } = new MessageChannel()
    const ids: string[] = []
    port1.addEventListener('message', (e) => ids.push((e as MessageEvent).data.id))
    port1.start()
    const client = Channel.create<None, Api>({ port: port2, log: { warn() {}, debug() {} }, accepts: {}, expects: results, handlers: {}, expose: Channel.respond })
    void client.call('hang', {}, { timeoutMs: 50 }).catch(() => {})
    void client.call('hang', {}, { timeoutMs: 50 }).catch(() => {})
    await vi.waitFor(() => expect(ids).toHaveLength(2))
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(ids[0]).not.toBe(ids[1])
  })
})

describe('create: hostile messages are ignored and logged, never acted on', () => {
  const id = 'a'.repeat(32)
  const raw = (value: unknown) => [{ type: 'RAW', value }]
  test.each<[string, unknown]>([
    ['a GET of a method', { id, type: 'GET', path: ['greet'] }],
    ['a SET of a method', { id, type: 'SET', path: ['greet'], value: { type: 'RAW', value: 1 } }],
    ['a CONSTRUCT', { id, type: 'CONSTRUCT', path: ['greet'], argumentList: raw({ name: 'x' }) }],
    ['an ENDPOINT request', { id, type: 'ENDPOINT' }],
    ['a RELEASE', { id, type: 'RELEASE' }],
    ['a method outside the allowlist', { id, type: 'APPLY', path: ['toString'], argumentList: raw({}) }],
    ['a prototype path', { id, type: 'APPLY', path: ['__proto__'], argumentList: raw({}) }],
    ['a constructor path', { id, type: 'APPLY', path: ['constructor'], argumentList: raw({}) }],
    ['a two-segment path', { id, type: 'APPLY', path: ['greet', 'call'], argumentList: raw({ name: 'x' }) }],
    ['an empty path', { id, type: 'APPLY', path: [], argumentList: raw({}) }],
    ['a proxy argument', { id, type: 'APPLY', path: ['greet'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: null }] }],
    ['two arguments', { id, type: 'APPLY', path: ['greet'], argumentList: [...raw({ name: 'x' }), ...raw({ name: 'y' })] }],
    ['a short id', { id: '1234', type: 'APPLY', path: ['greet'], argumentList: raw({ name: 'x' }) }],
    ['a non-object', 'APPLY greet'],
    ['null', null],
    ['a reply nobody asked for', { id, type: 'RAW', value: { ok: true, value: 'x' } }],
  ])('error: %s', async (_, message) => {
    const { log, calls, port2 } = pair()
    const replies = vi.fn()
    port2.addEventListener('message', replies)
    port2.postMessage(message)
    await ignored(log)
    expect(calls).not.toHaveBeenCalled()
    expect(replies).not.toHaveBeenCalled()
  })

  test('behavior: the same call, well formed, is served (the table above can fail)', async () => {
    const { calls, port2 } = pair()
    const reply = new Promise((resolve) => port2.addEventListener('message', (e) => resolve((e as MessageEvent).data), { once: true }))
    port2.postMessage({ id, type: 'APPLY', path: ['greet'], argumentList: raw({ name: 'x' }) })
    await expect(reply).resolves.toEqual({ id, type: 'RAW', value: { ok: true, value: 'hello x' } })
    expect(calls).toHaveBeenCalledWith('x')
  })
})

/** A window stand-in: an EventTarget with a parent whose postMessage is recorded. */
function fakeWindow() {
  const parent = { postMessage: vi.fn() }
  const win = Object.assign(new EventTarget(), { parent, location: { ancestorOrigins: [] }, document: { referrer: '' } })
  return { win: win as unknown as Window, parent }
}
function deliver(target: EventTarget, init: { data: unknown; origin: string; source: unknown; ports?: MessagePort[] }) {
  target.dispatchEvent(Object.assign(new Event('message'), { ports: [], ...init }))
}
const connect = { type: 'doorway:connect', version: 1 }
const ready = { type: 'doorway:ready', version: 1 }

describe('accept', () => {
  const parentOrigin = 'https://dapp.example'
  test('behavior: posts ready to the exact parent origin, never "*"', () => {
    const { win, parent } = fakeWindow()
    void Channel.accept({ parentOrigin, log: { warn() {}, debug() {} }, window: win })
    expect(parent.postMessage).toHaveBeenCalledWith(ready, parentOrigin)
  })

  test.each<[string, Partial<{ data: unknown; origin: string; wrongSource: boolean; ports: number }>]>([
    ['a foreign origin from the parent window', { origin: 'https://evil.example' }],
    ['the right origin from another window', { wrongSource: true }],
    ['a wrong protocol version', { data: { ...connect, version: 2 } }],
    ['no port', { ports: 0 }],
    ['two ports', { ports: 2 }],
    ['extra fields', { data: { ...connect, port: 'x' } }],
  ])('error: refuses %s', async (_, bad) => {
    const { win, parent } = fakeWindow()
    const log = { warn: vi.fn(), debug: vi.fn() }
    const accepted = vi.fn()
    void Channel.accept({ parentOrigin, log, window: win }).then(accepted)
    const ports = Array.from({ length: bad.ports ?? 1 }, () => new MessageChannel().port1)
    deliver(win, { data: bad.data ?? connect, origin: bad.origin ?? parentOrigin, source: bad.wrongSource ? {} : parent, ports })
    expect(log.warn.mock.calls.length + log.debug.mock.calls.length).toBe(1)
    // The good message afterwards still works: the refusal did not act on anything.
    const good = new MessageChannel().port1
    deliver(win, { data: connect, origin: parentOrigin, source: parent, ports: [good] })
    await vi.waitFor(() => expect(accepted.mock.calls[0]?.[0]).toBe(good))
  })

  test('error: a second connect after the first is refused', async () => {
    const { win, parent } = fakeWindow()
    const log = { warn: vi.fn(), debug: vi.fn() }
    const first = new MessageChannel().port1
    const accepted = Channel.accept({ parentOrigin, log, window: win })
    deliver(win, { data: connect, origin: parentOrigin, source: parent, ports: [first] })
    deliver(win, { data: connect, origin: parentOrigin, source: parent, ports: [new MessageChannel().port1] })
    await expect(accepted).resolves.toBe(first)
    expect(log.warn).toHaveBeenCalledOnce()
  })
})

describe('offer', () => {
  const origin = 'https://frame.example'
  function setup() {
    const win = new EventTarget() as unknown as Window
    const child = { postMessage: vi.fn() }
    const iframe = { contentWindow: child } as unknown as HTMLIFrameElement
    const log = { warn: vi.fn(), debug: vi.fn() }
    const controller = new AbortController()
    const offered = Channel.offer({ iframe, origin, log, signal: controller.signal, window: win })
    return { win, child, log, offered, controller }
  }

  test('behavior: answers the frame\'s ready with one port, posted to the frame origin', async () => {
    const { win, child, offered } = setup()
    deliver(win, { data: ready, origin, source: child })
    const port = await offered
    expect(port).toBeInstanceOf(MessagePort)
    expect(child.postMessage).toHaveBeenCalledWith(connect, origin, [expect.any(MessagePort)])
  })

  test.each<[string, { origin?: string; wrongSource?: boolean; data?: unknown }]>([
    ['a ready from a foreign origin', { origin: 'https://evil.example' }],
    ['a ready from the frame origin but another window', { wrongSource: true }],
    ['a malformed message from the frame', { data: { type: 'doorway:ready' } }],
  ])('error: ignores %s and logs it', (_, bad) => {
    const { win, child, log } = setup()
    deliver(win, { data: bad.data ?? ready, origin: bad.origin ?? origin, source: bad.wrongSource ? {} : child })
    expect(child.postMessage).not.toHaveBeenCalled()
    expect(log.warn.mock.calls.length + log.debug.mock.calls.length).toBe(1)
  })

  test('error: a second ready after the handshake is logged, not answered', async () => {
    const { win, child, log, offered } = setup()
    deliver(win, { data: ready, origin, source: child })
    await offered
    deliver(win, { data: ready, origin, source: child })
    expect(child.postMessage).toHaveBeenCalledOnce()
    expect(log.warn).toHaveBeenCalledWith('ignored message', ready)
  })

  test('behavior: aborting stops listening and rejects', async () => {
    const { win, child, offered, controller } = setup()
    controller.abort(new Error('destroyed'))
    await expect(offered).rejects.toThrow('destroyed')
    deliver(win, { data: ready, origin, source: child })
    expect(child.postMessage).not.toHaveBeenCalled()
  })
})
