/**
 * The chain's WebSocket, on the RPC's port + 1 (where web3.js's Connection looks for it): only
 * signatureSubscribe / signatureUnsubscribe, which web3.js's confirmTransaction and spl-token's helpers
 * wait on. A signature that has landed is notified at once; one still to land, when it does. As on a
 * node, a subscription ends with its one notification. The frame itself confirms by polling
 * getSignatureStatuses. `import * as Ws from './ws.js'`.
 */
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { isLoopback, isLoopbackHost } from '../httpServer.js'
import { codes } from './errors.js'
import * as Ledger from './ledger.js'
import * as Params from './params.js'

const maxPayloadBytes = 64 * 1024
/** Open subscriptions one socket may hold: a client that never unsubscribes cannot grow the server. */
const maxSubscriptions = 1000

type Subscription = { socket: WebSocket; id: number; signature: string }

type Server = { ledger: Ledger.Ledger; nextId: number; bySignature: Map<string, Set<Subscription>>; byId: Map<number, Subscription> }

export function start(ledger: Ledger.Ledger, options: { port: number; host: string }): Promise<{ url: string; stop(): Promise<void> }> {
  const { port, host } = options
  if (!isLoopback(host)) return Promise.reject(new Error(`The Solana websocket listens on loopback only, not ${host}`))
  const server: Server = { ledger, nextId: 1, bySignature: new Map(), byId: new Map() }
  const wss = new WebSocketServer({ port, host, maxPayload: maxPayloadBytes, verifyClient: ({ req }: { req: IncomingMessage }) => isLoopbackHost(req.headers.host) })
  wss.on('connection', (socket) => {
    socket.on('message', (data) => receive(server, socket, data))
    socket.on('close', () => forget(server, socket))
    // a frame over maxPayload or a broken one: ws then closes the socket, and an unheard error would throw
    socket.on('error', () => socket.terminate())
  })
  const stopListening = Ledger.onLanded(ledger, (record) => notify(server, record))
  return new Promise((resolve, reject) => {
    wss.once('error', reject)
    wss.once('listening', () => {
      wss.off('error', reject)
      const bound = (wss.address() as AddressInfo).port
      resolve({
        url: `ws://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        stop: () =>
          new Promise<void>((done) => {
            stopListening()
            for (const socket of wss.clients) socket.terminate()
            wss.close(() => done())
          }),
      })
    })
  })
}

const reply = (socket: WebSocket, message: unknown) => socket.send(JSON.stringify(message))
const fail = (socket: WebSocket, id: unknown, code: number, message: string) => reply(socket, { jsonrpc: '2.0', id, error: { code, message } })

function receive(server: Server, socket: WebSocket, data: RawData) {
  let request: unknown
  try {
    request = JSON.parse(data.toString())
  } catch {
    return fail(socket, null, codes.parse, 'Parse error')
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return fail(socket, null, codes.invalidRequest, 'Invalid Request')
  const { id, method, params = [] } = request as { id?: unknown; method?: unknown; params?: unknown }
  // web3.js pings with a notification (no id), which needs no answer
  if (id === undefined) return
  if (!Array.isArray(params)) return fail(socket, id, codes.invalidParams, 'Invalid params: params must be an array')
  if (method === 'signatureSubscribe') return subscribe(server, socket, id, params)
  if (method === 'signatureUnsubscribe') return unsubscribe(server, socket, id, params)
  fail(socket, id, codes.methodNotFound, 'Method not found')
}

function subscribe(server: Server, socket: WebSocket, requestId: unknown, params: unknown[]) {
  let signature: string
  try {
    signature = Params.signature(params, 0)
    Params.commitment(Params.config(params, 1))
  } catch (error) {
    return fail(socket, requestId, codes.invalidParams, (error as Error).message)
  }
  if ([...server.byId.values()].filter((s) => s.socket === socket).length >= maxSubscriptions) return fail(socket, requestId, codes.invalidRequest, 'Too many subscriptions')
  const subscription = { socket, id: server.nextId++, signature }
  reply(socket, { jsonrpc: '2.0', id: requestId, result: subscription.id })
  const landed = server.ledger.records.get(signature)
  if (landed) return send(subscription, landed)
  server.byId.set(subscription.id, subscription)
  server.bySignature.set(signature, (server.bySignature.get(signature) ?? new Set()).add(subscription))
}

function unsubscribe(server: Server, socket: WebSocket, requestId: unknown, params: unknown[]) {
  const subscription = typeof params[0] === 'number' ? server.byId.get(params[0]) : undefined
  if (!subscription || subscription.socket !== socket) return fail(socket, requestId, codes.invalidParams, 'Invalid subscription id.')
  drop(server, subscription)
  reply(socket, { jsonrpc: '2.0', id: requestId, result: true })
}

function send(subscription: Subscription, record: Ledger.Record) {
  const result = { context: { slot: record.slot }, value: { err: record.err } }
  reply(subscription.socket, { jsonrpc: '2.0', method: 'signatureNotification', params: { result, subscription: subscription.id } })
}

function notify(server: Server, record: Ledger.Record) {
  for (const subscription of server.bySignature.get(record.signature) ?? []) {
    send(subscription, record)
    drop(server, subscription)
  }
}

function drop(server: Server, subscription: Subscription) {
  server.byId.delete(subscription.id)
  const same = server.bySignature.get(subscription.signature)
  same?.delete(subscription)
  if (!same?.size) server.bySignature.delete(subscription.signature)
}

function forget(server: Server, socket: WebSocket) {
  for (const subscription of server.byId.values()) if (subscription.socket === socket) drop(server, subscription)
}
