import { request } from 'node:http'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as OidcProvider from './provider.js'
import type { Face } from './provider.js'

// The callbacks are never served: a test reads the redirect (or the form post) that would reach them.
const callbackBase = 'http://127.0.0.1:9/callback'
const clients = Object.fromEntries(
  OidcProvider.faces.map((face) => [face, { clientId: `doorway-${face}`, clientSecret: `secret-${face}-${crypto.randomUUID()}`, redirectUris: [`${callbackBase}/${face}`] }]),
) as Record<Face, OidcProvider.Client>

const signal = () => AbortSignal.timeout(5_000)
const http = { [oauth.allowInsecureRequests]: true, signal }

let devnet: OidcProvider.start.ReturnType
beforeAll(async () => {
  devnet = await OidcProvider.start({ port: 0, clients })
})
afterAll(() => devnet?.stop())

/** A browser as far as oidc-provider cares: its cookies (by name; sending a few too many is harmless). */
class Browser {
  readonly cookies = new Map<string, string>()
  async fetch(url: string, init: { method?: string; body?: string } = {}) {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
    if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
    const res = await fetch(url, { ...init, headers, redirect: 'manual', signal: signal() })
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }
}

type Stop = { kind: 'page'; url: string; html: string; status: number } | { kind: 'callback'; params: URLSearchParams; formPost: boolean }

const hiddenInputs = (html: string) =>
  new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map(([, name, value]) => [name!, unescapeHtml(value!)]))
const unescapeHtml = (text: string) =>
  text.replace(/&(quot|#39|lt|gt|amp|#x([0-9a-f]+)|#(\d+));/gi, (_, name: string, hex?: string, dec?: string) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : ({ quot: '"', '#39': "'", lt: '<', gt: '>', amp: '&' } as Record<string, string>)[name]!,
  )

/** Follows redirects (and oidc-provider's auto-submitted forms) to the next page or to the client's callback. */
async function follow(browser: Browser, face: Face, first: Response, firstUrl: string): Promise<Stop> {
  const callback = clients[face].redirectUris[0]!
  let res = first
  let url = firstUrl
  for (let hops = 0; hops < 10; hops++) {
    const location = res.headers.get('location')
    if (location !== null && res.status >= 300 && res.status < 400) {
      url = new URL(location, url).href
      if (url.startsWith(callback)) return { kind: 'callback', params: new URL(url).searchParams, formPost: false }
      res = await browser.fetch(url)
      continue
    }
    const html = await res.text()
    const form = /<form method="post" action="([^"]+)">/.exec(html)
    if (form && unescapeHtml(form[1]!) === callback) return { kind: 'callback', params: hiddenInputs(html), formPost: true }
    // Signing in as someone else where another is signed in: oidc-provider's logout form, sent by script.
    if (form && form[1]!.includes('/session/end/confirm')) {
      url = new URL(unescapeHtml(form[1]!), url).href
      res = await browser.fetch(url, { method: 'POST', body: hiddenInputs(html).toString() })
      continue
    }
    return { kind: 'page', url, html, status: res.status }
  }
  throw new Error('Too many redirects')
}

async function post(browser: Browser, face: Face, page: Stop, step: string, body: Record<string, string> = {}) {
  if (page.kind !== 'page') throw new Error(`Expected a page, got the callback ${page.params}`)
  const action = new RegExp(`<form method="post" action="([^"]+/${step})"`).exec(page.html)?.[1]
  if (!action) throw new Error(`No ${step} form on ${page.url}:\n${page.html}`)
  const url = new URL(action, page.url).href
  return follow(browser, face, await browser.fetch(url, { method: 'POST', body: new URLSearchParams(body).toString() }), url)
}

type Pick = { user: keyof typeof OidcProvider.testUsers } | { email: string; verified: boolean; name?: string }

type Flow = { face: Face; state: string; nonce: string | undefined; verifier: string; browser: Browser }

