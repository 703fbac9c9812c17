/**
 * A dapp's sign-in server (issue 13): it hands out nonces, verifies signed sign-in messages (EIP-4361 for
 * eip155 accounts, Sign In With Solana for solana ones, whose signature is base58 ed25519, CAIP-122 text
 * for polkadot ones, whose signature is hex sr25519, ed25519 or ecdsa: ./polkadot.ts) and keeps
 * the signed-in session behind an HttpOnly cookie. `@doorway/sdk/siwx`'s `serverSessions('/siwx/api')`
 * talks to it. Sessions and nonces live in memory: a restart signs everybody out.
 *
 *   GET  /siwx/api/nonce    → { nonce }                  (single use, 10 minutes)
 *   POST /siwx/api/verify   { data, message, signature } → the session, and its cookie
 *   GET  /siwx/api/session  → the cookie's session, or 401 { error }
 *   POST /siwx/api/signout  → { signedOut: true }, and the cookie cleared
 *
 * `import * as SiwxServer from './server.js'` → `const handle = SiwxServer.createSiwxServer({ … })`.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ChainId } from '@doorway/shared/Caip'
import * as HttpServer from '@doorway/devnet/httpServer'
// What a dapp's server imports from '@doorway/sdk/siwx'. In the repo it resolves to the sources through the
// `source` export condition (tsx --conditions=source, vitest.config.ts): npm start imports it before any build.
import { eip155Verifier, parseMessage, SiwxError, solanaVerifier, verifySession } from '@doorway/sdk/siwx'
import type { SiwxData, SiwxSession } from '@doorway/sdk'
import * as Polkadot from './polkadot.js'

export const prefix = '/siwx/api/'
const nonceTtlMs = 10 * 60_000
const sessionTtlMs = 24 * 60 * 60_000
// A session with a long ERC-6492 signature is a few KB; anything much larger is not one.
const maxBodyBytes = 16 * 1024
// Bounds what unauthenticated callers can make us hold: the oldest go first.
const maxNonces = 10_000
const maxSessions = 10_000

/** A Node request handler: true when the request was its to answer (it then answers it). */
export type Handler = (req: IncomingMessage, res: ServerResponse) => boolean

/** Keeps `value` under `key`, dropping the oldest entries beyond `max`. */
function keep<T>(map: Map<string, T>, key: string, value: T, max: number) {
  map.set(key, value)
  for (const oldest of map.keys()) {
    if (map.size <= max) break
    map.delete(oldest)
  }
}

function sessionCookie(name: string, secure: boolean, value: string, maxAgeMs: number) {
  const attributes = [`${name}=${value}`, 'HttpOnly', 'SameSite=Strict', 'Path=/', `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`]
  return (secure ? [...attributes, 'Secure'] : attributes).join('; ')
}

