/**
 * Social sign-in end to end (API.md Social sign-in, docs/embedded-wallet.md §5, hostile test 9 "OAuth
 * abuse"): the in-process server and vault (testStack.ts) on PGlite, against the devnet stand-in for the
 * six providers on a real loopback port. The popup is played by hand: its requests to the secure origin
 * go to the in-process app, those to the provider over HTTP with the provider's cookies carried, and the
 * provider's pages are read and submitted as a person would.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as OidcProvider from '@doorway/devnet/oidc/provider'
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

/** The secure origin the providers send the popup back to; nothing listens there: the test hands those requests to the app. */
const secure = 'http://127.0.0.1:5175'
const host = 'http://localhost:5173'
const utf8 = (text: string) => new TextEncoder().encode(text)
type Json = Record<string, any>
type App = ReturnType<typeof App.app>

let provider: Awaited<ReturnType<typeof OidcProvider.start>>
let storage: Storage
let stack: TestStack.Stack
let config: Social.Config
let clock = Date.now()
const logged: { message: string; error: unknown }[] = []
let n = 0
const typedEmail = () => `person${++n}.${Ids.random().slice(0, 8)}@example.test`

beforeAll(async () => {
  const redirectUris = [Social.redirectUri({ callbackOrigin: secure })]
  const clients = Object.fromEntries(OidcProvider.faces.map((face) => [face, { ...Social.devnetClient(face), redirectUris }])) as OidcProvider.start.Options['clients']
  provider = await OidcProvider.start({ port: 0, clients })
  // As `npm start` configures it: DOORWAY_SOCIAL_DEVNET, with a short poll so the tests need not wait 20 s.
  config = { ...Social.fromEnv({ DOORWAY_SOCIAL_DEVNET: provider.origin }, secure)!, pollMs: 2_000 }
  storage = await Embedded.fromPGlite(new PGlite())
  stack = await TestStack.start({ storage, now: () => clock, social: config, log: (message, error) => void logged.push({ message, error }) })
}, 60_000)

afterAll(async () => {
  await stack?.close()
  await storage?.close()
  await provider?.stop()
})

/** The stack's server with its social configuration changed. */
const withSocial = (social: Partial<Social.Config> | undefined) => App.app({ ...stack.deps, social: social && { ...config, ...social } })

// ---- the device --------------------------------------------------------------------------------------

/** A browser's enrolled device, signing its requests (API.md Conventions). */
async function device(target: () => App = () => stack.app) {
  const pair = await Stamp.generateKey()
  const id = Ids.random()
  const publicKey = await Stamp.exportPublicKey(pair.publicKey)
  const sealKey = base64url(await Seal.exportPublicKey((await Seal.generateKeyPair()).publicKey))
  const call = async (method: string, path: string, body?: unknown, options: { text?: string; signal?: AbortSignal; app?: App } = {}) => {
    const text = options.text ?? JSON.stringify(body ?? {})
    const headers = { 'content-type': 'application/json', [Stamp.header]: await Stamp.sign(pair.privateKey, { method, path, body: text, deviceId: id, now: clock }) }
    const response = await (options.app ?? target()).request(path, { method, headers, body: text, ...(options.signal && { signal: options.signal }) })
    return { status: response.status, body: (await response.json()) as Json }
  }
  expect((await call('POST', '/v1/devices', { deviceId: id, publicKey, sealKey })).status).toBe(201)
  const start = (face: Social.Provider, app?: App) => call('POST', '/v1/social/start', { provider: face, host, attested: true }, { ...(app && { app }) })
  const redeem = (flowId: string, options: { signal?: AbortSignal; app?: App } = {}) => call('POST', '/v1/social/redeem', { flowId }, options)
  const cancel = (flowId: string) => call('POST', '/v1/social/cancel', { flowId })
  return { id, call, start, redeem, cancel }
}
type Device = Awaited<ReturnType<typeof device>>

// ---- the popup ---------------------------------------------------------------------------------------

type Step = { status: number; url: string; text: string; location?: string }
/** The provider's answer on its way to the secure origin, not yet delivered: a redirect (GET) or Apple's form (POST). */
type Callback = { method: 'GET' | 'POST'; url: string; body?: string }

