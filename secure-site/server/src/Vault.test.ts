/**
 * The vault in-process over an in-memory store, a fake clock and a recording mailer standing in for the
 * person's mailbox: the server's tickets alone never re-seal R2; the person's approval from the vault's
 * own mail does, and the vault signs what it vouches for.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import { decode as fromBase64url, encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as Audit from './Audit.js'
import type * as Mail from './mail.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'
import type { Store } from './vault/store.js'
import * as VaultTesting from './vault/testing.js'

const t0 = Date.UTC(2026, 10, 27, 8, 40)
const minute = 60_000
const hour = 60 * minute
const publicUrl = 'http://vault.test:8791'
let clock = t0
let vaultKeys: CryptoKeyPair
let vaultPublic: Uint8Array
let signing: CryptoKeyPair
let signingPublic: Uint8Array
let server: CryptoKeyPair
let place: VaultTesting.Place
let sent: Mail.Mail[]
let logged: string[]
let app: ReturnType<typeof Vault.app>

const options = (over: Partial<Vault.Options> = {}): Vault.Options => ({
  key: vaultKeys.privateKey,
  publicKey: vaultPublic,
  signingKey: signing.privateKey,
  signingPublicKey: signingPublic,
  ticketKey: server.publicKey,
  store: place.store,
  mailer: { send: async (mail) => void sent.push(mail) },
  publicUrl,
  now: () => clock,
  log: (message) => void logged.push(message),
  ...over,
})

beforeAll(async () => {
  vaultKeys = await Seal.generateKeyPair()
  vaultPublic = await Seal.exportPublicKey(vaultKeys.publicKey)
  signing = (await crypto.subtle.generateKey(Attest.algorithm, true, ['sign', 'verify'])) as CryptoKeyPair
  signingPublic = new Uint8Array(await crypto.subtle.exportKey('raw', signing.publicKey))
  server = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  place = await VaultTesting.memory()
})
afterAll(() => place?.dispose())
beforeEach(() => {
  clock = t0
  sent = []
  logged = []
  app = Vault.app(options())
})

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const post = (path: string, body: unknown, on = app) => on.request(path, json(body))
const ticket = (purpose: Ticket.Purpose, userId: string, bound: { sealed?: Uint8Array; device?: Uint8Array } = {}, key = server.privateKey) =>
  Ticket.issue(key, { purpose, userId, ...bound, now: clock })

type Wallet = Awaited<ReturnType<typeof wallet>>
/** A wallet as the secure-site makes it: R2 sealed to the vault (AAD = user id), registered through the server. */
async function wallet(email = `${Ids.random()}@example.test`) {
  const userId = Ids.random()
  const secret = Shares.entropy()
  const split = await Shares.splitTwice(secret)
  const address = Shares.evmAccount(secret).address
  const sealed = await Seal.seal(vaultPublic, split.recovery2, new TextEncoder().encode(userId))
  const body = { ...(await ticket('register', userId, { sealed })), email, address, sealed: base64url(sealed) }
  const response = await post('/v1/register', body)
  expect(response.status).toBe(201)
  const { attestation } = (await response.json()) as { attestation: string }
  return { userId, email, address, secret, split, sealed, attestation, body }
}

/** A device's seal key, as the secure-site keeps one per device. */
async function device() {
  const pair = await Seal.generateKeyPair()
  const point = await Seal.exportPublicKey(pair.publicKey)
  return { pair, point, fp: await Attest.fingerprint(point) }
}
type Device = Awaited<ReturnType<typeof device>>

const asking = { origin: 'https://dapp.test', attested: true, browser: 'Chrome 131 on Linux' }
async function requestApproval(w: Wallet, d: Device, over: Record<string, unknown> = {}) {
  return post('/v1/approvals', { ...(await ticket('approve', w.userId, { device: d.point })), device: base64url(d.point), ...asking, ...over })
}

