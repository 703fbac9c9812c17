/**
 * The secure-site's wallet operations against the real secure-site server and vault (in-process,
 * PGlite; server/testStack.ts): create by code, reconnect a returning device, recover on a new device
 * to the same address only once the person approves it from the vault's mail, sign out, a tampered
 * share or a substituted wallet that signs nothing, and a social sign-in (its routes answered by a stand-in).
 */
import * as Shares from '@doorway/secure-site/common/Shares'
import * as TestStack from '@doorway/secure-site/server/testStack'
import { errors, format, requestAborted } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { secureSocialText } from '@doorway/shared/texts/social'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { recoverMessageAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Device from './Device.js'
import * as Solana from './Solana.js'
import * as Wallet from './Wallet.js'

const host = 'http://localhost:5173'
const origin = { host, attested: true }

const place = TestStack.perFile(beforeAll, afterAll)

/** A device: its own store (an IndexedDB partition), the secure-site's wallet on it, the build's pinned keys. */
const device = (store = Device.memoryStore(), options: Partial<Wallet.Options> = {}) =>
  Wallet.create({ store, base: 'http://127.0.0.1:5175', ...place.stack.keys.build, fetch: place.stack.fetch, pollMs: 5, ...options })
let n = 0
const newEmail = () => `wallet${++n}-${Date.now()}@example.test`
const codeFor = (email: string) => place.stack.mails.filter((m) => m.to === email && / code (to export your wallet )?is \d{6}$/.test(m.subject)).at(-1)!.subject.match(/(\d{6})$/)![1]!

async function login(wallet: Wallet.Wallet, email: string) {
  await Wallet.connectEmail(wallet, email, origin)
  const outcome = await Wallet.connectOtp(wallet, codeFor(email))
  if (outcome === 'VERIFY_DEVICE') throw new Error('expected a new wallet')
  return outcome
}

describe('wallet', () => {
  test('behavior: a code creates a wallet that signs; the same device reconnects without a code', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const first = device(store)
    const account = await login(first, email)
    expect(account).toEqual({ email, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), solanaAddress: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/) })
    const signature = await (await Wallet.account(first)).signMessage({ message: 'hello' })
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(account.address)
    // The Solana key of the same entropy signs for the Solana address.
    const message = new TextEncoder().encode('hello solana')
    expect(ed25519.verify(Solana.sign(await Wallet.solana(first), message), message, base58.decode(account.solanaAddress))).toBe(true)

    // A reload: the same device store, a fresh module. D + A, no code.
    const mailsBefore = place.stack.mails.length
    expect(await Wallet.restore(device(store))).toEqual(account)
    expect(place.stack.mails.length).toBe(mailsBefore)
  })

  test('security: another device (another site\'s partition) gets nothing from the code alone; once the person approves it from the vault\'s mail it recovers the same address', async () => {
    const email = newEmail()
    const { address, solanaAddress } = await login(device(), email)
    // The server throttles the email for 30 s; move its record of the first code into the past.
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    const other = device()
    await Wallet.connectEmail(other, email, origin)
    expect(await Wallet.connectOtp(other, codeFor(email))).toBe('VERIFY_DEVICE')
    // Waiting: the vault re-seals nothing until the person says so.
    const waiting = new AbortController()
    const pending = Wallet.awaitDevice(other, waiting.signal)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(other.unlocked).toBeUndefined()
    const page = await place.stack.approve(email)
    expect(page.status).toBe(200)
    expect(await pending).toEqual({ email, address, solanaAddress })
    expect((await Wallet.solana(other)).address).toBe(solanaAddress)
    const signature = await (await Wallet.account(other)).signMessage({ message: 'same key' })
    expect(await recoverMessageAddress({ message: 'same key', signature })).toBe(address)
    // The vault's own notice to the owner.
    expect(place.stack.mails.some((m) => m.to === email && /recovered/i.test(m.subject))).toBe(true)
  })

  test('error: a denied approval unlocks nothing and says so; a new link can be sent', async () => {
    const email = newEmail()
    await login(device(), email)
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    const other = device()
    await Wallet.connectEmail(other, email, origin)
    expect(await Wallet.connectOtp(other, codeFor(email))).toBe('VERIFY_DEVICE')
    expect((await place.stack.decide(place.stack.approvalLink(email), 'deny')).status).toBe(200)
    await expect(Wallet.awaitDevice(other)).rejects.toThrow(emailText.approvalDenied)
    expect(await Wallet.resendDevice(other)).toBeGreaterThan(Date.now())
  })

  test('security: a server that answers another wallet to a new device is refused before anything opens (hostile test g)', async () => {
    const email = newEmail()
    await login(device(), email)
    const attacker = newEmail()
    const theirs = await login(device(), attacker)
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    // The server swaps in the attacker's address for the person's (its database is its to change).
    await place.db.query('UPDATE users SET address = $1 WHERE id = (SELECT user_id FROM identities WHERE subject = $2)', [theirs.address, email])
    let tampered = 0
    const other = device(Device.memoryStore(), { onTampered: () => tampered++ })
    await Wallet.connectEmail(other, email, origin)
    expect(await Wallet.connectOtp(other, codeFor(email))).toBe('VERIFY_DEVICE')
    await place.stack.approve(email)
    await expect(Wallet.awaitDevice(other)).rejects.toThrow(emailText.substituted)
    expect(tampered).toBe(1)
    expect(other.unlocked).toBeUndefined()
  })

  test('error: the throttle (which leaves the code sent working), a wrong code and a malformed email come back as the modal\'s messages', async () => {
    const email = newEmail()
    const wallet = device()
    await Wallet.connectEmail(wallet, email, origin)
    await expect(Wallet.connectEmail(device(), email, origin)).rejects.toThrow(new RegExp(`^${format(errors.emailLoginThrottled, { n: 999 }).replace('999', '\\d+')}$`))
    // A resend the throttle refuses leaves this device's code working: the refusal carries the wait.
    const resend = await Wallet.connectEmail(wallet, email, origin).catch((error: unknown) => error)
    expect(resend).toMatchObject({ reason: 'throttled', retryAfter: expect.any(Number) })
    const code = codeFor(email)
    await expect(Wallet.connectOtp(wallet, code === '000000' ? '111111' : '000000')).rejects.toThrow(format(emailText.wrong, { n: 4 }))
    await expect(Wallet.connectEmail(device(), 'not-an-email', origin)).rejects.toThrow(emailText.invalid)
    expect(await Wallet.connectOtp(wallet, code)).toMatchObject({ email })
  })

  test('behavior: sign out ends the session here: no reconnect, and the server no longer releases the share', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const wallet = device(store)
    await login(wallet, email)
    await Wallet.signOut(wallet)
    expect(await Device.wallet(store)).toBeUndefined()
    expect(await Wallet.restore(device(store))).toBeNull()
    await expect(Wallet.account(wallet)).rejects.toMatchObject({ code: 4100 })
  })

  test('error: a tampered server share does not rebuild the committed address, and nothing is signed', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    let tampered = 0
    const wallet = device(store, { onTampered: () => tampered++ })
    await login(wallet, email)
    // Someone with the database and KEK_A swaps this device's share A for another valid-looking one:
    // here, the record is changed so the device combines D with the wrong bytes.
    const record = (await Device.wallet(store))!
    const key = await Device.key(store)
    const d = await Device.openShare(store, key, record)
    d[5] = d[5]! ^ 0xff
    await Device.saveWallet(store, key, { userId: record.userId, email: record.email, address: record.address, share: d })
    Wallet.lock(wallet)
    await expect(Wallet.account(wallet)).rejects.toThrow(emailText.tampered)
    expect(tampered).toBe(1)
  })

  test('behavior: key export right after sign-in needs no second code; it rebuilds the entropy of the signing key', async () => {
    const email = newEmail()
    const wallet = device()
    const { address } = await login(wallet, email)
    const before = place.stack.mails.length
    expect(await Wallet.exportCode(wallet, origin)).toEqual({ email, sent: false })
    const { mnemonic, privateKey } = Shares.exportable(await Wallet.exportSecret(wallet, host))
    expect(mnemonic.split(' ')).toHaveLength(12)
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    expect(place.stack.mails.slice(before).map((m) => m.subject)).toEqual(['Your Doorway wallet was exported'])
  })

  test('behavior: past 5 minutes, key export needs a fresh code; a wrong one says so, a spent one is refused', async () => {
    const email = newEmail()
    const wallet = device()
    const { address } = await login(wallet, email)
    // Sign-in was over 5 minutes ago, and its code long enough ago for the 30 s throttle.
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 600000 WHERE email = $1', [email])
    await place.db.query('UPDATE devices SET fresh_auth_at = fresh_auth_at - 600000 WHERE user_id IS NOT NULL AND fresh_auth_at IS NOT NULL')
    await expect(Wallet.exportSecret(wallet, host)).rejects.toThrow()
    expect(await Wallet.exportCode(wallet, origin)).toEqual({ email, sent: true })
    expect(place.stack.mails.filter((m) => m.to === email).at(-1)!.subject).toMatch(/^Your Doorway code to export your wallet is \d{6}$/)
    // The browser attested the host: the mail names it plainly.
    expect(place.stack.mails.filter((m) => m.to === email).at(-1)!.text).toContain(`at ${host}. The code expires`)
    const code = codeFor(email)
    await expect(Wallet.exportSecret(wallet, host, code === '000000' ? '111111' : '000000')).rejects.toThrow(format(emailText.wrong, { n: 4 }))
    const { privateKey } = Shares.exportable(await Wallet.exportSecret(wallet, host, code))
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    // The code is spent: a second export with it is refused.
    await expect(Wallet.exportSecret(wallet, host, code)).rejects.toThrow(emailText.expired)
  })

  test('error: a device with no wallet session cannot ask for an export code', async () => {
    await expect(Wallet.exportCode(device(), origin)).rejects.toMatchObject({ code: 4100 })
  })
})

