/**
 * The hardened channel of docs/architecture.md §4.
 *
 * Handshake: the child posts `ready` to its parent's exact origin; the parent accepts it only from
 * that origin *and* that iframe's window, then transfers one MessagePort. Everything else runs on the
 * port. Nothing is ever posted with '*'.
 *
 * On the port, comlink's `expose` dispatches calls, but only after a filter has admitted them: an
 * APPLY, one path segment naming a method of this side's flat allowlisted API, one RAW argument that
 * passes the method's schema. GET, SET, CONSTRUCT, ENDPOINT, proxies and transferred values never
 * reach comlink. Callers do not use comlink's `wrap` (Math.random ids, no timeout): `call` speaks the
 * same wire format with random 128-bit ids, a timeout and an AbortSignal.
 *
 * The dispatcher is passed in: the frame-app and secure-site pass comlink's `expose`; the host SDK,
 * which must stay under 7 KB, uses `respond`, which answers the same admitted calls in the same wire
 * format without comlink's proxy machinery.
 */
import type { Endpoint } from 'comlink'
import * as Errors from './Errors.js'
import * as Ids from './Ids.js'
import type * as Logger from './Logger.js'
import * as Protocol from './Protocol.js'
import * as S from './Schema.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table of schemas of any payload type; each entry keeps its own
export type Table = Record<string, S.Schema<any>>
/** An API as its two tables: params (checked by the side that serves) and results (by callers). */
export type Api = { params: Table; results: Table }
export type Handlers<A extends Api> = {
  [K in keyof A['params']]: (
    params: S.Infer<A['params'][K]>,
  ) => S.Infer<A['results'][K]> | Promise<S.Infer<A['results'][K]>>
}
type Log = Pick<Logger.Logger, 'warn' | 'debug'>

export const defaultTimeoutMs = 10_000

type Dispatch = Record<string, (params: unknown) => Promise<unknown>>
/** Dispatches admitted calls to `api` and posts replies on `endpoint`: comlink's `expose` fits. */
export type Expose = (api: Dispatch, endpoint: Endpoint) => void

/** A dispatcher for already-admitted calls (see `create`) in comlink's wire format. */
export const respond: Expose = (api, endpoint) =>
  endpoint.addEventListener('message', async (event: Event) => {
    // Only calls `create` admitted reach here (isCall): the shape is known.
    const { id, path, argumentList } = (event as MessageEvent<{ id: string; path: [string]; argumentList: [{ value: unknown }] }>).data
    endpoint.postMessage({ id, type: 'RAW', value: await api[path[0]]!(argumentList[0].value) })
  })

const handshakeMessage = (type: string) => S.object({ type: S.literal(type), version: S.literal(Protocol.version) })
const isReady = handshakeMessage(Protocol.handshake.ready)
const isConnect = handshakeMessage(Protocol.handshake.connect)

/**
 * Parent side: wait for the child's `ready` from `origin` and `iframe.contentWindow`, then transfer
 * a port. Keeps listening until `signal` aborts so later strays are logged, never acted on.
 */
export function offer(options: offer.Options): Promise<MessagePort> {
  const { iframe, origin, log, signal, window: win = window } = options
  return new Promise((resolve, reject) => {
    let connected = false
    const onMessage = (event: MessageEvent) => {
      const fromChild = event.source === iframe.contentWindow && event.source !== null
      // A host page hears every script's messages: those not from our frame are logged quietly.
      if (!fromChild || event.origin !== origin) return log.debug('ignored message from', event.origin)
      if (connected || !isReady(event.data)) return log.warn('ignored message', event.data)
      connected = true
      const { port1, port2 } = new MessageChannel()
      iframe.contentWindow!.postMessage({ type: Protocol.handshake.connect, version: Protocol.version }, origin, [port2])
      resolve(port1)
    }
    win.addEventListener('message', onMessage)
    signal.addEventListener('abort', () => {
      win.removeEventListener('message', onMessage)
      reject(signal.reason)
    })
  })
}
export declare namespace offer {
  type Options = { iframe: HTMLIFrameElement; origin: string; log: Log; signal: AbortSignal; window?: Window }
}

/**
 * Child side: post `ready` to the parent's origin and accept the first `connect` from that origin and
 * `window.parent` that carries exactly one port.
 */
export function accept(options: accept.Options): Promise<MessagePort> {
  const { parentOrigin, log, window: win = window } = options
  return new Promise((resolve) => {
    let connected = false
    win.addEventListener('message', (event: MessageEvent) => {
      const from = event.origin || 'unknown origin'
      // Other windows (a nested frame of ours, anyone else) are logged quietly; the parent loudly.
      if (event.source !== win.parent) return log.debug('ignored message from', from, event.data)
      const valid = !connected && event.origin === parentOrigin && isConnect(event.data) && event.ports.length === 1
      if (!valid) return log.warn('ignored message from', from, event.data)
      connected = true
      resolve(event.ports[0]!)
    })
    win.parent.postMessage({ type: Protocol.handshake.ready, version: Protocol.version }, parentOrigin)
  })
}
export declare namespace accept {
  type Options = { parentOrigin: string; log: Log; window?: Window }
}