/** The token of the newest approval link mailed to `email`. */
function link(email: string): string {
  const text = sent.filter((m) => m.to === email && m.text.includes('/approve?token=')).at(-1)?.text ?? ''
  const found = text.match(/(http\S+\/approve\?token=)([\w-]+)/)
  if (!found) throw new Error(`No approval link was mailed to ${email}`)
  expect(found[1]).toBe(`${publicUrl}/approve?token=`)
  return found[2]!
}

const page = (token: string) => app.request(`/approve?token=${encodeURIComponent(token)}`)
const decide = (token: string, decision: string) =>
  app.request('/approve', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, decision }).toString() })

async function approved(w: Wallet, d: Device) {
  expect((await requestApproval(w, d)).status).toBe(200)
  expect((await decide(link(w.email), 'approve')).status).toBe(200)
}

async function reseal(w: Wallet, d: Device, over: Record<string, unknown> = {}) {
  return post('/v1/reseal', { ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point), ...over })
}

describe('GET /public-key', () => {
  test('behavior: serves the sealing key and the signing key, for pinning', async () => {
    const response = await app.request('/public-key')
    expect(await response.json()).toEqual({ publicKey: base64url(vaultPublic), signingKey: base64url(signingPublic) })
  })
})

describe('POST /v1/register', () => {
  test('behavior: registers the wallet and answers the vault\'s signed statement of it', async () => {
    const w = await wallet()
    const statement = { kind: 'wallet', userId: w.userId, email: w.email, address: w.address } as const
    expect(await Attest.verify(signingPublic, statement, w.attestation)).toBe(true)
    expect(await place.store.wallets.get(w.userId)).toMatchObject({ email: w.email, address: w.address.toLowerCase(), sealedFp: await Attest.fingerprint(w.sealed) })
    expect((await place.store.log.list(w.userId)).map((e) => e.kind)).toEqual(['wallet.registered'])
  })

  test('behavior: the email is stored normalized', async () => {
    const w = await wallet(`  ${Ids.random()}@Example.TEST `)
    expect((await place.store.wallets.get(w.userId))?.email).toBe(w.email.trim().toLowerCase())
  })

  test('behavior: the same values again (a retry) get the same answer', async () => {
    const w = await wallet()
    const again = await post('/v1/register', { ...w.body, ...(await ticket('register', w.userId, { sealed: w.sealed })) })
    expect(again.status).toBe(201)
    expect(await again.json()).toEqual({ attestation: w.attestation })
  })

  test('error: the same user with another address, or another user with the email, is a 409', async () => {
    const w = await wallet()
    const other = await post('/v1/register', { ...w.body, ...(await ticket('register', w.userId, { sealed: w.sealed })), address: `0x${'1'.repeat(40)}` })
    expect(other.status).toBe(409)
    expect(await other.json()).toMatchObject({ reason: 'registered' })
    const thief = Ids.random()
    const sealed = await Seal.seal(vaultPublic, w.split.recovery2, new TextEncoder().encode(thief))
    const taken = await post('/v1/register', { ...(await ticket('register', thief, { sealed })), email: w.email, address: w.address, sealed: base64url(sealed) })
    expect(taken.status).toBe(409)
  })

  test('error: a share the vault cannot open for this user is a 400', async () => {
    const userId = Ids.random()
    const otherVault = await Seal.exportPublicKey((await Seal.generateKeyPair()).publicKey)
    for (const sealed of [
      await Seal.seal(otherVault, new Uint8Array(17), new TextEncoder().encode(userId)),
      await Seal.seal(vaultPublic, new Uint8Array(17), new TextEncoder().encode('someone else')),
      new Uint8Array(40),
    ]) {
      const response = await post('/v1/register', { ...(await ticket('register', userId, { sealed })), email: 'a@example.test', address: `0x${'1'.repeat(40)}`, sealed: base64url(sealed) })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { message: string }).message).toMatch(/^Invalid sealed/)
    }
    expect(await place.store.wallets.get(userId)).toBeUndefined()
  })

  test('error: a ticket for another share is a 401', async () => {
    const w = await wallet()
    const other = await Seal.seal(vaultPublic, w.split.recovery2, new TextEncoder().encode(w.userId))
    const response = await post('/v1/register', { ...w.body, ...(await ticket('register', w.userId, { sealed: other })) })
    expect(response.status).toBe(401)
  })
})

