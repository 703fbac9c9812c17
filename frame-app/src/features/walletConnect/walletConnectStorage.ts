/**
 * The WalletConnect SDK's key-value storage for the frame: `UniversalProvider.init({ storage: create() })`.
 *
 * The trap: the frame is a cross-site iframe, and where third-party cookies are blocked (as in the Chromium
 * we test with) localStorage, sessionStorage and IndexedDB throw there. Only partitioned cookies (CHIPS)
 * survive a reload: about 4 KB each, 10 KiB per partition in Chromium, and every one rides along on every
 * request to the frame's origin. The SDK's message log and JSON-RPC history grow with every request and are
 * rewritten on every message, so everything lives in memory for the page's lifetime and only what a reload
 * needs is persisted, while a session exists: one JSON blob in cookie-sized chunks, written at most once
 * per `flushDelayMs` and on pagehide.
 *
 * What a reload needs was found by dropping each key in turn against the real SDK over the devnet relay
 * (see `persisted`); devnet/src/walletConnectStorage.test.ts restores a session on exactly those keys.
 * Everything else (messages, history, pending requests and proposals, pairings, the expirer, auth,
 * telemetry, wallet_sendCalls status) stays in memory: a session restores without it, and the sign
 * client's own cleanup drops expired sessions at init.
 */
import * as Constants from '@doorway/shared/Constants'
import type { UniversalProviderOpts } from '@walletconnect/universal-provider'
import * as Storage from '../../core/storage.js'

/** `IKeyValueStorage` from @walletconnect/keyvaluestorage, as universal-provider takes it. */
type KeyValueStorage = NonNullable<UniversalProviderOpts['storage']>

export type WalletConnectStorage = KeyValueStorage & {
  /** Persists pending changes now. */
  flush(): void
  /** Forgets everything, in memory and persisted: for disconnect. */
  clear(): void
}

type Rule = { key: string; prefix?: true; check(value: unknown): boolean }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const sessionKey = 'wc@2:client:0.3//session'

/** The keys a reload needs, with the shape a value must have to be restored (SDK 2.25, no storage prefix). */
const persisted: readonly Rule[] = [
  // The session's symmetric key, our key pair and the relay identity seed: without it the SDK drops the session.
  { key: 'wc@2:core:0.3//keychain', check: isRecord },
  // The topics to resubscribe: without it the session restores but the wallet's answers never arrive.
  { key: 'wc@2:core:0.3//subscription', check: Array.isArray },
  { key: sessionKey, check: Array.isArray },
  // The provider's copy, suffixed with the session topic: without namespaces every request throws; without
  // optionalNamespaces the rpcMap is lost and reads go to rpc.walletconnect.org.
  { key: 'wc@2:universal_provider:/namespaces', prefix: true, check: isRecord },
  { key: 'wc@2:universal_provider:/optionalNamespaces', prefix: true, check: isRecord },
]
const ruleFor = (key: string) => persisted.find((rule) => (rule.prefix ? key.startsWith(rule.key) : key === rule.key))

const blobName = `${Constants.storagePrefix}wc`
// Sizes as the cookie backend stores them, URI-encoded. Chromium keeps 10 KiB of partitioned cookies per
// site and partition: the blob leaves room for the frame's other cookies, a chunk stays under a cookie's 4 KB.
const budgetBytes = 8_000
const maxChunkBytes = 3_500
const maxChunks = Math.ceil(budgetBytes / maxChunkBytes)
const flushDelayMs = 50

