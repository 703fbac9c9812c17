/**
 * Sign In With Farcaster end to end (docs/embedded-wallet.md §5, API.md Social sign-in): the in-process
 * server and vault (testStack.ts) on PGlite, the devnet's relay stand-in and its test Farcaster client on a
 * real loopback port, and a real anvil with Farcaster's ID registry, so each answer is checked as in
 * production. The person's Farcaster app is played by submitting the client page's forms as a browser would.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as Anvil from '@doorway/devnet/anvil'
import * as FarcasterClient from '@doorway/devnet/farcaster/client'
import * as Registry from '@doorway/devnet/farcaster/registry'
import * as Relay from '@doorway/devnet/farcaster/relay'
import { encode as base64url } from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Stamp from '@doorway/secure-site/common/Stamp'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as Constants from '@doorway/shared/Constants'
import * as Ids from '@doorway/shared/Ids'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from './app.js'
import * as Audit from './Audit.js'
import * as Social from './social/providers.js'
import * as Embedded from './storage/embedded.js'
import type { Storage } from './storage/Storage.js'
import * as TestStack from './testStack.js'

// Optimism's chain id, on a port apart from the running stack's chains and from the other tests' anvils.
const chain = { id: 10, port: 18698, rpcUrl: 'http://127.0.0.1:18698' }
const secure = 'http://127.0.0.1:5175'
const host = 'http://localhost:5173'
const authKey = 'secure-site-farcaster-test-key'
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>
type App = ReturnType<typeof App.app>

let anvil: Anvil.start.ReturnType
let relay: Relay.start.ReturnType
let db: PGlite
let storage: Storage
let stack: TestStack.Stack
let config: Social.Config
/** The server's clock: an email code waits out the 30 s resend throttle on it (Otp.ts), not in real time. */
let clock = Date.now()
const logged: { message: string; error: unknown }[] = []
let n = 0
const typedEmail = () => `caster${++n}.${Ids.random().slice(0, 8)}@example.test`
const newName = () => `caster-${Ids.random().slice(0, 8)}`

beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
  await Registry.installRegistry(chain.rpcUrl, FarcasterClient.users)
  relay = await Relay.start({ port: 0, authKey, rpcUrl: chain.rpcUrl })
  // As the devnet configures it: Farcaster alone, no OAuth provider; a short poll so the tests need not wait 5 s.
  const fromEnv = Social.fromEnv({ DOORWAY_FARCASTER_DEVNET: relay.origin, DOORWAY_FARCASTER_RPC: chain.rpcUrl }, secure)!
  config = { ...fromEnv, farcaster: { ...fromEnv.farcaster!, timeoutMs: 5_000 }, pollMs: 1_500 }
  db = new PGlite()
  storage = await Embedded.fromPGlite(db)
  stack = await TestStack.start({ storage, now: () => clock, social: config, log: (message, error) => void logged.push({ message, error }) })
}, 60_000)

afterAll(async () => {
  await stack?.close()
  await storage?.close()
  await relay?.stop()
  await anvil?.stop()
})

/** The stack's server with its Farcaster configuration changed (undefined: Farcaster off). */
const withFarcaster = (farcaster: Partial<NonNullable<Social.Config['farcaster']>> | undefined) => {
  const { farcaster: _, ...rest } = config
  return App.app({ ...stack.deps, social: farcaster ? { ...rest, farcaster: { ...config.farcaster!, ...farcaster } } : rest })
}

// ---- the device --------------------------------------------------------------------------------------

