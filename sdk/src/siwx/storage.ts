/**
 * Where signed-in sessions are kept: in this browser (`localSessions`) or by the dapp's server
 * (`serverSessions`), which verifies each one itself and keeps it behind a cookie.
 */
import type * as Caip from '@doorway/shared/Caip'
import type { SiwxSession } from '../types.js'
import { SiwxError } from './errors.js'

export type SessionStorage = {
  /** Keeps a session, replacing the account's previous one; a verifying storage throws when it refuses it. */
  add(session: SiwxSession): Promise<void>
  /** Replaces every session kept; `[]` forgets them all. */
  set(sessions: SiwxSession[]): Promise<void>
  get(chainId: Caip.ChainId, address: string): Promise<SiwxSession[]>
  delete(chainId: Caip.ChainId, address: string): Promise<void>
  /** True when `add` verifies the session itself (a server); otherwise a verifier must, before it. */
  readonly verifies: boolean
}

/** The part of the Web Storage API `localSessions` uses. */
export type WebStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** Sessions in this browser's `localStorage` (or `storage`) under `key`, as JSON. */
export function localSessions(key = 'doorway.siwx.sessions', storage?: WebStorage): SessionStorage {
  // read when used, not when made: the module may load where there is no localStorage (a server render)
  const store = () => storage ?? globalThis.localStorage
  const read = (): SiwxSession[] => {
    const text = store().getItem(key)
    if (!text) return []
    try {
      const value: unknown = JSON.parse(text)
      return Array.isArray(value) ? (value as SiwxSession[]) : []
    } catch {
      // unreadable (edited by hand, another app's key): as if nothing were kept
      return []
    }
  }
  const write = (sessions: SiwxSession[]) => (sessions.length ? store().setItem(key, JSON.stringify(sessions)) : store().removeItem(key))
  return {
    verifies: false,
    async add(session) {
      const { chainId, accountAddress } = session.data
      write([...read().filter((kept) => !isAccount(kept, chainId, accountAddress)), session])
    },
    async set(sessions) {
      write(sessions)
    },
    async get(chainId, address) {
      return read().filter((kept) => isAccount(kept, chainId, address))
    },
    async delete(chainId, address) {
      write(read().filter((kept) => !isAccount(kept, chainId, address)))
    },
  }
}

/**
 * Sessions kept by the dapp's server (examples/siwx-server): `POST {baseUrl}/verify` verifies a session
 * and sets the server's session cookie, `GET {baseUrl}/session` reads it back (401: none) and
 * `POST {baseUrl}/signout` ends it. The server keeps one session per browser, so `set` signs out and
 * then adds each session it is given. Cookies go with same-origin requests only: serve `baseUrl`
 * from the page's origin.
 */
export function serverSessions(baseUrl: string, options: serverSessions.Options = {}): SessionStorage {
  const { fetch: fetchFn = globalThis.fetch.bind(globalThis) } = options
  const url = (path: string) => `${baseUrl.replace(/\/+$/, '')}/${path}`
  // application/json keeps other sites out: a cross-origin POST of that type needs a CORS preflight
  const post = (path: string, body: unknown) =>
    fetchFn(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(answer)
  const signOut = () => post('signout', {}).then(() => undefined)
  return {
    verifies: true,
    async add(session) {
      await post('verify', session)
    },
    async set(sessions) {
      await signOut()
      for (const session of sessions) await post('verify', session)
    },
    async get(chainId, address) {
      const response = await fetchFn(url('session'))
      if (response.status === 401) return []
      const session = (await answer(response)) as SiwxSession
      return isAccount(session, chainId, address) ? [session] : []
    },
    delete: signOut,
  }
}
export declare namespace serverSessions {
  type Options = {
    /** The fetch to use; the page's by default (tests pass one that keeps cookies). */
    fetch?: typeof globalThis.fetch
  }
}

async function answer(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined
  if (response.ok) return body
  const reason = typeof body?.error === 'string' ? body.error : `${response.status} ${response.statusText}`.trim()
  throw new SiwxError('Refused', `The server refused the sign-in: ${reason}`)
}

/** The session is the account's on that chain; eip155 addresses compare without their checksum case. */
export function isAccount(session: SiwxSession, chainId: Caip.ChainId, address: string): boolean {
  const { data } = session
  if (data?.chainId !== chainId) return false
  return chainId.startsWith('eip155:') ? data.accountAddress.toLowerCase() === address.toLowerCase() : data.accountAddress === address
}