/** The authorization request a real client makes: code, PKCE S256, state, and (OIDC) nonce. */
async function begin(face: Face, options: { browser?: Browser; params?: Record<string, string | undefined> } = {}) {
  const endpoints = devnet.endpoints[face]
  const flow: Flow = {
    face,
    state: oauth.generateRandomState(),
    nonce: endpoints.kind === 'oidc' ? oauth.generateRandomNonce() : undefined,
    verifier: oauth.generateRandomCodeVerifier(),
    browser: options.browser ?? new Browser(),
  }
  const url = new URL(endpoints.authorization)
  const params: Record<string, string | undefined> = {
    client_id: clients[face].clientId,
    redirect_uri: clients[face].redirectUris[0],
    response_type: 'code',
    scope: endpoints.scopes.join(' '),
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    ...options.params,
  }
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value)
  const page = await follow(flow.browser, face, await flow.browser.fetch(url.href), url.href)
  return { flow, page }
}

/** Signs in on the face's pages: the sign-in page, then Allow or Deny. The callback's parameters. */
async function authorize(face: Face, options: { pick?: Pick; decision?: 'allow' | 'deny'; browser?: Browser } = {}) {
  const { pick = { user: 'alice' }, decision = 'allow' } = options
  const { flow, page } = await begin(face, { browser: options.browser })
  const body: Record<string, string> =
    'user' in pick ? { user: pick.user } : { email: pick.email, ...(pick.verified ? { verified: 'true' } : {}), name: pick.name ?? '' }
  const consent = await post(flow.browser, face, page, 'login', body)
  const done = await post(flow.browser, face, consent, decision === 'allow' ? 'consent' : 'abort')
  if (done.kind !== 'callback') throw new Error(`Expected the callback, got ${done.url}:\n${done.html}`)
  return { flow, params: done.params, formPost: done.formPost }
}

async function authorizationServer(face: Face): Promise<oauth.AuthorizationServer> {
  const endpoints = devnet.endpoints[face]
  if (endpoints.kind === 'oidc') {
    const issuer = new URL(endpoints.issuer)
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...http }))
  }
  return { issuer: endpoints.issuer, authorization_endpoint: endpoints.authorization, token_endpoint: endpoints.token }
}

/** What the real client does with the callback: check it, then redeem the code with the client secret. */
async function redeem(flow: Flow, params: URLSearchParams, options: { secret?: string; auth?: 'basic' | 'post' } = {}) {
  const as = await authorizationServer(flow.face)
  const client: oauth.Client = { client_id: clients[flow.face].clientId }
  const secret = options.secret ?? clients[flow.face].clientSecret
  const auth = options.auth === 'post' ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret)
  const checked = oauth.validateAuthResponse(as, client, params, flow.state)
  const redirectUri = clients[flow.face].redirectUris[0]!
  const response = await oauth.authorizationCodeGrantRequest(as, client, auth, checked, redirectUri, flow.verifier, http)
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    ...(flow.nonce ? { expectedNonce: flow.nonce, requireIdToken: true } : {}),
  })
  return { as, client, tokens, claims: oauth.getValidatedIdTokenClaims(tokens) }
}

async function signIn(face: Face, options: { pick?: Pick; browser?: Browser; auth?: 'basic' | 'post' } = {}) {
  const { flow, params, formPost } = await authorize(face, options)
  return { ...(await redeem(flow, params, options)), params, formPost }
}

const getJson = async (url: string, token?: string) => {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: signal() })
  return { status: res.status, body: (await res.json()) as any, headers: res.headers }
}

const userInfo = async (face: Face, token: string, query = '') => getJson(`${devnet.endpoints[face].userinfo}${query}`, token)