/** A browser's enrolled device, signing its requests (API.md Conventions). */
async function device(target: () => App = () => stack.app) {
  const pair = await Stamp.generateKey()
  const id = Ids.random()
  const publicKey = await Stamp.exportPublicKey(pair.publicKey)
  const sealKey = base64url(await Seal.exportPublicKey((await Seal.generateKeyPair()).publicKey))
  const call = async (method: string, path: string, body?: unknown, options: { app?: App } = {}) => {
    const text = JSON.stringify(body ?? {})
    const headers = { 'content-type': 'application/json', [Stamp.header]: await Stamp.sign(pair.privateKey, { method, path, body: text, deviceId: id, now: clock }) }
    const response = await (options.app ?? target()).request(path, { method, headers, body: text })
    return { status: response.status, body: (await response.json()) as Json }
  }
  expect((await call('POST', '/v1/devices', { deviceId: id, publicKey, sealKey })).status).toBe(201)
  const start = (provider = 'farcaster', app?: App) => call('POST', '/v1/social/start', { provider, host, attested: true }, { ...(app && { app }) })
  const redeem = (flowId: string, app?: App) => call('POST', '/v1/social/redeem', { flowId }, { ...(app && { app }) })
  const cancel = (flowId: string) => call('POST', '/v1/social/cancel', { flowId })
  return { id, call, start, redeem, cancel }
}
type Device = Awaited<ReturnType<typeof device>>

/** The code in the last mail to this address. */
function codeFor(to: string): string {
  const mail = stack.mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
  return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
}

/** An email sign-in by code (routes/email.ts), naming `link` when given: the answer as it came. */
async function emailSignIn(d: Device, to: string, link?: string) {
  clock += Constants.emailLoginThrottleMs
  const started = await d.call('POST', '/v1/email/start', { email: to, host, attested: true })
  expect(started.status).toBe(200)
  return d.call('POST', '/v1/email/verify', { challengeId: started.body.challengeId, code: codeFor(to), ...(link && { link }) })
}

/** The wallet made on this device as the secure-site makes it (docs/embedded-wallet.md §2 Create). */
async function createWallet(d: Device, userId: string) {
  const secret = Shares.entropy()
  const split = await Shares.splitTwice(secret)
  const { serverPublicKey, vaultPublicKey } = stack.keys.build
  const body = {
    address: Shares.evmAccount(secret).address,
    deviceShare: base64url(await Transport.up(serverPublicKey, 'deviceShare', d.id, split.server)),
    recovery1: base64url(await Transport.up(serverPublicKey, 'recovery1', d.id, split.recovery1)),
    recovery2: base64url(await Seal.seal(vaultPublicKey, split.recovery2, utf8(userId))),
  }
  expect((await d.call('POST', '/v1/wallet', body)).status).toBe(201)
}

// ---- the person's Farcaster app ----------------------------------------------------------------------

/** The client page's form `label` (its aria-label) with its hidden fields, and `extra`, posted as a browser would. */
async function submit(connectUri: string, label: string, extra: Record<string, string>) {
  const page = await fetch(connectUri)
  const html = await page.text()
  expect(page.status, html).toBe(200)
  const form = new RegExp(`<form method="post" action="([^"]+)" aria-label="${label}">([\\s\\S]*?)</form>`).exec(html)
  if (!form) throw new Error(`No ${label} form on ${connectUri}`)
  const fields = new URLSearchParams([...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]))
  for (const [name, value] of Object.entries(extra)) fields.append(name, value)
  const response = await fetch(new URL(form[1]!, relay.origin), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: relay.origin }, body: fields })
  expect(response.status, await response.text()).toBe(200)
}

/** "Sign in as @name" for one of the fixed test users. */
const approveAs = (connectUri: string, name: 'alice' | 'bob') => submit(connectUri, 'Test users', { fid: String(FarcasterClient.users.find((user) => user.name === name)!.fid) })
/** "Sign in as a new account": a fid no one has linked yet. */
const approveNew = (connectUri: string, username = newName()) => submit(connectUri, 'New account', { username })

/** A flow started on the device and approved in the Farcaster app; `redeemed`, its first redeem. */
async function approved(d: Device, approve: (connectUri: string) => Promise<void> = approveNew) {
  const started = await d.start()
  expect(started.status).toBe(201)
  await approve(started.body.url)
  return { flowId: started.body.flowId as string, url: started.body.url as string, redeemed: await d.redeem(started.body.flowId) }
}