describe('POST /v1/approvals', () => {
  test('behavior: mails the registered email a link naming the site, browser and time; answers pending', async () => {
    const w = await wallet()
    const d = await device()
    // A caller's `email` is no field of this route: the mail goes to the registered address only.
    const response = await requestApproval(w, d, { email: 'eve@example.test' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ state: 'pending', expiresAt: t0 + 15 * minute })
    expect(sent.map((m) => m.to)).toEqual([w.email])
    const { text, subject } = sent[0]!
    expect(subject).toBe('Approve a new device for your Doorway wallet')
    expect(text).toContain('Site: https://dapp.test\n')
    expect(text).toContain('Browser: Chrome 131 on Linux')
    expect(text).toContain('Time: 2026-11-27 08:40 UTC')
    expect(text).toContain("If it wasn't you, do not open the link; your wallet stays safe.")
    expect(link(w.email)).toMatch(/^[\w-]{43}$/)
    expect((await place.store.log.list(w.userId)).map((e) => e.kind)).toEqual(['wallet.registered', 'approval.requested'])
  })

  test('behavior: an origin the browser could not attest is marked reported', async () => {
    const w = await wallet()
    await requestApproval(w, await device(), { attested: false })
    expect(sent[0]!.text).toContain('Site: https://dapp.test (reported)')
  })

  test('behavior: the store keeps the token\'s hash, never the token', async () => {
    const w = await wallet()
    await requestApproval(w, await device())
    const token = link(w.email)
    const rows = await place.raw('SELECT * FROM vault_approvals')
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(rows.map((r) => r.token_hash)).toContain(await Attest.fingerprint(new TextEncoder().encode(token)))
  })

  test('behavior: a device approved already answers approved, and no mail', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    sent = []
    const again = await requestApproval(w, d)
    expect(await again.json()).toEqual({ state: 'approved' })
    expect(sent).toEqual([])
  })

  test('behavior: a new request supersedes the link sent before for this device', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const first = link(w.email)
    clock += minute
    await requestApproval(w, d)
    const second = link(w.email)
    const old = await page(first)
    expect(old.status).toBe(410)
    expect(await old.text()).toContain('A newer link was sent: use the newest mail.')
    expect((await decide(first, 'approve')).status).toBe(410)
    expect((await page(second)).status).toBe(200)
  })

  test('error: the sixth mail in an hour is a 429 until the first leaves the hour', async () => {
    const w = await wallet()
    for (let i = 0; i < 5; i++) {
      expect((await requestApproval(w, await device())).status).toBe(200)
      clock += minute
    }
    const sixth = await requestApproval(w, await device())
    expect(sixth.status).toBe(429)
    expect(await sixth.json()).toMatchObject({ reason: 'throttled', retryAfter: 3600 - 5 * 60 })
    expect(sixth.headers.get('retry-after')).toBe(String(3600 - 5 * 60))
    expect(sent).toHaveLength(5)
    clock = t0 + hour + 1
    expect((await requestApproval(w, await device())).status).toBe(200)
  })

  test('error: a user with no registered wallet is a 404', async () => {
    const d = await device()
    const response = await post('/v1/approvals', { ...(await ticket('approve', Ids.random(), { device: d.point })), device: base64url(d.point), ...asking })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ reason: 'unregistered' })
    expect(sent).toEqual([])
  })

  test('behavior: a mail that fails is logged, and the answer does not wait for it', async () => {
    const w = await wallet()
    const failing = Vault.app(options({ mailer: { send: () => Promise.reject(new Error('smtp down')) } }))
    const d = await device()
    const response = await post('/v1/approvals', { ...(await ticket('approve', w.userId, { device: d.point })), device: base64url(d.point), ...asking }, failing)
    expect(response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(logged).toContain('mail not sent')
  })
})

