/**
 * Per-network limits on the routes that enrol devices, mail codes and check them (docs/embedded-wallet.md
 * §4): a token bucket per client network and route group, kept in the database so that every instance
 * shares it. A client network is a source: the socket's address (an IPv6 one by its /64, what one
 * subscriber gets), or the X-Forwarded-For hop that a trusted proxy vouches for. The same source keys the
 * failures of Otp.ts's lockout, so a flood of guesses from one network locks only that network out.
 * `import * as Limits from './limits.js'`.
 */
import { isIP } from 'node:net'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Texts from '@doorway/shared/Texts'
import type { Context, MiddlewareHandler } from 'hono'
import type { Deps } from './app.js'
import * as Http from './http.js'
import type { Bucket } from './storage/Storage.js'

/** Requests an hour per source and route group: a bucket holds as many, and refills evenly over the hour. */
export const limits = {
  // Every signed POST /v1/devices, a new id or the same key again (after the server forgot it): each is a
  // signature check and lookups. A person's browser enrols once per dapp site; 60 leaves room for an office.
  devices: 60,
  // New device ids: each is a row kept for good and a fresh per-device throttle, so enrolling more must not
  // buy more codes. A browser that denies the frame its storage enrols anew on every page load; 10 covers a
  // household behind one address doing that a few times.
  newDevices: 10,
  // Code and approval mails (/v1/email/start, /v1/export/code, /v1/recovery/resend): each mails someone
  // who may not have asked. A person needs a few (an email gets 5 an hour anyway); 20 lets four people
  // behind one address reach that cap, and keeps one network from mailing more than 20 inboxes an hour.
  sends: 20,
  // Code checks (/v1/email/verify, /v1/export): each is a guess at a 6-digit code. 60 is twelve codes'
  // five tries, more than anyone types; Otp.ts then locks an email for a source after 20 failures a day.
  verifies: 60,
  // Social sign-ins started (/v1/social/start): each is a stored flow and, once its popup opens, a token
  // request to the provider. As many as code mails: a person needs a few, four people behind one address
  // reach 20 together.
  socialStarts: 20,
  // Social redeems (/v1/social/redeem): a poll, each held up to 5 s (socialPollMs) while the person is at
  // the provider, so a flow's 10 min take 120; 1,800 lets a dozen sign-ins run at once behind one address.
  socialPolls: 1_800,
} as const

export type Group = keyof typeof limits

/** The per-hour numbers a deployment (or a test stack) runs with, over `limits`: positive; Infinity turns a group off. */
export type Overrides = Partial<Record<Group, number>>

/**
 * Every per-network limit off: for in-process tests (their requests have no address, so all would share
 * one bucket) and the local stack (DOORWAY_SECURE_LIMITS=off: every browser there is 127.0.0.1).
 */
export const off: Overrides = Object.fromEntries(Object.keys(limits).map((group) => [group, Number.POSITIVE_INFINITY]))

/** The source of a request with no socket address (in-process requests): one bucket for all of them. */
export const unknownSource = 'unknown'

/** The 429 of a bucket that ran dry; the browser shows its own text for `rateLimited`. */
export const message = 'Too many requests from this network. Please try again after {n} seconds'

const hourMs = 3_600_000

// The routes each group guards, by method and path (shared/src/contracts/secureSite.ts).
const { table } = SecureSite
const groups = new Map<string, Group>([
  [endpoint(table.enrol), 'devices'],
  [endpoint(table.emailStart), 'sends'],
  [endpoint(table.exportCode), 'sends'],
  [endpoint(table.recoveryResend), 'sends'],
  [endpoint(table.emailVerify), 'verifies'],
  [endpoint(table.export), 'verifies'],
  [endpoint(table.socialStart), 'socialStarts'],
  [endpoint(table.socialRedeem), 'socialPolls'],
])

function endpoint(route: { method: string; path: string }): string {
  return `${route.method} ${route.path}`
}

type Limited = Pick<Deps, 'storage' | 'now' | 'trustedProxies' | 'limits'>

/**
 * Spends a token of the request's group before its route runs: 429 `rateLimited` with `retryAfter` when
 * the source's bucket is empty. Buckets untouched for an hour are full again and dropped, at most once a
 * minute.
 */
export function middleware(deps: Limited): MiddlewareHandler {
  let pruned = -Infinity
  return async (c, next) => {
    const group = groups.get(endpoint({ method: c.req.method, path: c.req.path }))
    // An unsigned request is refused before it reads or writes anything (auth.ts), so it costs nothing a
    // bucket guards, and nothing is stored for it.
    if (group && c.req.header(Stamp.header) !== undefined) {
      const now = deps.now()
      if (now - pruned >= 60_000) {
        pruned = now
        await deps.storage.buckets.prune(now - hourMs)
      }
      await take(deps, c, group)
    }
    await next()
  }
}

