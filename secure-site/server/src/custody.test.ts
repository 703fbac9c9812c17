/**
 * The custody split end to end (docs/embedded-wallet.md §2, hostile test 5, and the hostile tests of
 * Doorway issue 22): no single party, and not the server with every secret and row it holds, rebuilds a
 * wallet. The person's mailbox is the vault's only evidence: a code alone, or the server's own tickets,
 * re-seal nothing; and no share crosses the wire in clear. The first part is the split as the database
 * keeps it; the rest runs the server and the vault in-process (testStack.ts), on PGlite and PostgreSQL.
 */
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Custody from './Custody.js'
import * as Envelope from './Envelope.js'
import * as Otp from './Otp.js'
import { backends, type Place } from './storage/testing.js'
import * as TestStack from './testStack.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'
import * as Approval from './vault/approval.js'

const utf8 = (text: string) => new TextEncoder().encode(text)

async function setup() {
  const kek = await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32)))
  const vault = await Seal.generateKeyPair()
  const secret = Shares.entropy()
  const address = Shares.evmAccount(secret).address
  const s = await Shares.splitTwice(secret)
  const aad = utf8('user-1')
  // What the server stores: A and R1 under KEK_A, R2 sealed to the vault by the secure-site.
  const db = {
    deviceShare: await Envelope.encrypt(kek, s.server, 'user-1|device-1'),
    recovery1: await Envelope.encrypt(kek, s.recovery1, 'user-1'),
    recovery2: await Seal.seal(await Seal.exportPublicKey(vault.publicKey), s.recovery2, aad),
  }
  return { kek, vault, secret, address, s, db, aad }
}

describe('custody', () => {
  test('behavior: no stored row holds a share or the entropy in clear', async () => {
    const { s, db, secret } = await setup()
    const dump = Buffer.concat(Object.values(db)).toString('hex')
    for (const bytes of [secret, s.server, s.recovery1, s.recovery2, s.device]) expect(dump).not.toContain(Buffer.from(bytes).toString('hex'))
  })

  test('error: the database and KEK_A, without the vault or a device, cannot rebuild the wallet', async () => {
    const { kek, db, address } = await setup()
    const a = await Envelope.decrypt(kek, db.deviceShare, 'user-1|device-1')
    const r1 = await Envelope.decrypt(kek, db.recovery1, 'user-1')
    await expect(Shares.combine(a, r1, address)).rejects.toThrow('The shares do not rebuild this wallet')
  })

  test('error: the database and the vault key, without KEK_A, open only R2, which alone is nothing', async () => {
    const { vault, db, aad, s } = await setup()
    expect(await Seal.open(vault.privateKey, db.recovery2, aad)).toEqual(s.recovery2)
    const wrongKek = await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32)))
    await expect(Envelope.decrypt(wrongKek, db.recovery1, 'user-1')).rejects.toThrow()
    await expect(Envelope.decrypt(wrongKek, db.deviceShare, 'user-1|device-1')).rejects.toThrow()
  })

  test('behavior: a returning device (D plus A) and a recovery (R1 plus R2, server and vault together) rebuild it', async () => {
    // The second line is the residual risk the UI states: in automatic-recovery mode the operator's
    // server and vault together can recover (docs/embedded-wallet.md §2).
    const { kek, vault, db, aad, s, secret, address } = await setup()
    const a = await Envelope.decrypt(kek, db.deviceShare, 'user-1|device-1')
    expect(await Shares.combine(s.device, a, address)).toEqual(secret)
    const r1 = await Envelope.decrypt(kek, db.recovery1, 'user-1')
    const r2 = await Seal.open(vault.privateKey, db.recovery2, aad)
    expect(await Shares.combine(r1, r2, address)).toEqual(secret)
  })

  test('error: a share row copied to another user or device does not open', async () => {
    const { kek, db } = await setup()
    await expect(Envelope.decrypt(kek, db.deviceShare, 'user-2|device-1')).rejects.toThrow()
    await expect(Envelope.decrypt(kek, db.recovery1, 'user-2')).rejects.toThrow()
  })
})