describe('GET /approve', () => {
  test('behavior: the page names the wallet, site, browser and time, with the two buttons, under a strict CSP', async () => {
    const w = await wallet()
    await requestApproval(w, await device())
    const token = link(w.email)
    const response = await page(token)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<main>\s*<h1>Approve a new device\?<\/h1>/)
    expect(html).toContain(w.email)
    expect(html).toContain('https://dapp.test')
    expect(html).not.toContain('reported')
    expect(html).toContain('Chrome 131 on Linux')
    expect(html).toContain('2026-11-27 08:40 UTC')
    expect(html).toContain('<form method="post" action="/approve">')
    expect(html).toContain(`<input type="hidden" name="token" value="${token}">`)
    expect(html).toContain('<button type="submit" name="decision" value="approve">Approve this device</button>')
    expect(html).toContain('<button type="submit" name="decision" value="deny">This wasn\'t me</button>')
    expect(html).not.toContain('<script')
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-security-policy': "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
  })

  test('behavior: an origin not attested shows as reported; every value is escaped', async () => {
    const w = await wallet()
    await requestApproval(w, await device(), { attested: false, browser: '<img src=x onerror=alert(1)> "Firefox"' })
    const html = await (await page(link(w.email))).text()
    expect(html).toContain('https://dapp.test <span class="reported">(reported')
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62; &#34;Firefox&#34;')
    expect(html).not.toContain('<img')
  })

  test('behavior: opening the link changes nothing (mail scanners prefetch)', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const token = link(w.email)
    for (let i = 0; i < 3; i++) expect((await page(token)).status).toBe(200)
    expect((await place.store.approvals.latest(w.userId, d.fp))?.state).toBe('pending')
    expect((await reseal(w, d)).status).toBe(409)
    expect((await decide(token, 'approve')).status).toBe(200)
  })

  test.each([
    ['an unknown token', 'A'.repeat(43)],
    ['a malformed token', '<x>'],
    ['no token', undefined],
  ])('error: %s is a 404 page', async (_, token) => {
    const response = await app.request(token === undefined ? '/approve' : `/approve?token=${encodeURIComponent(token)}`)
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('This link is not valid.')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })

  test('error: an expired link is a 410, and then the device is not approved', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const token = link(w.email)
    clock += 15 * minute
    const response = await page(token)
    expect(response.status).toBe(410)
    expect(await response.text()).toContain('This link has expired. Ask for a new one from the sign-in screen.')
    expect((await decide(token, 'approve')).status).toBe(410)
    expect(await (await reseal(w, d)).json()).toMatchObject({ reason: 'notApproved' })
  })

  test('behavior: the stylesheet is served, under the same headers', async () => {
    const response = await app.request('/approve.css')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/css/)
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(await response.text()).toContain('main{')
  })
})

describe('POST /approve', () => {
  test('behavior: approving approves the device; the link then says it was used', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const token = link(w.email)
    const response = await decide(token, 'approve')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Device approved. You can go back to https://dapp.test.')
    expect(await place.store.devices.get(w.userId, d.fp)).toMatchObject({ origin: 'https://dapp.test', browser: 'Chrome 131 on Linux', approvedAt: t0, revokedAt: null })
    for (const again of [await decide(token, 'approve'), await decide(token, 'deny'), await page(token)]) {
      expect(again.status).toBe(410)
      expect(await again.text()).toContain('This link was already used.')
    }
    expect((await place.store.log.list(w.userId)).map((e) => e.kind)).toContain('approval.granted')
  })

  test('behavior: "This wasn\'t me" denies; a re-seal to that device is then refused as denied', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const response = await decide(link(w.email), 'deny')
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Denied. Nothing was unlocked.')
    const refused = await reseal(w, d)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ reason: 'denied' })
    expect((await place.store.log.list(w.userId)).map((e) => e.kind)).toContain('approval.denied')
  })

  test.each([['maybe'], [''], ['APPROVE']])('error: a decision %j is a 400 page that changes nothing', async (decision) => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const response = await decide(link(w.email), decision)
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect((await place.store.approvals.latest(w.userId, d.fp))?.state).toBe('pending')
  })

  test('error: a link to a device removed since is a 410 saying so', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const token = link(w.email)
    await decide(token, 'approve')
    clock += minute
    await post('/v1/revoke', { ...(await ticket('revoke', w.userId, { device: d.point })), device: base64url(d.point) })
    const response = await page(token)
    expect(response.status).toBe(410)
    expect(await response.text()).toContain('This device was removed from your wallet.')
  })
})

