/**
 * A WalletConnect v2 relay for the devnet (docs/local-infra.md, "WalletConnect v2, fully offline"): the
 * hosted relay's JSON-RPC over WebSocket, so the real SDKs (sign-client, universal-provider, walletkit)
 * pair and talk through it with no internet. `import * as Relay from './relay.js'` → `await Relay.start()`.
 *
 * No auth, no projectId check, no rate limits, one process: everything else is what the clients see from
 * the hosted relay — subscription ids, a per-topic mailbox with TTL, once-only delivery, no echo, pings.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'

/** Bounds that keep a long-running relay's memory flat. */
export const limits = {
  /** Largest frame a client may send (a WalletConnect message is a few KiB). */
  maxPayloadBytes: 512 * 1024,
  /** Messages kept per topic for late subscribers; the oldest goes first. */
  mailboxPerTopic: 64,
  /** Messages kept over all topics; the oldest goes first. */
  mailboxTotal: 10_000,
  /** A publisher's ttl is capped at the hosted relay's maximum, 30 days. */
  maxTtlSeconds: 30 * 24 * 60 * 60,
  /** The ttl the sdk uses (FIVE_MINUTES) when a publish names none. */
  defaultTtlSeconds: 300,
}

// WalletConnect tags (sign-client constants/engine.ts): the relay sets these on the messages it splits
// out of wc_proposeSession and wc_approveSession.
const tags = { sessionPropose: 1100, sessionProposeResponse: 1101, sessionSettle: 1102 }

/** JSON-RPC 2.0 error codes. */
const errors = {
  parse: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid Request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
  invalidParams: { code: -32602, message: 'Invalid params' },
  internal: { code: -32603, message: 'Internal error' },
} as const