const flow = (flowId: string) => storage.social.get(flowId)
const kinds = async (userId: string) => (await storage.audit.list(userId)).map((e) => e.kind)
const approvalMails = (to: string) => stack.mails.filter((m) => m.to === to && /\/approve\?token=/.test(m.text))
const pfp = (fid: number) => `${relay.origin}/pfp/${fid}.svg`

// ---- tests -------------------------------------------------------------------------------------------

describe('sign-in', () => {
  const alice = FarcasterClient.users.find((user) => user.name === 'alice')!
  let first: { userId: string; email: string; d: Device }

  test("behavior: start → the relay's connect URI → pending → alice approves → needsEmail; the email code that links it creates the wallet's user", async () => {
    const d = await device()
    const started = await d.start()
    expect(started).toEqual({ status: 201, body: { flowId: expect.stringMatching(Ids.pattern), url: expect.any(String), expiresAt: expect.any(Number) } })
    const { flowId, url } = started.body
    const stored = (await flow(flowId))!
    expect(stored).toMatchObject({ provider: 'farcaster', status: 'authorizing', channelToken: expect.any(String) })
    // The modal shows the relay's page for the flow's own channel, never this origin's /oauth/start.
    expect(url).toBe(`${relay.origin}/client?channelToken=${stored.channelToken}`)
    expect(started.body.expiresAt).toBe(stored.expiresAt)
    expect(await d.redeem(flowId)).toEqual({ status: 200, body: { state: 'pending' } })

    await approveAs(url, 'alice')
    const needsEmail = { status: 200, body: { state: 'needsEmail', username: 'alice', avatar: pfp(alice.fid) } }
    expect(await d.redeem(flowId)).toEqual(needsEmail)
    // The relay answered once; the flow keeps the checked profile, so the device may ask again.
    expect(await flow(flowId)).toMatchObject({ status: 'done', profile: { subject: String(alice.fid), email: null, emailVerified: false, username: 'alice' } })
    expect(await d.redeem(flowId)).toEqual(needsEmail)
    expect(await storage.identities.userOf('farcaster', String(alice.fid))).toBeUndefined()

    const email = typedEmail()
    const verified = await emailSignIn(d, email, flowId)
    expect(verified).toEqual({ status: 200, body: { user: { id: expect.stringMatching(Ids.pattern), email }, next: 'create' } })
    const userId = verified.body.user.id as string
    expect(await storage.identities.userOf('farcaster', String(alice.fid))).toBe(userId)
    expect(await flow(flowId)).toMatchObject({ status: 'redeemed', userId })
    expect(await kinds(userId)).toEqual([Audit.kinds.codeVerified, Audit.kinds.deviceEnrolled, Audit.kinds.socialLinked])
    expect((await storage.audit.list(userId)).at(-1)!.detail).toEqual({ provider: 'farcaster', deviceId: d.id })
    // Farcaster's name and picture are the session's (spec §3 Account user.username).
    expect(await storage.devices.get(d.id)).toMatchObject({ userId, socialUsername: 'alice', socialAvatar: pfp(alice.fid) })
    expect(await d.redeem(flowId)).toMatchObject({ status: 409, body: { reason: 'redeemed' } })
    first = { userId, email, d }
  })

  test('behavior: the same fid from another device signs in its user, as a linked OAuth account does: next approve, the vault mails the link', async () => {
    await createWallet(first.d, first.userId)
    const before = approvalMails(first.email).length
    const other = await device()
    const { flowId, redeemed } = await approved(other, (url) => approveAs(url, 'alice'))
    expect(redeemed).toEqual({ status: 200, body: { state: 'done', user: { id: first.userId, email: first.email }, next: 'approve', username: 'alice', avatar: pfp(alice.fid) } })
    expect(approvalMails(first.email)).toHaveLength(before + 1)
    expect(await flow(flowId)).toMatchObject({ status: 'redeemed', userId: first.userId })
    expect(await kinds(first.userId)).toEqual(expect.arrayContaining([Audit.kinds.socialVerified, Audit.kinds.approvalRequested]))
  })

  test("behavior: an unlinked fid whose email's user has a wallet is linked only once the owner approves this device", async () => {
    const email = typedEmail()
    const owner = await device()
    const { user } = (await emailSignIn(owner, email)).body
    await createWallet(owner, user.id)

    const d = await device()
    const { flowId, redeemed } = await approved(d)
    expect(redeemed).toMatchObject({ status: 200, body: { state: 'needsEmail' } })
    const subject = (await flow(flowId))!.profile!.subject
    expect(await emailSignIn(d, email, flowId)).toEqual({ status: 200, body: { user: { id: user.id, email }, next: 'approve' } })
    expect(await storage.identities.userOf('farcaster', subject)).toBeUndefined()
    expect(await storage.identities.pending(d.id)).toEqual([{ provider: 'farcaster', subject, userId: user.id, deviceId: d.id }])
    expect(await kinds(user.id)).toContain(Audit.kinds.socialLinkRequested)

    expect((await stack.approve(email)).status).toBe(200)
    expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    expect(await storage.identities.userOf('farcaster', subject)).toBe(user.id)
  })

  test('behavior: two redeems at once after the approval both hear it: the relay, which answers once, is read once', async () => {
    const d = await device()
    const started = await d.start()
    await approveNew(started.body.url)
    const [a, b] = await Promise.all([d.redeem(started.body.flowId), d.redeem(started.body.flowId)])
    expect(a).toMatchObject({ status: 200, body: { state: 'needsEmail' } })
    expect(b).toEqual(a)
  })
})