describe('POST /v1/reseal', () => {
  test('behavior: to an approved device: R2 re-sealed to it rebuilds the wallet with R1; the statements verify', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    clock += minute
    sent = []
    const response = await reseal(w, d)
    expect(response.status).toBe(200)
    const answer = (await response.json()) as { sealed: string; attestation: string; wallet: string }
    const r2 = await Seal.open(d.pair.privateKey, fromBase64url(answer.sealed), new TextEncoder().encode(w.userId))
    expect(await Shares.combine(w.split.recovery1, r2, w.address)).toEqual(w.secret)
    const statement = { kind: 'reseal', userId: w.userId, email: w.email, address: w.address, device: d.fp, sealed: await Attest.fingerprint(fromBase64url(answer.sealed)) } as const
    expect(await Attest.verify(signingPublic, statement, answer.attestation)).toBe(true)
    expect(answer.wallet).toBe(w.attestation)
    // The notice to the owner, on every re-seal.
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ to: w.email, subject: 'Your Doorway wallet was recovered on a device' })
    expect(sent[0]!.text).toContain('Your wallet was recovered on a device')
    expect(sent[0]!.text).toContain('Site: https://dapp.test\n')
    expect(sent[0]!.text).toContain('Browser: Chrome 131 on Linux')
    expect(sent[0]!.text).toContain('Recovered: 2026-11-27 08:41 UTC')
    expect(sent[0]!.text).toContain("If it wasn't you")
    expect((await reseal(w, d)).status).toBe(200)
    expect(sent).toHaveLength(2)
  })

  test('behavior: the answer never holds R2 in clear', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const text = await (await reseal(w, d)).text()
    expect(text).not.toContain(base64url(w.split.recovery2))
    expect(text).not.toContain(Buffer.from(w.split.recovery2).toString('hex'))
  })

  test('error: before the person answers, a 409 pending; a device never asked for, 403 notApproved', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const pending = await reseal(w, d)
    expect(pending.status).toBe(409)
    expect(await pending.json()).toMatchObject({ reason: 'pending' })
    const never = await reseal(w, await device())
    expect(never.status).toBe(403)
    expect(await never.json()).toMatchObject({ reason: 'notApproved' })
  })

  test('error: another device\'s key, with a ticket for it, is not approved', async () => {
    const w = await wallet()
    await approved(w, await device())
    const thief = await device()
    const response = await reseal(w, thief)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ reason: 'notApproved' })
  })

  test('error: a ticket for the approved device does not re-seal to another key (a stolen ticket)', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const thief = await device()
    const response = await reseal(w, d, { device: base64url(thief.point) })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ message: 'The ticket is for another share or device' })
  })

  test('error: another sealed share, even with a ticket for it, is a 403 otherShare', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const other = await Seal.seal(vaultPublic, new Uint8Array(17).fill(9), new TextEncoder().encode(w.userId))
    const response = await post('/v1/reseal', { ...(await ticket('reseal', w.userId, { sealed: other, device: d.point })), sealed: base64url(other), device: base64url(d.point) })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ reason: 'otherShare' })
  })

  test('error: another user\'s share is a 403: each user re-seals only their own R2', async () => {
    const victim = await wallet()
    const attacker = await wallet()
    const d = await device()
    await approved(attacker, d)
    const response = await post('/v1/reseal', { ...(await ticket('reseal', attacker.userId, { sealed: victim.sealed, device: d.point })), sealed: base64url(victim.sealed), device: base64url(d.point) })
    expect(response.status).toBe(403)
  })

  test('error: after revoke, 403 notApproved; a new approval lets it in again', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    clock += minute
    const revoked = await post('/v1/revoke', { ...(await ticket('revoke', w.userId, { device: d.point })), device: base64url(d.point) })
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toEqual({})
    const refused = await reseal(w, d)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ reason: 'notApproved' })
    clock += minute
    expect(await (await requestApproval(w, d)).json()).toMatchObject({ state: 'pending' })
    await decide(link(w.email), 'approve')
    expect((await reseal(w, d)).status).toBe(200)
  })

  test('error: the 21st re-seal in an hour is a 429', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    for (let i = 0; i < 20; i++) expect((await reseal(w, d)).status).toBe(200)
    const refused = await reseal(w, d)
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ reason: 'throttled', retryAfter: 3600 })
    expect(sent.filter((m) => m.subject.includes('recovered'))).toHaveLength(20)
  })

  test('error: a user with no wallet is a 404', async () => {
    const w = await wallet()
    const d = await device()
    const stranger = Ids.random()
    const response = await post('/v1/reseal', { ...(await ticket('reseal', stranger, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point) })
    expect(response.status).toBe(404)
  })

  test('error: a registered share that does not open (a rewritten database) is a 400, never a 500', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const garbage = new Uint8Array(111).fill(1)
    garbage[0] = 1
    await place.raw('UPDATE vault_wallets SET sealed_fp = $2 WHERE user_id = $1', [w.userId, await Attest.fingerprint(garbage)])
    const response = await post('/v1/reseal', { ...(await ticket('reseal', w.userId, { sealed: garbage, device: d.point })), sealed: base64url(garbage), device: base64url(d.point) })
    expect(response.status).toBe(400)
  })
})