export function start(options: start.Options = {}): Promise<start.ReturnType> {
  const { port = 8790, host = '127.0.0.1', pingMs = 10_000, log } = options
  const relay = createState(log)
  const wss = new WebSocketServer({ port, host, maxPayload: limits.maxPayloadBytes })

  wss.on('connection', (socket, request) => connect(relay, socket, request))

  // A WebSocket ping frame every pingMs: Node clients terminate a socket that stays silent ~35 s. A
  // socket that did not answer the previous ping is dead: drop it so its subscriptions go too.
  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if (!alive(relay, socket)) socket.terminate()
      else socket.ping()
    }
    prune(relay)
  }, pingMs)
  heartbeat.unref()

  return new Promise((resolve, reject) => {
    wss.once('error', reject)
    wss.once('listening', () => {
      wss.off('error', reject)
      const bound = (wss.address() as AddressInfo).port
      resolve({
        url: `ws://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        port: bound,
        stats: () => stats(relay),
        stop: () =>
          new Promise<void>((done) => {
            clearInterval(heartbeat)
            for (const socket of wss.clients) socket.terminate()
            wss.close(() => done())
          }),
      })
    })
  })
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `url` and `port` say which. */
    port?: number
    host?: string
    pingMs?: number
    /** Silent unless given: receives one line per frame in and out, for debugging a hanging client. */
    log?: (line: string) => void
  }
  type ReturnType = { url: string; port: number; stats(): Stats; stop(): Promise<void> }
}

export type Stats = {
  connections: number
  /** (client, topic) pairs. */
  subscriptions: number
  /** Messages waiting in mailboxes. */
  stored: number
  published: number
  delivered: number
}

/** The subscription id the sdk computes for itself (core subscriber.getSubscriptionId). */
export function subscriptionId(topic: string, clientId: string): string {
  return createHash('sha256').update(topic + clientId).digest('hex')
}

/**
 * The client id a connection authenticates as: the `iss` of the `auth` JWT in its URL, a did:key. The
 * sdk hashes topics with this id (crypto.getClientId is encodeIss(publicKey)); the JWT's `sub` is a
 * per-session random value. The signature is not checked: this relay trusts loopback.
 */
export function clientIdFromUrl(url: string): string | undefined {
  const jwt = new URL(url, 'ws://relay').searchParams.get('auth')
  const payload = jwt?.split('.')[1]
  if (!payload) return undefined
  try {
    const { iss } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown }
    return typeof iss === 'string' && iss.startsWith('did:key:') ? iss : undefined
  } catch {
    return undefined
  }
}

type Client = {
  socket: WebSocket
  /** Who the client is across reconnects; a random id when the URL carries no auth. */
  key: string
  topics: Set<string>
  /** Deliveries sent and not yet acknowledged: given back to the mailbox if the socket closes. */
  inflight: Map<string, Stored>
  alive: boolean
}

type Stored = {
  topic: string
  message: string
  tag: number
  publishedAt: number
  expiresAt: number
  publisher: string
  deliveredTo: Set<string>
}

type Request = { id: RawId; method: string; params: Record<string, unknown> }

/** Everything one relay holds: its connections, who listens on each topic, and the mailboxes. */
type State = {
  log: start.Options['log']
  clients: Map<WebSocket, Client>
  subscribers: Map<string, Set<Client>>
  mailbox: Map<string, Stored[]>
  counters: { published: number; delivered: number; stored: number }
  /** Ids of the relay's own requests (irn_subscription): safe integers, unique for the process. */
  nextId: number
}

function createState(log: start.Options['log']): State {
  return { log, clients: new Map(), subscribers: new Map(), mailbox: new Map(), counters: { published: 0, delivered: 0, stored: 0 }, nextId: Date.now() * 1000 }
}

function send(relay: State, client: Client, frame: string) {
  relay.log?.(`→ ${client.key.slice(-8)} ${frame.slice(0, 300)}`)
  if (client.socket.readyState === client.socket.OPEN) client.socket.send(frame)
}

function connect(relay: State, socket: WebSocket, request: IncomingMessage) {
  const client: Client = {
    socket,
    key: clientIdFromUrl(request.url ?? '') ?? `anonymous:${randomUUID()}`,
    topics: new Set(),
    inflight: new Map(),
    alive: true,
  }
  relay.clients.set(socket, client)
  socket.on('pong', () => (client.alive = true))
  socket.on('message', (data, isBinary) => {
    client.alive = true
    onFrame(relay, client, isBinary ? '' : data.toString())
  })
  socket.on('close', () => disconnect(relay, client))
  // A protocol error (oversized frame) closes the socket; never let it reach the process.
  socket.on('error', () => socket.terminate())
}

function disconnect(relay: State, client: Client) {
  relay.clients.delete(client.socket)
  for (const topic of client.topics) unsubscribe(relay, client, topic)
  for (const stored of client.inflight.values()) stored.deliveredTo.delete(client.key)
  client.inflight.clear()
}

function onFrame(relay: State, client: Client, text: string) {
  relay.log?.(`← ${client.key.slice(-8)} ${text.slice(0, 300)}`)
  let frame: unknown
  try {
    frame = parseJson(text)
  } catch {
    return send(relay, client, errorFrame(null, errors.parse))
  }
  if (!isObject(frame)) return send(relay, client, errorFrame(null, errors.invalidRequest))
  const id = isRawId(frame.id) ? frame.id : null
  // A response: the client acknowledging one of our irn_subscription deliveries.
  if (!('method' in frame) && ('result' in frame || 'error' in frame)) {
    if (id !== null) client.inflight.delete(rawIdKey(id))
    return
  }
  if (typeof frame.method !== 'string' || id === null)
    return send(relay, client, errorFrame(id, errors.invalidRequest))
  const params = isObject(frame.params) ? frame.params : {}
  const handler = handlers[frame.method]
  if (!handler) return send(relay, client, errorFrame(id, errors.methodNotFound))
  try {
    const result = handler(relay, client, { id, method: frame.method, params })
    send(relay, client, resultFrame(id, result))
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    const base = error instanceof InvalidParams ? errors.invalidParams : errors.internal
    send(relay, client, errorFrame(id, { ...base, message: `${base.message}: ${detail}` }))
  }
}

const handlers: Record<string, (relay: State, client: Client, request: Request) => unknown> = {
  irn_subscribe: (relay, client, { params }) => subscribe(relay, client, string(params, 'topic')),
  irn_batchSubscribe: (relay, client, { params }) => strings(params, 'topics').map((topic) => subscribe(relay, client, topic)),
  irn_unsubscribe: (relay, client, { params }) => {
    unsubscribe(relay, client, string(params, 'topic'))
    return true
  },
  irn_batchUnsubscribe: (relay, client, { params }) => {
    const list = params.subscriptions
    if (!Array.isArray(list)) throw new InvalidParams('subscriptions')
    for (const entry of list) unsubscribe(relay, client, string(isObject(entry) ? entry : {}, 'topic'))
    return true
  },
  irn_publish: (relay, client, { params }) => {
    publish(relay, client, message(params, 'message'))
    return true
  },
  irn_batchPublish: (relay, client, { params }) => {
    const list = params.messages
    if (!Array.isArray(list)) throw new InvalidParams('messages')
    const checked = list.map((entry) => message(isObject(entry) ? entry : {}, 'message'))
    for (const entry of checked) publish(relay, client, entry)
    return true
  },
  irn_batchFetchMessages: (relay, client, { params }) => ({
    messages: strings(params, 'topics').flatMap((topic) =>
      pending(relay, client, topic).map((stored) => {
        stored.deliveredTo.add(client.key)
        return event(stored)
      }),
    ),
    hasMore: false,
  }),
  // The sign-client's session proposal: the relay subscribes the proposer to the pairing topic (the
  // wallet's answer comes there) and publishes the proposal on it. Without the implicit subscription
  // the dapp never hears back.
  wc_proposeSession: (relay, client, { params }) => {
    const topic = string(params, 'pairingTopic')
    const proposal = message({ ...params, topic, tag: params.tag ?? tags.sessionPropose }, 'sessionProposal')
    subscribe(relay, client, topic)
    publish(relay, client, proposal)
    return true
  },
  // The wallet's approval: subscribe the approver to the session topic, then publish the response on
  // the pairing topic and the settlement on the session topic.
  wc_approveSession: (relay, client, { params }) => {
    const sessionTopic = string(params, 'sessionTopic')
    const pairingTopic = string(params, 'pairingTopic')
    const response = message({ ...params, topic: pairingTopic, tag: tags.sessionProposeResponse }, 'sessionProposalResponse')
    const settlement = message({ ...params, topic: sessionTopic, tag: tags.sessionSettle }, 'sessionSettlementRequest')
    subscribe(relay, client, sessionTopic)
    publish(relay, client, response)
    publish(relay, client, settlement)
    return true
  },
}

function subscribe(relay: State, client: Client, topic: string): string {
  client.topics.add(topic)
  let set = relay.subscribers.get(topic)
  if (!set) relay.subscribers.set(topic, (set = new Set()))
  set.add(client)
  // After the subscribe result, like the hosted relay: what waited in the mailbox comes next.
  queueMicrotask(() => {
    for (const stored of pending(relay, client, topic)) deliver(relay, client, stored)
  })
  return subscriptionId(topic, client.key)
}

function unsubscribe(relay: State, client: Client, topic: string) {
  client.topics.delete(topic)
  const set = relay.subscribers.get(topic)
  set?.delete(client)
  if (set?.size === 0) relay.subscribers.delete(topic)
}

function publish(relay: State, client: Client, entry: Message) {
  const now = Date.now()
  const ttl = Math.min(entry.ttl ?? limits.defaultTtlSeconds, limits.maxTtlSeconds)
  const stored: Stored = {
    topic: entry.topic,
    message: entry.message,
    tag: entry.tag ?? 0,
    publishedAt: now,
    expiresAt: now + ttl * 1000,
    publisher: client.key,
    deliveredTo: new Set(),
  }
  relay.counters.published++
  if (ttl > 0) store(relay, stored)
  for (const subscriber of relay.subscribers.get(entry.topic) ?? []) {
    if (subscriber.key !== stored.publisher && !stored.deliveredTo.has(subscriber.key)) deliver(relay, subscriber, stored)
  }
}

function deliver(relay: State, client: Client, stored: Stored) {
  const id = relay.nextId++
  stored.deliveredTo.add(client.key)
  client.inflight.set(String(id), stored)
  relay.counters.delivered++
  const data = event(stored)
  const params = { id: subscriptionId(stored.topic, client.key), data }
  send(relay, client, JSON.stringify({ id, jsonrpc: '2.0', method: 'irn_subscription', params }))
}

/** Live messages on the topic this client has not had and did not publish. */
function pending(relay: State, client: Client, topic: string): Stored[] {
  const now = Date.now()
  return (relay.mailbox.get(topic) ?? []).filter(
    (s) => s.expiresAt > now && s.publisher !== client.key && !s.deliveredTo.has(client.key),
  )
}

function store(relay: State, stored: Stored) {
  let list = relay.mailbox.get(stored.topic)
  if (!list) relay.mailbox.set(stored.topic, (list = []))
  list.push(stored)
  relay.counters.stored++
  if (list.length > limits.mailboxPerTopic) {
    list.shift()
    relay.counters.stored--
  }
  if (relay.counters.stored > limits.mailboxTotal) dropOldest(relay)
}

function dropOldest(relay: State) {
  let oldest: Stored | undefined
  for (const list of relay.mailbox.values()) if (list[0] && (!oldest || list[0].publishedAt < oldest.publishedAt)) oldest = list[0]
  if (oldest) removeStored(relay, oldest.topic, (s) => s === oldest)
}

function removeStored(relay: State, topic: string, drop: (s: Stored) => boolean) {
  const list = relay.mailbox.get(topic)
  if (!list) return
  const kept = list.filter((s) => !drop(s))
  relay.counters.stored -= list.length - kept.length
  if (kept.length) relay.mailbox.set(topic, kept)
  else relay.mailbox.delete(topic)
}

/** Whether the socket answered since the last heartbeat; marks it as owing an answer to the next. */
function alive(relay: State, socket: WebSocket): boolean {
  const client = relay.clients.get(socket)
  if (!client) return false
  const wasAlive = client.alive
  client.alive = false
  return wasAlive
}

/** Drops expired messages. */
function prune(relay: State) {
  const now = Date.now()
  for (const topic of [...relay.mailbox.keys()]) removeStored(relay, topic, (s) => s.expiresAt <= now)
}

function stats(relay: State): Stats {
  return {
    connections: relay.clients.size,
    subscriptions: [...relay.subscribers.values()].reduce((n, set) => n + set.size, 0),
    stored: relay.counters.stored,
    published: relay.counters.published,
    delivered: relay.counters.delivered,
  }
}

function event(stored: Stored) {
  // attestation "" tells a wallet there is nothing to look up at the Verify API (local-infra.md)
  return { topic: stored.topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag, attestation: '' }
}

type Message = { topic: string; message: string; ttl?: number; tag?: number }

class InvalidParams extends Error {}

function string(params: Record<string, unknown>, key: string): string {
  const value = params[key]
  if (typeof value !== 'string' || value === '') throw new InvalidParams(key)
  return value
}

function strings(params: Record<string, unknown>, key: string): string[] {
  const value = params[key]
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) throw new InvalidParams(key)
  return value as string[]
}

function optionalNumber(params: Record<string, unknown>, key: string): number | undefined {
  const value = params[key]
  if (value === undefined || value === null) return undefined
  const n = typeof value === 'string' && value.startsWith(bigIntMark) ? Number(value.slice(bigIntMark.length)) : value
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new InvalidParams(key)
  return n
}

/** A publish's fields, with the message under `messageKey` (wc_* methods name it after its role). */
function message(params: Record<string, unknown>, messageKey: string): Message {
  return {
    topic: string(params, 'topic'),
    message: string(params, messageKey),
    ttl: optionalNumber(params, 'ttl'),
    tag: optionalNumber(params, 'tag'),
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// Request ids: the sdk sends 19-digit integers (getBigIntRpcId), past Number's precision. JSON.parse would
// round them and the answer would match no request, so integers of 16+ digits are kept as their text.
type RawId = string | number
const bigIntMark = '#int:'
const bigInts = /([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g

function parseJson(text: string): unknown {
  return JSON.parse(text.replace(bigInts, `$1"${bigIntMark}$2"`))
}

const isRawId = (value: unknown): value is RawId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))

const rawIdKey = (id: RawId) => (typeof id === 'string' && id.startsWith(bigIntMark) ? id.slice(bigIntMark.length) : String(id))

function encodeId(id: RawId | null): string {
  if (typeof id === 'string' && id.startsWith(bigIntMark)) return id.slice(bigIntMark.length)
  return JSON.stringify(id)
}

function resultFrame(id: RawId, result: unknown): string {
  return `{"id":${encodeId(id)},"jsonrpc":"2.0","result":${JSON.stringify(result)}}`
}

function errorFrame(id: RawId | null, error: { code: number; message: string }): string {
  return `{"id":${encodeId(id)},"jsonrpc":"2.0","error":${JSON.stringify(error)}}`
}