/** What the social routes answer: a status and a JSON body. */
type Reply = { status: number; body: unknown }

/**
 * A device whose server is the real stack, except the social routes, which `social` answers (the
 * server's side of them is tested with the server). Every request to them is recorded, with whether the
 * device signed it.
 */
function socialDevice(social: (path: string, body: Record<string, unknown>) => Reply | Promise<Reply>, store = Device.memoryStore()) {
  const requests: { path: string; body: Record<string, unknown>; signed: boolean }[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    if (!url.pathname.startsWith('/v1/social/')) return place.stack.fetch(input, init)
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>
    requests.push({ path: url.pathname, body, signed: new Headers(init?.headers).has('doorway-sig') })
    const { status, body: answer } = await social(url.pathname, body)
    return Response.json(answer, { status })
  }) as typeof globalThis.fetch
  return { wallet: device(store, { fetch }), requests }
}

const flowId = 'f'.repeat(32)
const started = (base = 'http://127.0.0.1:5175') => ({ status: 201, body: { flowId, url: `${base}/oauth/start?flow=${flowId}`, expiresAt: Date.now() + 600_000 } })
const pending = { status: 200, body: { state: 'pending' } }

/** What the stand-in's provider says of the person, by default. */
const ada = { username: 'Ada', avatar: null }