describe('POST /v1/revoke', () => {
  test('error: a user with no wallet is a 404; a ticket for another device is a 401', async () => {
    const d = await device()
    const stranger = await post('/v1/revoke', { ...(await ticket('revoke', Ids.random(), { device: d.point })), device: base64url(d.point) })
    expect(stranger.status).toBe(404)
    const w = await wallet()
    await approved(w, d)
    const other = await device()
    const mismatched = await post('/v1/revoke', { ...(await ticket('revoke', w.userId, { device: other.point })), device: base64url(d.point) })
    expect(mismatched.status).toBe(401)
    expect(await place.store.devices.get(w.userId, d.fp)).toMatchObject({ revokedAt: null })
  })
})

describe('tickets', () => {
  test('error: a ticket works once, also on a new vault instance over the same database', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const body = { ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point) }
    expect((await post('/v1/reseal', body)).status).toBe(200)
    const again = await post('/v1/reseal', body)
    expect(again.status).toBe(401)
    expect(await again.json()).toMatchObject({ message: 'The ticket was already used' })
    const restarted = Vault.app(options({ store: await place.another() }))
    expect((await post('/v1/reseal', body, restarted)).status).toBe(401)
  })

  test('error: a ticket is spent when presented, whatever the outcome', async () => {
    const w = await wallet()
    const d = await device()
    const body = { ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point) }
    expect((await post('/v1/reseal', body)).status).toBe(403)
    await approved(w, d)
    expect((await post('/v1/reseal', body)).status).toBe(401)
  })

  test('error: a ticket for another purpose is a 401', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const approveTicket = await ticket('approve', w.userId, { sealed: w.sealed, device: d.point })
    const response = await post('/v1/reseal', { ...approveTicket, sealed: base64url(w.sealed), device: base64url(d.point) })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ reason: 'purpose' })
  })

  test('error: an expired ticket, a forged one, or a garbled one is a 401', async () => {
    const w = await wallet()
    const d = await device()
    await approved(w, d)
    const body = { ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point) }
    clock += Ticket.lifetimeMs
    expect((await post('/v1/reseal', body)).status).toBe(401)
    const other = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
    const forged = await post('/v1/reseal', { ...body, ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point }, other.privateKey)) })
    expect(forged.status).toBe(401)
    expect(await forged.json()).toMatchObject({ message: 'The ticket is not valid' })
    expect((await post('/v1/reseal', { ...body, ticket: 'not-json' })).status).toBe(401)
  })
})