/** A popup window: a cookie jar for the provider, and requests to the secure origin handed to `app`. */
function popup(app: () => App = () => stack.app) {
  const jar = new Map<string, string>()
  async function request(url: string, init: { method?: string; form?: URLSearchParams } = {}): Promise<Step> {
    const method = init.method ?? 'GET'
    const headers: Record<string, string> = init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}
    const body = init.form?.toString()
    if (url.startsWith(`${secure}/`)) {
      const response = await app().request(url, { method, headers, ...(body !== undefined && { body }) })
      return { status: response.status, url, text: await response.text(), ...(response.headers.get('location') && { location: response.headers.get('location')! }) }
    }
    if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(url, { method, headers, redirect: 'manual', ...(body !== undefined && { body }) })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const [name = '', value = ''] = pair.split(/=(.*)/s)
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name.trim())
      else jar.set(name.trim(), value)
    }
    const location = response.headers.get('location')
    return { status: response.status, url, text: await response.text(), ...(location && { location: new URL(location, url).href }) }
  }

  /** Follows redirects until a page, or until the answer is about to reach the secure origin's callback. */
  async function follow(first: Step): Promise<Step | Callback> {
    let step = first
    for (let hops = 0; hops < 20; hops++) {
      const formPost = formPostOf(step)
      if (formPost) return formPost
      if (!step.location || step.status < 300 || step.status > 399) return step
      if (step.location.startsWith(`${secure}/oauth/callback`)) return { method: 'GET', url: step.location }
      step = await request(step.location)
    }
    throw new Error('Too many redirects')
  }

  let page: Step | undefined
  const pageOf = (reached: Step | Callback): Step => {
    if (!('status' in reached)) throw new Error(`Expected a page, reached the callback ${reached.url}`)
    page = reached
    return reached
  }
  /** The action of the provider page's form whose path ends in `/${action}`. */
  const formAction = (action: string) => {
    const path = new RegExp(`action="([^"]+/${action})"`).exec(page?.text ?? '')?.[1]
    if (!path) throw new Error(`No ${action} form on ${page?.url}: ${page?.text.slice(0, 300)}`)
    return new URL(unescape(path), page!.url).href
  }
  const submit = async (action: string, form: Record<string, string>) => follow(await request(formAction(action), { method: 'POST', form: new URLSearchParams(form) }))

  return {
    /** Opens the flow's url: the secure origin's /oauth/start, and on to the provider's sign-in page. */
    async open(url: string) {
      const started = await request(url)
      expect(started).toMatchObject({ status: 302, location: expect.any(String) })
      return { authorization: new URL(started.location!), page: pageOf(await follow(started)) }
    },
    /** Picks a test user on the sign-in page. */
    async pick(user: OidcProvider.TestUserName) {
      return pageOf(await submit('login', { user }))
    },
    /** Types an account on the sign-in page. */
    async type(email: string, options: { verified?: boolean; name?: string } = {}) {
      return pageOf(await submit('login', { email, ...(options.verified !== false && { verified: 'true' }), ...(options.name && { name: options.name }) }))
    },
    /** Allow or Deny on the consent page: the answer on its way back, not delivered yet. */
    async consent(choice: 'allow' | 'deny'): Promise<Callback> {
      const reached = choice === 'allow' ? await submit('consent', {}) : await submit('abort', {})
      if ('status' in reached) throw new Error(`Expected the callback, got ${reached.status} ${reached.url}: ${reached.text.slice(0, 300)}`)
      return reached
    },
    /** The answer arrives at the secure origin. */
    deliver: (callback: Callback) => request(callback.url, { method: callback.method, ...(callback.body !== undefined && { form: new URLSearchParams(callback.body) }) }),
  }
}

/** oidc-provider's form_post page (Apple's answer): a form to the callback with hidden fields. */
function formPostOf(step: Step): Callback | undefined {
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(step.text)?.[1]
  if (step.status !== 200 || !action || !unescape(action).startsWith(`${secure}/oauth/callback`)) return undefined
  const fields = [...step.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)])
  return { method: 'POST', url: unescape(action), body: new URLSearchParams(fields).toString() }
}

function unescape(html: string): string {
  return html.replace(/&(#\d+|#x[\da-f]+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[entity.toLowerCase()]!
  })
}

// ---- whole sign-ins ----------------------------------------------------------------------------------

/** Starts a flow on the device and takes the popup as far as the provider's answer, undelivered. */
async function answered(d: Device, face: Social.Provider, who: { user: OidcProvider.TestUserName } | { email: string; verified?: boolean; name?: string }, choice: 'allow' | 'deny' = 'allow', app?: App) {
  const started = await d.start(face, app)
  expect(started.status).toBe(201)
  const window = popup(app && (() => app))
  const { authorization } = await window.open(started.body.url)
  if ('user' in who) await window.pick(who.user)
  else await window.type(who.email, who)
  const callback = await window.consent(choice)
  return { flowId: started.body.flowId as string, url: started.body.url as string, authorization, window, callback }
}

/** A sign-in through to the callback's page. */
async function signedIn(d: Device, face: Social.Provider, who: Parameters<typeof answered>[2], choice: 'allow' | 'deny' = 'allow', app?: App) {
  const { flowId, window, callback, authorization } = await answered(d, face, who, choice, app)
  const page = await window.deliver(callback)
  return { flowId, page, callback, window, authorization }
}

/** The code in the last mail to this address. */
function codeFor(to: string): string {
  const mail = stack.mails.filter((m) => m.to === to && m.subject.startsWith('Your Doorway code')).at(-1)
  return / is (\d{6})$/.exec(mail?.subject ?? '')![1]!
}

/** An email sign-in by code (routes/email.ts). */
async function emailSignIn(d: Device, to: string) {
  const started = await d.call('POST', '/v1/email/start', { email: to, host, attested: true })
  expect(started.status).toBe(200)
  const verified = await d.call('POST', '/v1/email/verify', { challengeId: started.body.challengeId, code: codeFor(to) })
  expect(verified.status).toBe(200)
  return verified.body
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
  return body.address
}

/** What oauth4webapi refused, as the server logged it. */
const cause = (entry: { error: unknown } | undefined) => ((entry?.error as Error | undefined)?.cause as Error | undefined)?.message

const approvalMails = (to: string) => stack.mails.filter((m) => m.to === to && /\/approve\?token=/.test(m.text))
const kinds = async (userId: string) => (await storage.audit.list(userId)).map((e) => e.kind)
const flow = (flowId: string) => storage.social.get(flowId)

// ---- tests -------------------------------------------------------------------------------------------