describe('refusals', () => {
  test("error: a flow redeemed by another device is refused (otherDevice); its own device still gets it", async () => {
    const d = await device()
    const thief = await device()
    const started = await d.start()
    await approveNew(started.body.url)
    expect(await thief.redeem(started.body.flowId)).toEqual({ status: 403, body: { message: 'This sign-in was started on another device', reason: 'otherDevice' } })
    expect(await d.redeem(started.body.flowId)).toMatchObject({ status: 200, body: { state: 'needsEmail' } })
  })

  test('error: an approval arriving after the device cancelled is not taken: the flow stays cancelled, nothing is stored', async () => {
    const d = await device()
    const started = await d.start()
    expect((await d.cancel(started.body.flowId)).status).toBe(200)
    await approveNew(started.body.url)
    expect(await d.redeem(started.body.flowId)).toMatchObject({ status: 410, body: { reason: 'expired' } })
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'cancelled', profile: null })
  })

  test("error: a relay that does not answer at start is a 503 providerDown, and the flow is cancelled", async () => {
    const down = withFarcaster({ relay: 'http://127.0.0.1:1' })
    const d = await device(() => down)
    const started = await d.start()
    expect(started).toEqual({ status: 503, body: { message: 'Farcaster is not answering: try again in a moment', reason: 'providerDown' } })
    expect(await listFlows(d.id)).toEqual([{ provider: 'farcaster', status: 'cancelled' }])
  })

  test("error: a relay answering a link the modal must not show is a 502 providerInvalid", async () => {
    const fake = await fakeRelay({ channelToken: 'token', url: 'javascript:alert(1)' })
    try {
      const d = await device(() => withFarcaster({ relay: fake.origin }))
      expect(await d.start()).toEqual({ status: 502, body: { message: "Farcaster's answer could not be used: try again", reason: 'providerInvalid' } })
      expect(await listFlows(d.id)).toEqual([{ provider: 'farcaster', status: 'cancelled' }])
    } finally {
      await fake.close()
    }
  })

  test('error: a relay that does not answer during the redeem is pending (logged), and the answer is read once it is back', async () => {
    const d = await device()
    const started = await d.start()
    await approveNew(started.body.url)
    const down = withFarcaster({ relay: 'http://127.0.0.1:1' })
    const before = logged.length
    expect(await d.redeem(started.body.flowId, down)).toEqual({ status: 200, body: { state: 'pending' } })
    expect(logged.slice(before).map((entry) => entry.message)).toContain('Farcaster is not answering: the redeem answers pending and the next one looks again')
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'authorizing' })
    expect(await d.redeem(started.body.flowId)).toMatchObject({ status: 200, body: { state: 'needsEmail' } })
  })

  test("error: a `link` to another device's flow links nothing; the code still signs the person in, and the flow's own device links it later", async () => {
    const d = await device()
    const { flowId } = await approved(d)
    const subject = (await flow(flowId))!.profile!.subject
    const stranger = await device()
    expect(await emailSignIn(stranger, typedEmail(), flowId)).toMatchObject({ status: 200, body: { next: 'create' } })
    expect(await storage.identities.userOf('farcaster', subject)).toBeUndefined()
    expect(await flow(flowId)).toMatchObject({ status: 'done', userId: null })
    expect(await storage.devices.get(stranger.id)).toMatchObject({ socialUsername: null, socialAvatar: null })

    const email = typedEmail()
    const verified = await emailSignIn(d, email, flowId)
    expect(await storage.identities.userOf('farcaster', subject)).toBe(verified.body.user.id)
  })

  test('error: a `link` that is unknown or names a flow still waiting links nothing and changes nothing; a malformed one is a 400', async () => {
    const d = await device()
    expect(await emailSignIn(d, typedEmail(), Ids.random())).toMatchObject({ status: 200, body: { next: 'create' } })
    const pending = await d.start()
    expect(await emailSignIn(d, typedEmail(), pending.body.flowId)).toMatchObject({ status: 200 })
    expect(await flow(pending.body.flowId)).toMatchObject({ status: 'authorizing', userId: null })
    expect(await d.call('POST', '/v1/email/verify', { challengeId: Ids.random(), code: '123456', link: 'not-an-id' })).toEqual({ status: 400, body: { message: 'Invalid link: expected 32 lowercase hex digits' } })
  })

  test('error: Farcaster not configured is a 404 providerOff; an unknown provider is a 400', async () => {
    const d = await device(() => withFarcaster(undefined))
    expect(await d.start()).toEqual({ status: 404, body: { message: 'Farcaster sign-in is not configured on this server', reason: 'providerOff' } })
    expect(await d.start('myspace')).toEqual({ status: 400, body: { message: `Invalid provider: expected one of ${[...Constants.socialProviders, 'farcaster'].join(', ')}` } })
  })

  test('error: /oauth/start of a Farcaster flow is refused: there is no page to go to', async () => {
    const d = await device()
    const started = await d.start()
    const opened = await stack.app.request(`${secure}/oauth/start?flow=${started.body.flowId}`)
    expect(opened.status).toBe(400)
    expect(await opened.text()).toContain('This sign-in link is not valid.')
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'authorizing', returnTo: null })
  })
})

describe('configuration', () => {
  test('behavior: DOORWAY_FARCASTER_* alone turn social sign-in on, with Farcaster only', () => {
    expect(Social.fromEnv({ DOORWAY_FARCASTER_DEVNET: relay.origin, DOORWAY_FARCASTER_RPC: chain.rpcUrl }, secure)).toEqual({
      callbackOrigin: secure,
      providers: {},
      farcaster: { relay: relay.origin, rpcUrl: `${chain.rpcUrl}/`, domain: '127.0.0.1:5175', siweUri: `${secure}/farcaster` },
    })
  })
})

/** The device's flows, as an operator reads them in the database: a start that failed answered no id. */
async function listFlows(deviceId: string) {
  return (await db.query<{ provider: string; status: string }>('SELECT provider, status FROM social_flows WHERE device_id = $1', [deviceId])).rows
}

/** A relay that opens every channel with `answer` (and the asked nonce). */
async function fakeRelay(answer: Record<string, unknown>) {
  const server: HttpServer = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk))
    req.on('end', () => {
      const nonce = (JSON.parse(text || '{}') as { nonce?: string }).nonce
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ nonce, ...answer }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