export function create(options: create.Options = {}): WalletConnectStorage {
  const { backend = Storage.backend, page = typeof window === 'undefined' ? undefined : window } = options
  const stored = backend && readBlob(backend)
  // JSON text, not objects: the SDK keeps mutating what it hands us, and reads must see what was written.
  const memory = restore(stored)
  let written = stored
  let timer: ReturnType<typeof setTimeout> | undefined

  function flush() {
    clearTimeout(timer)
    timer = undefined
    const blob = snapshot(memory)
    if (!backend || blob === written) return
    try {
      writeBlob(backend, blob)
      written = blob
    } catch {
      // Storage can still fail (quotas, cookies off): the session works, only unsaved.
    }
  }
  const changed = (key: string) => {
    if (ruleFor(key)) timer ??= setTimeout(flush, flushDelayMs)
  }
  page?.addEventListener('pagehide', flush)

  return {
    getKeys: async () => [...memory.keys()],
    getEntries: async <T>() => [...memory].map(([key, json]): [string, T] => [key, JSON.parse(json) as T]),
    getItem: async <T>(key: string) => {
      const json = memory.get(key)
      return json === undefined ? undefined : (JSON.parse(json) as T)
    },
    setItem: async (key, value) => {
      const json = JSON.stringify(value)
      if (json === undefined) memory.delete(key)
      else memory.set(key, json)
      changed(key)
    },
    removeItem: async (key) => {
      memory.delete(key)
      changed(key)
    },
    flush,
    clear() {
      memory.clear()
      flush()
    },
  }
}
export declare namespace create {
  type Options = {
    /** Where persisted keys go. Default: the frame's storage (localStorage where allowed, else cookies). */
    backend?: Storage.Backend | undefined
    /** Flushes on its pagehide. Default: `window` in a browser. */
    page?: Pick<EventTarget, 'addEventListener'> | undefined
  }
}

/** What a reload needs, or null without a session to restore (so a wallet-side disconnect leaves no cookies). */
function snapshot(memory: Map<string, string>): string | null {
  const sessions: unknown = JSON.parse(memory.get(sessionKey) ?? '[]')
  if (!Array.isArray(sessions) || sessions.length === 0) return null
  const entries = [...memory].filter(([key]) => ruleFor(key)).map(([key, json]): [string, unknown] => [key, JSON.parse(json)])
  return JSON.stringify(Object.fromEntries(entries))
}

/** The persisted keys' values, as JSON text; anything corrupt or foreign is dropped. */
function restore(blob: string | null | undefined): Map<string, string> {
  try {
    const stored: unknown = JSON.parse(blob ?? 'null')
    if (!isRecord(stored)) return new Map()
    const valid = Object.entries(stored).filter(([key, value]) => ruleFor(key)?.check(value))
    return new Map(valid.map(([key, value]) => [key, JSON.stringify(value)]))
  } catch {
    return new Map()
  }
}

/** `@doorway/wc` holds the chunk count, `@doorway/wc.0`, `@doorway/wc.1`, … the text. */
function readBlob(backend: Storage.Backend): string | null {
  try {
    const count = Number(backend.get(blobName))
    if (!Number.isSafeInteger(count) || count < 1 || count > maxChunks) return null
    const chunks = Array.from({ length: count }, (_, i) => backend.get(`${blobName}.${i}`))
    return chunks.includes(null) ? null : chunks.join('')
  } catch {
    return null
  }
}

function writeBlob(backend: Storage.Backend, blob: string | null) {
  // Too big to fit: better no session after a reload than a stale one.
  const chunks = blob === null || encodeURIComponent(blob).length > budgetBytes ? [] : cut(blob)
  chunks.forEach((chunk, i) => backend.set(`${blobName}.${i}`, chunk))
  for (let i = chunks.length; i < maxChunks; i++) if (backend.get(`${blobName}.${i}`) !== null) backend.remove(`${blobName}.${i}`)
  if (chunks.length === 0) backend.remove(blobName)
  else backend.set(blobName, String(chunks.length))
}

/** Cuts text into pieces of at most maxChunkBytes once URI-encoded, never inside a character. */
function cut(text: string): string[] {
  const chunks = ['']
  let size = 0
  for (const char of text) {
    const charSize = encodeURIComponent(char).length
    if (size + charSize > maxChunkBytes) {
      chunks.push('')
      size = 0
    }
    chunks[chunks.length - 1] += char
    size += charSize
  }
  return chunks
}