const signedInPage = (face: string) => ({ status: 200, text: expect.stringContaining(`Signed in with ${face}`) })
const uncheckable = (face: string) => ({ status: 403, body: { message: `${face}'s answer could not be checked: try again`, reason: 'invalid' } })
const closes = '<script src="/oauth/done.js"></script>'

describe('sign-in', () => {
  let alice: { userId: string; d: Device }

  test('behavior: google: start → popup → alice → Allow → callback → redeem: a new user with a session here, next create', async () => {
    const d = await device()
    const started = await d.start('google')
    expect(started).toEqual({ status: 201, body: { flowId: expect.stringMatching(Ids.pattern), url: expect.any(String), expiresAt: clock + Constants.socialFlowTtlMs } })
    expect(started.body.url).toBe(`${secure}/oauth/start?flow=${started.body.flowId}`)
    expect(await d.redeem(started.body.flowId)).toEqual({ status: 200, body: { state: 'pending' } })

    const window = popup()
    const { authorization, page } = await window.open(started.body.url)
    const stored = (await flow(started.body.flowId))!
    expect(stored.status).toBe('authorizing')
    expect(authorization.origin + authorization.pathname).toBe(provider.endpoints.google.authorization)
    expect(Object.fromEntries(authorization.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'doorway-google',
      redirect_uri: `${secure}/oauth/callback`,
      scope: 'openid email profile',
      state: stored.state,
      nonce: stored.nonce,
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    })
    // The state and the nonce are the flow's own secrets, apart from its id, and each other.
    expect([stored.state, stored.nonce].every((secret) => /^[\w-]{43}$/.test(secret) && !secret.includes(stored.id))).toBe(true)
    expect(stored.state).not.toBe(stored.nonce)
    expect(page.text).toContain('Sign in to Google (Doorway devnet)')

    await window.pick('alice')
    const callback = await window.consent('allow')
    expect(new URL(callback.url).searchParams.get('iss')).toBe(provider.endpoints.google.issuer)
    const landed = await window.deliver(callback)
    expect(landed).toMatchObject(signedInPage('Google'))
    expect(landed.text).toContain('You can close this window and go back to the app.')
    expect(landed.text).toContain(closes)

    const redeemed = await d.redeem(started.body.flowId)
    expect(redeemed).toEqual({
      status: 200,
      body: { state: 'done', user: { id: expect.stringMatching(Ids.pattern), email: 'alice@example.com' }, next: 'create', username: 'Alice Example', avatar: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/google\/avatars\/\d+\.svg$/) },
    })
    const userId = redeemed.body.user.id as string
    const session = await storage.devices.get(d.id)
    expect(session).toMatchObject({ userId, sessionStartedAt: clock, freshAuthAt: clock })
    expect((await storage.devices.list(userId))[0]).toMatchObject({ id: d.id, origin: host, attested: true })
    expect(await storage.identities.userOf('google', (await flow(stored.id))!.profile!.subject)).toBe(userId)
    expect(await kinds(userId)).toEqual([Audit.kinds.socialVerified, Audit.kinds.deviceEnrolled, Audit.kinds.socialLinked])
    expect((await storage.audit.list(userId))[0]!.detail).toEqual({ provider: 'google', deviceId: d.id, flowId: started.body.flowId, host, attested: true })
    // Nothing of the provider's tokens or the PKCE verifier is kept.
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'redeemed', userId, codeVerifier: null })
    alice = { userId, d }
  })

  test('behavior: github: the same person (its verified primary email) is the same user, the account linked too', async () => {
    const { flowId, page, authorization } = await signedIn(alice.d, 'github', { user: 'alice' })
    expect(authorization.searchParams.get('scope')).toBe('read:user user:email')
    expect(authorization.searchParams.has('nonce')).toBe(false)
    expect(page).toMatchObject(signedInPage('GitHub'))
    const redeemed = await alice.d.redeem(flowId)
    expect(redeemed).toEqual({
      status: 200,
      body: { state: 'done', user: { id: alice.userId, email: 'alice@example.com' }, next: 'create', username: 'alice', avatar: expect.stringMatching(/\/github\/avatars\/\d+\.svg$/) },
    })
    const subject = (await flow(flowId))!.profile!.subject
    expect(subject).toMatch(/^\d+$/)
    expect(await storage.identities.userOf('github', subject)).toBe(alice.userId)
  })

  test('behavior: once the wallet exists, the same identity from the same device waits for approval: the vault mails the link', async () => {
    await createWallet(alice.d, alice.userId)
    const before = approvalMails('alice@example.com').length
    const { flowId } = await signedIn(alice.d, 'google', { user: 'alice' })
    expect(await alice.d.redeem(flowId)).toMatchObject({ status: 200, body: { state: 'done', user: { id: alice.userId }, next: 'approve' } })
    expect(approvalMails('alice@example.com')).toHaveLength(before + 1)
    expect(await kinds(alice.userId)).toContain(Audit.kinds.approvalRequested)
    // Another device too: the account is the user's, the device is not yet approved.
    const other = await device()
    const again = await signedIn(other, 'github', { user: 'alice' })
    expect(await other.redeem(again.flowId)).toMatchObject({ status: 200, body: { user: { id: alice.userId }, next: 'approve' } })
  })

  test.each([
    // Apple gives the name in the form's `user` field, on the person's first sign-in only (below).
    ['apple', 'Apple', null],
    ['x', 'X', /\/x\/avatars\/\d+\.svg$/],
    // Discord's picture is built from the id and hash where its CDN lays it out; the stand-in serves that layout itself.
    ['discord', 'Discord', /^http:\/\/127\.0\.0\.1:\d+\/discord\/avatars\/\d+\/[0-9a-f]+\.png$/],
    ['facebook', 'Facebook', /\/facebook\/avatars\/\d+\.svg$/],
  ] as const)('behavior: %s: a typed, verified email signs in a new user, with the name and picture the provider gives', async (face, label, avatar) => {
    const d = await device()
    const to = typedEmail()
    const { flowId, page, callback } = await signedIn(d, face, { email: to, name: 'Erin Example' })
    expect(page).toMatchObject(signedInPage(label))
    // Apple answers with a POSTed form (response_mode=form_post).
    expect(callback.method).toBe(face === 'apple' ? 'POST' : 'GET')
    const redeemed = await d.redeem(flowId)
    expect(redeemed).toMatchObject({ status: 200, body: { state: 'done', user: { email: to }, next: 'create', username: expect.any(String) } })
    if (avatar) expect(redeemed.body.avatar).toMatch(avatar)
    else expect(redeemed.body.avatar).toBeNull()
    if (face === 'facebook' || face === 'discord' || face === 'apple') expect(redeemed.body.username).toBe('Erin Example')
    if (face !== 'apple') return
    // Apple's second sign-in of the same person carries no `user`: no name, the same user.
    const again = await device()
    const second = await signedIn(again, face, { email: to, name: 'Erin Example' })
    expect(await again.redeem(second.flowId)).toMatchObject({ status: 200, body: { user: { id: redeemed.body.user.id }, username: null } })
  })
})

