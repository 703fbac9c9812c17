/**
 * Per-network limits (limits.ts) and the lockout per (email, source) (Otp.ts), end to end in-process on
 * PGlite and PostgreSQL: a request's socket address is given as @hono/node-server binds it, the clock is
 * fake, and the recording mailer stands in for the person's mailbox. Each test works from networks of its
 * own, and starts an hour after the last, when every bucket is full again.
 */
import { encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Limits from './limits.js'
import * as Otp from './Otp.js'
import { backends, type Place } from './storage/testing.js'
import * as TestStack from './testStack.js'

const t0 = Date.UTC(2026, 10, 23, 12)
const hourMs = 3_600_000
const host = 'http://localhost:5173'
type Json = Record<string, any>

describe('spend', () => {
  test('behavior: a bucket never stored is full: the first spend leaves perHour - 1', () => {
    expect(Limits.spend(undefined, 20, t0)).toEqual({ bucket: { tokens: 19, updatedAt: t0 } })
  })
  test('error: an empty bucket refuses with the whole seconds until a token is back', () => {
    expect(Limits.spend({ tokens: 0, updatedAt: t0 }, 20, t0)).toEqual({ bucket: { tokens: 0, updatedAt: t0 }, retryAfter: 180 })
    expect(Limits.spend({ tokens: 0, updatedAt: t0 }, 20, t0 + 179_500)).toMatchObject({ retryAfter: 1 })
    expect(Limits.spend({ tokens: 0, updatedAt: t0 }, 10, t0 + 60_000)).toMatchObject({ retryAfter: 300 })
  })
  test('behavior: it refills evenly, up to perHour', () => {
    expect(Limits.spend({ tokens: 0, updatedAt: t0 }, 20, t0 + 180_000)).toEqual({ bucket: { tokens: 0, updatedAt: t0 + 180_000 } })
    expect(Limits.spend({ tokens: 3, updatedAt: t0 }, 20, t0 + 10 * hourMs)).toEqual({ bucket: { tokens: 19, updatedAt: t0 + 10 * hourMs } })
  })
  test('behavior: a clock behind the last spend neither refills nor rewinds the bucket', () => {
    expect(Limits.spend({ tokens: 0.5, updatedAt: t0 }, 20, t0 - hourMs)).toEqual({ bucket: { tokens: 0.5, updatedAt: t0 }, retryAfter: 90 })
    expect(Limits.spend({ tokens: 2, updatedAt: t0 }, 20, t0 - hourMs)).toEqual({ bucket: { tokens: 1, updatedAt: t0 } })
  })
})

describe('sourceOf', () => {
  const of = (remote: string | undefined, forwardedFor?: string, trustedProxies: string[] = []) => Limits.sourceOf({ remote, forwardedFor, trustedProxies })

  test.each([
    ['203.0.113.7', 'ip:203.0.113.7'],
    ['::ffff:203.0.113.7', 'ip:203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', 'ip:2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', 'ip:2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1%eth0', 'ip:2001:db8:1:2::/64'],
    ['::1', 'ip:0:0:0:0::/64'],
    ['fe80::1', 'ip:fe80:0:0:0::/64'],
  ])('param: the socket address %s is the source %s (IPv6 by its /64)', (remote, source) => {
    expect(of(remote)).toBe(source)
  })
  test('behavior: no socket address is the one source `unknown`', () => {
    expect(of(undefined)).toBe('unknown')
    expect(of(undefined, '203.0.113.7', ['10.0.0.1'])).toBe('unknown')
    expect(of('not an address')).toBe('unknown')
  })
  test('error: without trusted proxies X-Forwarded-For is ignored', () => {
    expect(of('10.0.0.1', '203.0.113.7')).toBe('ip:10.0.0.1')
    expect(of('10.0.0.1', '203.0.113.7', ['10.0.0.2'])).toBe('ip:10.0.0.1')
  })
  test('behavior: behind trusted proxies the right-most hop that is none of them is the client', () => {
    expect(of('10.0.0.1', '203.0.113.7', ['10.0.0.1'])).toBe('ip:203.0.113.7')
    expect(of('10.0.0.1', '198.51.100.1, 203.0.113.7', ['10.0.0.1'])).toBe('ip:203.0.113.7')
    expect(of('10.0.0.1', '198.51.100.1, 203.0.113.7, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('ip:203.0.113.7')
    expect(of('::ffff:10.0.0.1', '[2001:db8::7]:4711', ['10.0.0.1'])).toBe('ip:2001:db8:0:0::/64')
    expect(of('10.0.0.1', '203.0.113.7:4711', ['10.0.0.1'])).toBe('ip:203.0.113.7')
    expect(of('2001:db8::a', '203.0.113.7', ['2001:0db8:0:0:0:0:0:a'])).toBe('ip:203.0.113.7')
  })
  test('error: a hop that is no address stops at the nearest trusted proxy, so the header cannot pick a bucket', () => {
    expect(of('10.0.0.1', `203.0.113.7, ${Ids.random()}`, ['10.0.0.1'])).toBe('ip:10.0.0.1')
    expect(of('10.0.0.1', 'unknown, 10.0.0.2', ['10.0.0.1', '10.0.0.2'])).toBe('ip:10.0.0.2')
    expect(of('10.0.0.1', '', ['10.0.0.1'])).toBe('ip:10.0.0.1')
  })
})

describe.each(backends)('limits on %s', (_, create) => {
  let place: Place
  let stack: TestStack.Stack
  /** The stack's server with the production limits, whatever the stack's own are. */
  let app: ReturnType<typeof App.app>
  let clock = t0
  let n = 0
  const email = () => `person${++n}@example.test`
  /** An address no other request in this file came from. */
  const fresh = () => `100.64.${++n >> 8}.${n & 255}`

  beforeAll(async () => {
    place = await create()
    stack = await TestStack.start({ storage: place.storage, now: () => clock })
    app = App.app({ ...stack.deps, limits: { ...Limits.limits } })
  }, 120_000)
  afterAll(async () => {
    await stack?.close()
    await place?.dispose()
  }, 60_000)
  beforeEach(() => {
    clock += hourMs
  })

  type Net = { ip?: string; forwardedFor?: string; app?: () => ReturnType<typeof App.app> }

  /** A browser's device on a network: its socket address (absent: an in-process request) and any X-Forwarded-For. */
  async function device(net: Net = {}) {
    const pair = await Stamp.generateKey()
    const id = Ids.random()
    const publicKey = await Stamp.exportPublicKey(pair.publicKey)
    const sealKey = base64url(await Seal.exportPublicKey((await Seal.generateKeyPair()).publicKey))
    const call = async (method: string, path: string, body: unknown = {}, options: Net & { signed?: boolean } = {}) => {
      const { ip, forwardedFor, app: target } = { ...net, ...options }
      const text = JSON.stringify(body)
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (options.signed !== false) headers[Stamp.header] = await Stamp.sign(pair.privateKey, { method, path, body: text, deviceId: id, now: clock })
      if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor
      const env = ip === undefined ? undefined : { incoming: { socket: { remoteAddress: ip } } }
      const response = await (target ?? (() => app))().request(path, { method, headers, body: text }, env)
      return { status: response.status, body: (await response.json()) as Json, retryAfter: response.headers.get('retry-after') }
    }
    const enrol = (options: Net = {}) => call('POST', '/v1/devices', { deviceId: id, publicKey, sealKey }, options)
    return { id, call, enrol }
  }
  type Device = Awaited<ReturnType<typeof device>>

  async function enrolled(net: Net = {}) {
    const d = await device(net)
    expect((await d.enrol()).status).toBe(201)
    return d
  }

  function codeFor(to: string): string {
    const mail = stack.mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
    return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
  }
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000')
  const start = (d: Device, to: string, options: Net = {}) => d.call('POST', '/v1/email/start', { email: to, host, attested: true }, options)
  const verify = (d: Device, challengeId: string, code: string, options: Net = {}) => d.call('POST', '/v1/email/verify', { challengeId, code }, options)
  const rateLimited = (retryAfter: number) => ({
    status: 429,
    body: { message: `Too many requests from this network. Please try again after ${retryAfter} seconds`, reason: 'rateLimited', retryAfter },
    retryAfter: String(retryAfter),
  })
  const paused = (to: string) => stack.mails.filter((m) => m.to === to && m.subject === 'Doorway sign-in by email is paused')

  describe('the lockout per (email, source)', () => {
    test("behavior: a flood of failures from another network leaves the owner's device able to sign in", async () => {
      const to = email()
      const owner = await enrolled({ ip: fresh() })
      const attacker = { ip: fresh() }
      // The review's attack: a new device each round, a code, five wrong tries, again once the 30 s throttle allows.
      for (let round = 0; round < Otp.policy.sourceLockoutFailures / Otp.policy.attempts; round++) {
        const d = await enrolled(attacker)
        const started = await start(d, to)
        expect(started.status).toBe(200)
        for (let i = 0; i < Otp.policy.attempts; i++) expect((await verify(d, started.body.challengeId, '000000')).body.reason).toBe('wrong')
        clock += Otp.policy.resendMs
      }
      // The attacker's network is locked out for this email: no more codes.
      const again = await start(await enrolled(attacker), to)
      expect(again).toMatchObject({ status: 429, body: { reason: 'locked', retryAfter: 24 * 3600 - 4 * 30 } })

      const started = await start(owner, to)
      expect(started.status).toBe(200)
      expect(await verify(owner, started.body.challengeId, codeFor(to))).toMatchObject({ status: 200, body: { user: { email: to }, next: 'create' } })
      expect(paused(to)).toHaveLength(0)
    })

    test("error: the locked network is refused even the right code; the owner's is not", async () => {
      const to = email()
      const attacker = { ip: fresh() }
      const d = await enrolled(attacker)
      const owner = await enrolled({ ip: fresh() })
      // The owner's device asked for the code; the failures come from the attacker's network on another code.
      for (let round = 0; round < 4; round++) {
        const started = await start(d, to)
        for (let i = 0; i < Otp.policy.attempts; i++) await verify(d, started.body.challengeId, '000000')
        clock += Otp.policy.resendMs
      }
      const mine = await start(owner, to)
      expect(mine.status).toBe(200)
      // On the locked network even the right code is refused, and spends no try; on the owner's it signs in.
      expect(await verify(owner, mine.body.challengeId, codeFor(to), attacker)).toMatchObject({ status: 429, body: { reason: 'locked' } })
      expect((await verify(owner, mine.body.challengeId, codeFor(to))).status).toBe(200)
    })

    test('error: 200 failures from all networks lock the email everywhere and mail its owner once', async () => {
      const to = email()
      const sources = Array.from({ length: 10 }, () => `ip:${fresh()}`)
      const seeded = Otp.policy.lockoutFailures - 1
      for (let i = 0; i < seeded; i++)
        await place.raw('INSERT INTO otp_failures (email, at, source) VALUES ($1, $2, $3)', [to, clock - (seeded - i) * 1_000, sources[i % sources.length]])
      // An 11th network, that never failed: its code goes out, and its wrong try is the 200th failure.
      const guesser = await enrolled({ ip: fresh() })
      const started = await start(guesser, to)
      expect(started.status).toBe(200)
      expect(await verify(guesser, started.body.challengeId, wrong(codeFor(to)))).toMatchObject({ status: 401, body: { reason: 'wrong' } })
      expect(paused(to)).toEqual([expect.objectContaining({ text: expect.stringContaining('There were 200 wrong codes for this email within 24 hours') })])

      const locked = { status: 429, body: { reason: 'locked', retryAfter: 24 * 3600 - seeded } }
      expect(await verify(guesser, started.body.challengeId, codeFor(to))).toMatchObject(locked)
      // The owner, on a network that never failed, is locked out too: the backstop.
      expect(await start(await enrolled({ ip: fresh() }), to)).toMatchObject({ ...locked, body: { ...locked.body, message: `Please try again after ${24 * 3600 - seeded} seconds` } })
      expect(paused(to)).toHaveLength(1)
    })
  })

  describe('per-network buckets', () => {
    test('error: the 21st code mail from a network in an hour is a 429 rateLimited with retryAfter; it refills', async () => {
      const ip = fresh()
      for (let i = 0; i < Limits.limits.sends; i++) expect((await start(await enrolled({ ip: fresh() }), email(), { ip })).status).toBe(200)
      const d = await enrolled({ ip: fresh() })
      expect(await start(d, email(), { ip })).toMatchObject(rateLimited(180))
      // Every route that mails spends the same bucket, before its session is checked.
      expect(await d.call('POST', '/v1/export/code', { host }, { ip })).toMatchObject(rateLimited(180))
      expect(await d.call('POST', '/v1/recovery/resend', { host, attested: true }, { ip })).toMatchObject(rateLimited(180))
      // Another network is not affected.
      expect((await start(d, email(), { ip: fresh() })).status).toBe(200)
      clock += 90_000
      expect(await start(await enrolled({ ip: fresh() }), email(), { ip })).toMatchObject(rateLimited(90))
      clock += 90_000
      expect((await start(await enrolled({ ip: fresh() }), email(), { ip })).status).toBe(200)
      expect(await start(await enrolled({ ip: fresh() }), email(), { ip })).toMatchObject(rateLimited(180))
    })

    test('error: the 61st code check from a network in an hour is a 429 rateLimited; it refills', async () => {
      const ip = fresh()
      const d = await enrolled({ ip })
      const to = email()
      const started = await start(d, to)
      for (let i = 0; i < Limits.limits.verifies; i++) expect((await verify(d, started.body.challengeId, '000000')).status).toBe(401)
      expect(await verify(d, started.body.challengeId, codeFor(to))).toMatchObject(rateLimited(60))
      expect(await d.call('POST', '/v1/export', { challengeId: started.body.challengeId, code: codeFor(to) })).toMatchObject(rateLimited(60))
      clock += 60_000
      expect(await verify(d, started.body.challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'exhausted' } })
    })

    test('error: the 11th new device from a network in an hour is a 429; the same key again stays free', async () => {
      const ip = fresh()
      const first = await enrolled({ ip })
      for (let i = 1; i < Limits.limits.newDevices; i++) await enrolled({ ip })
      const eleventh = await device({ ip })
      expect(await eleventh.enrol()).toMatchObject(rateLimited(360))
      expect(await first.enrol()).toMatchObject({ status: 200, body: { deviceId: first.id } })
      expect((await eleventh.enrol({ ip: fresh() })).status).toBe(201)
      clock += 360_000
      expect((await (await device({ ip })).enrol()).status).toBe(201)
      expect(await (await device({ ip })).enrol()).toMatchObject(rateLimited(360))
    })

    test('error: every enrolment request counts: the 61st in an hour is a 429', async () => {
      const ip = fresh()
      const d = await enrolled({ ip })
      for (let i = 1; i < Limits.limits.devices; i++) expect((await d.enrol()).status).toBe(200)
      expect(await d.enrol()).toMatchObject(rateLimited(60))
    })

    test('error: the 21st social start from a network in an hour is a 429; redeems, a poll, have a bucket of their own', async () => {
      const google = { kind: 'oidc', issuer: 'https://accounts.example', authorization: 'https://accounts.example/auth', token: 'https://accounts.example/token', clientId: 'c', clientSecret: 's', scopes: ['openid'] } as const
      const social = App.app({ ...stack.deps, limits: { ...Limits.limits }, social: { callbackOrigin: 'http://127.0.0.1:5175', providers: { google: { ...google, scopes: [...google.scopes] } } } })
      const app = () => social
      const ip = fresh()
      const d = await enrolled({ app, ip: fresh() })
      const socialStart = () => d.call('POST', '/v1/social/start', { provider: 'google', host, attested: true }, { app, ip })
      for (let i = 0; i < Limits.limits.socialStarts; i++) expect((await socialStart()).status).toBe(201)
      expect(await socialStart()).toMatchObject(rateLimited(3600 / Limits.limits.socialStarts))
      // Polling is not starting: the same network's redeems go on, up to their own bucket.
      const redeem = () => d.call('POST', '/v1/social/redeem', { flowId: Ids.random() }, { app, ip })
      for (let i = 0; i < Limits.limits.socialPolls; i++) expect((await redeem()).status).toBe(404)
      expect(await redeem()).toMatchObject(rateLimited(3600 / Limits.limits.socialPolls))
      // Neither spends the code mails' bucket.
      expect((await start(d, email(), { ip, app })).status).toBe(200)
    })

    test('behavior: unsigned requests are refused before they spend anything', async () => {
      const ip = fresh()
      const d = await enrolled({ ip: fresh() })
      for (let i = 0; i <= Limits.limits.sends; i++)
        expect(await d.call('POST', '/v1/email/start', { email: email(), host, attested: true }, { ip, signed: false })).toMatchObject({ status: 401, body: { reason: 'malformed' } })
      expect((await start(d, email(), { ip })).status).toBe(200)
    })

    test('param: a group set to Infinity is off (a test stack\'s), and a lower number bites sooner', async () => {
      const relaxed = App.app({ ...stack.deps, limits: { newDevices: Infinity, sends: 2 } })
      const ip = fresh()
      for (let i = 0; i <= Limits.limits.newDevices; i++) await enrolled({ app: () => relaxed, ip })
      const send = async () => start(await enrolled({ app: () => relaxed, ip }), email(), { app: () => relaxed, ip })
      expect((await send()).status).toBe(200)
      expect((await send()).status).toBe(200)
      expect(await send()).toMatchObject(rateLimited(1800))
    })

    test('behavior: requests without a socket address share the one bucket `unknown`', async () => {
      for (let i = 0; i < Limits.limits.newDevices; i++) await enrolled()
      expect(await (await device()).enrol()).toMatchObject(rateLimited(360))
      expect((await (await device({ ip: fresh() })).enrol()).status).toBe(201)
    })
  })

  describe('X-Forwarded-For', () => {
    test('error: without trusted proxies the header is ignored: the socket is the network', async () => {
      const proxy = fresh()
      for (let i = 0; i < Limits.limits.newDevices; i++) await enrolled({ ip: proxy, forwardedFor: fresh() })
      expect(await (await device({ ip: proxy, forwardedFor: fresh() })).enrol()).toMatchObject(rateLimited(360))
    })

    test("behavior: behind a trusted proxy its hop names the client; hops left of it, or a direct request's header, do not", async () => {
      const proxy = fresh()
      const behind = App.app({ ...stack.deps, limits: { ...Limits.limits }, trustedProxies: [proxy] })
      const app = () => behind
      const client = fresh()
      for (let i = 0; i < Limits.limits.newDevices; i++) await enrolled({ app, ip: proxy, forwardedFor: client })
      expect(await (await device({ app, ip: proxy, forwardedFor: client })).enrol()).toMatchObject(rateLimited(360))
      // The client forging a hop to its left still lands in its own bucket.
      expect(await (await device({ app, ip: proxy, forwardedFor: `${fresh()}, ${client}` })).enrol()).toMatchObject(rateLimited(360))
      // Another client behind the same proxy has its own.
      expect((await (await device({ app, ip: proxy, forwardedFor: fresh() })).enrol()).status).toBe(201)
      // A request straight from the client, naming someone else, is the client's.
      expect(await (await device({ app, ip: client, forwardedFor: fresh() })).enrol()).toMatchObject(rateLimited(360))
    })
  })
})