describe('start', () => {
  test('behavior: each face is its own issuer, and discovery names the endpoints start gives', async () => {
    expect(devnet.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    for (const face of OidcProvider.faces) expect(devnet.endpoints[face].issuer).toBe(`${devnet.origin}/${face}`)
    for (const face of ['google', 'apple'] as const) {
      const as = await authorizationServer(face)
      const endpoints = devnet.endpoints[face]
      expect(as).toMatchObject({
        issuer: endpoints.issuer,
        authorization_endpoint: endpoints.authorization,
        token_endpoint: endpoints.token,
        userinfo_endpoint: endpoints.userinfo,
        authorization_response_iss_parameter_supported: true,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      })
      expect(as.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post'])
      expect(as.response_modes_supported).toEqual(expect.arrayContaining(['query', 'form_post']))
      expect(as.scopes_supported).toEqual(expect.arrayContaining(endpoints.scopes))
    }
    expect(devnet.endpoints.github).toMatchObject({ kind: 'oauth2', emails: `${devnet.origin}/github/api/user/emails`, scopes: ['read:user', 'user:email'] })
    expect(devnet.endpoints.x.scopes).toEqual(['tweet.read', 'users.read', 'users.email'])
    expect(devnet.endpoints.discord.scopes).toEqual(['identify', 'email'])
    expect(devnet.endpoints.facebook.scopes).toEqual(['email', 'public_profile'])
  })

  test('behavior: google signs alice in with code, PKCE, state, nonce and iss, and its ID token has her claims', async () => {
    const { params, claims, tokens, as, client } = await signIn('google')
    expect(params.get('iss')).toBe(devnet.endpoints.google.issuer)
    expect(claims).toMatchObject({
      iss: devnet.endpoints.google.issuer,
      aud: clients.google.clientId,
      email: 'alice@example.com',
      email_verified: true,
      name: 'Alice Example',
    })
    expect(claims!.sub).toMatch(/^1\d{20}$/)
    expect(claims!.picture).toBe(`${devnet.endpoints.google.issuer}/avatars/${claims!.sub}.svg`)
    const response = await oauth.userInfoRequest(as, client, tokens.access_token, http)
    expect(await oauth.processUserInfoResponse(as, client, claims!.sub, response)).toMatchObject({ email: 'alice@example.com', email_verified: true, name: 'Alice Example' })
    const picture = await fetch(claims!.picture as string, { signal: signal() })
    expect([picture.status, picture.headers.get('content-type'), await picture.text()]).toEqual([200, 'image/svg+xml', expect.stringContaining('>A</text>')])
  })

  test('behavior: apple answers by form post (its default for name and email) with `user` on the first sign-in only', async () => {
    const first = await signIn('apple', { pick: { email: 'frank@example.com', verified: true, name: 'Frank Ocean' } })
    expect(first.formPost).toBe(true)
    expect(first.params.get('iss')).toBe(devnet.endpoints.apple.issuer)
    expect(JSON.parse(first.params.get('user')!)).toEqual({ name: { firstName: 'Frank', lastName: 'Ocean' }, email: 'frank@example.com' })
    expect(first.claims).toMatchObject({ aud: clients.apple.clientId, email: 'frank@example.com', email_verified: 'true', is_private_email: 'false' })
    expect(first.claims).not.toHaveProperty('name')
    expect(first.claims!.sub).toMatch(/^00\d{4}\.[0-9a-f]{32}\.\d{4}$/)
    const again = await signIn('apple', { pick: { email: 'frank@example.com', verified: true, name: 'Frank Ocean' } })
    expect(again.formPost).toBe(true)
    expect(again.params.has('user')).toBe(false)
    expect(again.claims!.sub).toBe(first.claims!.sub)
  })

  test('behavior: apple answers by query when the client asks for it', async () => {
    const { flow, page } = await begin('apple', { params: { response_mode: 'query' } })
    const consent = await post(flow.browser, 'apple', page, 'login', { user: 'bob' })
    const done = await post(flow.browser, 'apple', consent, 'consent')
    expect(done).toMatchObject({ kind: 'callback', formPost: false })
    if (done.kind !== 'callback') return
    const { claims } = await redeem(flow, done.params)
    expect(claims).toMatchObject({ email: 'bob@example.com', email_verified: 'true' })
  })

  test('behavior: github signs alice in (no openid, no ID token) and answers /user and /user/emails in its shape', async () => {
    const { tokens, claims, params } = await signIn('github')
    expect(params.get('iss')).toBe(devnet.endpoints.github.issuer)
    expect(claims).toBeUndefined()
    expect(tokens).not.toHaveProperty('id_token')
    expect(tokens.scope?.split(' ').sort()).toEqual(['read:user', 'user:email'])
    const user = await userInfo('github', tokens.access_token)
    expect(user.status).toBe(200)
    expect(user.body).toEqual({ id: expect.any(Number), login: 'alice', name: 'Alice Example', avatar_url: expect.stringMatching(/\/github\/avatars\/\d+\.svg$/), email: null })
    const emails = await getJson(devnet.endpoints.github.emails!, tokens.access_token)
    expect(emails).toMatchObject({ status: 200, body: [{ email: 'alice@example.com', primary: true, verified: true, visibility: 'private' }] })
  })

  test('behavior: x answers /2/users/me in its shape, with the user.fields asked for', async () => {
    const { tokens } = await signIn('x', { auth: 'post' })
    const plain = await userInfo('x', tokens.access_token)
    expect(plain).toMatchObject({ status: 200, body: { data: { id: expect.stringMatching(/^\d{19}$/), name: 'Alice Example', username: 'alice' } } })
    expect(Object.keys(plain.body.data).sort()).toEqual(['id', 'name', 'username'])
    const full = await userInfo('x', tokens.access_token, '?user.fields=profile_image_url,confirmed_email')
    expect(full.body.data).toEqual({ ...plain.body.data, profile_image_url: expect.stringMatching(/\/x\/avatars\/\d+\.svg$/), confirmed_email: 'alice@example.com' })
  })

  test('behavior: discord answers /api/users/@me in its shape', async () => {
    const { tokens } = await signIn('discord', { auth: 'post' })
    const me = await userInfo('discord', tokens.access_token)
    expect(me).toMatchObject({ status: 200 })
    expect(me.body).toEqual({
      id: expect.stringMatching(/^\d{18}$/),
      username: 'alice',
      global_name: 'Alice Example',
      avatar: expect.stringMatching(/^[0-9a-f]{32}$/),
      discriminator: '0',
      email: 'alice@example.com',
      verified: true,
    })
    // Its picture where Discord's CDN lays it out (/avatars/<id>/<hash>.png), under the face.
    const { id, avatar } = me.body as { id: string; avatar: string }
    const picture = await fetch(`${devnet.endpoints.discord.issuer}/avatars/${id}/${avatar}.png`)
    expect(picture.status).toBe(200)
    expect(picture.headers.get('content-type')).toBe('image/svg+xml')
  })

  test('behavior: facebook answers /me with the fields asked for', async () => {
    const { tokens } = await signIn('facebook')
    const me = await userInfo('facebook', tokens.access_token, '?fields=id,name,email,picture')
    expect(me.status).toBe(200)
    expect(me.body).toEqual({
      id: expect.stringMatching(/^10\d{15}$/),
      name: 'Alice Example',
      email: 'alice@example.com',
      picture: { data: { height: 50, is_silhouette: false, url: expect.stringMatching(/\/facebook\/avatars\/\d+\.svg$/), width: 50 } },
    })
    expect(Object.keys((await userInfo('facebook', tokens.access_token)).body)).toEqual(['id', 'name'])
    const unknown = await userInfo('facebook', tokens.access_token, '?fields=id,birthday')
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: 100, type: 'OAuthException' } } })
  })

  test('behavior: the sign-in and consent pages have one h1, labelled controls, the test users and the scopes in words', async () => {
    const { flow, page } = await begin('google')
    expect(page).toMatchObject({ kind: 'page', status: 200 })
    if (page.kind !== 'page') return
    expect(page.html.match(/<h1/g)).toHaveLength(1)
    expect(page.html).toContain('<h1>Sign in to Google (Doorway devnet)</h1>')
    expect(page.html).toContain('Doorway wallet wants to sign you in.')
    for (const name of ['Alice Example', 'Bob Example', 'Carol Example', 'Dave Example']) expect(page.html).toContain(`>Continue as ${name}</button>`)
    for (const [id, label] of [['email', 'Email'], ['verified', 'Email verified'], ['name', 'Name']])
      expect(page.html).toMatch(new RegExp(`<input id="${id}"[^>]*>[\\s\\S]*?<label for="${id}">${label}</label>|<label for="${id}">${label}</label>\\s*<input id="${id}"`))
    expect(page.html).toMatch(/<input id="verified" name="verified" type="checkbox" value="true" checked>/)
    expect(page.html).toContain('>Sign in</button>')
    expect(page.html).toContain('>Cancel</button>')
    expect(page.html).not.toMatch(/https?:\/\/|<script/)
    const consent = await post(flow.browser, 'google', page, 'login', { user: 'bob' })
    if (consent.kind !== 'page') throw new Error('Expected the consent page')
    expect(consent.html.match(/<h1/g)).toHaveLength(1)
    expect(consent.html).toContain('<h1>Allow Doorway wallet to use your Google account?</h1>')
    expect(consent.html).toContain('Signed in as Bob Example (bob@example.com)')
    expect(consent.html).toContain('<li>See your primary Google Account email address</li>')
    expect(consent.html).toContain('>Allow</button>')
    expect(consent.html).toContain('>Deny</button>')
  })

  test.each(['google', 'github'] as const)('behavior: Deny on %s sends access_denied to the redirect URI, with state and iss', async (face) => {
    const { flow, params } = await authorize(face, { decision: 'deny' })
    expect(Object.fromEntries(params)).toMatchObject({ error: 'access_denied', state: flow.state, iss: devnet.endpoints[face].issuer })
    const as = await authorizationServer(face)
    expect(() => oauth.validateAuthResponse(as, { client_id: clients[face].clientId }, params, flow.state)).toThrow(
      expect.objectContaining({ error: 'access_denied' }),
    )
  })

  test('behavior: Cancel on the sign-in page sends access_denied', async () => {
    const { flow, page } = await begin('discord')
    const done = await post(flow.browser, 'discord', page, 'abort')
    expect(done.kind === 'callback' && Object.fromEntries(done.params)).toMatchObject({ error: 'access_denied', state: flow.state })
  })

  test('behavior: a typed email with "Email verified" unchecked is unverified on every face', async () => {
    const pick = { email: 'Grace@Example.com', verified: false, name: 'Grace Hopper' }
    const google = await signIn('google', { pick })
    expect(google.claims).toMatchObject({ email: 'grace@example.com', email_verified: false, name: 'Grace Hopper' })
    const github = await signIn('github', { pick })
    expect((await getJson(devnet.endpoints.github.emails!, github.tokens.access_token)).body).toEqual([
      { email: 'grace@example.com', primary: true, verified: false, visibility: 'private' },
    ])
    const x = await signIn('x', { pick })
    const me = await userInfo('x', x.tokens.access_token, '?user.fields=confirmed_email')
    expect(me.body.data).toEqual({ id: expect.any(String), name: 'Grace Hopper', username: 'grace' })
    const apple = await signIn('apple', { pick })
    expect(apple.claims).toMatchObject({ email: 'grace@example.com', email_verified: 'false' })
    const facebook = await signIn('facebook', { pick })
    expect((await userInfo('facebook', facebook.tokens.access_token, '?fields=id,email')).body).not.toHaveProperty('email')
  })

  test('behavior: carol is unverified and dave has no email', async () => {
    const carol = await signIn('google', { pick: { user: 'carol' } })
    expect(carol.claims).toMatchObject({ email: 'carol@example.com', email_verified: false })
    const dave = await signIn('google', { pick: { user: 'dave' } })
    expect(dave.claims).not.toHaveProperty('email')
    expect(dave.claims).toMatchObject({ name: 'Dave Example' })
    const discord = await signIn('discord', { pick: { user: 'dave' } })
    expect((await userInfo('discord', discord.tokens.access_token)).body).toMatchObject({ username: 'dave', email: null, verified: false })
  })

  test('behavior: the same email gets the same subject again, another email or another face another', async () => {
    const pick = { email: 'heidi@example.com', verified: true }
    const first = await signIn('google', { pick })
    const second = await signIn('google', { pick: { ...pick, name: 'Heidi' } })
    expect(second.claims!.sub).toBe(first.claims!.sub)
    const other = await signIn('google', { pick: { email: 'ivan@example.com', verified: true } })
    expect(other.claims!.sub).not.toBe(first.claims!.sub)
    const typedAlice = await signIn('google', { pick: { email: 'alice@example.com', verified: true } })
    const pickedAlice = await signIn('google', { pick: { user: 'alice' } })
    expect(typedAlice.claims!.sub).toBe(pickedAlice.claims!.sub)
    const x = await signIn('x', { pick })
    const discord = await signIn('discord', { pick })
    const xId = (await userInfo('x', x.tokens.access_token)).body.data.id
    const discordId = (await userInfo('discord', discord.tokens.access_token)).body.id
    expect(new Set([first.claims!.sub, xId, discordId]).size).toBe(3)
  })

  test('behavior: signing in as someone else in the same browser switches the account', async () => {
    const browser = new Browser()
    const alice = await signIn('google', { browser, pick: { user: 'alice' } })
    const bob = await signIn('google', { browser, pick: { user: 'bob' } })
    expect(alice.claims!.email).toBe('alice@example.com')
    expect(bob.claims!.email).toBe('bob@example.com')
  })

  test('param: google accepts prompt=select_account and shows the sign-in page', async () => {
    const { flow, page } = await begin('google', { params: { prompt: 'select_account', login_hint: 'judy@example.com' } })
    expect(page.kind === 'page' && page.html).toContain('value="judy@example.com"')
    const consent = await post(flow.browser, 'google', page, 'login', { email: 'judy@example.com', verified: 'true', name: '' })
    const done = await post(flow.browser, 'google', consent, 'consent')
    if (done.kind !== 'callback') throw new Error('Expected the callback')
    expect((await redeem(flow, done.params)).claims).toMatchObject({ email: 'judy@example.com' })
  })

  test('error: a wrong client secret is refused with 401 invalid_client', async () => {
    const { flow, params } = await authorize('google')
    // With basic auth the refusal is a challenge: WWW-Authenticate: Basic error="invalid_client".
    await expect(redeem(flow, params, { secret: 'wrong' })).rejects.toMatchObject({
      status: 401,
      cause: [{ scheme: 'basic', parameters: expect.objectContaining({ error: 'invalid_client' }) }],
    })
    const other = await authorize('github')
    await expect(redeem(other.flow, other.params, { secret: 'wrong', auth: 'post' })).rejects.toMatchObject({ status: 401, error: 'invalid_client' })
  })

  test('error: a code redeemed twice is refused, and its first token stops working', async () => {
    const { flow, params } = await authorize('github')
    const { tokens } = await redeem(flow, params)
    expect((await userInfo('github', tokens.access_token)).status).toBe(200)
    await expect(redeem(flow, params)).rejects.toMatchObject({ status: 400, error: 'invalid_grant' })
    expect((await userInfo('github', tokens.access_token)).status).toBe(401)
  })

  test('error: a code redeemed without its PKCE verifier is refused', async () => {
    const { flow, params } = await authorize('google')
    await expect(redeem({ ...flow, verifier: oauth.generateRandomCodeVerifier() }, params)).rejects.toMatchObject({ status: 400, error: 'invalid_grant' })
  })

  test('error: an authorization request without PKCE is refused at the redirect URI', async () => {
    const { page } = await begin('github', { params: { code_challenge: undefined, code_challenge_method: undefined } })
    expect(page.kind === 'callback' && Object.fromEntries(page.params)).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('PKCE') })
  })

  test.each(['google', 'x'] as const)('error: %s refuses an unregistered redirect_uri on its own page, without redirecting', async (face) => {
    const { page } = await begin(face, { params: { redirect_uri: `${callbackBase}/elsewhere` } })
    expect(page).toMatchObject({ kind: 'page', status: 400 })
    expect(page.kind === 'page' && page.html).toContain('redirect_uri')
  })

  test.each([
    ['github', { message: 'Bad credentials' }],
    ['x', { title: 'Unauthorized', status: 401 }],
    ['discord', { message: '401: Unauthorized' }],
    ['facebook', { error: { type: 'OAuthException', code: 190 } }],
  ] as const)('error: %s user info answers 401 in its shape to a missing, unknown or foreign token', async (face, shape) => {
    const foreign = await signIn(face === 'github' ? 'discord' : 'github')
    for (const token of [undefined, 'not-a-token', foreign.tokens.access_token]) {
      const answer = await getJson(devnet.endpoints[face].userinfo, token)
      expect(answer).toMatchObject({ status: 401, body: shape })
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
  })

  test('error: the sign-in steps refuse requests without their interaction, and a bad email', async () => {
    const { flow, page } = await begin('google')
    if (page.kind !== 'page') throw new Error('Expected the sign-in page')
    const stranger = await new Browser().fetch(page.url)
    expect([stranger.status, await stranger.text()]).toEqual([400, expect.stringContaining('<h1>Sign-in expired</h1>')])
    const forged = await new Browser().fetch(`${page.url}/consent`, { method: 'POST', body: '' })
    expect(forged.status).toBe(400)
    const early = await flow.browser.fetch(`${page.url}/consent`, { method: 'POST', body: '' })
    expect(early.status).toBe(400)
    const bad = await flow.browser.fetch(`${page.url}/login`, { method: 'POST', body: 'email=not-an-email&verified=true' })
    expect([bad.status, await bad.text()]).toEqual([400, expect.stringContaining('role="alert">Enter a valid email address')])
    const unknown = await flow.browser.fetch(`${page.url}/login`, { method: 'POST', body: 'user=mallory' })
    expect(unknown.status).toBe(400)
  })

  test('error: bad input elsewhere gets 4xx', async () => {
    expect((await fetch(`${devnet.origin}/myspace/auth`, { signal: signal() })).status).toBe(404)
    const token = await fetch(devnet.endpoints.google.token, { method: 'POST', body: 'grant_type=authorization_code&code=nope', signal: signal(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(token.status).toBeGreaterThanOrEqual(400)
    expect(token.status).toBeLessThan(500)
    const garbage = await fetch(`${devnet.endpoints.google.authorization}?client_id=%E0%A4%A`, { signal: signal(), redirect: 'manual' })
    expect(garbage.status).toBe(400)
    const post = await fetch(devnet.endpoints.github.userinfo, { method: 'POST', signal: signal() })
    expect(post.status).toBe(405)
    const port = new URL(devnet.origin).port
    const rebound = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port, path: '/google/.well-known/openid-configuration', headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
        .on('error', reject)
        .end(),
    )
    expect(rebound).toBe(403)
  })

  test('error: start needs a client for every face, and listens on loopback only', async () => {
    const { x: _x, ...partial } = clients
    await expect(OidcProvider.start({ port: 0, clients: partial as typeof clients })).rejects.toThrow('client for x')
    await expect(OidcProvider.start({ port: 0, host: '0.0.0.0', clients })).rejects.toThrow('loopback only')
  })

  test('behavior: stop closes the server and its connections', async () => {
    const other = await OidcProvider.start({ port: 0, clients })
    const discovery = `${other.endpoints.google.issuer}/.well-known/openid-configuration`
    expect((await fetch(discovery, { signal: signal() })).status).toBe(200)
    await other.stop()
    await expect(fetch(discovery, { signal: signal() })).rejects.toThrow()
  })
})