describe('refusals (hostile test 9)', () => {
  test('error: Deny at the provider: the flow failed, and every redeem says the person did not allow it', async () => {
    const d = await device()
    const { flowId, page } = await signedIn(d, 'google', { user: 'bob' }, 'deny')
    expect(page).toMatchObject({ status: 200, text: expect.stringContaining('You did not allow the app to use your Google account.') })
    const denied = { status: 403, body: { message: 'You did not allow the app to use your Google account', reason: 'denied' } }
    expect(await d.redeem(flowId)).toEqual(denied)
    expect(await d.redeem(flowId)).toEqual(denied)
    expect(await storage.users.byEmail('bob@example.com')).toBeUndefined()
  })

  test('error: an answer whose state is no flow\'s is refused and changes nothing; the real one still completes', async () => {
    const d = await device()
    const { flowId, window, callback } = await answered(d, 'google', { email: typedEmail() })
    const forged = new URL(callback.url)
    forged.searchParams.set('state', (await flow(flowId))!.state.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')))
    expect(await window.deliver({ method: 'GET', url: forged.href })).toMatchObject({ status: 404, text: expect.stringContaining('This sign-in is not known here.') })
    expect(await flow(flowId)).toMatchObject({ status: 'authorizing', profile: null })
    expect(await window.deliver(callback)).toMatchObject(signedInPage('Google'))
    expect(await d.redeem(flowId)).toMatchObject({ status: 200, body: { next: 'create' } })
  })

  test("error: a provider answering as another issuer (google's client configured with apple's issuer) is refused: RFC 9207 iss", async () => {
    const app = withSocial({ providers: { ...config.providers, google: { ...config.providers.google!, issuer: provider.endpoints.apple.issuer } } })
    const d = await device(() => app)
    const { flowId, page } = await signedIn(d, 'google', { email: typedEmail() }, 'allow', app)
    expect(page).toMatchObject({ status: 400, text: expect.stringContaining('Google&#39;s answer could not be checked.') })
    expect(await d.redeem(flowId)).toEqual(uncheckable('Google'))
    expect(cause(logged.at(-1))).toMatch(/unexpected "iss" \(issuer\) response parameter value/)
  })

  test.each([
    ['aud', 'an ID token for another client', (claims: Json) => ({ ...claims, aud: 'doorway-apple' }), /unexpected JWT "aud" \(audience\) claim value/],
    ['iss', 'an ID token from another issuer', (claims: Json) => ({ ...claims, iss: provider.endpoints.apple.issuer }), /unexpected JWT "iss" \(issuer\) claim value/],
    ['nonce', 'an ID token for another flow (nonce)', (claims: Json) => ({ ...claims, nonce: 'another-flow' }), /unexpected ID Token "nonce" claim value/],
    ['exp', 'an expired ID token', (claims: Json) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }), /unexpected JWT "exp" \(expiration time\) claim value, expiration is past current timestamp/],
  ])('error: %s: %s is refused', async (_, __, rewrite, why) => {
    const proxy = await tokenProxy(rewrite)
    try {
      const app = withSocial({ providers: { ...config.providers, google: { ...config.providers.google!, token: proxy.url } } })
      const d = await device(() => app)
      const { flowId, page } = await signedIn(d, 'google', { email: typedEmail() }, 'allow', app)
      expect(proxy.rewritten()).toBe(1)
      expect(page.status).toBe(400)
      expect(await d.redeem(flowId)).toEqual(uncheckable('Google'))
      expect(cause(logged.at(-1))).toMatch(why)
    } finally {
      await proxy.close()
    }
  })

  test('error: a provider that stalls is given up on after the timeout: the flow failed, the popup told, never a 5xx', async () => {
    const stalled: HttpServer = createServer(() => {
      // never answers
    })
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve))
    try {
      const token = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/token`
      const app = withSocial({ timeoutMs: 300, providers: { ...config.providers, github: { ...config.providers.github!, token } } })
      const d = await device(() => app)
      const { flowId, page } = await signedIn(d, 'github', { email: typedEmail() }, 'allow', app)
      expect(page.status).toBe(400)
      expect(cause(logged.at(-1))).toMatch(/aborted due to timeout/)
      expect(await d.redeem(flowId)).toEqual(uncheckable('GitHub'))
    } finally {
      stalled.closeAllConnections()
      await new Promise<void>((resolve) => stalled.close(() => resolve()))
    }
  })

  test('error: a replayed answer (the same code and state) is refused and changes nothing, before and after the redeem', async () => {
    const d = await device()
    const { flowId, window, callback } = await answered(d, 'github', { email: typedEmail() })
    expect(await window.deliver(callback)).toMatchObject(signedInPage('GitHub'))
    const done = await flow(flowId)
    const replay = await window.deliver(callback)
    expect(replay).toMatchObject({ status: 409, text: expect.stringContaining('This sign-in was already completed.') })
    expect(await flow(flowId)).toEqual(done)
    expect(await d.redeem(flowId)).toMatchObject({ status: 200, body: { state: 'done' } })
    expect((await window.deliver(callback)).status).toBe(409)
    expect(await flow(flowId)).toMatchObject({ status: 'redeemed' })
  })

  test("error: a code injected into another flow's answer fails that flow's PKCE and nonce", async () => {
    const d = await device()
    const victim = await device()
    const stolen = await answered(d, 'google', { email: typedEmail() })
    const target = await answered(victim, 'google', { email: typedEmail() })
    const injected = new URL(target.callback.url)
    injected.searchParams.set('code', new URL(stolen.callback.url).searchParams.get('code')!)
    expect((await target.window.deliver({ method: 'GET', url: injected.href })).status).toBe(400)
    expect(await victim.redeem(target.flowId)).toEqual(uncheckable('Google'))
    // The provider refuses the code: it was issued for the other flow's PKCE challenge.
    expect(cause(logged.at(-1))).toMatch(/server responded with an error in the response body/)
  })

  test('error: a flow redeemed or cancelled by another device is refused; its own device still redeems it', async () => {
    const d = await device()
    const thief = await device()
    const { flowId } = await signedIn(d, 'google', { email: typedEmail() })
    const otherDevice = { status: 403, body: { message: 'This sign-in was started on another device', reason: 'otherDevice' } }
    expect(await thief.redeem(flowId)).toEqual(otherDevice)
    expect(await thief.cancel(flowId)).toEqual(otherDevice)
    expect(await d.redeem(flowId)).toMatchObject({ status: 200, body: { state: 'done' } })
    expect(await d.redeem(flowId)).toEqual({ status: 409, body: { message: 'This sign-in was already used', reason: 'redeemed' } })
  })

  const expired = { status: 410, body: { message: 'This sign-in expired or was cancelled: start again', reason: 'expired' } }

  test('error: an answer arriving after the device cancelled is refused: the flow stays cancelled, nothing is stored', async () => {
    const d = await device()
    const { flowId, window, callback } = await answered(d, 'google', { email: typedEmail() })
    expect(await d.cancel(flowId)).toEqual({ status: 200, body: {} })
    expect(await d.cancel(flowId)).toEqual({ status: 200, body: {} })
    const late = await window.deliver(callback)
    expect(late).toMatchObject({ status: 410, text: expect.stringContaining('cancelled or has expired, so nothing was stored') })
    expect(late.text).toContain(closes)
    expect(await flow(flowId)).toMatchObject({ status: 'cancelled', profile: null })
    expect(await d.redeem(flowId)).toEqual(expired)
  })

  test('error: an answer arriving after the flow expired is refused (fake clock), and so is the redeem', async () => {
    const d = await device()
    const { flowId, window, callback } = await answered(d, 'google', { email: typedEmail() })
    clock += Constants.socialFlowTtlMs
    expect(await window.deliver(callback)).toMatchObject({ status: 410 })
    expect(await flow(flowId)).toMatchObject({ status: 'authorizing', profile: null })
    expect(await d.redeem(flowId)).toEqual(expired)
  })

  test('error: a flow done but not redeemed within its life is expired', async () => {
    const d = await device()
    const { flowId } = await signedIn(d, 'google', { email: typedEmail() })
    clock += Constants.socialFlowTtlMs
    expect(await d.redeem(flowId)).toEqual(expired)
  })

  test('error: a new start cancels the device\'s flow before it', async () => {
    const d = await device()
    const first = await d.start('google')
    expect((await d.start('github')).status).toBe(201)
    expect(await d.redeem(first.body.flowId)).toEqual(expired)
    expect(await stack.app.request(first.body.url)).toMatchObject({ status: 410 })
  })

  test.each([
    ['carol', 'an unverified email'],
    ['dave', 'no email'],
  ] as const)('error: %s (%s) is refused with unverifiedEmail, and no user is made', async (user, _) => {
    const d = await device()
    const { flowId, page } = await signedIn(d, 'google', { user })
    expect(page).toMatchObject(signedInPage('Google'))
    const refused = { status: 403, body: { message: 'Google has not verified an email for this account. Verify one there, or continue with email.', reason: 'unverifiedEmail' } }
    expect(await d.redeem(flowId)).toEqual(refused)
    expect(await d.redeem(flowId)).toEqual(refused)
    expect(await storage.users.byEmail('carol@example.com')).toBeUndefined()
    expect((await storage.devices.get(d.id))?.userId).toBeNull()
  })

  test('error: github with an unverified primary email is refused too', async () => {
    const d = await device()
    const { flowId } = await signedIn(d, 'github', { email: typedEmail(), verified: false })
    expect(await d.redeem(flowId)).toMatchObject({ status: 403, body: { reason: 'unverifiedEmail', message: expect.stringMatching(/^GitHub has not verified/) } })
  })

  test('error: a provider that is not configured is a 404 providerOff', async () => {
    const some = withSocial({ providers: { google: config.providers.google! } })
    const d = await device(() => some)
    expect(await d.start('facebook')).toEqual({ status: 404, body: { message: 'Facebook sign-in is not configured on this server', reason: 'providerOff' } })
    expect((await d.start('google')).status).toBe(201)
    const none = withSocial(undefined)
    expect(await d.start('x', none)).toEqual({ status: 404, body: { message: 'X sign-in is not configured on this server', reason: 'providerOff' } })
  })

  test.each([
    ['/v1/social/start', { provider: 'myspace', host, attested: true }, 'Invalid provider: expected one of google, github, apple, facebook, x, discord, farcaster'],
    ['/v1/social/start', { provider: 'google', host: 'localhost:5173', attested: true }, 'Invalid host: expected an http(s) origin'],
    ['/v1/social/start', { provider: 'google', host }, 'Invalid attested: expected true or false'],
    ['/v1/social/redeem', { flowId: 'flow' }, 'Invalid flowId: expected 32 lowercase hex digits'],
    ['/v1/social/cancel', {}, 'Invalid flowId: expected 32 lowercase hex digits'],
    ['/v1/social/redeem', 'not json', 'Expected a JSON object body'],
  ])('param: POST %s %j is a 400', async (path, body, message) => {
    const d = await device()
    const response = await d.call('POST', path, body, typeof body === 'string' ? { text: body } : {})
    expect(response).toEqual({ status: 400, body: { message } })
  })

  test('error: unsigned requests are 401', async () => {
    for (const path of ['/v1/social/start', '/v1/social/redeem', '/v1/social/cancel'])
      expect((await stack.app.request(path, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401)
  })
})

describe('the popup\'s pages', () => {
  test('behavior: /oauth/start goes to the provider once: opened again, expired, cancelled, unknown or malformed, it says so', async () => {
    const d = await device()
    const started = await d.start('google')
    expect((await stack.app.request(started.body.url)).status).toBe(302)
    const state = (await flow(started.body.flowId))!.state
    const again = await stack.app.request(started.body.url)
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('This sign-in was already opened in another window.')
    expect((await flow(started.body.flowId))!.state).toBe(state)

    const cancelled = await d.start('google')
    await d.cancel(cancelled.body.flowId)
    expect((await stack.app.request(cancelled.body.url)).status).toBe(410)
    const late = await d.start('google')
    clock += Constants.socialFlowTtlMs
    const expired = await stack.app.request(late.body.url)
    expect(expired.status).toBe(410)
    // A refused start stays open, so the person reads it.
    expect(await expired.text()).not.toContain(closes)
    expect((await stack.app.request(`/oauth/start?flow=${Ids.random()}`)).status).toBe(404)
    expect((await stack.app.request('/oauth/start?flow=../../etc')).status).toBe(400)
  })

  test('behavior: /oauth/done.js closes the popup, a file of this origin under its CSP', async () => {
    const response = await stack.app.request('/oauth/done.js')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(response.headers.get('content-security-policy')).toBe(App.contentSecurityPolicy)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.text()).toContain('window.close()')
  })

  test.each([
    ['GET', '/oauth/start', undefined],
    ['GET', '/oauth/start?flow=', undefined],
    ['GET', `/oauth/start?flow=${'f'.repeat(32)}&flow=x`, undefined],
    ['POST', '/oauth/start?flow=x', undefined],
    ['GET', '/oauth/callback', undefined],
    ['GET', '/oauth/callback?code=x', undefined],
    ['GET', '/oauth/callback?state=x', undefined],
    ['GET', '/oauth/callback?error=access_denied', undefined],
    ['GET', `/oauth/callback?state=${'s'.repeat(600)}&code=x`, undefined],
    ['GET', '/oauth/callback?state=%E0%A4%A&code=%', undefined],
    ['POST', '/oauth/callback', 'state=x&code=y'],
    ['POST', '/oauth/callback', '{"state":"x"}'],
    ['POST', '/oauth/callback', `state=${'x'.repeat(20_000)}`],
    ['PUT', '/oauth/callback', 'state=x'],
    ['GET', '/oauth/other', undefined],
  ])('error: %s %s with garbage is a 4xx, never a 5xx', async (method, path, body) => {
    const headers = { 'content-type': body?.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded' }
    const response = await stack.app.request(path, { method, headers, ...(body !== undefined && { body }) })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
  })

  test('behavior: the built site is never served under /oauth/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'doorway-static-'))
    try {
      await mkdir(join(dir, 'oauth'))
      await writeFile(join(dir, 'oauth', 'callback'), 'a file')
      await writeFile(join(dir, 'oauth', 'page.html'), 'a file')
      await writeFile(join(dir, 'index.html'), 'the site')
      const app = App.app({ ...stack.deps, staticDir: dir })
      expect(await (await app.request('/index.html')).text()).toBe('the site')
      expect(await (await app.request('/oauth/page.html')).json()).toEqual({ message: 'Not found' })
      expect(await (await app.request('/oauth/callback')).text()).toContain('Not understood')
    } finally {
      await rm(dir, { recursive: true })
    }
  })
})

describe('redirect mode (spec §7 social-redirect)', () => {
  const back = `${host}/shop?item=2#top`
  const opened = (url: string, to = back) => `${url}&return=${encodeURIComponent(to)}`

  test('behavior: the page comes back to the dapp address it left, with the flow in result_uri, and the device redeems it', async () => {
    const d = await device()
    const started = await d.start('google')
    const window = popup()
    await window.open(opened(started.body.url))
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'authorizing', returnTo: `${host}/shop?item=2&result_uri=${started.body.flowId}#top` })
    await window.pick('bob')
    const landed = await window.deliver(await window.consent('allow'))
    expect(landed).toMatchObject({ status: 303, location: `${host}/shop?item=2&result_uri=${started.body.flowId}#top` })
    expect(await d.redeem(started.body.flowId)).toMatchObject({ status: 200, body: { state: 'done', user: { email: 'bob@example.com' } } })
  })

  test('error: a denied consent comes back too, and the redeem says why', async () => {
    const d = await device()
    const started = await d.start('github')
    const window = popup()
    await window.open(opened(started.body.url))
    await window.pick('alice')
    expect(await window.deliver(await window.consent('deny'))).toMatchObject({ status: 303, location: expect.stringContaining(`result_uri=${started.body.flowId}`) })
    expect(await d.redeem(started.body.flowId)).toMatchObject({ status: 403, body: { reason: 'denied' } })
  })

  test.each([
    ['another site', 'https://evil.example/'],
    ['the same host on another port', 'http://localhost:5174/'],
    ['credentials in the address', 'http://user:pass@localhost:5173/'],
    ['not a web address', 'javascript:alert(1)'],
    ['too long', `${host}/?${'a'.repeat(2_100)}`],
  ])('error: a return address that is not the dapp\'s own page (%s) is refused: no open redirect, and the flow is not spent', async (_, to) => {
    const d = await device()
    const started = await d.start('google')
    const refused = await stack.app.request(opened(started.body.url, to))
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('This sign-in link is not valid.')
    expect(await flow(started.body.flowId)).toMatchObject({ status: 'started', returnTo: null })
    expect((await stack.app.request(started.body.url)).status).toBe(302)
  })
})