export function createSiwxServer(options: createSiwxServer.Options): Handler {
  const { domain, rpcUrls, now = Date.now, secureCookies = false } = options
  // Solana and Polkadot accounts are their keys: their signatures need no chain, so no RPC URL either
  const verifiers = [eip155Verifier({ rpcUrls, now }), solanaVerifier({ now }), Polkadot.verifier({ now })]
  // `__Host-` makes the browser refuse the cookie unless it is Secure, host-only and Path=/.
  const cookieName = secureCookies ? '__Host-siwx' : 'siwx'
  const nonces = new Map<string, number>()
  const sessions = new Map<string, { session: SiwxSession; expiresAt: number }>()

  function forgetExpired() {
    const time = now()
    for (const [nonce, expiresAt] of nonces) if (expiresAt <= time) nonces.delete(nonce)
    for (const [id, kept] of sessions) if (kept.expiresAt <= time) sessions.delete(id)
  }

  const cookie = (value: string, maxAgeMs: number) => sessionCookie(cookieName, secureCookies, value, maxAgeMs)

  function sessionOf(req: IncomingMessage) {
    const id = readCookie(req.headers.cookie, cookieName)
    const kept = id === undefined ? undefined : sessions.get(id)
    return id !== undefined && kept ? { id, ...kept } : undefined
  }

  async function verify(req: IncomingMessage, res: ServerResponse) {
    const session = toSession(await HttpServer.readJson(req, maxBodyBytes))
    const data = checkMessage(session, domain, rpcUrls)
    // Consumed before the signature is checked: a nonce answers one attempt, good or bad, and two
    // requests racing with one nonce cannot both pass.
    const expiresAt = nonces.get(data.nonce)
    nonces.delete(data.nonce)
    if (expiresAt === undefined || expiresAt <= now()) throw new HttpServer.HttpError(401, 'The nonce was not issued here, has expired or was already used')
    await verifySession(session, verifiers).catch((error: unknown) => {
      if (error instanceof SiwxError) throw new HttpServer.HttpError(statuses[error.code], error.message)
      throw error
    })
    const id = randomBytes(16).toString('hex')
    const lifetime = Math.min(sessionTtlMs, data.expirationTime === undefined ? sessionTtlMs : Date.parse(data.expirationTime) - now())
    // Kept with the data read from the text, which the signature covers, not the JSON sent beside it.
    const kept = { data, message: session.message, signature: session.signature }
    keep(sessions, id, { session: kept, expiresAt: now() + lifetime }, maxSessions)
    res.setHeader('set-cookie', cookie(id, lifetime))
    HttpServer.sendJson(res, 200, kept)
  }

  async function route(req: IncomingMessage, res: ServerResponse, path: string) {
    forgetExpired()
    const method = req.method ?? 'GET'
    const allow = (expected: string) => {
      if (method !== expected) throw new HttpServer.HttpError(405, `Use ${expected} for ${path}`)
    }
    switch (path) {
      case `${prefix}nonce`: {
        allow('GET')
        const nonce = randomBytes(16).toString('hex')
        keep(nonces, nonce, now() + nonceTtlMs, maxNonces)
        return HttpServer.sendJson(res, 200, { nonce })
      }
      case `${prefix}verify`:
        allow('POST')
        return verify(req, res)
      case `${prefix}session`: {
        allow('GET')
        const kept = sessionOf(req)
        if (!kept) throw new HttpServer.HttpError(401, 'Not signed in')
        return HttpServer.sendJson(res, 200, kept.session)
      }
      case `${prefix}signout`: {
        allow('POST')
        // a JSON body, as on verify: a form on another site cannot send one
        await HttpServer.readJson(req, maxBodyBytes)
        const kept = sessionOf(req)
        if (kept) sessions.delete(kept.id)
        res.setHeader('set-cookie', cookie('', 0))
        return HttpServer.sendJson(res, 200, { signedOut: true })
      }
      default:
        throw new HttpServer.HttpError(404, `No ${path} here`)
    }
  }

  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!path.startsWith(prefix)) return false
    route(req, res, path).catch((error: unknown) => {
      if (res.headersSent) return res.destroy()
      if (error instanceof HttpServer.HttpError) return HttpServer.sendJson(res, error.status, { error: error.message })
      // not the caller's doing (a bug): no internals in the answer
      console.error('siwx-server:', error)
      HttpServer.sendJson(res, 500, { error: 'Internal error' })
    })
    return true
  }
}
export declare namespace createSiwxServer {
  type Options = {
    /** The host (and port) the sign-in is for, as the message's first line names it: 'localhost:5173'. */
    domain: string
    /** The eip155 chains people may sign in on, with the RPC URL their signatures are verified through. Solana and Polkadot need none. */
    rpcUrls: Partial<Record<ChainId, string>>
    /** The clock (ms), for tests. */
    now?: () => number
    /** Mark the cookie Secure (and name it `__Host-siwx`): true wherever the site is served over https. */
    secureCookies?: boolean
  }
}

// What each refusal of the verifier answers: a bad request, or a sign-in that does not hold.
const statuses: Record<SiwxError.Code, number> = {
  InvalidMessage: 400,
  MessageMismatch: 400,
  UnsupportedNamespace: 400,
  UnknownChain: 400,
  NoVerifier: 400,
  Refused: 400,
  Expired: 401,
  NotYetValid: 401,
  InvalidSignature: 401,
  // the chain's RPC failed: nothing is known about the signature, and it is not the caller's fault
  Unavailable: 503,
}

function toSession(body: HttpServer.Body): SiwxSession {
  const { data, message, signature } = body
  if (typeof data !== 'object' || data === null || typeof message !== 'string' || typeof signature !== 'string')
    throw new HttpServer.HttpError(400, 'Send { data, message, signature }: a signed sign-in session')
  return { data: data as SiwxData, message, signature }
}

const namespaces = ['eip155', 'solana', 'polkadot']

// The message's own claims, before its nonce is spent on it.
function checkMessage(session: SiwxSession, domain: string, rpcUrls: createSiwxServer.Options['rpcUrls']): SiwxData {
  const chainId = session.data.chainId
  const namespace = String(chainId).split(':')[0] ?? ''
  if (!namespaces.includes(namespace)) throw new HttpServer.HttpError(400, `This server signs in eip155, solana and polkadot accounts only, not ${namespace} ones`)
  let data: SiwxData
  try {
    // the text must name the chain the session claims (a SIWS message of a local cluster names no other)
    data = parseMessage(session.message, { chainId })
  } catch (error) {
    throw new HttpServer.HttpError(400, error instanceof Error ? error.message : 'Not a sign-in message')
  }
  if (data.domain !== domain) throw new HttpServer.HttpError(403, `The message signs in to ${data.domain}, not ${domain}`)
  if (namespace === 'eip155' && !rpcUrls[data.chainId]) throw new HttpServer.HttpError(400, `This server does not sign in on ${data.chainId}`)
  // the message module checks SS58's looks only (the SDK has no blake2b for its checksum)
  if (namespace === 'polkadot' && !Polkadot.isPolkadotAddress(data.accountAddress))
    throw new HttpServer.HttpError(400, `The address ${data.accountAddress} is not a Polkadot address (its SS58 checksum fails)`)
  return data
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}
