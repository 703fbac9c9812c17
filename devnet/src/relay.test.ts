import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import WebSocket from 'ws'
import * as Relay from './relay.js'

type Frame = { id?: number | string; method?: string; params?: any; result?: unknown; error?: { code: number; message: string } }

/** A bare JSON-RPC client: what the sdk's relayer does, without the sdk. */
async function client(url: string, options: { clientId?: string; ack?: boolean } = {}) {
  const { clientId, ack = true } = options
  const auth = clientId ? `?auth=${jwt({ iss: clientId, sub: 'random-session-id' })}&projectId=doorway-test` : ''
  const socket = new WebSocket(url + auth)
  const pending = new Map<string, (frame: Frame) => void>()
  const deliveries: Frame[] = []
  const waiting: (() => void)[] = []
  const raw: string[] = []
  socket.on('message', (data) => {
    const text = data.toString()
    raw.push(text)
    const frame = JSON.parse(text) as Frame
    if (frame.method === 'irn_subscription') {
      deliveries.push(frame)
      if (ack) socket.send(JSON.stringify({ id: frame.id, jsonrpc: '2.0', result: true }))
      waiting.splice(0).forEach((wake) => wake())
    } else pending.get(String(frame.id))?.(frame)
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let nextId = 1
  const send = (text: string, id: string) =>
    new Promise<Frame>((resolve) => {
      pending.set(id, resolve)
      socket.send(text)
    })
  return {
    socket,
    raw,
    deliveries,
    request: (method: string, params: unknown = {}) => {
      const id = nextId++
      return send(JSON.stringify({ id, jsonrpc: '2.0', method, params }), String(id))
    },
    /** Sends text as is; resolves with the reply to `id` (null for unparseable frames). */
    sendRaw: (text: string, id: string) => send(text, id),
    /** Resolves once `count` deliveries arrived in all. */
    delivered: async (count: number) => {
      while (deliveries.length < count) await new Promise<void>((wake) => waiting.push(wake))
      return deliveries.map((d) => d.params.data as { topic: string; message: string; tag: number; attestation: string })
    },
    close: () =>
      new Promise((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve(undefined)
        socket.once('close', resolve)
        socket.close()
      }),
  }
}

const jwt = (payload: object) =>
  [{ alg: 'EdDSA', typ: 'JWT' }, payload, 'signature'].map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')).join('.')

/** Lets frames in flight arrive: a request round trip on each client. */
const settle = (...clients: { request(m: string, p?: unknown): Promise<Frame> }[]) =>
  Promise.all(clients.map((c) => c.request('irn_batchFetchMessages', { topics: ['settle'] })))

const alice = 'did:key:z6MkAlice'
const bob = 'did:key:z6MkBob'
const carol = 'did:key:z6MkCarol'

let relay: Relay.start.ReturnType
let clients: Awaited<ReturnType<typeof client>>[]
const open = async (...args: Parameters<typeof client>) => {
  const c = await client(...args)
  clients.push(c)
  return c
}

beforeEach(async () => {
  clients = []
  relay = await Relay.start({ port: 0 })
})
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await relay.stop()
  vi.useRealTimers()
})

describe('start', () => {
  test('behavior: listens on loopback and reports its url and port', () => {
    expect(relay.url).toBe(`ws://127.0.0.1:${relay.port}`)
    expect(relay.port).toBeGreaterThan(0)
  })

  test('behavior: pings every pingMs', async () => {
    const fast = await Relay.start({ port: 0, pingMs: 20 })
    const c = await client(fast.url)
    await new Promise((resolve) => c.socket.once('ping', resolve))
    await c.close()
    await fast.stop()
  })

  test('behavior: stop closes the open connections', async () => {
    const c = await client(relay.url)
    const closed = new Promise((resolve) => c.socket.once('close', resolve))
    await relay.stop()
    await closed
  })

  test('param: log receives the frames; silent without it', async () => {
    const lines: string[] = []
    const logged = await Relay.start({ port: 0, log: (line) => lines.push(line) })
    const c = await client(logged.url, { clientId: alice })
    await c.request('irn_subscribe', { topic: 't' })
    expect(lines.map((l) => l.slice(0, 1))).toEqual(['←', '→'])
    await c.close()
    await logged.stop()
  })
})