describe('the email-link rule', () => {
  test("behavior: an account whose verified email is a wallet's links only once the owner approves the device", async () => {
    const to = typedEmail()
    const owner = await device()
    const { user } = await emailSignIn(owner, to)
    await createWallet(owner, user.id)

    const d = await device()
    const first = await signedIn(d, 'google', { email: to })
    expect(await d.redeem(first.flowId)).toMatchObject({ status: 200, body: { state: 'done', user: { id: user.id, email: to }, next: 'approve' } })
    const subject = (await flow(first.flowId))!.profile!.subject
    expect(await storage.identities.userOf('google', subject)).toBeUndefined()
    expect(await storage.identities.pending(d.id)).toEqual([{ provider: 'google', subject, userId: user.id, deviceId: d.id }])
    expect(await kinds(user.id)).toContain(Audit.kinds.socialLinkRequested)

    // Before the approval, signing in again with it is still the email's rule, not an identity.
    const second = await signedIn(d, 'google', { email: to })
    expect(await d.redeem(second.flowId)).toMatchObject({ status: 200, body: { user: { id: user.id }, next: 'approve' } })
    expect(await storage.identities.userOf('google', subject)).toBeUndefined()
    expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'pending' } })

    expect((await stack.approve(to)).status).toBe(200)
    expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    expect(await storage.identities.userOf('google', subject)).toBe(user.id)
    expect(await storage.identities.pending(d.id)).toEqual([])
    expect((await storage.audit.list(user.id)).filter((e) => e.kind === Audit.kinds.socialLinked).map((e) => e.detail)).toEqual([{ provider: 'google', deviceId: d.id }])
  })

  test('behavior: an account whose verified email has a user without a wallet is linked at once', async () => {
    const to = typedEmail()
    const { user } = await emailSignIn(await device(), to)
    const d = await device()
    const { flowId } = await signedIn(d, 'discord', { email: to })
    expect(await d.redeem(flowId)).toMatchObject({ status: 200, body: { user: { id: user.id }, next: 'create' } })
    expect(await storage.identities.userOf('discord', (await flow(flowId))!.profile!.subject)).toBe(user.id)
  })
})