/**
 * The provider proved `email`: the stand-in answers done as the server would, having proved the email
 * to the real stack for this device (a code), so the device's session starts there as a redeem starts it,
 * with the provider's name and picture kept for it as a redeem keeps them (routes/social.ts).
 */
async function proven(wallet: Wallet.Wallet, email: string, profile: { username: string | null; avatar: string | null } = ada): Promise<Reply> {
  const { challengeId } = await wallet.server.send('POST /v1/email/start', { email, ...origin })
  const { user, next } = await wallet.server.send('POST /v1/email/verify', { challengeId, code: codeFor(email) })
  await place.db.query('UPDATE devices SET social_username = $2, social_avatar = $3 WHERE id = $1', [wallet.device!.id, profile.username, profile.avatar])
  return { status: 200, body: { state: 'done', user, next, ...profile } }
}

describe('social sign-in', () => {
  test('behavior: a flow starts bound to this device, is pending while the person is at the provider, then creates the wallet here', async () => {
    const email = newEmail()
    const redeems: (() => Promise<Reply>)[] = [async () => pending, () => proven(wallet, email)]
    const { wallet, requests } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/redeem' ? redeems.shift()!() : { status: 200, body: {} }))
    expect(await Wallet.startSocial(wallet, 'google', origin)).toBe(`http://127.0.0.1:5175/oauth/start?flow=${flowId}`)
    expect(await Wallet.redeemSocial(wallet)).toBe('pending')
    const account = await Wallet.redeemSocial(wallet)
    expect(account).toEqual({ email, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), solanaAddress: expect.any(String), username: 'Ada' })
    const signature = await (await Wallet.account(wallet)).signMessage({ message: 'social' })
    expect(await recoverMessageAddress({ message: 'social', signature })).toBe((account as Wallet.Account).address)
    expect(requests).toEqual([
      { path: '/v1/social/start', body: { provider: 'google', host, attested: true }, signed: true },
      { path: '/v1/social/redeem', body: { flowId }, signed: true },
      { path: '/v1/social/redeem', body: { flowId }, signed: true },
    ])
    // Redeemed: the flow is forgotten here, so nothing is left to redeem or cancel.
    await expect(Wallet.redeemSocial(wallet)).rejects.toMatchObject({ reason: 'expired' })
    await Wallet.cancelSocial(wallet)
    expect(requests).toHaveLength(3)
  })

  test('behavior: an existing wallet on a new device answers VERIFY_DEVICE; the approval from the vault\'s mail recovers the same address, with no code on this device', async () => {
    const email = newEmail()
    const { address, solanaAddress } = await login(device(), email)
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    const { wallet } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/redeem' ? proven(wallet, email) : { status: 200, body: {} }))
    await Wallet.startSocial(wallet, 'github', origin)
    expect(await Wallet.redeemSocial(wallet)).toBe('VERIFY_DEVICE')
    expect(wallet.approval).toMatchObject({ email, host, attested: true })
    expect(wallet.challenge).toBeUndefined()
    const recovered = Wallet.awaitDevice(wallet)
    await place.stack.approve(email)
    expect(await recovered).toEqual({ email, address, solanaAddress, username: 'Ada' })
  })

  test("behavior: the provider's name and picture come back on a reload (restore), while the session lives; a code's sign-in here has neither", async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const profile = { username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' }
    const { wallet } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/redeem' ? proven(wallet, email, profile) : { status: 200, body: {} }), store)
    await Wallet.startSocial(wallet, 'google', origin)
    const account = await Wallet.redeemSocial(wallet)
    expect(account).toMatchObject(profile)
    // A reload: the same device store, a fresh module; the server's session answers the profile.
    expect(await Wallet.restore(device(store))).toEqual(account)

    // The person signs out, then in again here with a code: the same wallet, and no provider's name.
    await Wallet.signOut(wallet)
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    const again = device(store)
    await Wallet.connectEmail(again, email, origin)
    expect(await Wallet.connectOtp(again, codeFor(email))).toBe('VERIFY_DEVICE')
    await place.stack.approve(email)
    const byCode = await Wallet.awaitDevice(again)
    expect(byCode).toEqual({ email, address: (account as Wallet.Account).address, solanaAddress: (account as Wallet.Account).solanaAddress })
    expect(await Wallet.restore(device(store))).toEqual(byCode)
  })

  test("error: a picture the server answers that is no URL is left out (the frame would refuse the whole account); the name stays", async () => {
    const email = newEmail()
    const { wallet } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/redeem' ? proven(wallet, email, { username: 'Ada', avatar: 'https://[bad/a.png' }) : { status: 200, body: {} }))
    await Wallet.startSocial(wallet, 'google', origin)
    const account = await Wallet.redeemSocial(wallet)
    expect(account).toMatchObject({ email, username: 'Ada' })
    expect(account).not.toHaveProperty('avatar')
  })

  test.each([
    ['another origin', 'http://evil.test'],
    ['another path', 'http://127.0.0.1:5175/elsewhere'],
  ])('security: a start answer that sends the window to %s is refused, and that flow is cancelled at the server', async (_, base) => {
    const { wallet, requests } = socialDevice((path) => (path === '/v1/social/start' ? started(base) : { status: 200, body: {} }))
    await expect(Wallet.startSocial(wallet, 'google', origin)).rejects.toThrow(secureSocialText.unsafeStart)
    expect(requests.map((r) => r.path)).toEqual(['/v1/social/start', '/v1/social/cancel'])
    expect(requests[1]!.body).toEqual({ flowId })
    await expect(Wallet.redeemSocial(wallet)).rejects.toThrow(secureSocialText.noFlow)
  })

  test.each([
    [403, 'denied', 'You did not allow the app to use your Google account'],
    [403, 'invalid', "Google's answer could not be checked: try again"],
    [403, 'unverifiedEmail', 'Google has not verified an email for this account. Verify one there, or continue with email.'],
    [403, 'otherDevice', 'This sign-in was started on another device'],
    [409, 'redeemed', 'This sign-in was already used'],
    [410, 'expired', 'This sign-in expired or was cancelled: start again'],
    [404, 'providerOff', 'Google sign-in is not available here'],
  ])('error: a %i %s refusal comes back with the server\'s own message, and the flow is over', async (status, reason, message) => {
    const { wallet, requests } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/redeem' ? { status, body: { message, reason } } : { status: 200, body: {} }))
    await Wallet.startSocial(wallet, 'google', origin)
    const refusal = await Wallet.redeemSocial(wallet).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(Wallet.Refusal)
    expect(refusal).toMatchObject({ message, reason })
    await Wallet.cancelSocial(wallet)
    expect(requests.map((r) => r.path)).toEqual(['/v1/social/start', '/v1/social/redeem'])
  })

  test('behavior: a start aborted while the server answered (the person left) ends that flow at the server', async () => {
    const leaving = new AbortController()
    const { wallet, requests } = socialDevice((path) => {
      if (path === '/v1/social/start') leaving.abort()
      return path === '/v1/social/start' ? started() : { status: 200, body: {} }
    })
    await expect(Wallet.startSocial(wallet, 'google', origin, leaving.signal)).rejects.toThrow(requestAborted)
    expect(requests.map((r) => r.path)).toEqual(['/v1/social/start', '/v1/social/cancel'])
  })

  test('behavior: redirect mode (spec §7 social-redirect): the flow is kept on the device; the page that comes back resumes it, once', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const before = socialDevice((path) => (path === '/v1/social/start' ? started() : { status: 200, body: {} }), store)
    await Wallet.startSocial(before.wallet, 'google', origin, undefined, true)
    // The page went to the provider and came back: a new page, the same device.
    const after = socialDevice((path) => (path === '/v1/social/redeem' ? proven(after.wallet, email) : { status: 200, body: {} }), store)
    expect(await Wallet.resumeSocial(after.wallet, flowId)).toBe('google')
    expect(await Wallet.redeemSocial(after.wallet)).toMatchObject({ email, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) })
    expect(after.requests).toEqual([{ path: '/v1/social/redeem', body: { flowId }, signed: true }])
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, flowId)).rejects.toMatchObject({ reason: 'expired', message: secureSocialText.noFlow })
  })

  test('error: a result_uri this device did not keep is refused, and what it kept is forgotten', async () => {
    const store = Device.memoryStore()
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, flowId)).rejects.toMatchObject({ reason: 'expired' })
    await Wallet.startSocial(socialDevice(() => started(), store).wallet, 'github', origin, undefined, true)
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, 'e'.repeat(32))).rejects.toMatchObject({ reason: 'expired' })
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, flowId)).rejects.toMatchObject({ reason: 'expired' })
  })

  test('behavior: a popup flow keeps nothing on the device; cancelling a redirect flow forgets it', async () => {
    const store = Device.memoryStore()
    await Wallet.startSocial(socialDevice(() => started(), store).wallet, 'google', origin)
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, flowId)).rejects.toMatchObject({ reason: 'expired' })
    const { wallet } = socialDevice(() => started(), store)
    await Wallet.startSocial(wallet, 'google', origin, undefined, true)
    await Wallet.cancelSocial(wallet)
    await expect(Wallet.resumeSocial(socialDevice(() => pending, store).wallet, flowId)).rejects.toMatchObject({ reason: 'expired' })
  })

  test('behavior: Farcaster: the relay\'s connect URI is taken (no window goes there: the modal shows it); a new account answers ADD_EMAIL and the next code links it', async () => {
    const email = newEmail()
    const connect = `http://127.0.0.1:8796/client?channelToken=${'c'.repeat(32)}`
    const { wallet, requests } = socialDevice((path) =>
      path === '/v1/social/start' ? { status: 201, body: { flowId, url: connect, expiresAt: Date.now() + 600_000 } } : { status: 200, body: { state: 'needsEmail', username: 'ada', avatar: null } },
    )
    expect(await Wallet.startSocial(wallet, 'farcaster', origin)).toBe(connect)
    expect(await Wallet.redeemSocial(wallet)).toBe('ADD_EMAIL')
    expect(wallet.link).toEqual({ flowId, profile: { username: 'ada' } })
    await Wallet.connectEmail(wallet, email, origin)
    // The real server ignores a link it does not know; the code still signs in, with the Farcaster name.
    expect(await Wallet.connectOtp(wallet, codeFor(email))).toMatchObject({ email, username: 'ada' })
    expect(wallet.link).toBeUndefined()
    expect(requests.map((r) => r.path)).toEqual(['/v1/social/start', '/v1/social/redeem'])
  })

  test.each([
    ['https://evil.example/phish', 'no channel'],
    ['http://10.0.0.1/client?channelToken=x', 'plain http off loopback'],
    ['https://user:secret@farcaster.xyz/~/siwf?channelToken=x', 'credentials in it'],
  ])('error: a Farcaster start answering %s (%s) is refused and cancelled', async (url) => {
    const { wallet, requests } = socialDevice((path) => (path === '/v1/social/start' ? { status: 201, body: { flowId, url, expiresAt: Date.now() + 600_000 } } : { status: 200, body: {} }))
    await expect(Wallet.startSocial(wallet, 'farcaster', origin)).rejects.toThrow(secureSocialText.unsafeStart)
    expect(requests.map((r) => r.path)).toEqual(['/v1/social/start', '/v1/social/cancel'])
  })

  test('error: the relay down at the start says so in the server\'s words', async () => {
    const { wallet } = socialDevice(() => ({ status: 503, body: { message: 'Farcaster is not answering: try again in a moment', reason: 'providerDown' } }))
    await expect(Wallet.startSocial(wallet, 'farcaster', origin)).rejects.toMatchObject({ message: 'Farcaster is not answering: try again in a moment', reason: 'providerDown' })
  })

  test('behavior: cancel ends the live flow at the server once; a failing cancel is ignored', async () => {
    const { wallet, requests } = socialDevice((path) => (path === '/v1/social/start' ? started() : path === '/v1/social/cancel' ? { status: 503, body: { message: 'down' } } : pending))
    await Wallet.startSocial(wallet, 'discord', origin)
    await Wallet.cancelSocial(wallet)
    await Wallet.cancelSocial(wallet)
    expect(requests.map((r) => [r.path, r.body])).toEqual([
      ['/v1/social/start', { provider: 'discord', host, attested: true }],
      ['/v1/social/cancel', { flowId }],
    ])
    await expect(Wallet.redeemSocial(wallet)).rejects.toThrow(secureSocialText.noFlow)
  })
})
