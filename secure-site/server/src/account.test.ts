/**
 * What the person sees and controls (routes/account.ts, docs/embedded-wallet.md §10), in-process on the
 * test stack (the server and the vault, a fake clock, the recording mailer): their devices, removing one
 * from another with fresh auth or a code, the removed device refused at once and by the vault, and the
 * audit chain's head kept at the vault, against which the browser's check (common/AuditChain.ts) finds a
 * log a database thief rewrote. On PGlite and on PostgreSQL.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as AuditChain from '@doorway/secure-site/common/AuditChain'
import { encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Audit from './Audit.js'
import * as Otp from './Otp.js'
import * as Session from './Session.js'
import { backends, type Place } from './storage/testing.js'
import * as TestStack from './testStack.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'

const t0 = Date.UTC(2026, 10, 23, 12)
const host = 'http://localhost:5173'
const otherHost = 'http://127.0.0.1:5173'
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>

describe.each(backends)('account on %s', (_, create) => {
  let place: Place
  let stack: TestStack.Stack
  let app: ReturnType<typeof App.app>
  let clock = t0
  const logged: string[] = []
  let n = 0
  const email = () => `owner${++n}@example.test`

  beforeAll(async () => {
    place = await create()
    stack = await TestStack.start({ storage: place.storage, now: () => clock, log: (message) => void logged.push(message) })
    app = stack.app
  }, 120_000)
  afterAll(async () => {
    await stack?.close()
    await place?.dispose()
  }, 60_000)
  beforeEach(() => {
    // Far apart, so no code throttle of one test reaches the next.
    clock += Otp.policy.lockoutMs
    logged.splice(0)
  })

  /** A browser's device: its keys and signed calls (API.md Conventions), to `target` (the stack's app) or the app a call names. */
  async function device(userAgent = chrome, target: () => ReturnType<typeof App.app> = () => app) {
    const pair = await Stamp.generateKey()
    const seal = await Seal.generateKeyPair()
    const id = Ids.random()
    const sealPoint = await Seal.exportPublicKey(seal.publicKey)
    const call = async (method: string, path: string, body?: unknown, through = target()) => {
      const text = body === undefined ? (method === 'GET' ? '' : '{}') : JSON.stringify(body)
      const header = await Stamp.sign(pair.privateKey, { method, path, body: text, deviceId: id, now: clock })
      const headers = { 'content-type': 'application/json', 'user-agent': userAgent, [Stamp.header]: header }
      const response = await through.request(path, { method, headers, body: method === 'GET' ? undefined : text })
      return { status: response.status, body: (await response.json()) as Json }
    }
    const enrolled = await call('POST', '/v1/devices', { deviceId: id, publicKey: await Stamp.exportPublicKey(pair.publicKey), sealKey: base64url(sealPoint) })
    expect(enrolled.status).toBe(201)
    const up = async (share: Transport.Share, bytes: Uint8Array) => base64url(await Transport.up(stack.keys.build.serverPublicKey, share, id, bytes))
    return { id, seal, sealPoint, call, up }
  }
  type Device = Awaited<ReturnType<typeof device>>

  /** The code of the newest code mail to `to`, as the person reads it. */
  function codeFor(to: string): string {
    const mail = stack.mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
    return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
  }

  async function signIn(d: Device, to: string, at = host) {
    const started = await d.call('POST', '/v1/email/start', { email: to, host: at, attested: true })
    expect(started.status).toBe(200)
    const verified = await d.call('POST', '/v1/email/verify', { challengeId: started.body.challengeId, code: codeFor(to) })
    expect(verified.status).toBe(200)
    return verified.body
  }

  /** A person with a wallet made on one device, and a second device of theirs, approved and recovered, at another site. */
  async function owner() {
    const to = email()
    const first = await device()
    const { user } = await signIn(first, to)
    const userId = user.id as string
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    const sealed = await Seal.seal(stack.keys.build.vaultPublicKey, split.recovery2, utf8(userId))
    const body = { address, deviceShare: await first.up('deviceShare', split.server), recovery1: await first.up('recovery1', split.recovery1), recovery2: base64url(sealed) }
    expect((await first.call('POST', '/v1/wallet', body)).status).toBe(201)
    clock += Otp.policy.resendMs
    const second = await device(firefox)
    expect((await signIn(second, to, otherHost)).next).toBe('approve')
    expect((await stack.approve(to)).status).toBe(200)
    expect(await second.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    const split2 = await Shares.splitTwice(secret)
    expect((await second.call('POST', '/v1/devices/share', { deviceShare: await second.up('deviceShare', split2.server) })).status).toBe(201)
    return { to, userId, first, second, sealed }
  }

  /** Past fresh auth: the sign-ins are older than 5 minutes, the sessions still alive. */
  const stale = () => (clock += Session.policy.freshMs + 1)

  describe('GET /v1/devices', () => {
    test('behavior: the user\'s devices newest first, where each last verified a code, with its browser; the asking one is current', async () => {
      const { first, second } = await owner()
      const stranger = await device()
      await signIn(stranger, email())
      const listed = await first.call('GET', '/v1/devices')
      expect(listed).toEqual({
        status: 200,
        body: {
          devices: [
            { id: second.id, current: false, createdAt: expect.any(Number), lastSeen: expect.any(Number), origin: otherHost, attested: true, browser: 'Firefox 128 on macOS', revoked: false },
            { id: first.id, current: true, createdAt: expect.any(Number), lastSeen: clock, origin: host, attested: true, browser: 'Chrome 131 on Linux', revoked: false },
          ],
        },
      })
      expect(listed.body.devices[0].createdAt).toBeGreaterThan(listed.body.devices[1].createdAt)
      expect((await second.call('GET', '/v1/devices')).body.devices.map((d: Json) => d.current)).toEqual([true, false])
    })

    test('security: a device with a verified code but not yet approved (a phished code) reads nothing and removes nothing: 403', async () => {
      const { to, first, second } = await owner()
      clock += Otp.policy.resendMs
      const attacker = await device()
      expect((await signIn(attacker, to, 'https://evil.example')).next).toBe('approve')
      for (const [method, path, body] of [
        ['GET', '/v1/devices', undefined],
        ['GET', '/v1/audit', undefined],
        ['POST', '/v1/devices/revoke/code', { host: 'https://evil.example' }],
        ['POST', '/v1/devices/revoke', { deviceId: second.id }],
      ] as const)
        expect(await attacker.call(method, path, body)).toMatchObject({ status: 403, body: { reason: 'notApproved' } })
      // The owner sees the waiting device and can remove it.
      expect((await first.call('GET', '/v1/devices')).body.devices.map((d: Json) => d.id)).toContain(attacker.id)
      expect((await first.call('POST', '/v1/devices/revoke', { deviceId: attacker.id })).status).toBe(200)
    })

    test('error: no session is a 401', async () => {
      const d = await device()
      expect(await d.call('GET', '/v1/devices')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
    })
  })

  describe('POST /v1/devices/revoke', () => {
    test('behavior: with a code mailed for it, another device is removed: its requests get 401, its A is gone, the vault revokes it, the owner is mailed', async () => {
      const { to, userId, first, second } = await owner()
      stale()
      const code = await first.call('POST', '/v1/devices/revoke/code', { host, attested: true })
      expect(code).toEqual({ status: 200, body: { challengeId: expect.stringMatching(Ids.pattern), expiresAt: clock + Otp.policy.lifetimeMs } })
      expect(stack.mails.at(-1)).toMatchObject({ to, subject: `Your Doorway code to remove a device is ${codeFor(to)}` })
      expect(stack.mails.at(-1)!.text).toContain(`remove a device from your wallet at ${host}.`)

      const removed = await first.call('POST', '/v1/devices/revoke', { deviceId: second.id, challengeId: code.body.challengeId, code: codeFor(to) })
      expect(removed).toEqual({ status: 200, body: {} })
      for (const [method, path] of [['POST', '/v1/session/check'], ['POST', '/v1/session'], ['GET', '/v1/devices'], ['POST', '/v1/recovery']] as const)
        expect(await second.call(method, path)).toMatchObject({ status: 401, body: { reason: 'unknownDevice' } })
      expect(await place.storage.wallets.deviceShare(userId, second.id)).toBeUndefined()
      expect(await place.storage.devices.get(second.id)).toMatchObject({ revoked: true, sessionStartedAt: null })
      expect((await first.call('GET', '/v1/devices')).body.devices.map((d: Json) => [d.id, d.revoked])).toEqual([[second.id, true], [first.id, false]])
      expect((await place.storage.audit.list(userId)).slice(-2).map((e) => [e.kind, e.detail])).toEqual([
        ['code.sent', { deviceId: first.id, challengeId: code.body.challengeId, host, attested: true, purpose: 'revoke' }],
        ['device.revoked', { deviceId: second.id, by: first.id }],
      ])
      const revokedMail = stack.mails.at(-1)!
      expect(revokedMail).toMatchObject({ to, subject: 'A device was removed from your Doorway wallet' })
      expect(revokedMail.text).toContain('Browser: Firefox 128 on macOS')
      expect(revokedMail.text).toContain(`Site: ${otherHost}`)
      expect(await stack.vaultStore.store.devices.get(userId, await Attest.fingerprint(second.sealPoint))).toMatchObject({ revokedAt: clock })
      expect(logged).toEqual([])
    })

    test('behavior: within 5 min of a sign-in no code is needed; the vault then refuses to re-seal R2 to the removed device until the person approves it again', async () => {
      const { to, userId, first, second } = await owner()
      const mails = stack.mails.length
      expect(await first.call('POST', '/v1/devices/revoke/code', { host })).toEqual({ status: 200, body: { fresh: true } })
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id })).toEqual({ status: 200, body: {} })
      // No code mail: only the notice of the removal.
      expect(stack.mails.slice(mails).map((m) => m.subject)).toEqual(['A device was removed from your Doorway wallet'])

      // What a server holding every secret could still ask the vault for that device: refused.
      const { recovery2 } = (await place.storage.wallets.recovery(userId))!
      const reseal = async () =>
        stack.deps.vault.reseal({
          ...(await Ticket.issue(stack.keys.ticket.privateKey, { purpose: 'reseal', userId, sealed: recovery2, device: second.sealPoint, now: clock })),
          sealed: base64url(recovery2),
          device: base64url(second.sealPoint),
        })
      await expect(reseal()).rejects.toMatchObject({ status: 403, reason: 'notApproved' })
      // Only the person's new approval, from the vault's own mail, lets it in again.
      clock += 1_000
      const asked = await stack.deps.vault.requestApproval({
        ...(await Ticket.issue(stack.keys.ticket.privateKey, { purpose: 'approve', userId, device: second.sealPoint, now: clock })),
        device: base64url(second.sealPoint),
        origin: otherHost,
        attested: true,
        browser: 'Firefox 128 on macOS',
      })
      expect(asked).toMatchObject({ state: 'pending' })
      await expect(reseal()).rejects.toMatchObject({ status: 409, reason: 'pending' })
      expect((await stack.approve(to)).status).toBe(200)
      expect(await reseal()).toMatchObject({ sealed: expect.any(String) })
    })

    test('error: without fresh auth or a code, 403; a wrong code is a 401 and removes nothing', async () => {
      const { to, first, second } = await owner()
      stale()
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id })).toMatchObject({ status: 403, body: { reason: 'freshAuth' } })
      const { body } = await first.call('POST', '/v1/devices/revoke/code', { host })
      const wrong = codeFor(to) === '000000' ? '000001' : '000000'
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id, challengeId: body.challengeId, code: wrong })).toMatchObject({ status: 401, body: { reason: 'wrong' } })
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id, code: codeFor(to) })).toMatchObject({ status: 400, body: { message: 'Invalid challengeId: expected 32 lowercase hex digits' } })
      expect(await second.call('POST', '/v1/session/check')).toEqual({ status: 200, body: {} })
      expect((await place.storage.devices.get(second.id))?.revoked).toBe(false)
    })

    test('error: the device asking is refused: sign out instead (400)', async () => {
      const { first } = await owner()
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: first.id })).toEqual({
        status: 400,
        body: { message: 'Sign out instead: this is the device you are using', reason: 'current' },
      })
      expect(await first.call('POST', '/v1/session/check')).toEqual({ status: 200, body: {} })
    })

    test('error: another user\'s device is a 404, as an unknown id; a malformed id is a 400', async () => {
      const { first } = await owner()
      const stranger = await device()
      await signIn(stranger, email())
      const notFound = { status: 404, body: { message: 'This user has no such device', reason: 'noDevice' } }
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: stranger.id })).toEqual(notFound)
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: Ids.random() })).toEqual(notFound)
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: 'nope' })).toMatchObject({ status: 400, body: { message: 'Invalid deviceId: expected 32 lowercase hex digits' } })
      expect(await stranger.call('POST', '/v1/session/check')).toEqual({ status: 200, body: {} })
    })

    test('error: a vault that does not answer is a 503, the device cut off already; asking again tells the vault, and logs and mails once', async () => {
      const { to, userId, first, second } = await owner()
      const down = App.app({ ...stack.deps, vault: Vault.client(TestStack.vaultUrl, () => Promise.reject(new Error('connection refused'))) })
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id }, down)).toMatchObject({ status: 503, body: { reason: 'vault' } })
      expect(await second.call('POST', '/v1/session/check')).toMatchObject({ status: 401, body: { reason: 'unknownDevice' } })
      expect(await stack.vaultStore.store.devices.get(userId, await Attest.fingerprint(second.sealPoint))).toMatchObject({ revokedAt: null })
      expect(await first.call('POST', '/v1/devices/revoke', { deviceId: second.id })).toEqual({ status: 200, body: {} })
      expect(await stack.vaultStore.store.devices.get(userId, await Attest.fingerprint(second.sealPoint))).toMatchObject({ revokedAt: clock })
      expect((await place.storage.audit.list(userId)).filter((e) => e.kind === 'device.revoked')).toHaveLength(1)
      expect(stack.mails.filter((m) => m.to === to && m.subject === 'A device was removed from your Doorway wallet')).toHaveLength(1)
      expect(logged.splice(0)).toEqual(['audit head not kept by the vault', 'vault unavailable'])
    })
  })

  describe('POST /v1/session/check', () => {
    test('behavior: a live session answers {}; signed out, or never signed in, is a 401', async () => {
      const { first } = await owner()
      expect(await first.call('POST', '/v1/session/check')).toEqual({ status: 200, body: {} })
      expect((await first.call('POST', '/v1/session/end')).status).toBe(200)
      expect(await first.call('POST', '/v1/session/check')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
      expect(await (await device()).call('POST', '/v1/session/check')).toMatchObject({ status: 401, body: { reason: 'noSession' } })
    })

    test('behavior: it adds nothing to the audit log (it runs before every signature)', async () => {
      const { userId, first } = await owner()
      const before = (await place.storage.audit.list(userId)).length
      await first.call('POST', '/v1/session/check')
      expect(await place.storage.audit.list(userId)).toHaveLength(before)
    })
  })

  describe('the audit chain\'s head at the vault', () => {
    /** The log as the secure-site is given it, checked as the secure-site checks it. */
    async function checked(d: Device, userId: string, through?: ReturnType<typeof App.app>) {
      const { status, body } = await d.call('GET', '/v1/audit', undefined, through)
      expect(status).toBe(200)
      return AuditChain.check({ userId, entries: body.entries, head: body.head, vaultSigningKey: stack.keys.build.vaultSigningKey })
    }

    test('behavior: the vault keeps every head; GET /v1/audit answers its signed statement; the browser\'s check verifies the chain with the server\'s hashing', async () => {
      const { userId, first } = await owner()
      const head = (await place.storage.audit.head(userId))!
      expect(await stack.vaultStore.store.auditHeads.get(userId)).toEqual(head)
      const { body } = await first.call('GET', '/v1/audit')
      expect(body.head).toEqual({ ...head, signature: expect.stringMatching(/^[\w-]{86}$/) })
      expect(await Attest.verify(stack.keys.build.vaultSigningKey, { kind: 'auditHead', userId, ...head }, body.head.signature)).toBe(true)
      // The browser's port (WebCrypto) hashes as Audit.ts does on the server.
      let prev = Audit.genesis
      for (const entry of body.entries) {
        expect(await AuditChain.hash(prev, { ...entry, userId })).toBe(Audit.hash(prev, { ...entry, userId }))
        prev = entry.hash
      }
      expect(await checked(first, userId)).toEqual({ state: 'verified' })
      expect(logged).toEqual([])
    })

    test('security: a thief who rewrites a row and every hash after it makes a chain that holds on its own; the vault\'s head shows the change', async () => {
      const { userId, first } = await owner()
      await place.raw('ALTER TABLE audit_log DISABLE TRIGGER ALL')
      try {
        // The recovery on another site becomes a sign-in here; every later link is recomputed.
        const rows = await place.storage.audit.list(userId)
        let prev = Audit.genesis
        for (const row of rows) {
          const detail = row.kind === 'device.enrolled' ? { ...row.detail, host } : row.detail
          const hash = Audit.hash(prev, { ...row, detail })
          await place.raw('UPDATE audit_log SET detail = $3::jsonb, prev_hash = $4, hash = $5 WHERE user_id = $1 AND seq = $2', [userId, row.seq, JSON.stringify(detail), prev, hash])
          prev = hash
        }
      } finally {
        await place.raw('ALTER TABLE audit_log ENABLE TRIGGER ALL')
      }
      expect(Audit.verifyChain(await place.storage.audit.list(userId))).toEqual({ ok: true })
      const { seq } = (await stack.vaultStore.store.auditHeads.get(userId))!
      expect(await checked(first, userId)).toEqual({ state: 'changed', seq })
    })

    test('security: a thief who drops the newest entries: the next head is refused by the vault (409, logged), and the browser sees the change', async () => {
      const { userId, first } = await owner()
      const kept = (await stack.vaultStore.store.auditHeads.get(userId))!
      await place.raw('ALTER TABLE audit_log DISABLE TRIGGER ALL')
      try {
        await place.raw('DELETE FROM audit_log WHERE user_id = $1 AND seq > $2', [userId, kept.seq - 2])
      } finally {
        await place.raw('ALTER TABLE audit_log ENABLE TRIGGER ALL')
      }
      // The next append takes a seq the vault has, with another hash: the route still works, the operator is told.
      expect((await first.call('POST', '/v1/session')).status).toBe(200)
      expect(logged.splice(0)).toEqual(['audit.rewritten', "audit.rewritten: the vault refused this database's audit head"])
      expect(await stack.vaultStore.store.auditHeads.get(userId)).toEqual(kept)
      expect(await checked(first, userId)).toEqual({ state: 'changed', seq: kept.seq })
    })

    test('behavior: a vault that does not answer fails no route (logged); the log is then unconfirmed, and the next append catches up', async () => {
      const { userId, first } = await owner()
      const kept = (await stack.vaultStore.store.auditHeads.get(userId))!
      const down = App.app({ ...stack.deps, vault: Vault.client(TestStack.vaultUrl, () => Promise.reject(new Error('connection refused'))) })
      expect((await first.call('POST', '/v1/session', {}, down)).status).toBe(200)
      expect(await stack.vaultStore.store.auditHeads.get(userId)).toEqual(kept)
      // The vault vouches for an older head: the links hold, the newest entry is not confirmed.
      expect(await checked(first, userId)).toEqual({ state: 'unconfirmed' })
      expect(await checked(first, userId, down)).toEqual({ state: 'unconfirmed' })
      expect(logged.splice(0)).toEqual(['audit head not kept by the vault', 'audit head not read from the vault'])
      expect((await first.call('POST', '/v1/session')).status).toBe(200)
      expect(await stack.vaultStore.store.auditHeads.get(userId)).toEqual(await place.storage.audit.head(userId))
      expect(await checked(first, userId)).toEqual({ state: 'verified' })
    })

    test('error: at the vault, a head behind the highest or another hash at a seq it keeps is a 409; the same head again is kept once; the table is append-only', async () => {
      const userId = Ids.random()
      const hash = (c: string) => c.repeat(64)
      const keep = async (seq: number, h: string, purpose: Ticket.Purpose = 'head') => {
        const ticket = await Ticket.issue(stack.keys.ticket.privateKey, { purpose, userId, now: clock })
        const response = await stack.vault.fetch(
          new Request(`${TestStack.vaultUrl}/v1/audit-head`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ticket, seq, hash: h }) }),
        )
        return { status: response.status, body: (await response.json()) as Json }
      }
      expect(await keep(2, hash('a'))).toEqual({ status: 200, body: {} })
      expect(await keep(2, hash('a'))).toEqual({ status: 200, body: {} })
      expect(await keep(3, hash('b'))).toEqual({ status: 200, body: {} })
      expect(await keep(3, hash('c'))).toMatchObject({ status: 409, body: { reason: 'rewritten' } })
      expect(await keep(1, hash('d'))).toMatchObject({ status: 409, body: { reason: 'rewritten' } })
      expect(await keep(0, hash('d'))).toMatchObject({ status: 400, body: { message: 'Invalid seq: expected a whole number from 1 to 2147483647' } })
      expect(await keep(4, 'E'.repeat(64))).toMatchObject({ status: 400, body: { message: 'Invalid hash: expected 64 lowercase hex digits' } })
      expect(await keep(4, hash('e'), 'readHead')).toMatchObject({ status: 401, body: { reason: 'purpose' } })
      expect(await stack.vaultStore.store.auditHeads.get(userId)).toEqual({ seq: 3, hash: hash('b') })
      expect(logged.splice(0)).toEqual(['audit.rewritten', 'audit.rewritten'])
      await expect(stack.vaultStore.raw('UPDATE vault_audit_heads SET hash = $2 WHERE user_id = $1', [userId, hash('f')])).rejects.toThrow('append-only')
      await expect(stack.vaultStore.raw('DELETE FROM vault_audit_heads WHERE user_id = $1', [userId])).rejects.toThrow('append-only')
      const read = await stack.deps.vault.readHead(await Ticket.issue(stack.keys.ticket.privateKey, { purpose: 'readHead', userId, now: clock }))
      expect(await Attest.verify(stack.keys.build.vaultSigningKey, { kind: 'auditHead', userId, seq: 3, hash: hash('b') }, read!.signature)).toBe(true)
      expect(await stack.deps.vault.readHead(await Ticket.issue(stack.keys.ticket.privateKey, { purpose: 'readHead', userId: Ids.random(), now: clock }))).toBeNull()
    })
  })
})

