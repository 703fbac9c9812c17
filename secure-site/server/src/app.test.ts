/**
 * The secure-site server end to end in-process (API.md, docs/embedded-wallet.md §2–4, §10 and
 * hostile tests 5, 7 and 8): real WebCrypto device keys, the in-process vault, a fake clock and a
 * recording mailer, on PGlite and on PostgreSQL.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Ids from '@doorway/shared/Ids'
import { entropyToMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Audit from './Audit.js'
import * as Custody from './Custody.js'
import * as Envelope from './Envelope.js'
import type * as Mail from './mail.js'
import * as Otp from './Otp.js'
import * as Session from './Session.js'
import type { Storage } from './storage/Storage.js'
import { backends, type Place } from './storage/testing.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'

const t0 = Date.UTC(2026, 10, 23, 12)
const host = 'http://localhost:5173'
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>

/** Keys and secrets as the two processes hold them, made once. */
let keys: { kek: CryptoKey; pepper: Uint8Array; ticket: CryptoKeyPair; vault: CryptoKeyPair; vaultPublic: Uint8Array }
beforeAll(async () => {
  const ticket = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  const vault = await Seal.generateKeyPair()
  keys = {
    kek: await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32))),
    pepper: crypto.getRandomValues(new Uint8Array(32)),
    ticket,
    vault,
    vaultPublic: await Seal.exportPublicKey(vault.publicKey),
  }
})

describe('Custody', () => {
  test('behavior: the share sizes the server checks are the secure-site\'s', async () => {
    const split = await Shares.splitTwice(Shares.entropy())
    expect(split.server.length).toBe(Custody.shareBytes)
    expect((await Seal.seal(keys.vaultPublic, split.recovery2, utf8('u'))).length).toBe(Custody.sealedShareBytes)
  })
})