describe('irn_subscribe', () => {
  test('behavior: the id is sha256(topic + client id), the client id being the auth JWT iss', async () => {
    const c = await open(relay.url, { clientId: alice })
    const { result } = await c.request('irn_subscribe', { topic: 'abc' })
    expect(result).toBe(Relay.subscriptionId('abc', alice))
    expect(Relay.subscriptionId('abc', alice)).toMatch(/^[0-9a-f]{64}$/)
  })

  test('behavior: without auth the connection gets an id of its own', async () => {
    const c = await open(relay.url)
    const { result } = await c.request('irn_subscribe', { topic: 'abc' })
    expect(result).toMatch(/^[0-9a-f]{64}$/)
    expect(result).not.toBe(Relay.subscriptionId('abc', alice))
  })

  test('error: a missing topic is invalid params', async () => {
    const c = await open(relay.url)
    expect((await c.request('irn_subscribe', {})).error).toMatchObject({ code: -32602 })
  })
})

describe('irn_publish', () => {
  test('behavior: reaches every other subscriber once and never echoes to the publisher', async () => {
    const [a, b, c] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob }), open(relay.url, { clientId: carol })])
    for (const x of [a, b, c]) await x.request('irn_subscribe', { topic: 't' })
    expect((await a.request('irn_publish', { topic: 't', message: 'm1', ttl: 300, tag: 1108 })).result).toBe(true)
    expect(await b.delivered(1)).toEqual([{ topic: 't', message: 'm1', tag: 1108, attestation: '', publishedAt: expect.any(Number) }])
    await c.delivered(1)
    await settle(a, b, c)
    expect([a.deliveries.length, b.deliveries.length, c.deliveries.length]).toEqual([0, 1, 1])
    expect(b.deliveries[0]?.params.id).toBe(Relay.subscriptionId('t', bob))
  })

  test('behavior: a late subscriber finds the message in the mailbox, once', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await a.request('irn_publish', { topic: 't', message: 'early', ttl: 300 })
    await b.request('irn_subscribe', { topic: 't' })
    expect((await b.delivered(1)).map((d) => d.message)).toEqual(['early'])
    await b.request('irn_subscribe', { topic: 't' })
    await settle(b)
    expect(b.deliveries).toHaveLength(1)
  })

  test('behavior: an expired message is not delivered', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await a.request('irn_publish', { topic: 't', message: 'short', ttl: 5 })
    vi.setSystemTime(Date.now() + 6_000)
    await b.request('irn_subscribe', { topic: 't' })
    await settle(b)
    expect(b.deliveries).toHaveLength(0)
  })

  test('behavior: a delivery not acknowledged before the socket closed comes again on resubscribe', async () => {
    const a = await open(relay.url, { clientId: alice })
    const lossy = await client(relay.url, { clientId: bob, ack: false })
    await lossy.request('irn_subscribe', { topic: 't' })
    await a.request('irn_publish', { topic: 't', message: 'again', ttl: 300 })
    await lossy.delivered(1)
    await lossy.close()
    const back = await open(relay.url, { clientId: bob })
    await back.request('irn_subscribe', { topic: 't' })
    expect((await back.delivered(1)).map((d) => d.message)).toEqual(['again'])
  })

  test('behavior: an acknowledged delivery does not come again after a reconnect', async () => {
    const a = await open(relay.url, { clientId: alice })
    const first = await client(relay.url, { clientId: bob })
    await first.request('irn_subscribe', { topic: 't' })
    await a.request('irn_publish', { topic: 't', message: 'once', ttl: 300 })
    await first.delivered(1)
    await settle(first)
    await first.close()
    const back = await open(relay.url, { clientId: bob })
    await back.request('irn_subscribe', { topic: 't' })
    await settle(back)
    expect(back.deliveries).toHaveLength(0)
  })

  test('behavior: the mailbox keeps at most mailboxPerTopic messages per topic, dropping the oldest', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    const count = Relay.limits.mailboxPerTopic + 3
    for (let i = 0; i < count; i++) await a.request('irn_publish', { topic: 't', message: `m${i}`, ttl: 300 })
    expect(relay.stats().stored).toBe(Relay.limits.mailboxPerTopic)
    await b.request('irn_subscribe', { topic: 't' })
    const got = await b.delivered(Relay.limits.mailboxPerTopic)
    expect(got[0]?.message).toBe('m3')
  })

  test('error: a publish without a message is invalid params and reaches nobody', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await b.request('irn_subscribe', { topic: 't' })
    expect((await a.request('irn_publish', { topic: 't' })).error).toMatchObject({ code: -32602 })
    await settle(b)
    expect(b.deliveries).toHaveLength(0)
  })
})