describe('input', () => {
  test('error: a body over 16 KB is a 413', async () => {
    const response = await post('/v1/register', { ticket: 'a', padding: 'x'.repeat(17 * 1024) })
    expect(response.status).toBe(413)
    const form = await app.request('/approve', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${'x'.repeat(17 * 1024)}` })
    expect(form.status).toBe(413)
    expect(form.headers.get('content-type')).toMatch(/^text\/html/)
  })

  test.each([
    ['no body', undefined],
    ['an array', [1]],
    ['text', 'hello'],
  ])('error: %s is a 400', async (_, body) => {
    const response = await app.request('/v1/reseal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ message: 'Expected a JSON object body' })
  })

  test.each([
    ['ticket', { ticket: 1 }],
    ['ticket', { ticket: 'a'.repeat(3000) }],
    ['signature', { signature: 'short' }],
  ])('error: a bad %s is a 400 naming it', async (field, change) => {
    const w = await wallet()
    const response = await post('/v1/register', { ...w.body, ...change })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(new RegExp(`^Invalid ${field}:`))
  })

  test.each([
    ['email', { email: 'not an email' }],
    ['email', { email: `${'a'.repeat(250)}@example.test` }],
    ['address', { address: '0x1234' }],
    ['address', { address: 42 }],
    ['sealed', { sealed: 'not base64url!' }],
    ['sealed', { sealed: 'A'.repeat(5000) }],
    ['sealed', { sealed: undefined }],
  ])('error: register with a bad %s is a 400 naming it', async (field, change) => {
    const userId = Ids.random()
    const sealed = await Seal.seal(vaultPublic, new Uint8Array(17), new TextEncoder().encode(userId))
    const body = { ...(await ticket('register', userId, { sealed })), email: 'a@example.test', address: `0x${'1'.repeat(40)}`, sealed: base64url(sealed), ...change }
    const response = await post('/v1/register', body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(new RegExp(`^Invalid ${field}:`))
  })

  const offCurve = base64url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 1)))
  test.each([
    ['device', { device: offCurve }],
    ['device', { device: base64url(new Uint8Array(33).fill(2)) }],
    ['origin', { origin: 'https://dapp.test/path' }],
    ['origin', { origin: 'ftp://dapp.test' }],
    ['origin', { origin: `https://${'a'.repeat(200)}.test` }],
    ['origin', { origin: 'javascript:alert(1)' }],
    ['attested', { attested: 'yes' }],
    ['browser', { browser: 'Chrome\nSite: https://bank.test' }],
    ['browser', { browser: 'x'.repeat(121) }],
    ['browser', { browser: 'Chrome \u202egnp.exe' }],
    ['browser', { browser: '   ' }],
  ])('error: an approval request with a bad %s is a 400 naming it, and no mail', async (field, change) => {
    const w = await wallet()
    const response = await requestApproval(w, await device(), change)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toMatch(new RegExp(`^Invalid ${field}:`))
    expect(sent).toEqual([])
  })

  test('behavior: every answer, errors too, carries no-store, nosniff and no-referrer', async () => {
    for (const response of [await app.request('/public-key'), await post('/v1/reseal', {}), await app.request('/nowhere')]) {
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('referrer-policy')).toBe('no-referrer')
    }
  })

  test('error: an unexpected failure is a logged 500 that says nothing more', async () => {
    const fire = () => Promise.reject(new Error('disk on fire'))
    const broken: Store = { ...place.store, wallets: { ...place.store.wallets, get: fire }, approvals: { ...place.store.approvals, byTokenHash: fire } }
    const failing = Vault.app(options({ store: broken }))
    const d = await device()
    const response = await post('/v1/approvals', { ...(await ticket('approve', Ids.random(), { device: d.point })), device: base64url(d.point), ...asking }, failing)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ message: 'Internal error' })
    expect(logged).toEqual(['POST /v1/approvals failed'])
    const pageResponse = await failing.request(`/approve?token=${'A'.repeat(43)}`)
    expect(pageResponse.status).toBe(500)
    expect(pageResponse.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await pageResponse.text()).not.toContain('disk on fire')
    expect(logged).toEqual(['POST /v1/approvals failed', 'GET /approve failed'])
  })
})