describe('redeem, a long poll', () => {
  test('behavior: while the person is at the provider it answers pending after pollMs', async () => {
    const app = withSocial({ pollMs: 300 })
    const d = await device(() => app)
    const started = await d.start('google')
    const t0 = performance.now()
    expect(await d.redeem(started.body.flowId)).toEqual({ status: 200, body: { state: 'pending' } })
    expect(performance.now() - t0).toBeGreaterThanOrEqual(295)
  })

  test('behavior: it answers as soon as the answer lands, long before pollMs', async () => {
    const app = withSocial({ pollMs: 60_000 })
    const d = await device(() => app)
    const { flowId, window, callback } = await answered(d, 'google', { email: typedEmail() }, 'allow', app)
    const t0 = performance.now()
    const redeemed = d.redeem(flowId)
    expect((await window.deliver(callback)).status).toBe(200)
    expect(await redeemed).toMatchObject({ status: 200, body: { state: 'done', next: 'create' } })
    expect(performance.now() - t0).toBeLessThan(15_000)
  })

  test('behavior: a cancel wakes it, and it ends when the device stops asking', async () => {
    const app = withSocial({ pollMs: 60_000 })
    const d = await device(() => app)
    const started = await d.start('google', app)
    const waiting = d.redeem(started.body.flowId)
    await d.call('POST', '/v1/social/cancel', { flowId: started.body.flowId }, { app })
    expect(await waiting).toMatchObject({ status: 410, body: { reason: 'expired' } })

    const next = await d.start('google', app)
    const controller = new AbortController()
    const abandoned = d.redeem(next.body.flowId, { signal: controller.signal })
    controller.abort()
    expect(await abandoned).toEqual({ status: 200, body: { state: 'pending' } })
  })
})