/** The origin of the page embedding this one, pinned before any message is trusted. */
export function parentOrigin(win: Window = window): string | undefined {
  const ancestor = win.location.ancestorOrigins?.[0]
  if (ancestor) return ancestor
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : undefined
  } catch {
    return undefined
  }
}

export type Channel<Remote extends Api> = {
  call<K extends keyof Remote['params'] & string>(
    method: K,
    params: S.Infer<Remote['params'][K]>,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<S.Infer<Remote['results'][K]>>
  /** Rejects every pending call with `error` (e.g. 4001 when the modal closes). */
  cancelAll(error: Errors.DoorwayError): void
  close(): void
}

/** A call in comlink's wire format to one method `accepts` names, with params that pass its schema. */
function isCall(accepts: Table, data: Record<string, unknown>): boolean {
  const path: unknown = data.path
  const args: unknown = data.argumentList
  if (!Ids.isId(data.id) || !Array.isArray(path) || path.length !== 1 || typeof path[0] !== 'string') return false
  if (!Object.hasOwn(accepts, path[0]) || !Array.isArray(args) || args.length !== 1) return false
  const arg: unknown = args[0]
  return S.isPlainObject(arg) && arg.type === 'RAW' && accepts[path[0]]!(arg.value)
}

/**
 * A well-formed call of a method we serve whose params its schema refuses: the caller hears so now,
 * not at its timeout. Anything else malformed stays unanswered.
 */
function refuseParams(port: MessagePort, accepts: Table, data: Record<string, unknown>) {
  const anyParams = Object.fromEntries(Object.keys(accepts).map((method) => [method, S.unknown]))
  if (isCall(anyParams, data)) port.postMessage({ id: data.id, type: 'RAW', value: { ok: false, error: Errors.serialize(Errors.invalidParams()) } })
}

/**
 * Serve `handlers`, admitting only calls whose params pass `accepts`, and call the other side,
 * admitting only replies that pass `expects`. Senders do not re-check: the receiver is the boundary.
 */
export function create<Local extends Api, Remote extends Api>(options: {
  port: MessagePort
  accepts: Local['params']
  handlers: Handlers<Local>
  expects: Remote['results']
  log: Log
  expose: Expose
  timeoutMs?: number
}): Channel<Remote> {
  const { port, accepts, handlers, expects, log, expose, timeoutMs = defaultTimeoutMs } = options
  const pending = new Map<string, { method: string; resolve(v: unknown): void; reject(e: unknown): void }>()
  let dispatch: ((event: MessageEvent) => void) | undefined

  // Every handler answers with an envelope so typed errors (with codes) cross intact and no stack does.
  const api = Object.create(null) as Dispatch
  for (const method of Object.keys(accepts))
    api[method] = async (params) => {
      try {
        return { ok: true, value: await (handlers[method] as (p: unknown) => unknown)(params) }
      } catch (error) {
        return { ok: false, error: Errors.serialize(error) }
      }
    }
  const endpoint: Endpoint = {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (_: string, listener: EventListenerOrEventListenerObject) => {
      dispatch = listener as (event: MessageEvent) => void
    },
    removeEventListener: () => {},
  }
  expose(api, endpoint)

  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data
    if (!S.isPlainObject(data)) return log.warn('ignored message', data)
    if (data.type === 'APPLY') {
      if (isCall(accepts, data)) return dispatch?.(event)
      return log.warn('ignored call', data.path), refuseParams(port, accepts, data)
    }
    const entry = typeof data.id === 'string' ? pending.get(data.id) : undefined
    if (!entry) return log.warn('ignored reply', data.id)
    pending.delete(data.id as string)
    const envelope = data.type === 'RAW' && S.isPlainObject(data.value) ? data.value : undefined
    if (envelope?.ok === true && expects[entry.method]!(envelope.value)) return entry.resolve(envelope.value)
    if (envelope?.ok === false) return entry.reject(Errors.deserialize(envelope.error))
    // Its answer fails its check: the call rejects as 'Something went wrong', and the reply is logged as ignored.
    log.warn('ignored reply', entry.method)
    entry.reject(Errors.deserialize(undefined))
  }
  port.addEventListener('message', onMessage)
  port.start()

  return {
    call(method, params, callOptions = {}) {
      const { signal, timeoutMs: ms = timeoutMs } = callOptions
      const id = Ids.random()
      return new Promise((resolve, reject) => {
        const settle = (fn: () => void) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          pending.delete(id)
          fn()
        }
        const onAbort = () => settle(() => reject(Errors.aborted()))
        const timer = setTimeout(() => settle(() => reject(Errors.timedOut())), ms)
        if (signal?.aborted) return onAbort()
        signal?.addEventListener('abort', onAbort)
        pending.set(id, {
          method,
          resolve: (value) => settle(() => resolve(value as never)),
          reject: (error) => settle(() => reject(error)),
        })
        port.postMessage({ id, type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value: params }] })
      })
    },
    cancelAll(error) {
      for (const entry of [...pending.values()]) entry.reject(error)
    },
    close() {
      this.cancelAll(Errors.disconnected())
      port.removeEventListener('message', onMessage)
      port.close()
    },
  }
}