/** Spends a token of `group` for the request's source, or throws the 429. */
export async function take(deps: Limited, c: Context, group: Group): Promise<void> {
  const now = deps.now()
  const perHour = deps.limits?.[group] ?? limits[group]
  if (perHour === Infinity) return
  const retryAfter = await deps.storage.buckets.spend(`${group} ${source(c, deps)}`, (stored) => {
    const spent = spend(stored, perHour, now)
    return { bucket: spent.bucket, result: spent.retryAfter }
  })
  if (retryAfter !== undefined) throw new Http.HttpError(429, Texts.format(message, { n: retryAfter }), { reason: 'rateLimited', retryAfter })
}

/**
 * One token out of a bucket that holds `perHour` and refills by as many an hour, evenly; a bucket never
 * stored is full. Refused, with the whole seconds until a token is back, when less than one is left.
 */
export function spend(stored: Bucket | undefined, perHour: number, now: number): { bucket: Bucket; retryAfter?: number } {
  // An instance whose clock is behind another's neither refills nor rewinds the bucket.
  const updatedAt = Math.max(now, stored?.updatedAt ?? now)
  const refilled = stored ? stored.tokens + ((now - stored.updatedAt) * perHour) / hourMs : perHour
  const tokens = Math.min(perHour, Math.max(stored?.tokens ?? 0, refilled))
  if (tokens >= 1) return { bucket: { tokens: tokens - 1, updatedAt } }
  // To the millisecond, the clock's own resolution, so that float noise never adds a second.
  const waitMs = Math.round(((1 - tokens) * hourMs) / perHour)
  return { bucket: { tokens, updatedAt }, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) }
}

/** The request's source: its client network's key, `unknownSource` without a socket address. */
export function source(c: Context, deps: Pick<Deps, 'trustedProxies'>): string {
  return sourceOf({ remote: remoteAddress(c), forwardedFor: c.req.header('x-forwarded-for'), trustedProxies: deps.trustedProxies ?? [] })
}

// What @hono/node-server binds: its getConnInfo reads the same, but throws without a socket (app.request).
type Bindings = { incoming?: { socket?: { remoteAddress?: unknown } }; server?: Bindings } | undefined

function remoteAddress(c: Context): string | undefined {
  const env = c.env as Bindings
  const address = (env?.server ?? env)?.incoming?.socket?.remoteAddress
  return typeof address === 'string' ? address : undefined
}

/**
 * The key of the client network: the socket's address, unless it is a trusted proxy; then the
 * right-most X-Forwarded-For hop that is not one (each proxy appends the address it saw, so hops left of
 * it are the client's to write). A hop that is no address stops the walk at the nearest trusted one, so a
 * forged header cannot choose a bucket. IPv4 keys by address, IPv6 by its /64.
 */
export function sourceOf(options: { remote: string | undefined; forwardedFor: string | undefined; trustedProxies: readonly string[] }): string {
  let client = options.remote === undefined ? undefined : canonical(options.remote)
  if (client === undefined) return unknownSource
  const trusted = new Set(options.trustedProxies.map(canonical))
  const hops = (options.forwardedFor ?? '').split(',').map((hop) => hop.trim()).filter((hop) => hop !== '')
  while (trusted.has(client) && hops.length > 0) {
    const hop = canonical(hops.pop()!)
    if (hop === undefined) break
    client = hop
  }
  return client.includes(':') ? `ip:${client.split(':').slice(0, 4).join(':')}::/64` : `ip:${client}`
}

/**
 * An address in one spelling: IPv4 dotted, IPv6 as eight lowercase hextets (an IPv4-mapped one as IPv4);
 * brackets, a port and an IPv6 zone dropped. Undefined when it is no address.
 */
export function canonical(text: string): string | undefined {
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1] ?? /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(text)?.[1] ?? text
  const address = bare.replace(/%.*$/, '').toLowerCase()
  const family = isIP(address)
  if (family === 4) return address
  if (family !== 6) return undefined
  const groups = hextets(address)
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  return groups.map((g) => g.toString(16)).join(':')
}

/** The eight 16-bit groups of a valid IPv6 address (isIP checked it): `::` expanded, a dotted tail read. */
function hextets(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  const text = dotted ? `${address.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}` : address
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  const [head = '', tail] = text.split('::')
  if (tail === undefined) return parse(head)
  const [before, after] = [parse(head), parse(tail)]
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after]
}
