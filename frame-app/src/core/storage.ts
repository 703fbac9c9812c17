/**
 * The frame's persistent storage, keys prefixed `@doorway/` (spec §9), every value validated on read.
 *
 * The frame is a cross-site iframe. Browsers that block third-party storage (Chromium with third-party
 * cookies blocked, as on these machines) throw on localStorage, sessionStorage and IndexedDB there,
 * but still allow partitioned cookies (CHIPS), keyed by the top-level site: one store per dapp, which
 * is the scope we want. So: localStorage where the browser allows it, else a partitioned cookie.
 */
import * as Constants from '@doorway/shared/Constants'

export type Backend = { get(name: string): string | null; set(name: string, value: string): void; remove(name: string): void }

const yearSeconds = 31_536_000

/** Partitioned cookies on the frame origin: small values only (about 4 KB each). */
export function cookieBackend(doc: { cookie: string }): Backend {
  const attributes = 'Path=/; SameSite=None; Secure; Partitioned'
  return {
    get(name) {
      const key = `${encodeURIComponent(name)}=`
      const found = doc.cookie.split('; ').find((c) => c.startsWith(key))
      return found === undefined ? null : decodeURIComponent(found.slice(key.length))
    },
    set: (name, value) => (doc.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${yearSeconds}; ${attributes}`),
    remove: (name) => (doc.cookie = `${encodeURIComponent(name)}=; Max-Age=0; ${attributes}`),
  }
}

function pickBackend(): Backend | undefined {
  try {
    localStorage.setItem(`${Constants.storagePrefix}probe`, '1')
    localStorage.removeItem(`${Constants.storagePrefix}probe`)
    return { get: (n) => localStorage.getItem(n), set: (n, v) => localStorage.setItem(n, v), remove: (n) => localStorage.removeItem(n) }
  } catch {
    return typeof document === 'undefined' ? undefined : cookieBackend(document)
  }
}
export const backend = pickBackend()

export function read<T>(key: string, check: (x: unknown) => x is T): T | undefined {
  try {
    const value: unknown = JSON.parse(backend?.get(Constants.storagePrefix + key) ?? 'null')
    return check(value) ? value : undefined
  } catch {
    return undefined
  }
}

export function write(key: string, value: unknown) {
  try {
    if (value === undefined) backend?.remove(Constants.storagePrefix + key)
    else backend?.set(Constants.storagePrefix + key, JSON.stringify(value))
  } catch {
    // Storage can still fail (quotas, cookies off): the session works, only unsaved.
  }
}