describe.each(backends)('custody through the server and the vault on %s', (_, create) => {
  const host = 'https://dapp.example'
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
  let place: Place
  let stack: TestStack.Stack
  let clock = Date.UTC(2026, 10, 27, 9)
  let n = 0
  const email = () => `custody${++n}@example.test`
  type Json = Record<string, any>

  /** Every HTTP body that went through a wrapped fetch, requests and answers, as text. */
  const bodies: string[] = []
  const capture =
    (fetcher: (request: Request) => Response | Promise<Response>) =>
    async (request: Request): Promise<Response> => {
      bodies.push(await request.clone().text())
      const response = await fetcher(request)
      bodies.push(await response.clone().text())
      return response
    }
  /** The server as the stack runs it, its calls to the vault captured too. */
  let server: (request: Request) => Promise<Response>
  /** The person's browser on the vault's pages. */
  let vaultPages: (request: Request) => Promise<Response>

  beforeAll(async () => {
    place = await create()
    stack = await TestStack.start({ storage: place.storage, now: () => clock })
    // The stack's server (its per-network limits off: every in-process request has one source), its calls to the vault captured.
    const app = App.app({ ...stack.deps, vault: Vault.client(TestStack.vaultUrl, capture((request) => stack.vault.fetch(request))) })
    server = capture((request) => app.fetch(request))
    vaultPages = capture((request) => stack.vault.fetch(request))
  }, 120_000)
  afterAll(async () => {
    await stack?.close()
    await place?.dispose()
  }, 60_000)

  /** A browser's device (request key, seal key), enrolled, making signed calls to the server. */
  async function device(userAgent = chrome) {
    const pair = await Stamp.generateKey()
    const seal = await Seal.generateKeyPair()
    const sealPoint = await Seal.exportPublicKey(seal.publicKey)
    const id = Ids.random()
    /** What this device was answered, as text. */
    const answers: string[] = []
    const call = async (path: string, body: unknown = {}) => {
      const text = JSON.stringify(body)
      const sig = await Stamp.sign(pair.privateKey, { method: 'POST', path, body: text, deviceId: id, now: clock })
      const response = await server(new Request(`http://secure.test${path}`, { method: 'POST', headers: { [Stamp.header]: sig, 'content-type': 'application/json', 'user-agent': userAgent }, body: text }))
      answers.push(await response.clone().text())
      return { status: response.status, body: (await response.json()) as Json }
    }
    expect((await call('/v1/devices', { deviceId: id, publicKey: await Stamp.exportPublicKey(pair.publicKey), sealKey: base64url(sealPoint) })).status).toBe(201)
    const up = async (share: Transport.Share, bytes: Uint8Array) => base64url(await Transport.up(stack.keys.build.serverPublicKey, share, id, bytes))
    const down = (share: Transport.Share, userId: string, sealed: string) => Transport.openDown(seal.privateKey, share, userId, id, fromBase64url(sealed))
    return { id, seal, sealPoint, answers, call, up, down }
  }
  type Device = Awaited<ReturnType<typeof device>>

  const codeFor = (to: string) => / is (\d{6})$/.exec(stack.mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)!.subject)![1]!
  const approvalMails = (to: string) => stack.mails.filter((m) => m.to === to && m.subject === 'Approve a new device for your Doorway wallet')

  async function signIn(d: Device, to: string, attested = true) {
    const started = await d.call('/v1/email/start', { email: to, host, attested })
    expect(started.status).toBe(200)
    const verified = await d.call('/v1/email/verify', { challengeId: started.body.challengeId, code: codeFor(to) })
    expect(verified.status).toBe(200)
    return verified.body as { user: { id: string; email: string }; next: 'create' | 'approve' }
  }

  /** A person's wallet made as the secure-site makes it: the test knows every share. */
  async function withWallet() {
    const d = await device()
    const to = email()
    const { user } = await signIn(d, to)
    const secret = Shares.entropy()
    const split = await Shares.splitTwice(secret)
    const address = Shares.evmAccount(secret).address
    const sealed = await Seal.seal(stack.keys.build.vaultPublicKey, split.recovery2, utf8(user.id))
    const upload = { address, deviceShare: await d.up('deviceShare', split.server), recovery1: await d.up('recovery1', split.recovery1), recovery2: base64url(sealed) }
    expect((await d.call('/v1/wallet', upload)).status).toBe(201)
    clock += Otp.policy.resendMs
    return { d, to, userId: user.id, secret, split, address, sealed, upload }
  }

  /** The person opens the newest link the vault mailed them and presses a button, in their own browser. */
  async function decide(to: string, decision: 'approve' | 'deny') {
    const link = stack.approvalLink(to)
    expect((await vaultPages(new Request(link))).status).toBe(200)
    const token = new URL(link).searchParams.get('token')!
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, decision }).toString() }
    return (await vaultPages(new Request(`${TestStack.vaultUrl}/approve`, form))).status
  }

  /** Each share as it could be written in a body: base64url, base64 with and without padding, hex either case. */
  const forms = (shares: Uint8Array[]) =>
    shares.flatMap((bytes) => {
      const base64 = Buffer.from(bytes).toString('base64')
      const hex = Buffer.from(bytes).toString('hex')
      return [base64url(bytes), base64, base64.replace(/=+$/, ''), hex, hex.toUpperCase()]
    })
  const leaked = (texts: string[], shares: Uint8Array[]) => forms(shares).filter((form) => texts.some((text) => text.includes(form)))

  test('security: (a) a valid code used from another device without the mailbox\'s approval gets no share', async () => {
    const victim = await withWallet()
    // The attacker asks for a code for the victim's email on its own device, and the victim reads it out.
    const attacker = await device('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')
    const from = bodies.length
    expect(await signIn(attacker, victim.to)).toEqual({ user: { id: victim.userId, email: victim.to }, next: 'approve' })
    const answers = [await attacker.call('/v1/recovery')]
    // Fresh from its code, the attacker's device still has no share to take or export.
    expect(await attacker.call('/v1/export', { host })).toMatchObject({ status: 401, body: { reason: 'noShare' } })
    for (let minute = 1; minute < Approval.lifetimeMs / 60_000; minute++) {
      clock += 60_000
      answers.push(await attacker.call('/v1/recovery'))
    }
    expect(answers.map((a) => a.body)).toEqual(answers.map(() => ({ state: 'pending' })))
    expect(await attacker.call('/v1/session')).toMatchObject({ status: 401, body: { reason: 'noShare' } })
    // No share, sealed or not, in anything the attacker's device was answered; none in clear anywhere.
    expect(attacker.answers.length).toBeGreaterThan(answers.length)
    expect(attacker.answers.join(' ')).not.toMatch(/"(deviceShare|recovery1|recovery2|sealed)"\s*:/)
    expect(leaked(bodies.slice(from), [victim.secret, ...Object.values(victim.split)])).toEqual([])

    // The only way in is the owner's mailbox: the vault mailed them, naming the attacker's site and browser.
    const [mail, ...more] = approvalMails(victim.to)
    expect(more).toEqual([])
    expect(mail!.text).toContain(`  Site: ${host}\n  Browser: Firefox 133 on Windows\n`)
    // A link the attacker guesses opens nothing.
    expect((await stack.decide(`${TestStack.vaultUrl}/approve?token=${base64url(crypto.getRandomValues(new Uint8Array(32)))}`)).status).toBe(404)
    expect(await decide(victim.to, 'deny')).toBe(200)
    expect(await attacker.call('/v1/recovery')).toMatchObject({ status: 403, body: { reason: 'denied' } })
    expect((await place.storage.audit.list(victim.userId)).map((e) => e.kind)).not.toContain('recovery.released')
    expect(await place.storage.wallets.deviceShare(victim.userId, attacker.id)).toBeUndefined()
  })

  test('security: (b) the server\'s database, KEK_A, ticket key, pepper and transport key, without the mailbox, rebuild no wallet', async () => {
    const victim = await withWallet()
    const { kek, ticketKey, transportKey, pepper } = stack.keys.server
    // The database, by raw SQL.
    const bytes = (value: unknown) => new Uint8Array(value as Uint8Array)
    const [row] = await place.raw<{ recovery1: Uint8Array; recovery2: Uint8Array }>('SELECT recovery1, recovery2 FROM recovery WHERE user_id = $1', [victim.userId])
    const [stored] = await place.raw<{ device_id: string; share: Uint8Array }>('SELECT device_id, share FROM device_shares WHERE user_id = $1', [victim.userId])
    const sealedR2 = bytes(row!.recovery2)
    // KEK_A opens A_i and R1; the transport key opens the uploads it logged, which are the same A_i and R1.
    const a = await Custody.openDeviceShare(kek, victim.userId, stored!.device_id, bytes(stored!.share))
    const r1 = await Custody.openRecovery1(kek, victim.userId, bytes(row!.recovery1))
    expect([a, r1]).toEqual([victim.split.server, victim.split.recovery1])
    expect(await Transport.openUp(transportKey, 'deviceShare', victim.d.id, fromBase64url(victim.upload.deviceShare))).toEqual(a)
    expect(await Transport.openUp(transportKey, 'recovery1', victim.d.id, fromBase64url(victim.upload.recovery1))).toEqual(r1)

    // With the ticket key it signs its own tickets and calls the vault directly, for R2 sealed to a key of its own.
    const mine = await Seal.generateKeyPair()
    const point = await Seal.exportPublicKey(mine.publicKey)
    const post = async (path: string, purpose: Ticket.Purpose, body: Json, bound: { userId?: string; sealed?: Uint8Array; device?: Uint8Array }) => {
      const ticket = await Ticket.issue(ticketKey, { purpose, userId: bound.userId ?? victim.userId, ...(bound.sealed && { sealed: bound.sealed }), ...(bound.device && { device: bound.device }), now: clock })
      const response = await stack.vault.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...ticket, ...body }) })
      return { status: response.status, body: (await response.json()) as Json }
    }
    const reseal = () => post('/v1/reseal', 'reseal', { sealed: base64url(sealedR2), device: base64url(point) }, { sealed: sealedR2, device: point })
    expect(await reseal()).toMatchObject({ status: 403, body: { reason: 'notApproved' } })
    const attackerEmail = email()
    const asked = await post('/v1/approvals', 'approve', { device: base64url(point), origin: host, attested: true, browser: 'Chrome 131 on Linux', email: attackerEmail }, { device: point })
    expect(asked).toMatchObject({ status: 200, body: { state: 'pending' } })
    expect(await reseal()).toMatchObject({ status: 409, body: { reason: 'pending' } })
    // Registering the wallet again, under another email or another user, is refused too.
    const register = (userId: string, to: string) => post('/v1/register', 'register', { email: to, address: victim.address, sealed: base64url(sealedR2) }, { userId, sealed: sealedR2 })
    expect(await register(victim.userId, attackerEmail)).toMatchObject({ status: 409, body: { reason: 'registered' } })
    expect((await register(Ids.random(), attackerEmail)).status).toBe(400)
    // Its own wallet, registered honestly, cannot carry the victim's R2.
    const own = Ids.random()
    const ownSealed = await Seal.seal(stack.keys.build.vaultPublicKey, (await Shares.splitTwice(Shares.entropy())).recovery2, utf8(own))
    const ownAddress = `0x${'be'.repeat(20)}`
    expect((await post('/v1/register', 'register', { email: attackerEmail, address: ownAddress, sealed: base64url(ownSealed) }, { userId: own, sealed: ownSealed })).status).toBe(201)
    const laundered = await post('/v1/reseal', 'reseal', { sealed: base64url(sealedR2), device: base64url(point) }, { userId: own, sealed: sealedR2, device: point })
    expect(laundered).toMatchObject({ status: 403, body: { reason: 'otherShare' } })
    expect((await stack.vaultStore.store.wallets.get(victim.userId))!.email).toBe(victim.to)

    // The pepper and the database give it a live code: it asks for one on its own device and reads it out of the digest.
    const attacker = await device()
    const started = await attacker.call('/v1/email/start', { email: victim.to, host, attested: true })
    const [challenge] = await place.raw<{ id: string; email: string; digest: string }>('SELECT id, email, digest FROM otp_challenges WHERE id = $1', [started.body.challengeId])
    const code = Array.from({ length: 10 ** Otp.policy.digits }, (_, i) => String(i).padStart(Otp.policy.digits, '0')).find((guess) => Otp.digest(pepper, challenge!, guess) === challenge!.digest)
    expect(code).toBe(codeFor(victim.to))
    // A valid code is a session, and still only a request to the person.
    expect((await attacker.call('/v1/email/verify', { challengeId: started.body.challengeId, code })).body).toMatchObject({ next: 'approve' })
    expect(await attacker.call('/v1/recovery')).toEqual({ status: 200, body: { state: 'pending' } })

    // Every approval mail went to the registered email, not the one in the body: the attacker never sees a link.
    expect(approvalMails(victim.to)).toHaveLength(2)
    expect(stack.mails.filter((m) => m.to === attackerEmail)).toEqual([])
    // What it holds, A_i and R1, are halves of two different splits: no combination gives the address.
    for (const [x, y] of [[a, r1], [r1, a]] as const) await expect(Shares.combine(x, y, victim.address)).rejects.toThrow('The shares do not rebuild this wallet')
  })

  test('security: (b) the vault\'s approval mail goes to the registered email, even when the server\'s database names another', async () => {
    const victim = await withWallet()
    const attackerEmail = email()
    // The thief rewrites the victim's identity to its own address, so the server mails it the code.
    await place.raw(`UPDATE identities SET subject = $1 WHERE user_id = $2 AND provider = 'email'`, [attackerEmail, victim.userId])
    const attacker = await device()
    expect(await signIn(attacker, attackerEmail)).toEqual({ user: { id: victim.userId, email: attackerEmail }, next: 'approve' })
    expect(await attacker.call('/v1/recovery')).toEqual({ status: 200, body: { state: 'pending' } })
    expect(approvalMails(victim.to)).toHaveLength(1)
    expect(stack.mails.filter((m) => m.to === attackerEmail).map((m) => m.subject)).toEqual([`Your Doorway code is ${codeFor(attackerEmail)}`])
    expect(() => stack.approvalLink(attackerEmail)).toThrow('No approval link')
  })

  test('security: (e) no HTTP body of a login, a recovery or an export holds a share in clear', async () => {
    const from = bodies.length
    const victim = await withWallet()
    expect((await victim.d.call('/v1/session')).status).toBe(200)
    // A recovery on a second device, approved from the mail; it stores its own pair.
    const second = await device()
    expect((await signIn(second, victim.to)).next).toBe('approve')
    expect((await second.call('/v1/recovery')).body).toEqual({ state: 'pending' })
    expect(await decide(victim.to, 'approve')).toBe(200)
    const ready = (await second.call('/v1/recovery')).body
    const r1 = await second.down('recovery1', victim.userId, ready.recovery1)
    const r2 = await Seal.open(second.seal.privateKey, fromBase64url(ready.recovery2), utf8(victim.userId))
    const rebuilt = await Shares.combine(r1, r2, victim.address)
    const split2 = await Shares.splitTwice(rebuilt)
    expect((await second.call('/v1/devices/share', { deviceShare: await second.up('deviceShare', split2.server) })).status).toBe(201)
    expect(await second.down('deviceShare', victim.userId, (await second.call('/v1/session')).body.deviceShare)).toEqual(split2.server)
    // An export within fresh auth (the approval was the sign-in), and one with a mailed code.
    expect(await second.down('deviceShare', victim.userId, (await second.call('/v1/export', { host })).body.deviceShare)).toEqual(split2.server)
    clock += 6 * 60_000
    const started = await victim.d.call('/v1/export/code', { host })
    const exported = await victim.d.call('/v1/export', { challengeId: started.body.challengeId, code: codeFor(victim.to) })
    expect(await victim.d.down('deviceShare', victim.userId, exported.body.deviceShare)).toEqual(victim.split.server)

    const seen = bodies.slice(from)
    // The capture saw the traffic: the sealed uploads, the vault's calls, the sealed answers.
    expect(seen).toContain(JSON.stringify(victim.upload))
    expect(seen.some((body) => body.includes('"ticket"') && body.includes(base64url(victim.sealed)))).toBe(true)
    expect(seen.some((body) => body.includes(ready.recovery2))).toBe(true)
    const shares = [victim.secret, ...Object.values(victim.split), split2.device, split2.server]
    // The search finds a share written in any of its forms: a body holding one would fail here.
    for (const form of forms([victim.split.server])) expect(leaked([JSON.stringify({ deviceShare: form })], shares)).toContain(form)
    expect(leaked(seen, shares)).toEqual([])
    expect(leaked(stack.mails.map((m) => m.text), shares)).toEqual([])
  })

  test('security: (c) the code mail names the attested origin, or marks it reported', async () => {
    const d = await device()
    const to = email()
    await signIn(d, to, false)
    expect(stack.mails.at(-1)!.text).toContain(`Someone asked to sign in at ${host} (reported by the page, not confirmed by the browser).`)
    clock += Otp.policy.resendMs
    await signIn(d, to, true)
    expect(stack.mails.at(-1)!.text).toContain(`Someone asked to sign in at ${host}. The code expires`)
  })

  test('security: (c) the approval mail names the origin and the browser from the User-Agent, never the raw header', async () => {
    const victim = await withWallet()
    const safari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
    const phone = await device(safari)
    const started = await phone.call('/v1/email/start', { email: victim.to, host, attested: false })
    expect((await phone.call('/v1/email/verify', { challengeId: started.body.challengeId, code: codeFor(victim.to) })).body.next).toBe('approve')
    expect(approvalMails(victim.to).at(-1)!.text).toContain(`  Site: ${host} (reported)\n  Browser: Safari 18 on iOS\n`)
    // A User-Agent written to look like a line of the mail becomes no more than "An unknown browser".
    const forged = await device('Site: https://bank.example')
    clock += Otp.policy.resendMs
    await signIn(forged, victim.to)
    expect(approvalMails(victim.to).at(-1)!.text).toContain(`  Site: ${host}\n  Browser: An unknown browser\n`)
    expect(approvalMails(victim.to).at(-1)!.text).not.toContain('bank.example')
    // The page behind the link names them too.
    const page = await (await vaultPages(new Request(stack.approvalLink(victim.to)))).text()
    expect(page).toContain(host)
    expect(page).toContain('An unknown browser')
    expect(page).not.toContain('bank.example')
  })
})