describe('irn_unsubscribe', () => {
  test('behavior: stops delivery on the topic', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    const { result: id } = await b.request('irn_subscribe', { topic: 't' })
    expect((await b.request('irn_unsubscribe', { topic: 't', id })).result).toBe(true)
    await a.request('irn_publish', { topic: 't', message: 'gone', ttl: 0 })
    await settle(b)
    expect(b.deliveries).toHaveLength(0)
    expect(relay.stats().subscriptions).toBe(0)
  })
})

describe('batch methods', () => {
  test('behavior: batchSubscribe, batchPublish and batchUnsubscribe act on every entry', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    const { result } = await b.request('irn_batchSubscribe', { topics: ['x', 'y'] })
    expect(result).toEqual([Relay.subscriptionId('x', bob), Relay.subscriptionId('y', bob)])
    const messages = [
      { topic: 'x', message: 'mx', ttl: 300, tag: 1 },
      { topic: 'y', message: 'my', ttl: 300, tag: 2 },
    ]
    expect((await a.request('irn_batchPublish', { messages })).result).toBe(true)
    expect((await b.delivered(2)).map((d) => d.message).sort()).toEqual(['mx', 'my'])
    const subscriptions = [{ topic: 'x', id: Relay.subscriptionId('x', bob) }, { topic: 'y', id: Relay.subscriptionId('y', bob) }]
    expect((await b.request('irn_batchUnsubscribe', { subscriptions })).result).toBe(true)
    expect(relay.stats().subscriptions).toBe(0)
  })

  test('behavior: batchFetchMessages returns what this client has not had yet, then nothing', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await a.request('irn_publish', { topic: 'x', message: 'waiting', ttl: 300, tag: 7 })
    const { result } = await b.request('irn_batchFetchMessages', { topics: ['x'] })
    expect(result).toEqual({
      messages: [{ topic: 'x', message: 'waiting', tag: 7, attestation: '', publishedAt: expect.any(Number) }],
      hasMore: false,
    })
    expect((await b.request('irn_batchFetchMessages', { topics: ['x'] })).result).toEqual({ messages: [], hasMore: false })
  })
})

describe('wc_proposeSession', () => {
  test('behavior: subscribes the proposer to the pairing topic and publishes the proposal there', async () => {
    const [dapp, wallet] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    const params = { pairingTopic: 'pairing', sessionProposal: 'proposal', ttl: 300, correlationId: 1761234567890123456n }
    // The sdk's correlationId is a bigint; it reaches the relay as a bare 19-digit number.
    const text = JSON.stringify({ id: 5, jsonrpc: '2.0', method: 'wc_proposeSession', params }, (_, v) =>
      typeof v === 'bigint' ? Number(v) : v,
    )
    expect((await dapp.sendRaw(text, '5')).result).toBe(true)
    await wallet.request('irn_subscribe', { topic: 'pairing' })
    expect(await wallet.delivered(1)).toMatchObject([{ topic: 'pairing', message: 'proposal', tag: 1100 }])
    // The wallet's answers on the pairing topic reach the dapp, which never subscribed itself.
    await wallet.request('irn_publish', { topic: 'pairing', message: 'answer', ttl: 300 })
    expect(await dapp.delivered(1)).toMatchObject([{ topic: 'pairing', message: 'answer' }])
  })
})

