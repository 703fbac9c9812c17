/**
 * The secure-site server end to end in-process (API.md, docs/embedded-wallet.md §2–4, §10 and
 * hostile tests 5, 7 and 8): real WebCrypto device keys, the in-process vault (testStack.ts), a fake
 * clock and a recording mailer standing in for the person's mailbox, on PGlite and on PostgreSQL.
 * Shares travel sealed both ways (common/Transport.ts): the test seals and opens them as the browser does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as Attest from '@doorway/secure-site/common/Attest'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as Ids from '@doorway/shared/Ids'
import { entropyToMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Audit from './Audit.js'
import * as Custody from './Custody.js'
import type * as Mail from './mail.js'
import * as Otp from './Otp.js'
import * as Session from './Session.js'
import { backends, type Place } from './storage/testing.js'
import * as TestStack from './testStack.js'
import * as Vault from './Vault.js'
import * as Approval from './vault/approval.js'

const t0 = Date.UTC(2026, 10, 23, 12)
const host = 'http://localhost:5173'
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>

describe('Custody', () => {
  test('behavior: the share sizes the server checks are the secure-site\'s, sealed up, down and to the vault', async () => {
    const split = await Shares.splitTwice(Shares.entropy())
    const pair = await Seal.generateKeyPair()
    const point = await Seal.exportPublicKey(pair.publicKey)
    expect(split.server.length).toBe(Custody.shareBytes)
    expect((await Seal.seal(point, split.recovery2, utf8('u'))).length).toBe(Custody.sealedShareBytes)
    expect((await Transport.up(point, 'deviceShare', Ids.random(), split.server)).length).toBe(Custody.sealedShareBytes)
    expect((await Transport.down(point, 'recovery1', Ids.random(), Ids.random(), split.recovery1)).length).toBe(Custody.sealedShareBytes)
  })
})

describe.each(backends)('app on %s', (_, create) => {
  let place: Place
  let stack: TestStack.Stack
  let clock = t0
  const logged: string[] = []
  let app: ReturnType<typeof App.app>
  let n = 0
  const email = () => `person${++n}@example.test`
  const mails = () => stack.mails

  /**
   * The stack's server, with some of its dependencies swapped. Its per-network limits are off (limits.ts,
   * tested in limits.test.ts): every in-process request has the same source.
   */
  const deps = (overrides: Partial<App.Deps> = {}): App.Deps => ({ ...stack.deps, ...overrides })

  beforeAll(async () => {
    place = await create()
    stack = await TestStack.start({ storage: place.storage, now: () => clock, log: (message) => void logged.push(message) })
    app = App.app(deps())
  }, 120_000)
  afterAll(async () => {
    await stack?.close()
    await place?.dispose()
  }, 60_000)

  /** `source`: the client's address, as a socket would give it (limits.ts keys lockouts by it); none in-process. */
  type Call = { text?: string; key?: CryptoKey; now?: number; header?: string | null; userAgent?: string; source?: string }

  /** A browser's device: its request key, its seal key, and signed requests with it (API.md Conventions). */
  async function device(target: () => ReturnType<typeof App.app> = () => app) {
    const pair = await Stamp.generateKey()
    const seal = await Seal.generateKeyPair()
    const id = Ids.random()
    const publicKey = await Stamp.exportPublicKey(pair.publicKey)
    const sealPoint = await Seal.exportPublicKey(seal.publicKey)
    const call = async (method: string, path: string, body?: unknown, options: Call = {}) => {
      const text = options.text ?? (body === undefined ? (method === 'GET' ? '' : '{}') : JSON.stringify(body))
      const header = options.header !== undefined ? options.header : await Stamp.sign(options.key ?? pair.privateKey, { method, path, body: text, deviceId: id, now: options.now ?? clock })
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': options.userAgent ?? chrome }
      if (header !== null) headers[Stamp.header] = header
      const env = options.source === undefined ? undefined : { incoming: { socket: { remoteAddress: options.source } } }
      const response = await target().request(path, { method, headers, body: method === 'GET' ? undefined : text }, env)
      return { status: response.status, body: (await response.json()) as Json, headers: response.headers }
    }
    const enrol = () => call('POST', '/v1/devices', { deviceId: id, publicKey, sealKey: base64url(sealPoint) })
    /** A share on its way up, sealed to the server's pinned transport key for this device. */
    const up = async (share: Transport.Share, bytes: Uint8Array, deviceId = id) => base64url(await Transport.up(stack.keys.build.serverPublicKey, share, deviceId, bytes))
    /** A share that came down sealed to this device's seal key. */
    const down = (share: Transport.Share, userId: string, sealed: string) => Transport.openDown(seal.privateKey, share, userId, id, fromBase64url(sealed))
    return { pair, seal, sealPoint, id, publicKey, call, enrol, up, down }
  }
  type Device = Awaited<ReturnType<typeof device>>

  async function enrolled(target?: () => ReturnType<typeof App.app>) {
    const d = await device(target)
    expect((await d.enrol()).status).toBe(201)
    return d
  }

  /** The code in the last mail to this address, as a person reads it. */
  function codeFor(to: string): string {
    const mail = mails().filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
    return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
  }

  async function start(d: Device, to: string, attested = true) {
    const response = await d.call('POST', '/v1/email/start', { email: to, host, attested })
    expect(response.status).toBe(200)
    return response.body.challengeId as string
  }

  const verify = (d: Device, challengeId: string, code: string, source?: string) => d.call('POST', '/v1/email/verify', { challengeId, code }, { source })

  async function signIn(d: Device, to: string) {
    const challengeId = await start(d, to)
    const verified = await verify(d, challengeId, codeFor(to))
    expect(verified.status).toBe(200)
    return verified
  }

  /** The wallet's upload as the secure-site makes it (docs/embedded-wallet.md §2 Create): A and R1 sealed up, R2 to the vault. */
  async function upload(d: Device, userId: string, split: Shares.Split, address: string) {
    const sealed = await Seal.seal(stack.keys.build.vaultPublicKey, split.recovery2, utf8(userId))
    const body = { address, deviceShare: await d.up('deviceShare', split.server), recovery1: await d.up('recovery1', split.recovery1), recovery2: base64url(sealed) }
    return { body, sealed }
  }

  /** A new person with a wallet made as the secure-site makes one. */
  async function withWallet(target?: () => ReturnType<typeof App.app>) {
    const d = await enrolled(target)
    const to = email()
    const { body } = await signIn(d, to)
    expect(body.next).toBe('create')
    const userId = body.user.id as string
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    const { body: wallet, sealed } = await upload(d, userId, split, address)
    const created = await d.call('POST', '/v1/wallet', wallet)
    expect(created).toMatchObject({ status: 201, body: { attestation: expect.stringMatching(/^[\w-]{86}$/) } })
    return { d, to, userId, secret, split, address, sealed, attestation: created.body.attestation as string }
  }
  type Made = Awaited<ReturnType<typeof withWallet>>

  /** A ready recovery as the browser takes it: the vault's statements checked, then R1 and R2 opened and combined. */
  async function opened(d: Device, made: Pick<Made, 'to' | 'userId' | 'address'>, ready: Json) {
    const { vaultSigningKey } = stack.keys.build
    const sealedR2 = fromBase64url(ready.recovery2)
    expect(await Attest.verify(vaultSigningKey, { kind: 'wallet', userId: made.userId, email: made.to, address: made.address }, ready.wallet)).toBe(true)
    const statement = { kind: 'reseal', userId: made.userId, email: made.to, address: made.address, device: await Attest.fingerprint(d.sealPoint), sealed: await Attest.fingerprint(sealedR2) } as const
    expect(await Attest.verify(vaultSigningKey, statement, ready.reseal)).toBe(true)
    const r1 = await d.down('recovery1', made.userId, ready.recovery1)
    const r2 = await Seal.open(d.seal.privateKey, sealedR2, utf8(made.userId))
    return { r1, r2, secret: await Shares.combine(r1, r2, made.address) }
  }

  /** A new device of the person: a code, pending until they approve it from the vault's mail, then R1 + R2. */
  async function recover(d: Device, made: Pick<Made, 'to' | 'userId' | 'address'>) {
    const verified = await signIn(d, made.to)
    expect(verified.body).toEqual({ user: { id: made.userId, email: made.to }, next: 'approve' })
    expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'pending' } })
    expect((await stack.approve(made.to)).status).toBe(200)
    const ready = await d.call('POST', '/v1/recovery')
    expect(ready).toMatchObject({ status: 200, body: { state: 'ready', address: made.address } })
    return { ready: ready.body, ...(await opened(d, made, ready.body)) }
  }

  const wrong = (code: string) => (code === '000000' ? '000001' : '000000')

  describe('the flow', () => {
    test('behavior: enrol, code, new user, wallet, session share; a second device, once approved, recovers R1 + R2 to the same address', async () => {
      const first = await device()
      expect(await first.enrol()).toMatchObject({ status: 201, body: { deviceId: first.id } })
      expect(await first.enrol()).toMatchObject({ status: 200, body: { deviceId: first.id } })

      const to = email()
      const started = await first.call('POST', '/v1/email/start', { email: to.toUpperCase(), host, attested: true })
      expect(started.status).toBe(200)
      expect(started.body).toEqual({ challengeId: expect.stringMatching(Ids.pattern), expiresAt: clock + Otp.policy.lifetimeMs })
      const mail = mails().at(-1)!
      expect(mail.to).toBe(to)
      expect(mail.text).toContain(`Your Doorway code is ${codeFor(to)}.`)
      expect(mail.text).toContain(`asked to sign in at ${host}. The code expires in 10 minutes. If this wasn't you, ignore this mail.`)

      const verified = await verify(first, started.body.challengeId, codeFor(to))
      expect(verified).toMatchObject({ status: 200, body: { user: { id: expect.stringMatching(Ids.pattern), email: to }, next: 'create' } })
      expect(Object.keys(verified.body).sort()).toEqual(['next', 'user'])
      const userId = verified.body.user.id as string

      const secret = Shares.entropy()
      const split = await Shares.splitTwice(secret)
      const address = Shares.evmAccount(secret).address
      const { body: wallet } = await upload(first, userId, split, address)
      const created = await first.call('POST', '/v1/wallet', wallet)
      expect(created.status).toBe(201)
      // The vault registered the wallet for this email and address: every later device checks that.
      expect(await Attest.verify(stack.keys.build.vaultSigningKey, { kind: 'wallet', userId, email: to, address }, created.body.attestation)).toBe(true)

      const session = await first.call('POST', '/v1/session')
      expect(session).toMatchObject({ status: 200, body: { user: { id: userId, email: to }, address } })
      // docs/embedded-wallet.md §2 Returning device: D + A, A sealed down to this device's seal key.
      const a = await first.down('deviceShare', userId, session.body.deviceShare)
      expect(a).toEqual(split.server)
      expect(await Shares.combine(split.device, a, address)).toEqual(secret)

      // A new dapp is a new device (partitioned storage): a code, the person's approval, then R1 and R2 sealed to it.
      clock += Otp.policy.resendMs
      const second = await enrolled()
      const { ready, r1, secret: rebuilt } = await recover(second, { to, userId, address })
      expect(r1).toEqual(split.recovery1)
      expect(rebuilt).toEqual(secret)
      expect(ready.recovery2).not.toBe(base64url(await Seal.seal(stack.keys.build.vaultPublicKey, split.recovery2, utf8(userId))))
      // Sealed to the second device: the first device's key does not open it.
      await expect(first.down('recovery1', userId, ready.recovery1)).rejects.toThrow()

      // It enrols its own pair (D_2, A_2) and gets A_2 back in its session.
      const split2 = await Shares.splitTwice(rebuilt)
      expect(await second.call('POST', '/v1/devices/share', { deviceShare: await second.up('deviceShare', split2.server) })).toMatchObject({ status: 201, body: {} })
      expect(await second.down('deviceShare', userId, (await second.call('POST', '/v1/session')).body.deviceShare)).toEqual(split2.server)
      expect(await first.down('deviceShare', userId, (await first.call('POST', '/v1/session')).body.deviceShare)).toEqual(split.server)

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
        'approval.requested',
        'recovery.released',
        'device.shareStored',
        'share.released',
        'share.released',
      ])
      expect(audit.body.entries[2]).toMatchObject({ seq: 3, kind: 'wallet.created', detail: { address, deviceId: first.id } })
      expect(audit.body.entries[7]).toMatchObject({ kind: 'approval.requested', detail: { deviceId: second.id, host, attested: true } })
      // The client can check the chain from what it is given and its user id.
      let prevHash = Audit.genesis
      for (const entry of audit.body.entries) {
        expect(entry.hash).toBe(Audit.hash(prevHash, { ...entry, userId }))
        prevHash = entry.hash
      }
      expect(logged).toEqual([])
    })

    test('behavior: the same device signing in again is not enrolled again; the vault knows no approval for it, so it asks the person', async () => {
      const { d, to, userId, address } = await withWallet()
      clock += Otp.policy.resendMs
      const again = await signIn(d, to)
      expect(again.body).toEqual({ user: { id: userId, email: to }, next: 'approve' })
      expect(mails().at(-1)).toMatchObject({ to, subject: 'Approve a new device for your Doorway wallet' })
      expect((await stack.approve(to)).status).toBe(200)
      const ready = await d.call('POST', '/v1/recovery')
      expect(ready).toMatchObject({ status: 200, body: { state: 'ready', address } })
      const kinds = (await d.call('GET', '/v1/audit')).body.entries.map((e: Json) => e.kind)
      expect(kinds.filter((k: string) => k === 'device.enrolled')).toHaveLength(1)
    })

    test('error: a second wallet for the same user is a 409, and the vault keeps the first', async () => {
      const { d, to, userId, address, split, attestation } = await withWallet()
      const other = await Shares.splitTwice(Shares.entropy())
      const { body } = await upload(d, userId, other, address)
      expect(await d.call('POST', '/v1/wallet', body)).toMatchObject({ status: 409, body: { message: 'This user has a wallet already' } })
      expect((await place.storage.users.get(userId))!.attestation).toBe(attestation)
      expect((await stack.vaultStore.store.wallets.get(userId))!.email).toBe(to)
      expect(await d.down('deviceShare', userId, (await d.call('POST', '/v1/session')).body.deviceShare)).toEqual(split.server)
    })

    test('error: an enrolled id with another key is a 409', async () => {
      const d = await enrolled()
      const thief = await device()
      const body = { deviceId: d.id, publicKey: thief.publicKey, sealKey: base64url(thief.sealPoint) }
      const header = await Stamp.sign(thief.pair.privateKey, { method: 'POST', path: '/v1/devices', body: JSON.stringify(body), deviceId: d.id, now: clock })
      expect(await thief.call('POST', '/v1/devices', body, { header })).toMatchObject({ status: 409, body: { message: 'This device id belongs to another key' } })
    })

    test('error: the vault being down is a 503 that says so, nothing is released, and a new link works once it is back', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const down = App.app(deps({ vault: Vault.client(TestStack.vaultUrl, () => Promise.reject(new Error('connection refused'))) }))
      let target = down
      const d = await enrolled(() => target)
      const challengeId = await start(d, made.to)
      const unavailable = { status: 503, body: { message: 'The vault is unavailable: try again in a moment', reason: 'vault' } }
      const verified = await verify(d, challengeId, codeFor(made.to))
      expect(verified).toMatchObject(unavailable)
      expect(Object.keys(verified.body).sort()).toEqual(['message', 'reason'])
      expect(await d.call('POST', '/v1/recovery')).toMatchObject(unavailable)
      // Each refusal is logged once as the vault's absence (other calls to it may log their own line).
      const lines = logged.splice(0)
      expect(lines.filter((line) => line === 'vault unavailable')).toHaveLength(2)
      expect(lines.every((line) => line.includes('vault'))).toBe(true)

      target = app
      // The code was verified (a session) but the vault never asked the person: no link, so not approved.
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 403, body: { reason: 'notApproved' } })
      expect(await d.call('POST', '/v1/recovery/resend', { host, attested: true })).toMatchObject({ status: 200, body: { expiresAt: clock + Approval.lifetimeMs } })
      expect((await stack.approve(made.to)).status).toBe(200)
      const ready = await d.call('POST', '/v1/recovery')
      expect((await opened(d, made, ready.body)).secret).toEqual(made.secret)
    })
  })

  describe('recovery on a new device (docs/embedded-wallet.md §4 VERIFY_DEVICE)', () => {
    test('behavior: the approval mail names the site and the browser; the vault tells the owner once the wallet was recovered', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      const before = mails().length
      await recover(d, made)
      const sent = mails().slice(before)
      expect(sent.map((m) => [m.to, m.subject])).toEqual([
        [made.to, `Your Doorway code is ${codeFor(made.to)}`],
        [made.to, 'Approve a new device for your Doorway wallet'],
        [made.to, 'Your Doorway wallet was recovered on a device'],
      ])
      expect(sent[1]!.text).toContain(`  Site: ${host}\n  Browser: Chrome 131 on Linux\n`)
      expect(sent[1]!.text).toMatch(new RegExp(`${TestStack.vaultUrl}/approve\\?token=[\\w-]{43}`))
      expect(sent[2]!.text).toContain(`  Site: ${host}\n  Browser: Chrome 131 on Linux\n`)
    })

    test('behavior: each ask once approved re-seals again, to this device only', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      const { ready } = await recover(d, made)
      const again = await d.call('POST', '/v1/recovery')
      expect(again).toMatchObject({ status: 200, body: { state: 'ready', address: made.address, wallet: ready.wallet } })
      expect(again.body.recovery2).not.toBe(ready.recovery2)
      expect((await opened(d, made, again.body)).secret).toEqual(made.secret)
      // An approved device asking for a new link is told it needs none: no mail.
      const before = mails().length
      expect(await d.call('POST', '/v1/recovery/resend', { host, attested: true })).toMatchObject({ status: 200, body: { expiresAt: clock } })
      expect(mails().length).toBe(before)
    })

    test('error: a denied device is a 403 denied and stays so; a new link the person approves recovers it', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      await signIn(d, made.to)
      expect((await stack.decide(stack.approvalLink(made.to), 'deny')).status).toBe(200)
      const denied = { status: 403, body: { message: 'The person did not approve this device', reason: 'denied' } }
      expect(await d.call('POST', '/v1/recovery')).toMatchObject(denied)
      expect(await d.call('POST', '/v1/recovery')).toMatchObject(denied)
      // The link is spent: approving it now does nothing.
      expect((await stack.approve(made.to)).status).toBe(410)
      expect(await d.call('POST', '/v1/recovery')).toMatchObject(denied)
      // The vault orders a device's approvals by time: the new link is asked for after the denial.
      clock += 1_000
      expect((await d.call('POST', '/v1/recovery/resend', { host, attested: true })).status).toBe(200)
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'pending' } })
      expect((await stack.approve(made.to)).status).toBe(200)
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    })

    test('error: a link not used within 15 minutes is a 403 notApproved; a resend mails a new one', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      await signIn(d, made.to)
      const old = stack.approvalLink(made.to)
      clock += Approval.lifetimeMs
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 403, body: { reason: 'notApproved' } })
      expect((await stack.decide(old)).status).toBe(410)
      expect(await d.call('POST', '/v1/recovery/resend', { host, attested: false })).toMatchObject({ status: 200, body: { expiresAt: clock + Approval.lifetimeMs } })
      expect(stack.approvalLink(made.to)).not.toBe(old)
      expect(mails().at(-1)!.text).toContain(`  Site: ${host} (reported)\n`)
      expect((await stack.approve(made.to)).status).toBe(200)
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    })

    test('error: the sixth approval mail in an hour is a 429 approvalThrottled with retryAfter', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      await signIn(d, made.to)
      const first = clock
      for (let i = 1; i < Approval.mailLimit.max; i++) {
        clock += 60_000
        expect((await d.call('POST', '/v1/recovery/resend', { host, attested: true })).status).toBe(200)
      }
      clock += 60_000
      const throttled = await d.call('POST', '/v1/recovery/resend', { host, attested: true })
      const retryAfter = (first + Approval.mailLimit.windowMs - clock) / 1000
      expect(throttled).toMatchObject({ status: 429, body: { reason: 'approvalThrottled', retryAfter } })
      expect(throttled.headers.get('retry-after')).toBe(String(retryAfter))
      expect(mails().filter((m) => m.to === made.to && m.subject.startsWith('Approve'))).toHaveLength(Approval.mailLimit.max)
    })

    test('error: a user with no wallet has nothing to recover: 404 noWallet, for the recovery and its resend', async () => {
      const d = await enrolled()
      await signIn(d, email())
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 404, body: { reason: 'noWallet' } })
      expect(await d.call('POST', '/v1/recovery/resend', { host, attested: true })).toMatchObject({ status: 404, body: { reason: 'noWallet' } })
    })
  })

  describe('code requests (docs/embedded-wallet.md §4)', () => {
    test('error: a cancelled code is spent: 401 used, nothing verifies, and it still counts toward the throttle', async () => {
      const d = await enrolled()
      const to = email()
      const challengeId = await start(d, to)
      expect(await d.call('POST', '/v1/email/cancel', { challengeId })).toMatchObject({ status: 200, body: {} })
      expect(await verify(d, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'used' } })
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
      expect(await d.call('POST', '/v1/email/start', { email: to, host, attested: true })).toMatchObject({ status: 429, body: { reason: 'throttled' } })
      expect(await place.storage.users.byEmail(to)).toBeUndefined()
    })

    test('behavior: an existing user\'s withdrawn code is in their activity log, once, naming the device', async () => {
      const { d, to } = await withWallet()
      clock += Otp.policy.resendMs
      const challengeId = await start(d, to)
      expect((await d.call('POST', '/v1/email/cancel', { challengeId })).status).toBe(200)
      expect((await d.call('POST', '/v1/email/cancel', { challengeId })).status).toBe(200)
      const entries = (await d.call('GET', '/v1/audit')).body.entries.filter((e: Json) => e.kind === 'code.cancelled')
      expect(entries).toEqual([expect.objectContaining({ detail: { deviceId: d.id, challengeId } })])
    })

    test('error: a device cancels only its own code: another device\'s cancel changes nothing', async () => {
      const [a, b] = [await enrolled(), await enrolled()]
      const to = email()
      const challengeId = await start(a, to)
      expect(await b.call('POST', '/v1/email/cancel', { challengeId })).toMatchObject({ status: 200, body: {} })
      expect(await a.call('POST', '/v1/email/cancel', { challengeId: Ids.random() })).toMatchObject({ status: 200, body: {} })
      expect((await verify(a, challengeId, codeFor(to))).status).toBe(200)
      // A used code cannot be cancelled into anything else either.
      expect((await a.call('POST', '/v1/email/cancel', { challengeId })).status).toBe(200)
      expect(await verify(a, challengeId, codeFor(to))).toMatchObject({ status: 401, body: { reason: 'used' } })
    })

    test('behavior: the code mail names the host as the browser attested it, or marks it reported', async () => {
      const d = await enrolled()
      const to = email()
      await start(d, to, false)
      expect(mails().at(-1)!.text).toContain(`Someone asked to sign in at ${host} (reported by the page, not confirmed by the browser). The code expires`)
      clock += Otp.policy.resendMs
      await start(d, to, true)
      expect(mails().at(-1)!.text).toContain(`Someone asked to sign in at ${host}. The code expires`)
    })
  })

  describe('uploads (common/Transport.ts: sealed to the server for this device)', () => {
    /** A device with fresh auth and no wallet yet, and a split to upload. */
    async function fresh() {
      const d = await enrolled()
      const to = email()
      const userId = (await signIn(d, to)).body.user.id as string
      const secret = Shares.entropy()
      return { d, userId, secret, split: await Shares.splitTwice(secret), address: Shares.evmAccount(secret).address }
    }

    const garbage = () => {
      const bytes = crypto.getRandomValues(new Uint8Array(Custody.sealedShareBytes))
      bytes[0] = Custody.sealVersion
      return base64url(bytes)
    }

    type Tamper = (body: Json, context: { d: Device; split: Shares.Split; otherId: string }) => Promise<Json>
    const tampers: [string, string, Tamper][] = [
      ['A sealed for another device', 'deviceShare', async (body, { d, split, otherId }) => ({ ...body, deviceShare: await d.up('deviceShare', split.server, otherId) })],
      ['R1 sealed for another device', 'recovery1', async (body, { d, split, otherId }) => ({ ...body, recovery1: await d.up('recovery1', split.recovery1, otherId) })],
      ['R1 sealed as A', 'recovery1', async (body, { d, split }) => ({ ...body, recovery1: await d.up('deviceShare', split.recovery1) })],
      ['A sealed to another key', 'deviceShare', async (body, { d, split }) => ({ ...body, deviceShare: base64url(await Transport.up(d.sealPoint, 'deviceShare', d.id, split.server)) })],
      ['A that is garbage of the right length', 'deviceShare', async (body) => ({ ...body, deviceShare: garbage() })],
      ['R1 that is garbage of the right length', 'recovery1', async (body) => ({ ...body, recovery1: garbage() })],
    ]

    test.each(tampers)('error: a wallet with %s is a 400, and nothing is stored', async (_, field, tamper) => {
      const { d, userId, split, address } = await fresh()
      const { body } = await upload(d, userId, split, address)
      const response = await d.call('POST', '/v1/wallet', await tamper(body, { d, split, otherId: Ids.random() }))
      expect(response).toMatchObject({ status: 400, body: { message: `Invalid ${field}: expected a share sealed to the server for this device` } })
      expect((await place.storage.users.get(userId))!.address).toBeNull()
      expect(await stack.vaultStore.store.wallets.get(userId)).toBeUndefined()
      // The right upload still works.
      expect((await d.call('POST', '/v1/wallet', body)).status).toBe(201)
    })

    test('error: an R2 that does not open with the vault key for this user is a 400, and nothing is stored', async () => {
      const { d, userId, split, address } = await fresh()
      const { body } = await upload(d, userId, split, address)
      const otherUser = base64url(await Seal.seal(stack.keys.build.vaultPublicKey, split.recovery2, utf8(Ids.random())))
      const answers = []
      for (const recovery2 of [garbage(), otherUser]) answers.push(await d.call('POST', '/v1/wallet', { ...body, recovery2 }))
      // Taken before asserting, so a failure here leaves no log line to the next test.
      const lines = logged.splice(0)
      for (const answer of answers) expect(answer).toMatchObject({ status: 400, body: { message: expect.stringContaining('recovery2') } })
      expect(lines).toEqual([])
      expect((await place.storage.users.get(userId))!.address).toBeNull()
    })

    test('error: a device share sealed for another device, as another share, or garbage is a 400; the right one is stored', async () => {
      const made = await withWallet()
      const a2 = (await Shares.splitTwice(made.secret)).server
      const refused = { status: 400, body: { message: 'Invalid deviceShare: expected a share sealed to the server for this device' } }
      for (const deviceShare of [await made.d.up('deviceShare', a2, Ids.random()), await made.d.up('recovery1', a2), garbage()])
        expect(await made.d.call('POST', '/v1/devices/share', { deviceShare })).toMatchObject(refused)
      expect(await made.d.down('deviceShare', made.userId, (await made.d.call('POST', '/v1/session')).body.deviceShare)).toEqual(made.split.server)
      expect(await made.d.call('POST', '/v1/devices/share', { deviceShare: await made.d.up('deviceShare', a2) })).toMatchObject({ status: 201 })
      expect(await made.d.down('deviceShare', made.userId, (await made.d.call('POST', '/v1/session')).body.deviceShare)).toEqual(a2)
    })

    test('error: a device share, sealed right, for a user without a wallet is a 404', async () => {
      const { d, split } = await fresh()
      expect(await d.call('POST', '/v1/devices/share', { deviceShare: await d.up('deviceShare', split.server) })).toMatchObject({ status: 404, body: { message: 'This user has no wallet yet' } })
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
      expect(await d.call('POST', '/v1/email/start', { email: to, host, attested: true })).toMatchObject(unsent)
      expect(logged.splice(0)).toEqual(['code mail not sent'])
      target = app
      expect((await d.call('POST', '/v1/email/start', { email: to, host, attested: true })).status).toBe(200)
    })

    test('error: a mail server that never answers is a 503 within mailTimeoutMs', async () => {
      const stalled = App.app(deps({ mailer: { send: () => new Promise(() => {}) }, mailTimeoutMs: 50 }))
      const d = await enrolled(() => stalled)
      const began = performance.now()
      expect(await d.call('POST', '/v1/email/start', { email: email(), host, attested: true })).toMatchObject(unsent)
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
        mails().push(mail)
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
    const sealed = (first = 0) => base64url(Uint8Array.from({ length: Custody.sealedShareBytes }, (_, i) => (i === 0 ? first : 0)))
    const address = `0x${'a'.repeat(40)}`
    const start = { email: 'a@b.test', host, attested: true }
    type Case = [string, number, { setup: 'none' | 'enrolled' | 'fresh'; method?: string; path: string; body?: unknown; text?: string; unsigned?: boolean }, Json]
    const cases: Case[] = [
      ['enrol without fields', 400, { setup: 'none', path: '/v1/devices', body: {} }, { message: 'Invalid deviceId: expected 32 lowercase hex digits' }],
      ['enrol with a short id', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: 'abc', publicKey: generator, sealKey: generator } }, {}],
      ['enrol with a 64-byte key', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: base64url(new Uint8Array(64)), sealKey: generator } }, { message: 'Invalid publicKey: expected 65 bytes as base64url' }],
      ['enrol with a compressed-point prefix', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: point(2), sealKey: generator } }, {}],
      ['enrol with a point off the curve', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: point(4), sealKey: generator } }, { message: 'Invalid publicKey: expected an uncompressed P-256 point' }],
      ['enrol without a seal key', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: generator } }, { message: 'Invalid sealKey: expected base64url bytes' }],
      ['enrol with a seal key off the curve', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: generator, sealKey: point(4) } }, { message: 'Invalid sealKey: expected an uncompressed P-256 point' }],
      ['enrol with padded base64', 400, { setup: 'none', path: '/v1/devices', body: { deviceId: Ids.random(), publicKey: 'AAAA==', sealKey: generator } }, {}],
      ['a body that is not JSON', 400, { setup: 'none', path: '/v1/devices', text: 'nope' }, { message: 'Expected a JSON object body' }],
      ['a JSON array', 400, { setup: 'enrolled', path: '/v1/email/start', text: '[]' }, { message: 'Expected a JSON object body' }],
      ['a body over 16 KB', 413, { setup: 'enrolled', path: '/v1/email/start', text: JSON.stringify({ ...start, pad: 'x'.repeat(App.bodyLimitBytes) }) }, {}],
      ['an unsigned request', 401, { setup: 'enrolled', path: '/v1/email/start', body: start, unsigned: true }, { reason: 'malformed' }],
      ['an invalid email', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, email: 'not-an-email' } }, { message: 'Invalid email' }],
      ['an email that is a number', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, email: 42 } }, { message: 'Invalid email' }],
      ['a missing host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', attested: true } }, { message: 'Invalid host: expected an http(s) origin' }],
      ['a host with a path', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, host: 'http://a.test/login' } }, {}],
      ['a javascript: host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, host: 'javascript:alert(1)' } }, {}],
      ['an ftp host', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, host: 'ftp://a.test' } }, {}],
      ['a host over 200 characters', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, host: `http://${'a'.repeat(200)}.test` } }, {}],
      ['a missing attested', 400, { setup: 'enrolled', path: '/v1/email/start', body: { email: 'a@b.test', host } }, { message: 'Invalid attested: expected true or false' }],
      ['attested as text', 400, { setup: 'enrolled', path: '/v1/email/start', body: { ...start, attested: 'true' } }, { message: 'Invalid attested: expected true or false' }],
      ['a 5-digit code', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: '12345' } }, { message: 'Invalid code: expected 6 digits' }],
      ['a code as a number', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: 123456 } }, {}],
      ['a bad challenge id', 400, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: '../x', code: '123456' } }, {}],
      ['an unknown challenge', 401, { setup: 'enrolled', path: '/v1/email/verify', body: { challengeId: Ids.random(), code: '123456' } }, { reason: 'unknown' }],
      ['a cancel without a challenge', 400, { setup: 'enrolled', path: '/v1/email/cancel', body: {} }, { message: 'Invalid challengeId: expected 32 lowercase hex digits' }],
      ['an unsigned cancel', 401, { setup: 'enrolled', path: '/v1/email/cancel', body: { challengeId: Ids.random() }, unsigned: true }, { reason: 'malformed' }],
      ['a recovery without a session', 401, { setup: 'enrolled', path: '/v1/recovery' }, { reason: 'noSession' }],
      ['a recovery with a body that is not JSON', 400, { setup: 'fresh', path: '/v1/recovery', text: 'nope' }, { message: 'Expected a JSON object body' }],
      ['a recovery without a wallet', 404, { setup: 'fresh', path: '/v1/recovery' }, { reason: 'noWallet' }],
      ['a resend without a session', 401, { setup: 'enrolled', path: '/v1/recovery/resend', body: { host, attested: true } }, { reason: 'noSession' }],
      ['a resend with a bad host', 400, { setup: 'fresh', path: '/v1/recovery/resend', body: { host: 'http://a.test/x', attested: true } }, { message: 'Invalid host: expected an http(s) origin' }],
      ['a resend without attested', 400, { setup: 'fresh', path: '/v1/recovery/resend', body: { host } }, { message: 'Invalid attested: expected true or false' }],
      ['a wallet without a session', 401, { setup: 'enrolled', path: '/v1/wallet', body: {} }, { reason: 'noSession' }],
      ['a wallet with a bad address', 400, { setup: 'fresh', path: '/v1/wallet', body: { address: 'xyz' } }, { message: 'Invalid address: expected a 0x-prefixed 40-hex-digit address' }],
      ['a wallet with a share in clear', 400, { setup: 'fresh', path: '/v1/wallet', body: { address, deviceShare: base64url(new Uint8Array(Custody.shareBytes)) } }, { message: `Invalid deviceShare: expected ${Custody.sealedShareBytes} bytes as base64url` }],
      ['a wallet with standard base64', 400, { setup: 'fresh', path: '/v1/wallet', body: { address, deviceShare: sealed(1), recovery1: '+/+/+/+/+/+/+/+/+/+/+/+/' } }, {}],
      ['a wallet with a short sealed R2', 400, { setup: 'fresh', path: '/v1/wallet', body: { address, deviceShare: sealed(1), recovery1: sealed(1), recovery2: base64url(new Uint8Array(Custody.sealedShareBytes - 1)) } }, {}],
      ['a wallet with an unsealed R2', 400, { setup: 'fresh', path: '/v1/wallet', body: { address, deviceShare: sealed(1), recovery1: sealed(1), recovery2: sealed(0) } }, { message: 'Invalid recovery2: expected a share sealed to the vault' }],
      ['a device share in clear', 400, { setup: 'fresh', path: '/v1/devices/share', body: { deviceShare: base64url(new Uint8Array(Custody.shareBytes)) } }, {}],
      ['a device share that is not bytes', 400, { setup: 'fresh', path: '/v1/devices/share', body: { deviceShare: 17 } }, {}],
      ['a device share without a session', 401, { setup: 'enrolled', path: '/v1/devices/share', body: { deviceShare: sealed(1) } }, { reason: 'noSession' }],
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
      ['an unknown device', 401, { setup: 'none', path: '/v1/email/start', body: start }, { reason: 'unknownDevice' }],
    ]

    test.each(cases)('error: %s is a %i, never a 500', async (_, status, request, body) => {
      const d = request.setup === 'none' ? await device() : await enrolled()
      if (request.setup === 'fresh') await signIn(d, email())
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
      const body = JSON.stringify({ email: email(), host, attested: true })
      const header = await Stamp.sign(d.pair.privateKey, { method: 'POST', path: '/v1/email/start', body, deviceId: d.id, now: clock })
      expect((await d.call('POST', '/v1/email/start', undefined, { text: body, header })).status).toBe(200)
      expect(await d.call('POST', '/v1/email/start', undefined, { text: body, header })).toMatchObject({ status: 401, body: { reason: 'replay', message: 'The request was already used' } })
    })

    test('error: a replayed recovery is a 401 replay, and releases nothing the second time', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      await recover(d, made)
      const header = await Stamp.sign(d.pair.privateKey, { method: 'POST', path: '/v1/recovery', body: '{}', deviceId: d.id, now: clock })
      expect((await d.call('POST', '/v1/recovery', undefined, { header })).status).toBe(200)
      const replayed = await d.call('POST', '/v1/recovery', undefined, { header })
      expect(replayed).toMatchObject({ status: 401, body: { reason: 'replay' } })
      expect(Object.keys(replayed.body).sort()).toEqual(['message', 'reason'])
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

    test('error: a revoked device cannot sign, nor recover', async () => {
      const { d } = await withWallet()
      await place.raw('UPDATE devices SET revoked = true WHERE id = $1', [d.id])
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'unknownDevice' } })
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 401, body: { reason: 'unknownDevice' } })
    })
  })

  describe('one-time codes (hostile test 8)', () => {
    test('error: a resend within 30 s is a 429 with the exact message, from this device or a second one', async () => {
      const [a, b] = [await enrolled(), await enrolled()]
      const to = email()
      await start(a, to)
      clock += 10_000
      const again = await a.call('POST', '/v1/email/start', { email: to, host, attested: true })
      expect(again).toMatchObject({ status: 429, body: { message: 'Please try again after 20 seconds', reason: 'throttled', retryAfter: 20 } })
      expect(again.headers.get('retry-after')).toBe('20')
      // A second host site is a second device: the throttle is the server's, per email.
      expect(await b.call('POST', '/v1/email/start', { email: to, host: 'http://127.0.0.1:5173', attested: true })).toMatchObject({
        status: 429,
        body: { message: 'Please try again after 20 seconds', retryAfter: 20 },
      })
      // And per device, whatever the email.
      expect(await a.call('POST', '/v1/email/start', { email: email(), host, attested: true })).toMatchObject({ status: 429, body: { reason: 'throttled' } })
      clock += 20_000
      expect((await b.call('POST', '/v1/email/start', { email: to, host, attested: true })).status).toBe(200)
    })

    test('error: a sixth code in an hour is a 429 hourly', async () => {
      const to = email()
      for (let i = 0; i < Otp.policy.sendsPerHour; i++) {
        await start(await enrolled(), to)
        clock += Otp.policy.resendMs
      }
      const sixth = await (await enrolled()).call('POST', '/v1/email/start', { email: to, host, attested: true })
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

    /** A code for `to` asked for from `source`, and `failures` wrong tries at it from there. */
    async function guess(to: string, source: string, failures: number) {
      const d = await enrolled()
      const started = await d.call('POST', '/v1/email/start', { email: to, host, attested: true }, { source })
      expect(started.status).toBe(200)
      for (let i = 0; i < failures; i++) expect((await verify(d, started.body.challengeId, wrong(codeFor(to)), source)).body.reason).toBe('wrong')
      return { d, challengeId: started.body.challengeId as string }
    }
    const paused = (to: string) => mails().filter((m) => m.to === to && m.subject === 'Doorway sign-in by email is paused')

    test('error: 20 failures in 24 h from one network lock the email for that network only, even for a right code; the owner elsewhere signs in', async () => {
      const to = email()
      const [guesser, owner] = ['198.51.100.7', '203.0.113.9']
      for (const failures of [5, 5, 5, 4]) {
        await guess(to, guesser, failures)
        clock += 31_000
      }
      const last = await guess(to, guesser, 1)
      const locked = Otp.policy.lockoutMs / 1000 - 4 * 31
      expect(await verify(last.d, last.challengeId, codeFor(to), guesser)).toMatchObject({ status: 429, body: { reason: 'locked', retryAfter: locked } })
      clock += 31_000
      const again = await (await enrolled()).call('POST', '/v1/email/start', { email: to, host, attested: true }, { source: guesser })
      expect(again).toMatchObject({ status: 429, body: { reason: 'locked', message: `Please try again after ${locked - 31} seconds` } })
      // Another network's guesses count apart, and a lock there is no reason to mail the owner.
      expect(paused(to)).toEqual([])
      clock += 3_600_000 // past the 5 codes an hour this email was sent
      expect((await (await enrolled()).call('POST', '/v1/email/start', { email: to, host, attested: true }, { source: guesser })).status).toBe(429)
      const d = await enrolled()
      const started = await d.call('POST', '/v1/email/start', { email: to, host, attested: true }, { source: owner })
      expect(started.status).toBe(200)
      expect(await verify(d, started.body.challengeId, codeFor(to), owner)).toMatchObject({ status: 200, body: { next: 'create' } })
    })

    test('error: 200 failures in 24 h from all networks lock the email everywhere and tell its owner once', async () => {
      const to = email()
      const codesPerSource = Otp.policy.sourceLockoutFailures / Otp.policy.attempts
      const sources = Otp.policy.lockoutFailures / Otp.policy.sourceLockoutFailures
      for (let s = 0; s < sources; s++)
        for (let c = 0; c < codesPerSource; c++) {
          const { d, challengeId } = await guess(to, `192.0.2.${s + 1}`, Otp.policy.attempts)
          if (s === sources - 1 && c === codesPerSource - 1) {
            expect(paused(to)).toHaveLength(1)
            expect(await verify(d, challengeId, codeFor(to), `192.0.2.${s + 1}`)).toMatchObject({ status: 429, body: { reason: 'locked' } })
          }
          // The per-email throttles (30 s, 5 an hour) stay out of the way.
          clock += 13 * 60_000
        }
      const fresh = await (await enrolled()).call('POST', '/v1/email/start', { email: to, host, attested: true }, { source: '203.0.113.200' })
      expect(fresh).toMatchObject({ status: 429, body: { reason: 'locked' } })
      expect(paused(to)).toHaveLength(1)
    })
  })

  describe('key export (docs/embedded-wallet.md §8)', () => {
    async function exportCode(d: Device) {
      const response = await d.call('POST', '/v1/export/code', { host })
      expect(response.status).toBe(200)
      return response.body.challengeId as string
    }

    test('behavior: a code mailed for export releases this device\'s share once, sealed to it, logged and notified', async () => {
      const { d, to, userId, split, secret, address } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      const started = await d.call('POST', '/v1/export/code', { host, attested: true })
      expect(started).toMatchObject({ status: 200, body: { challengeId: expect.stringMatching(Ids.pattern), expiresAt: clock + Otp.policy.lifetimeMs } })
      const challengeId = started.body.challengeId as string
      const code = codeFor(to)
      expect(mails().at(-1)).toEqual({
        to,
        subject: `Your Doorway code to export your wallet is ${code}`,
        text: `Your Doorway code to export your wallet is ${code}.\n\nSomeone asked to export your wallet's recovery phrase and private key at ${host}. The code expires in 10 minutes.\n\nIf this wasn't you, do not share this code with anyone and ignore this mail.\n`,
      })

      const exported = await d.call('POST', '/v1/export', { challengeId, code })
      expect(exported.status).toBe(200)
      expect(Object.keys(exported.body)).toEqual(['deviceShare'])
      const a = await d.down('deviceShare', userId, exported.body.deviceShare)
      expect(a).toEqual(split.server)
      // The browser's D and this A rebuild the key; the server never sees it.
      expect(await Shares.combine(split.device, a, address)).toEqual(secret)
      expect(mails().at(-1)).toEqual({
        to,
        subject: 'Your Doorway wallet was exported',
        text: `The recovery phrase and private key of your Doorway wallet were shown at ${host}, on a device that confirmed a code sent to this address.\n\nIf this wasn't you, move your funds to a new wallet now.\n`,
      })

      const entries = (await place.storage.audit.list(userId)).filter((e) => e.kind === 'code.sent' || e.kind === 'key.exported')
      expect(entries.map(({ kind, detail }) => ({ kind, detail }))).toEqual([
        { kind: 'code.sent', detail: { deviceId: d.id, challengeId, host, attested: true, purpose: 'export' } },
        { kind: 'key.exported', detail: { deviceId: d.id, host } },
      ])
      expect(await d.call('POST', '/v1/export', { challengeId, code })).toMatchObject({ status: 401, body: { reason: 'used' } })
      expect(logged).toEqual([])
    })

    test('behavior: the verified code is fresh auth', async () => {
      const { d, to } = await withWallet()
      clock += Session.policy.freshMs + 1_000
      expect(await d.call('POST', '/v1/devices/share', { deviceShare: base64url(new Uint8Array(Custody.sealedShareBytes)) })).toMatchObject({ status: 403, body: { reason: 'freshAuth' } })
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
      const before = mails().length
      clock += 60_000
      expect(await d.call('POST', '/v1/export/code', { host })).toMatchObject({ status: 200, body: { fresh: true } })
      expect(mails().length).toBe(before)
      const exported = await d.call('POST', '/v1/export', { host })
      expect(exported.status).toBe(200)
      expect(await d.down('deviceShare', userId, exported.body.deviceShare)).toEqual(split.server)
      expect(mails().at(-1)).toMatchObject({ to, subject: 'Your Doorway wallet was exported' })
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
      expect(await d.call('POST', '/v1/export', { challengeId, code: codeFor(to) })).toMatchObject({ status: 401, body: { reason: 'used' } })
    })

    test('error: a device recovering but not yet approved has no share to export', async () => {
      const made = await withWallet()
      clock += Otp.policy.resendMs
      const d = await enrolled()
      await signIn(d, made.to)
      expect(await d.call('POST', '/v1/export', { host })).toMatchObject({ status: 401, body: { reason: 'noShare' } })
      expect(await d.call('POST', '/v1/session')).toMatchObject({ status: 401, body: { reason: 'noShare' } })
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
      expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
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
      const made = await withWallet()
      const { d, to, secret, split } = made
      const second = await enrolled()
      clock += Otp.policy.resendMs
      const recovered = await recover(second, made)
      const split2 = await Shares.splitTwice(secret)
      await second.call('POST', '/v1/devices/share', { deviceShare: await second.up('deviceShare', split2.server) })
      await d.call('POST', '/v1/session')
      const codes = mails()
        .filter((m) => m.to === to && m.subject.startsWith('Your Doorway code'))
        .map((m) => /code is (\d{6})/.exec(m.subject)![1]!)
      expect(codes).toHaveLength(2)

      const tables = await place.raw<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
      expect(tables.map((t) => t.table_name).sort()).toEqual(['audit_log', 'device_shares', 'devices', 'identities', 'nonces', 'otp_challenges', 'otp_failures', 'rate_buckets', 'recovery', 'social_flows', 'social_links_pending', 'users'])
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
      const secrets = [secret, split.device, split.server, split.recovery1, split.recovery2, split2.device, split2.server, recovered.r2]
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
    // Only static files are asked for: the API's dependencies are never reached.
    app = App.app({
      storage: {} as App.Deps['storage'],
      secrets: {} as App.Deps['secrets'],
      vault: {} as App.Deps['vault'],
      mailer: { send: async () => {} },
      now: () => t0,
      staticDir: dir,
    })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  test('behavior: / is index.html with the CSP (csp.test.ts checks its directives), no referrer, nosniff, revalidated', async () => {
    const response = await app.request('/')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<title>secure</title>')
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toBe(App.contentSecurityPolicy)
    expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('cache-control')).toBe('no-cache')
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