describe.each(backends)('app on %s', (_, create) => {
  let place: Place
  let clock = t0
  const mails: Mail.Mail[] = []
  const logged: string[] = []
  let app: ReturnType<typeof App.app>
  let n = 0
  const email = () => `person${++n}@example.test`

  const deps = (overrides: Partial<App.Deps> = {}): App.Deps => {
    const vault = Vault.app({ key: keys.vault.privateKey, publicKey: keys.vaultPublic, ticketKey: keys.ticket.publicKey, now: () => clock })
    return {
      storage: place.storage,
      secrets: { kek: keys.kek, pepper: keys.pepper, ticketKey: keys.ticket.privateKey },
      vault: Vault.client('http://vault.test', (request) => vault.fetch(request)),
      mailer: { send: async (mail) => void mails.push(mail) },
      now: () => clock,
      log: (message) => void logged.push(message),
      ...overrides,
    }
  }

  beforeAll(async () => {
    place = await create()
    app = App.app(deps())
  }, 120_000)
  afterAll(() => place?.dispose(), 60_000)

  /** A browser's device key, and signed requests with it (API.md Conventions). */
  async function device(target: () => ReturnType<typeof App.app> = () => app) {
    const pair = await Stamp.generateKey()
    const id = Ids.random()
    const publicKey = await Stamp.exportPublicKey(pair.publicKey)
    const call = async (method: string, path: string, body?: unknown, options: { text?: string; key?: CryptoKey; now?: number; header?: string | null } = {}) => {
      const text = options.text ?? (body === undefined ? (method === 'GET' ? '' : '{}') : JSON.stringify(body))
      const header = options.header !== undefined ? options.header : await Stamp.sign(options.key ?? pair.privateKey, { method, path, body: text, deviceId: id, now: options.now ?? clock })
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (header !== null) headers[Stamp.header] = header
      const response = await target().request(path, { method, headers, body: method === 'GET' ? undefined : text })
      return { status: response.status, body: (await response.json()) as Json, headers: response.headers }
    }
    const enrol = () => call('POST', '/v1/devices', { deviceId: id, publicKey })
    return { pair, id, publicKey, call, enrol }
  }
  type Device = Awaited<ReturnType<typeof device>>

  async function enrolled(target?: () => ReturnType<typeof App.app>) {
    const d = await device(target)
    expect((await d.enrol()).status).toBe(201)
    return d
  }

  /** The code in the last mail to this address, as a person reads it. */
  function codeFor(to: string): string {
    const mail = mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
    return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
  }

  async function start(d: Device, to: string) {
    const response = await d.call('POST', '/v1/email/start', { email: to, host })
    expect(response.status).toBe(200)
    return response.body.challengeId as string
  }

  async function verify(d: Device, challengeId: string, code: string) {
    const ephemeral = await Seal.generateKeyPair()
    const response = await d.call('POST', '/v1/email/verify', { challengeId, code, device: base64url(await Seal.exportPublicKey(ephemeral.publicKey)) })
    return { ...response, ephemeral }
  }

  async function signIn(d: Device, to: string) {
    const challengeId = await start(d, to)
    const verified = await verify(d, challengeId, codeFor(to))
    expect(verified.status).toBe(200)
    return verified
  }

  /** A new person with a wallet made as the secure-site makes one (docs/embedded-wallet.md §2 Create). */
  async function withWallet(target?: () => ReturnType<typeof App.app>) {
    const d = await enrolled(target)
    const to = email()
    const { body } = await signIn(d, to)
    const userId = body.user.id as string
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    const sealed = await Seal.seal(keys.vaultPublic, split.recovery2, utf8(userId))
    const created = await d.call('POST', '/v1/wallet', { address, deviceShare: base64url(split.server), recovery1: base64url(split.recovery1), recovery2: base64url(sealed) })
    expect(created).toMatchObject({ status: 201, body: {} })
    return { d, to, userId, secret, split, address, sealed }
  }

  const wrong = (code: string) => (code === '000000' ? '000001' : '000000')

  describe('the flow', () => {
    test('behavior: enrol, code, new user, wallet, session share; a second device recovers R1 + R2 to the same address', async () => {
      const first = await device()
      expect(await first.enrol()).toMatchObject({ status: 201, body: { deviceId: first.id } })
      expect(await first.enrol()).toMatchObject({ status: 200, body: { deviceId: first.id } })

      const to = email()
      const started = await first.call('POST', '/v1/email/start', { email: to.toUpperCase(), host })
      expect(started.status).toBe(200)
      expect(started.body).toEqual({ challengeId: expect.stringMatching(Ids.pattern), expiresAt: clock + Otp.policy.lifetimeMs })
      const mail = mails.at(-1)!
      expect(mail.to).toBe(to)
      expect(mail.text).toContain(`Your Doorway code is ${codeFor(to)}.`)
      expect(mail.text).toContain(`asked to sign in at ${host}. The code expires in 10 minutes. If this wasn't you, ignore this mail.`)

      const verified = await verify(first, started.body.challengeId, codeFor(to))
      expect(verified.status).toBe(200)
      expect(verified.body).toEqual({ user: { id: expect.stringMatching(Ids.pattern), email: to }, wallet: null })
      const userId = verified.body.user.id as string

      const secret = Shares.entropy()
      const split = await Shares.splitTwice(secret)
      const address = Shares.evmAccount(secret).address
      const sealed = await Seal.seal(keys.vaultPublic, split.recovery2, utf8(userId))
      const wallet = { address, deviceShare: base64url(split.server), recovery1: base64url(split.recovery1), recovery2: base64url(sealed) }
      expect(await first.call('POST', '/v1/wallet', wallet)).toMatchObject({ status: 201, body: {} })

      const session = await first.call('POST', '/v1/session')
      expect(session).toMatchObject({ status: 200, body: { user: { id: userId, email: to }, address, deviceShare: base64url(split.server) } })
      // docs/embedded-wallet.md §2 Returning device: D + A.
      expect(await Shares.combine(split.device, fromBase64url(session.body.deviceShare), address)).toEqual(secret)

      // A new dapp is a new device (partitioned storage): a code, then R1 and R2 re-sealed to it.
      clock += Otp.policy.resendMs
      const second = await enrolled()
      const challengeId = await start(second, to)
      const recovered = await verify(second, challengeId, codeFor(to))
      expect(recovered.status).toBe(200)
      expect(recovered.body).toEqual({
        user: { id: userId, email: to },
        wallet: { address, recovery1: base64url(split.recovery1), recovery2: expect.stringMatching(/^[\w-]+$/) },
      })
      expect(recovered.body.wallet.recovery2).not.toBe(base64url(sealed))
      const r2 = await Seal.open(recovered.ephemeral.privateKey, fromBase64url(recovered.body.wallet.recovery2), utf8(userId))
      const rebuilt = await Shares.combine(fromBase64url(recovered.body.wallet.recovery1), r2, address)
      expect(Shares.evmAccount(rebuilt).address).toBe(address)

      // It enrols its own pair (D_2, A_2) and gets A_2 back in its session.
      const split2 = await Shares.splitTwice(rebuilt)
      expect(await second.call('POST', '/v1/devices/share', { deviceShare: base64url(split2.server) })).toMatchObject({ status: 201 })
      expect((await second.call('POST', '/v1/session')).body.deviceShare).toBe(base64url(split2.server))
      expect((await first.call('POST', '/v1/session')).body.deviceShare).toBe(base64url(split.server))

      const audit = await first.call('GET', '/v1/audit')
      expect(audit.status).toBe(200)
      expect(audit.body.entries.map((e: Json) => e.kind)).toEqual([
        'code.verified',
        'device.enrolled',
        'wallet.created',
        'share.released',
        'code.sent',
        'code.verified',
        'device.enrolled',
        'recovery.released',
        'device.shareStored',
        'share.released',
        'share.released',
      ])
      expect(audit.body.entries[2]).toMatchObject({ seq: 3, kind: 'wallet.created', detail: { address, deviceId: first.id } })
      // The client can check the chain from what it is given and its user id.
      let prevHash = Audit.genesis
      for (const entry of audit.body.entries) {
        expect(entry.hash).toBe(Audit.hash(prevHash, { ...entry, userId }))
        prevHash = entry.hash
      }
      expect(logged).toEqual([])
    })

    test('behavior: the same device signing in again is not enrolled again, and gets R1 and R2', async () => {
      const { d, to, address } = await withWallet()
      clock += Otp.policy.resendMs
      const again = await signIn(d, to)
      expect(again.body.wallet.address).toBe(address)
      const kinds = (await d.call('GET', '/v1/audit')).body.entries.map((e: Json) => e.kind)
      expect(kinds.filter((k: string) => k === 'device.enrolled')).toHaveLength(1)
    })

    test('error: a second wallet for the same user is a 409', async () => {
      const { d, address, split, sealed } = await withWallet()
      const again = await d.call('POST', '/v1/wallet', { address, deviceShare: base64url(split.server), recovery1: base64url(split.recovery1), recovery2: base64url(sealed) })
      expect(again).toMatchObject({ status: 409, body: { message: 'This user has a wallet already' } })
    })

    test('error: an enrolled id with another key is a 409', async () => {
      const d = await enrolled()
      const thief = await device()
      const response = await thief.call('POST', '/v1/devices', { deviceId: d.id, publicKey: thief.publicKey }, { header: await Stamp.sign(thief.pair.privateKey, { method: 'POST', path: '/v1/devices', body: JSON.stringify({ deviceId: d.id, publicKey: thief.publicKey }), deviceId: d.id, now: clock }) })
      expect(response).toMatchObject({ status: 409, body: { message: 'This device id belongs to another key' } })
    })

    test('error: the vault being down is a 503 that says so, and nothing is released', async () => {
      const { to } = await withWallet()
      clock += Otp.policy.resendMs
      const down = App.app(deps({ vault: Vault.client('http://vault.test', () => Promise.reject(new Error('connection refused'))) }))
      const d = await device(() => down)
      expect((await d.enrol()).status).toBe(201)
      const challengeId = await start(d, to)
      const response = await verify(d, challengeId, codeFor(to))
      expect(response).toMatchObject({ status: 503, body: { message: 'The vault is unavailable: ask for a new code in a moment', reason: 'vault' } })
      expect(JSON.stringify(response.body)).not.toContain('recovery')
      expect(logged.splice(0)).toEqual(['vault unavailable'])
    })

  })

  describe('the code mail (docs/embedded-wallet.md §4 Sending)', () => {
    const unsent = { status: 503, body: { message: 'The code email could not be sent: try again in a moment', reason: 'mail' } }
    const down: [string, Mail.Mailer['send']][] = [
      [
        'throws',
        () => {
          throw new Error('smtp down')
        },
      ],
      ['rejects', () => Promise.reject(new Error('smtp down'))],
    ]

    test.each(down)('error: a mailer that %s is a 503 mail, and a retry right after is not throttled', async (_, send) => {
      let target = App.app(deps({ mailer: { send } }))
      const d = await enrolled(() => target)
      const to = email()
      expect(await d.call('POST', '/v1/email/start', { email: to, host })).toMatchObject(unsent)
      expect(logged.splice(0)).toEqual(['code mail not sent'])
      target = app
      expect((await d.call('POST', '/v1/email/start', { email: to, host })).status).toBe(200)
    })

    test('error: a mail server that never answers is a 503 within mailTimeoutMs', async () => {
      const stalled = App.app(deps({ mailer: { send: () => new Promise(() => {}) }, mailTimeoutMs: 50 }))
      const d = await enrolled(() => stalled)
      const began = performance.now()
      expect(await d.call('POST', '/v1/email/start', { email: email(), host })).toMatchObject(unsent)
      expect(performance.now() - began).toBeLessThan(1_000)
      expect(logged.splice(0)).toEqual(['code mail not sent'])
      expect(App.mailTimeoutMs).toBe(25_000)
    })

    test('error: the export code mail failing is a 503 mail too, logs no code.sent, and a retry is not throttled', async () => {
      let target = app
      const { d } = await withWallet(() => target)
      clock += Session.policy.freshMs + 1_000
      target = App.app(deps({ mailer: { send: () => Promise.reject(new Error('smtp down')) } }))
      expect(await d.call('POST', '/v1/export/code', { host })).toMatchObject(unsent)
      expect(logged.splice(0)).toEqual(['code mail not sent'])
      target = app
      expect((await d.call('POST', '/v1/export/code', { host })).status).toBe(200)
      const kinds = (await d.call('GET', '/v1/audit')).body.entries.map((e: Json) => e.kind)
      expect(kinds.filter((k: string) => k === 'code.sent')).toHaveLength(1)
    })

    test('behavior: a notice that fails to send is logged, never the route\'s failure', async () => {
      let target = app
      const { d, to } = await withWallet(() => target)
      clock += Session.policy.freshMs + 1_000
      const send = async (mail: Mail.Mail) => {
        if (!mail.subject.startsWith('Your Doorway code')) throw new Error('smtp down')
        mails.push(mail)
      }
      target = App.app(deps({ mailer: { send } }))
      const { body } = await d.call('POST', '/v1/export/code', { host })
      expect((await d.call('POST', '/v1/export', { challengeId: body.challengeId, code: codeFor(to) })).status).toBe(200)
      await expect.poll(() => logged.length).toBe(1)
      expect(logged.splice(0)).toEqual(['mail not sent'])
    })
  })

  describe('input', () => {
    // P-256's generator: a valid point anyone can name.
    const generator = base64url(
      Buffer.from('046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5', 'hex'),
    )
    const point = (first: number) => base64url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? first : 1)))
    type Case = [string, number, { setup: 'none' | 'enrolled' | 'fresh'; method?: string; path: string; body?: unknown; text?: string; unsigned?: boolean }, Json]
    const cases: Case[] = [
      ['enrol without fields', 400, { setup: 'none', path: '/v1/devices', body: {} }, { message: 'Invalid deviceId: expected 32 lowercase hex digits' }],
      ['enrol with a short id', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: 'abc', publicKey: point(4) } }, {}],
      ['enrol with a 64-byte key', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: base64url(new Uint8Array(64)) } }, {}],
      ['enrol with a compressed-point prefix', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: point(2) } }, {}],
      ['enrol with a point off the curve', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: point(4) } }, { message: 'Invalid publicKey: expected an uncompressed P-256 point' }],
      ['enrol with padded base64', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: 'AAAA==' } }, {}],
      ['a body that is not JSON', 400, { setup: 'none', path: '/v1/devices', text: 'nope' }, { message: 'Expected a JSON object body' }],
      ['a JSON array', 400, { setup: 'enrolled', path: '/v1/email/start', text: '[]' }, { message: 'Expected a JSON object body' }],
      ['a body over 16 KB', 413, { setup: 'enrolled', path: '/v1/email/start', text: JSON.stringify({ email: 'a@b.test', host, pad: 'x'.repeat(App.bodyLimitBytes) }) }, {}],
      ['an unsigned request', 401, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host }, unsigned: true }, { reason: 'malformed' }],
      ['an invalid email', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'not-an-email', host } }, { message: 'Invalid email' }],
      ['an email that is a number', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 42, host } }, { message: 'Invalid email' }],
      ['a missing host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test' } }, { message: 'Invalid host: expected an http(s) origin' }],
      ['a host with a path', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host: 'http://a.test/login' } }, {}],
      ['a javascript: host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host: 'javascript:alert(1)' } }, {}],
      ['an ftp host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host: 'ftp://a.test' } }, {}],
      ['a host over 200 characters', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host: `http://${'a'.repeat(200)}.test` } }, {}],
      ['a 5-digit code', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: '12345', device: point(4) } }, { message: 'Invalid code: expected 6 digits' }],
      ['a code as a number', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: 123456, device: point(4) } }, {}],
      ['a bad challenge id', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: '../x', code: '123456', device: point(4) } }, {}],
      ['a bad ephemeral key', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: '123456', device: 'abc' } }, {}],
      ['an unknown challenge', 401, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: '123456', device: generator } }, { reason: 'unknown' }],
      ['a wallet without a session', 401, { setup: 'enrolled', path: '/v1/wallet', body: {} }, { reason: 'noSession' }],
      ['a wallet with a bad address', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: 'xyz' } }, { message: 'Invalid address: expected a 0x-prefixed 40-hex-digit address' }],
      ['a wallet with a short share', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: `0x${'a'.repeat(40)}`, deviceShare: base64url(new Uint8Array(16)) } }, { message: 'Invalid deviceShare: expected 17 bytes as base64url' }],
      ['a wallet with standard base64', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: `0x${'a'.repeat(40)}`, deviceShare: base64url(new Uint8Array(17)), recovery1: '+/+/+/+/+/+/+/+/+/+/+/+/' } }, {}],
      ['a wallet with a short sealed R2', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: `0x${'a'.repeat(40)}`, deviceShare: base64url(new Uint8Array(17)), recovery1: base64url(new Uint8Array(17)), recovery2: base64url(new Uint8Array(110)) } }, {}],
      ['a wallet with an unsealed R2', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: `0x${'a'.repeat(40)}`, deviceShare: base64url(new Uint8Array(17)), recovery1: base64url(new Uint8Array(17)), recovery2: base64url(new Uint8Array(111)) } }, { message: 'Invalid recovery2: expected a share sealed to the vault' }],
      ['a device share without a wallet', 404, { setup: 'fresh', path: '/v1/devices/share', body: { deviceShare: base64url(new Uint8Array(17)) } }, {}],
      ['a device share that is not bytes', 400, { setup: 'fresh', path: '/v1/devices/share', body: { deviceShare: 17 } }, {}],
      ['a device share without a session', 401, { setup: 'enrolled', path: '/v1/devices/share', body: { deviceShare: base64url(new Uint8Array(17)) } }, { reason: 'noSession' }],
      ['a session without one', 401, { setup: 'enrolled', path: '/v1/session' }, { reason: 'noSession' }],
      ['a session without a wallet', 401, { setup: 'fresh', path: '/v1/session' }, { reason: 'noShare' }],
      ['ending no session', 401, { setup: 'enrolled', path: '/v1/session/end' }, { reason: 'noSession' }],
      ['the audit log without a session', 401, { setup: 'enrolled', method: 'GET', path: '/v1/audit' }, { reason: 'noSession' }],
      ['an export code without a session', 401, { setup: 'enrolled', path: '/v1/export/code', body: { host } }, { reason: 'noSession' }],
      ['an export code with a bad host', 400, { setup: 'fresh', path: '/v1/export/code', body: { host: 'http://a.test/x' } }, { message: 'Invalid host: expected an http(s) origin' }],
      ['an export code with a body that is not JSON', 400, { setup: 'fresh', path: '/v1/export/code', text: 'nope' }, { message: 'Expected a JSON object body' }],
      ['an export without a session', 401, { setup: 'enrolled', path: '/v1/export', body: { challengeId: Ids.random(), code: '123456' } }, { reason: 'noSession' }],
      ['an export with a bad challenge id', 400, { setup: 'fresh', path: '/v1/export', body: { challengeId: 'x', code: '123456' } }, { message: 'Invalid challengeId: expected 32 lowercase hex digits' }],
      ['an export with a 5-digit code', 400, { setup: 'fresh', path: '/v1/export', body: { challengeId: Ids.random(), code: '12345' } }, { message: 'Invalid code: expected 6 digits' }],
      ['an export of an unknown challenge', 401, { setup: 'fresh', path: '/v1/export', body: { challengeId: Ids.random(), code: '123456' } }, { reason: 'unknown' }],
      ['an unknown route', 404, { setup: 'enrolled', path: '/v1/nothing' }, { message: 'Not found' }],
      ['an unknown device', 401, { setup: 'none', path: '/v1/email/start', body: { email: 'a@b.test', host } }, { reason: 'unknownDevice' }],
    ]

    test.each(cases)('error: %s is a %i, never a 500', async (_, status, request, body) => {
      const d = request.setup === 'none' ? await device() : request.setup === 'enrolled' ? await enrolled() : (await (async () => {
        const e = await enrolled()
        await signIn(e, email())
        return e
      })())
      const response = await d.call(request.method ?? 'POST', request.path, request.body, { text: request.text, header: request.unsigned ? null : undefined })
      expect(response.status).toBe(status)
      expect(response.body).toMatchObject({ message: expect.any(String), ...body })
      expect(logged).toEqual([])
    })

    test('behavior: GET /healthz answers unsigned', async () => {
      const response = await app.request('/healthz')
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ ok: true })
    })
  })

  describe('signed requests (hostile test 7)', () => {
    test('error: a replayed request is a 401 replay', async () => {
      const d = await enrolled()
      const body = JSON.stringify({ email: email(), host })
      const header = await Stamp.sign(d.pair.privateKey, { method: 'POST', path: '/v1/email/start', body, deviceId: d.id, now: clock })
      expect((await d.call('POST', '/v1/email/start', undefined, { text: body, header })).status).toBe(200)
      expect(await d.call('POST', '/v1/email/start', undefined, { text: body, header })).toMatchObject({ status: 401, body: { reason: 'replay', message: 'The request was already used' } })
    })

    test('error: a request signed by another key is a 401 signature', async () => {
      const d = await enrolled()
      const other = await Stamp.generateKey()
      expect(await d.call('POST', '/v1/session', {}, { key: other.privateKey })).toMatchObject({ status: 401, body: { reason: 'signature' } })
    })

    test('error: a request 61 s old is a 401 skew', async () => {
      const d = await enrolled()
      expect(await d.call('POST', '/v1/session', {}, { now: clock - 61_000 })).toMatchObject({ status: 401, body: { reason: 'skew' } })
    })

    test('error: a revoked device cannot sign', async () => {
      const { d } = await withWallet()
      await place.raw('UPDATE devices SET revoked = true WHERE id = $1', [d.id])
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'unknownDevice' } })
    })
  })

  describe('one-time codes (hostile test 8)', () => {
    test('error: a resend within 30 s is a 429 with the exact message, from this device or a second one', async () => {
      const [a, b] = [await enrolled(), await enrolled()]
      const to = email()
      await start(a, to)
      clock += 10_000
      const again = await a.call('POST', '/v1/email/start', { email: to, host })
      expect(again).toMatchObject({ status: 429, body: { message: 'Please try again after 20 seconds', reason: 'throttled', retryAfter: 20 } })
      expect(again.headers.get('retry-after')).toBe('20')
      // A second host site is a second device: the throttle is the server's, per email.
      expect(await b.call('POST', '/v1/email/start', { email: to, host: 'http://127.0.0.1:5173' })).toMatchObject({ status: 429, body: { message: 'Please try again after 20 seconds', retryAfter: 20 } })
      // And per device, whatever the email.
      expect(await a.call('POST', '/v1/email/start', { email: email(), host })).toMatchObject({ status: 429, body: { reason: 'throttled' } })
      clock += 20_000
      expect((await b.call('POST', '/v1/email/start', { email: to, host })).status).toBe(200)
    })

    test('error: a sixth code in an hour is a 429 hourly', async () => {
      const to = email()
      for (let i = 0; i < Otp.policy.sendsPerHour; i++) {
        await start(await enrolled(), to)
        clock += Otp.policy.resendMs
      }
      const sixth = await (await enrolled()).call('POST', '/v1/email/start', { email: to, host })
      expect(sixth).toMatchObject({ status: 429, body: { reason: 'hourly', retryAfter: 3600 - 5 * 30, message: 'Please try again after 3450 seconds' } })
    })

    test('error: the sixth attempt is refused even with the right code', async () => {
      const d = await enrolled()
      const to = email()
      const challengeId = await start(d, to)
      for (let i = 0; i < Otp.policy.attempts; i++)
        expect(await verify(d, challengeId, wrong(codeFor(to)))).toMatchObject({ status: 401, body: { reason: 'wrong', message: 'The code is not right', attemptsLeft: 4 - i } })
      expect(await verify(d, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'exhausted' } })
    })

    test('error: a code has expired at 10 min + 1 s', async () => {
      const d = await enrolled()
      const to = email()
      const challengeId = await start(d, to)
      clock += Otp.policy.lifetimeMs + 1_000
      expect(await verify(d, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'expired' } })
    })

    test('error: a code is bound to the device that asked; another device spends nothing', async () => {
      const [a, b] = [await enrolled(), await enrolled()]
      const to = email()
      const challengeId = await start(a, to)
      expect(await verify(b, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'otherDevice' } })
      expect((await verify(a, challengeId, codeFor(to))).status).toBe(200)
      expect(await b.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
    })

    test('error: a code works once', async () => {
      const d = await enrolled()
      const to = email()
      const challengeId = await start(d, to)
      expect((await verify(d, challengeId, codeFor(to))).status).toBe(200)
      expect(await verify(d, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'used' } })
    })

    test('error: 20 failures in 24 h lock the email, tell its owner, and refuse even a right code', async () => {
      const to = email()
      const plan = [5, 5, 5, 4, 1]
      let challengeId: string
      for (const failures of plan) {
        const d = await enrolled()
        challengeId = await start(d, to)
        for (let i = 0; i < failures; i++) expect((await verify(d, challengeId, wrong(codeFor(to)))).body.reason).toBe('wrong')
        if (failures === 1) {
          expect(mails.at(-1)).toMatchObject({ to, subject: 'Doorway sign-in by email is paused' })
          const right = await verify(d, challengeId, codeFor(to))
          expect(right).toMatchObject({ status: 429, body: { reason: 'locked', retryAfter: 24 * 3600 - 4 * 31 } })
        }
        clock += 31_000
      }
      const locked = await (await enrolled()).call('POST', '/v1/email/start', { email: to, host })
      expect(locked).toMatchObject({ status: 429, body: { reason: 'locked', message: `Please try again after ${24 * 3600 - 5 * 31} seconds` } })
      expect(mails.filter((m) => m.subject === 'Doorway sign-in by email is paused')).toHaveLength(1)
    })
  })

  describe('key export (docs/embedded-wallet.md §8)', () => {
    async function exportCode(d: Device) {
      const response = await d.call('POST', '/v1/export/code', { host })
      expect(response.status).toBe(200)
      return response.body.challengeId as string
    }

    test('behavior: a code mailed for export releases this device\'s share once, logged and notified', async () => {
      const { d, to, userId, split, secret, address } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const started = await d.call('POST', '/v1/export/code', { host })
      expect(started).toMatchObject({ status: 200, body: { challengeId: expect.stringMatching(Ids.pattern), expiresAt: clock + Otp.policy.lifetimeMs } })
      const challengeId = started.body.challengeId as string
      const code = codeFor(to)
      expect(mails.at(-1)).toEqual({
        to,
        subject: `Your Doorway code to export your wallet is ${code}`,
        text: `Your Doorway code to export your wallet is ${code}.\n\nSomeone asked to export your wallet's recovery phrase and private key at ${host}. The code expires in 10 minutes.\n\nIf this wasn't you, do not share this code with anyone and ignore this mail.\n`,
      })

      const exported = await d.call('POST', '/v1/export', { challengeId, code })
      expect(exported).toMatchObject({ status: 200, body: { deviceShare: base64url(split.server) } })
      expect(Object.keys(exported.body)).toEqual(['deviceShare'])
      expect(exported.body.deviceShare).toBe((await d.call('POST', '/v1/session')).body.deviceShare)
      // The browser's D and this A rebuild the key; the server never sees it.
      expect(await Shares.combine(split.device, fromBase64url(exported.body.deviceShare), address)).toEqual(secret)
      expect(mails.at(-1)).toEqual({
        to,
        subject: 'Your Doorway wallet was exported',
        text: `The recovery phrase and private key of your Doorway wallet were shown at ${host}, on a device that confirmed a code sent to this address.\n\nIf this wasn't you, move your funds to a new wallet now.\n`,
      })

      const entries = (await place.storage.audit.list(userId)).filter((e) => e.kind === 'code.sent' || e.kind === 'key.exported')
      expect(entries.map(({ kind, detail }) => ({ kind, detail }))).toEqual([
        { kind: 'code.sent', detail: { deviceId: d.id, challengeId, host, purpose: 'export' } },
        { kind: 'key.exported', detail: { deviceId: d.id, host } },
      ])
      expect(await d.call('POST', '/v1/export', { challengeId, code })).toMatchObject({ status: 401, body: { reason: 'used' } })
      expect(logged).toEqual([])
    })

    test('behavior: the verified code is fresh auth', async () => {
      const { d, to } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      expect(await d.call('POST', '/v1/devices/share', { deviceShare: base64url(new Uint8Array(Custody.shareBytes)) })).toMatchObject({ status: 403, body: { reason: 'freshAuth' } })
      const challengeId = await exportCode(d)
      expect((await d.call('POST', '/v1/export', { challengeId, code: codeFor(to) })).status).toBe(200)
      expect((await place.storage.devices.get(d.id))!.freshAuthAt).toBe(clock)
    })

    test('error: a wrong code is a 401 with attemptsLeft, and nothing is released', async () => {
      const { d, to, userId } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const challengeId = await exportCode(d)
      expect(await d.call('POST', '/v1/export', { challengeId, code: wrong(codeFor(to)) })).toMatchObject({
        status: 401,
        body: { message: 'The code is not right', reason: 'wrong', attemptsLeft: 4 },
      })
      expect((await place.storage.audit.list(userId)).map((e) => e.kind)).not.toContain('key.exported')
    })

    test('error: a code from another device is a 401 otherDevice', async () => {
      const { d, to } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const challengeId = await exportCode(d)
      const second = await enrolled()
      clock += Session.policy.freshMs + 1_000
      await signIn(second, to)
      expect(await second.call('POST', '/v1/export', { challengeId, code: codeFor(to) })).toMatchObject({ status: 401, body: { reason: 'otherDevice' } })
    })

    test('error: a code for another email is a 403 otherUser and spends nothing', async () => {
      const { d } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const other = email()
      const challengeId = await start(d, other)
      expect(await d.call('POST', '/v1/export', { challengeId, code: codeFor(other) })).toMatchObject({
        status: 403,
        body: { message: 'The code was sent to another email than the signed-in one', reason: 'otherUser' },
      })
      expect((await verify(d, challengeId, codeFor(other))).status).toBe(200)
    })

    test('error: a replayed export is a 401 replay', async () => {
      const { d, to } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const challengeId = await exportCode(d)
      const body = JSON.stringify({ challengeId, code: codeFor(to) })
      const header = await Stamp.sign(d.pair.privateKey, { method: 'POST', path: '/v1/export', body, deviceId: d.id, now: clock })
      expect((await d.call('POST', '/v1/export', undefined, { text: body, header })).status).toBe(200)
      expect(await d.call('POST', '/v1/export', undefined, { text: body, header })).toMatchObject({ status: 401, body: { reason: 'replay' } })
    })

    test('behavior: within 5 min of its sign-in the device is fresh: no code is mailed, and the share is released once asked, logged and notified', async () => {
      const { d, to, userId, split } = await withWallet()
      const before = mails.length
      clock += 60_000
      expect(await d.call('POST', '/v1/export/code', { host })).toMatchObject({ status: 200, body: { fresh: true } })
      expect(mails.length).toBe(before)
      const exported = await d.call('POST', '/v1/export', { host })
      expect(exported).toMatchObject({ status: 200, body: { deviceShare: base64url(split.server) } })
      expect(mails.at(-1)).toMatchObject({ to, subject: 'Your Doorway wallet was exported' })
      expect((await place.storage.audit.list(userId)).filter((e) => e.kind === 'key.exported').map((e) => e.detail)).toEqual([{ deviceId: d.id, host }])
    })

    test('error: without a code and past 5 min, the export is a 403 freshAuth and nothing is released', async () => {
      const { d, userId } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      expect(await d.call('POST', '/v1/export', { host })).toMatchObject({ status: 403, body: { reason: 'freshAuth' } })
      expect((await place.storage.audit.list(userId)).map((e) => e.kind)).not.toContain('key.exported')
    })

    test('error: a second export code within 30 s is a 429 with the exact message', async () => {
      const { d } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      await exportCode(d)
      clock += 10_000
      const response = await d.call('POST', '/v1/export/code', { host })
      expect(response).toMatchObject({ status: 429, body: { message: 'Please try again after 20 seconds', reason: 'throttled', retryAfter: 20 } })
      expect(response.headers.get('retry-after')).toBe('20')
    })

    test('error: a device without a share is a 401 noShare, and the code is spent', async () => {
      const d = await enrolled()
      const to = email()
      await signIn(d, to)
      clock += Session.policy.freshMs + 1_000
      const challengeId = await exportCode(d)
      expect(await d.call('POST', '/v1/export', { challengeId, code: codeFor(to) })).toMatchObject({ status: 401, body: { reason: 'noShare' } })
    })
  })

  describe('sessions (docs/embedded-wallet.md §3)', () => {
    test('error: a session idle for 7 days is over, and a later request does not revive it', async () => {
      const { d } = await withWallet()
      clock += Session.policy.idleMs - 1_000
      expect((await d.call('POST', '/v1/session')).status).toBe(200)
      clock += Session.policy.idleMs
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
    })

    test('error: a session is over after 30 days however busy', async () => {
      const { d } = await withWallet()
      for (let day = 6; day < 30; day += 6) {
        clock += 6 * 24 * 3_600_000
        expect((await d.call('POST', '/v1/session')).status).toBe(200)
      }
      clock += 6 * 24 * 3_600_000
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
    })

    test('error: fresh auth lasts 5 minutes', async () => {
      const d = await enrolled()
      await signIn(d, email())
      clock += Session.policy.freshMs + 1_000
      expect(await d.call('POST', '/v1/wallet', {})).toMatchObject({ status: 403, body: { reason: 'freshAuth' } })
    })

    test('behavior: session/end deletes the share and ends the session', async () => {
      const { d, userId } = await withWallet()
      expect(await d.call('POST', '/v1/session/end')).toMatchObject({ status: 200, body: {} })
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
      expect(await place.storage.wallets.deviceShare(userId, d.id)).toBeUndefined()
      expect((await place.storage.audit.list(userId)).at(-1)).toMatchObject({ kind: 'session.ended', detail: { deviceId: d.id } })
    })
  })

  describe('audit log (docs/embedded-wallet.md §10)', () => {
    test('behavior: the chain verifies; a rewritten row is found by verifyChain; plain updates are refused', async () => {
      const { userId } = await withWallet()
      const entries = await place.storage.audit.list(userId)
      expect(entries.length).toBeGreaterThanOrEqual(3)
      expect(Audit.verifyChain(entries)).toEqual({ ok: true })
      await expect(place.raw(`UPDATE audit_log SET kind = 'x' WHERE user_id = $1`, [userId])).rejects.toThrow('append-only')
      await expect(place.raw(`DELETE FROM audit_log WHERE user_id = $1`, [userId])).rejects.toThrow('append-only')
      // A thief with the database can switch the trigger off; the chain still tells.
      await place.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only')
      try {
        await place.raw(`UPDATE audit_log SET detail = '{"deviceId":"elsewhere"}' WHERE user_id = $1 AND seq = 2`, [userId])
      } finally {
        await place.raw('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only')
      }
      expect(Audit.verifyChain(await place.storage.audit.list(userId))).toEqual({ ok: false, seq: 2 })
    })
  })

  describe('database theft (hostile test 5)', () => {
    test('behavior: no table holds a share, the entropy, the mnemonic or a code in clear', async () => {
      const { d, to, secret, split } = await withWallet()
      const second = await enrolled()
      clock += Otp.policy.resendMs
      const recovered = await signIn(second, to)
      const split2 = await Shares.splitTwice(secret)
      await second.call('POST', '/v1/devices/share', { deviceShare: base64url(split2.server) })
      await d.call('POST', '/v1/session')
      const codes = mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).map((m) => /code is (\d{6})/.exec(m.subject)![1]!)
      expect(codes).toHaveLength(2)

      const tables = await place.raw<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
      expect(tables.map((t) => t.table_name).sort()).toEqual(['audit_log', 'device_shares', 'devices', 'identities', 'nonces', 'otp_challenges', 'otp_failures', 'recovery', 'users'])
      const texts: string[] = []
      const blobs: string[] = []
      for (const { table_name } of tables)
        for (const row of await place.raw(`SELECT * FROM ${table_name}`))
          for (const value of Object.values(row)) {
            if (value instanceof Uint8Array) blobs.push(Buffer.from(value).toString('hex'))
            else if (typeof value === 'string') texts.push(value)
            else if (value !== null && typeof value === 'object') texts.push(JSON.stringify(value))
          }
      expect(blobs.length).toBeGreaterThanOrEqual(4)
      const secrets = [secret, split.device, split.server, split.recovery1, split.recovery2, split2.device, split2.server, fromBase64url(recovered.body.wallet.recovery1)]
      const hex = blobs.join(' ')
      const text = texts.join(' ')
      for (const bytes of secrets) {
        expect(hex).not.toContain(Buffer.from(bytes).toString('hex'))
        for (const form of [Buffer.from(bytes).toString('hex'), base64url(bytes), Buffer.from(bytes).toString('base64')]) expect(text).not.toContain(form)
      }
      expect(text).not.toContain(entropyToMnemonic(secret, wordlist))
      for (const code of codes) {
        expect(text).not.toMatch(new RegExp(`(?<![0-9a-zA-Z])${code}(?![0-9a-zA-Z])`))
        expect(hex).not.toContain(Buffer.from(code).toString('hex'))
      }
    })
  })
})

describe('static secure-site', () => {
  let dir: string
  let app: ReturnType<typeof App.app>
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'doorway-secure-static-'))
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>secure</title>')
    await writeFile(join(dir, 'main.js'), 'console.log(1)')
    await writeFile(join(tmpdir(), 'doorway-secret.txt'), 'secret')
    app = App.app({
      storage: {} as Storage,
      secrets: {} as App.Deps['secrets'],
      vault: { reseal: () => Promise.reject(new Error('unused')) },
      mailer: { send: async () => {} },
      now: () => t0,
      staticDir: dir,
    })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  test('behavior: / is index.html with the CSP, no referrer and nosniff', async () => {
    const response = await app.request('/')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<title>secure</title>')
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; object-src 'none'; frame-ancestors *",
    )
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test('behavior: scripts are served as JavaScript', async () => {
    const response = await app.request('/main.js')
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
  })

  test.each([['/../doorway-secret.txt'], ['/%2e%2e/doorway-secret.txt'], ['/..%2fdoorway-secret.txt'], ['/missing.js']])('error: %s is a 404', async (path) => {
    const response = await app.request(path)
    expect(response.status).toBe(404)
    expect(await response.text()).not.toContain('secret')
  })
})