describe('wc_approveSession', () => {
  test('behavior: subscribes the approver to the session topic, answers on the pairing topic, settles on the session topic', async () => {
    const [dapp, wallet] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await dapp.request('irn_batchSubscribe', { topics: ['pairing', 'session'] })
    const params = {
      sessionTopic: 'session',
      pairingTopic: 'pairing',
      sessionProposalResponse: 'response',
      sessionSettlementRequest: 'settlement',
      ttl: 300,
    }
    expect((await wallet.request('wc_approveSession', params)).result).toBe(true)
    expect(await dapp.delivered(2)).toMatchObject([
      { topic: 'pairing', message: 'response', tag: 1101 },
      { topic: 'session', message: 'settlement', tag: 1102 },
    ])
    await dapp.request('irn_publish', { topic: 'session', message: 'request', ttl: 300 })
    expect(await wallet.delivered(1)).toMatchObject([{ topic: 'session', message: 'request' }])
  })

  test('error: a missing settlement is invalid params and publishes nothing', async () => {
    const wallet = await open(relay.url, { clientId: bob })
    const params = { sessionTopic: 'session', pairingTopic: 'pairing', sessionProposalResponse: 'response' }
    expect((await wallet.request('wc_approveSession', params)).error).toMatchObject({ code: -32602 })
    expect(relay.stats()).toMatchObject({ published: 0, subscriptions: 0 })
  })
})

describe('JSON-RPC', () => {
  test('behavior: a 19-digit request id comes back exactly', async () => {
    const c = await open(relay.url, { clientId: alice })
    await c.sendRaw('{"id":1761234567890123456,"jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"t"}}', String(Number('1761234567890123456')))
    expect(c.raw.at(-1)).toMatch(/^\{"id":1761234567890123456,/)
  })

  test('behavior: a string id comes back as the same string', async () => {
    const c = await open(relay.url)
    const reply = await c.sendRaw('{"id":"1761234567890123456","jsonrpc":"2.0","method":"irn_unsubscribe","params":{"topic":"t"}}', '1761234567890123456')
    expect(reply).toEqual({ id: '1761234567890123456', jsonrpc: '2.0', result: true })
  })

  test.each([
    ['bad JSON', '{"id":1,', null, -32700],
    ['not an object', '[1,2]', null, -32600],
    ['no method', '{"id":2,"jsonrpc":"2.0"}', 2, -32600],
    ['an unknown method', '{"id":3,"jsonrpc":"2.0","method":"eth_chainId"}', 3, -32601],
  ])('error: %s gets a JSON-RPC error and the relay keeps serving', async (_, text, id, code) => {
    const c = await open(relay.url)
    const reply = await c.sendRaw(text, String(id))
    expect(reply).toMatchObject({ id, jsonrpc: '2.0', error: { code } })
    expect((await c.request('irn_subscribe', { topic: 't' })).result).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe('stats', () => {
  test('behavior: counts connections, subscriptions, stored, published and delivered messages', async () => {
    const [a, b] = await Promise.all([open(relay.url, { clientId: alice }), open(relay.url, { clientId: bob })])
    await b.request('irn_subscribe', { topic: 't' })
    await a.request('irn_publish', { topic: 't', message: 'm', ttl: 300 })
    await b.delivered(1)
    expect(relay.stats()).toEqual({ connections: 2, subscriptions: 1, stored: 1, published: 1, delivered: 1 })
    await b.close()
    await vi.waitFor(() => expect(relay.stats()).toMatchObject({ connections: 1, subscriptions: 0 }))
  })
})

describe('clientIdFromUrl', () => {
  test.each([
    ['/?auth=' + jwt({ iss: alice, sub: 'x' }), alice],
    ['/?auth=' + jwt({ sub: alice }), undefined],
    ['/?auth=not-a-jwt', undefined],
    ['/?projectId=p', undefined],
  ])('param: %s → %s', (url, expected) => {
    expect(Relay.clientIdFromUrl(url)).toBe(expected)
  })
})