describe("the session's profile (spec §3 Account user.username)", () => {
  /** A typed google account: its name is the one typed, its picture the stand-in's. */
  const google = (to: string) => ({ email: to, name: 'Grace Hopper' })
  const picture = expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/google\/avatars\/\d+\.svg$/)

  test('behavior: POST /v1/session answers the name and picture of the sign-in that started the session; an email code on that device clears them', async () => {
    const d = await device()
    const to = typedEmail()
    const { flowId } = await signedIn(d, 'google', google(to))
    const redeemed = await d.redeem(flowId)
    expect(redeemed.body).toMatchObject({ next: 'create', username: 'Grace Hopper', avatar: picture })
    const userId = redeemed.body.user.id as string
    await createWallet(d, userId)
    // After a reload: the device asks for its share again, and gets the name and picture with it.
    const restored = await d.call('POST', '/v1/session')
    expect(restored).toMatchObject({ status: 200, body: { user: { id: userId, email: to, username: 'Grace Hopper', avatar: redeemed.body.avatar } } })

    expect(await emailSignIn(d, to)).toMatchObject({ user: { id: userId }, next: 'approve' })
    const afterCode = await d.call('POST', '/v1/session')
    expect(afterCode.status).toBe(200)
    expect(afterCode.body.user).toEqual({ id: userId, email: to })
  })

  test("behavior: the recovery that completes a social sign-in on a new device keeps its profile; the session's end forgets it", async () => {
    const to = typedEmail()
    const owner = await device()
    const { user } = await emailSignIn(owner, to)
    await createWallet(owner, user.id)
    expect((await owner.call('POST', '/v1/session')).body.user).toEqual({ id: user.id, email: to })

    const d = await device()
    const { flowId } = await signedIn(d, 'google', google(to))
    expect(await d.redeem(flowId)).toMatchObject({ status: 200, body: { next: 'approve', username: 'Grace Hopper' } })
    expect((await stack.approve(to)).status).toBe(200)
    expect(await d.call('POST', '/v1/recovery')).toMatchObject({ status: 200, body: { state: 'ready' } })
    const share = (await Shares.splitTwice(Shares.entropy())).server
    expect((await d.call('POST', '/v1/devices/share', { deviceShare: base64url(await Transport.up(stack.keys.build.serverPublicKey, 'deviceShare', d.id, share)) })).status).toBe(201)
    expect((await d.call('POST', '/v1/session')).body.user).toEqual({ id: user.id, email: to, username: 'Grace Hopper', avatar: picture })

    expect((await d.call('POST', '/v1/session/end')).status).toBe(200)
    expect(await storage.devices.get(d.id)).toMatchObject({ sessionStartedAt: null, socialUsername: null, socialAvatar: null })
  })

  test('behavior: a provider that gives no name or picture (apple) leaves both out of the session answer', async () => {
    const d = await device()
    const to = typedEmail()
    const { flowId } = await signedIn(d, 'apple', { email: to })
    const redeemed = await d.redeem(flowId)
    expect(redeemed.body).toMatchObject({ next: 'create', username: null, avatar: null })
    await createWallet(d, redeemed.body.user.id)
    expect((await d.call('POST', '/v1/session')).body.user).toEqual({ id: redeemed.body.user.id, email: to })
  })
})

describe('configuration', () => {
  test('behavior: DOORWAY_SOCIAL_DEVNET names the stand-in\'s endpoints for all six', () => {
    for (const face of OidcProvider.faces) {
      const { issuer, authorization, token, userinfo, emails, kind, scopes } = provider.endpoints[face]
      expect(config.providers[face]).toMatchObject({ issuer, authorization, token, userinfo, kind, scopes, ...Social.devnetClient(face), ...(emails && { emails }) })
    }
  })
})

/** A token endpoint in front of google's that changes the ID token's claims (its signature is then wrong, which a token over TLS does not need). */
async function tokenProxy(rewrite: (claims: Json) => Json) {
  let rewritten = 0
  const server: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const upstream = await fetch(provider.endpoints.google.token, {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '', authorization: req.headers.authorization ?? '', accept: 'application/json' },
        body: Buffer.concat(chunks),
      })
      const json = (await upstream.json()) as Json
      if (typeof json.id_token === 'string') {
        const [header, payload, signature] = json.id_token.split('.')
        const claims = rewrite(JSON.parse(Buffer.from(payload!, 'base64url').toString()))
        json.id_token = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.')
        rewritten++
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(json))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/token`,
    rewritten: () => rewritten,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