describe('log', () => {
  test('behavior: what the vault did for a user is one hash chain', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    await decide(link(w.email), 'approve')
    await reseal(w, d)
    await post('/v1/revoke', { ...(await ticket('revoke', w.userId, { device: d.point })), device: base64url(d.point) })
    const entries = await place.store.log.list(w.userId)
    expect(entries.map((e) => e.kind)).toEqual(['wallet.registered', 'approval.requested', 'approval.granted', 'recovery', 'device.revoked'])
    expect(Audit.verifyChain(entries)).toEqual({ ok: true })
    expect(await place.store.log.head(w.userId)).toEqual({ seq: 5, hash: entries[4]!.hash })
    // Nothing secret is logged: no token, no share.
    expect(JSON.stringify(entries)).not.toContain(link(w.email))
  })
})

describe('Vault.client', () => {
  const through = (on = app) => Vault.client(publicUrl, (request) => on.fetch(request))

  test('behavior: registers, asks for approval, re-seals and revokes through the vault\'s routes', async () => {
    const vault = through()
    const userId = Ids.random()
    const email = `${userId}@example.test`
    const sealed = await Seal.seal(vaultPublic, new Uint8Array(17).fill(3), new TextEncoder().encode(userId))
    const { attestation } = await vault.register({ ...(await ticket('register', userId, { sealed })), email, address: `0x${'1'.repeat(40)}`, sealed: base64url(sealed) })
    expect(await Attest.verify(signingPublic, { kind: 'wallet', userId, email, address: `0x${'1'.repeat(40)}` }, attestation)).toBe(true)
    const d = await device()
    const asked = await vault.requestApproval({ ...(await ticket('approve', userId, { device: d.point })), device: base64url(d.point), ...asking })
    expect(asked).toEqual({ state: 'pending', expiresAt: t0 + 15 * minute })
    await decide(link(email), 'approve')
    const answer = await vault.reseal({ ...(await ticket('reseal', userId, { sealed, device: d.point })), sealed: base64url(sealed), device: base64url(d.point) })
    expect(answer.wallet).toBe(attestation)
    expect(await vault.requestApproval({ ...(await ticket('approve', userId, { device: d.point })), device: base64url(d.point), ...asking })).toEqual({ state: 'approved' })
    await vault.revoke({ ...(await ticket('revoke', userId, { device: d.point })), device: base64url(d.point) })
    expect((await place.store.devices.get(userId, d.fp))?.revokedAt).toBe(t0)
  })

  test('error: a refusal is Refused with its status, reason and retryAfter', async () => {
    const w = await wallet()
    const d = await device()
    await requestApproval(w, d)
    const refused = await through()
      .reseal({ ...(await ticket('reseal', w.userId, { sealed: w.sealed, device: d.point })), sealed: base64url(w.sealed), device: base64url(d.point) })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Vault.Refused)
    expect(refused).toMatchObject({ status: 409, reason: 'pending', retryAfter: undefined })
  })

  test('error: no answer, a 5xx, a timeout or a 2xx without its fields is Unavailable', async () => {
    const body = { ticket: 't', signature: 's', device: 'd' }
    const down = Vault.client(publicUrl, () => Promise.reject(new Error('connection refused')))
    await expect(down.revoke(body)).rejects.toBeInstanceOf(Vault.Unavailable)
    const failing = Vault.client(publicUrl, () => new Response('{}', { status: 502 }))
    await expect(failing.revoke(body)).rejects.toBeInstanceOf(Vault.Unavailable)
    const stalled = Vault.client(publicUrl, (request) => new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))), 20)
    await expect(stalled.revoke(body)).rejects.toBeInstanceOf(Vault.Unavailable)
    const empty = Vault.client(publicUrl, () => Response.json({}))
    await expect(empty.reseal({ ...body, sealed: 's' })).rejects.toBeInstanceOf(Vault.Unavailable)
  })
})