describe('AuditChain.check (the browser\'s)', () => {
  const userId = Ids.random()
  let signing: CryptoKeyPair
  let pinned: Uint8Array
  let entries: AuditChain.Listed[]

  beforeAll(async () => {
    signing = (await crypto.subtle.generateKey(Attest.algorithm, true, ['sign', 'verify'])) as CryptoKeyPair
    pinned = new Uint8Array(await crypto.subtle.exportKey('raw', signing.publicKey))
    entries = []
    let prev = AuditChain.genesis
    for (const [i, kind] of ['code.verified', 'wallet.created', 'share.released'].entries()) {
      const entry = { seq: i + 1, at: t0 + i, kind, detail: { deviceId: 'd', n: { b: 1, a: [2] } } }
      prev = await AuditChain.hash(prev, { ...entry, userId })
      entries.push({ ...entry, hash: prev })
    }
  })

  const head = async (seq: number, hash = entries[seq - 1]!.hash, key = signing.privateKey) => ({ seq, hash, signature: await Attest.sign(key, { kind: 'auditHead', userId, seq, hash }) })
  const check = (listed: AuditChain.Listed[], signed: AuditChain.Head | null) => AuditChain.check({ userId, entries: listed, head: signed, vaultSigningKey: pinned })

  test.each([
    ['the vault vouches for the newest entry', async () => check(entries, await head(3)), { state: 'verified' }],
    ['the vault vouches for none', async () => check(entries, null), { state: 'unconfirmed' }],
    ['the vault vouches for an older entry only', async () => check(entries, await head(2)), { state: 'unconfirmed' }],
    ['a link is broken', async () => check([entries[0]!, { ...entries[1]!, detail: {} }, entries[2]!], await head(3)), { state: 'changed', seq: 2 }],
    ['an entry is missing', async () => check([entries[0]!, entries[2]!], await head(3)), { state: 'changed', seq: 3 }],
    ['the newest entries were dropped', async () => check(entries.slice(0, 2), await head(3)), { state: 'changed', seq: 3 }],
    ['the vault signed another hash at that seq', async () => check(entries, await head(3, 'f'.repeat(64))), { state: 'changed', seq: 3 }],
    ['another key signed the head', async () => check(entries, await head(3, undefined, (await crypto.subtle.generateKey(Attest.algorithm, false, ['sign', 'verify'])).privateKey)), { state: 'changed', seq: 3 }],
    ['the head is of another user', async () => AuditChain.check({ userId: Ids.random(), entries, head: await head(3), vaultSigningKey: pinned }), { state: 'changed', seq: 1 }],
  ] as const)('behavior: %s', async (_, run, verdict) => {
    expect(await run()).toEqual(verdict)
  })

  test('error: a statement of a head with a seq that is not a whole number from 1 cannot be signed, and never verifies', async () => {
    for (const seq of [0, 1.5, -1, Number.NaN]) expect(() => Attest.encode({ kind: 'auditHead', userId, seq, hash: 'a'.repeat(64) })).toThrow('An audit head names a whole seq from 1')
    const signed = await head(3)
    expect(await Attest.verify(pinned, { kind: 'auditHead', userId, seq: 3.0000001, hash: signed.hash }, signed.signature)).toBe(false)
  })

  test('behavior: canonical JSON sorts keys at every depth, as the server\'s', () => {
    const value = { b: [{ z: 1, a: null }], a: 'x' }
    expect(AuditChain.canonical(value)).toBe(Audit.canonical(value))
    expect(AuditChain.canonical(value)).toBe('{"a":"x","b":[{"a":null,"z":1}]}')
  })
})
