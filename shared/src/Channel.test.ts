import { expose } from 'comlink'
import { describe, expect, test, vi } from 'vitest'
import * as Channel from './Channel.js'
import * as Errors from './Errors.js'
import * as S from './Schema.js'

const api = {
  greet: { params: S.object({ name: S.string({ max: 8 }) }), result: S.string() },
  fail: { params: S.object({ kind: S.literal('typed', 'plain') }), result: S.literal(null) },
  hang: { params: S.object({}), result: S.literal(null) },
  lie: { params: S.object({}), result: S.number },
}
const empty = {}

function pair(serverExpose: Channel.Expose = expose) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn: vi.fn(), debug: vi.fn() }
  const calls = vi.fn()
  const server = Channel.create({
    port: port1,
    log,
    local: api,
    remote: empty,
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
  const client = Channel.create({ port: port2, log: clientLog, local: empty, remote: api, handlers: {}, expose: Channel.respond })
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
  test('param: params that fail the schema are refused before sending', async () => {
    const { client, calls } = pair()
    await expect(client.call('greet', { name: 'far too long a name' })).rejects.toThrow('Invalid params for greet')
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
    expect(clientLog.warn).toHaveBeenCalledWith('malformed reply to', 'lie')
  })

  test('behavior: each call gets a fresh random 128-bit id', async () => {
    const { port1, port2 } = new MessageChannel()
    const ids: string[] = []
    port1.addEventListener('message', (e) => ids.push((e as MessageEvent).data.id))
    port1.start()
    const client = Channel.create({ port: port2, log: { warn() {}, debug() {} }, local: empty, remote: api, handlers: {}, expose: Channel.respond })
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
    ['params failing the schema', { id, type: 'APPLY', path: ['greet'], argumentList: raw({ name: 'x', extra: 1 }) }],
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
