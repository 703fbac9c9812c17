/**
 * The devnet's social login providers (docs/embedded-wallet.md §5, issue 24): on one loopback port
 * (8795 in the stack), local stand-ins for Google and Apple (OpenID Connect) and GitHub, X, Discord and
 * Facebook (OAuth 2 and a provider-shaped user-info call). Each face is its own issuer, `${origin}/${face}`,
 * served by its own `oidc-provider` instance, so that the secure-site's client talks to it exactly as to
 * the real provider: authorization code with PKCE S256, `state`, `nonce` (OIDC faces), a client secret
 * (basic or post), and the RFC 9207 `iss` in every authorization response. Dev only, never shipped.
 * `import * as OidcProvider from './oidc/provider.js'` → `await OidcProvider.start({ port, clients })`.
 *
 * Every authorization shows the sign-in page (a test user, or any email typed) and then the consent
 * page, even in a browser already signed in, so tests and e2e always meet the same steps and can switch
 * users. People and tokens live in memory and go on restart; subjects are derived, so they stay.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import * as Ids from '@doorway/shared/Ids'
import Provider, { type Configuration, type KoaContextWithOIDC, errors, interactionPolicy } from 'oidc-provider'
import { HttpError, isLoopbackHost, listenLoopback, securityHeaders, sendJson } from '../httpServer.js'
import { type Face, faces, isFace, table } from './faces.js'
import * as Interaction from './interaction.js'
import * as Pages from './pages.js'
import * as Profiles from './profiles.js'
import { type Directory, directory } from './users.js'

export { type Face, faces } from './faces.js'
export { type TestUser, type TestUserName, testUsers } from './users.js'

export type Client = { clientId: string; clientSecret: string; redirectUris: string[] }

/** Where each face's endpoints are, for the client's configuration (what a real provider's docs would list). */
export type Endpoints = {
  /** `${origin}/${face}`: each face is its own issuer. */
  issuer: string
  authorization: string
  token: string
  /** OIDC faces: the standard userinfo; OAuth 2 faces: the provider-shaped one. */
  userinfo: string
  /** github only: the user's email addresses. */
  emails?: string
  kind: 'oidc' | 'oauth2'
  /** The scopes a sign-in with the real provider asks for. */
  scopes: string[]
}

/** How the pages name the client: the wallet's sign-in is the only one. */
const clientName = 'Doorway wallet'

/** Seconds. Short: a devnet sign-in is redeemed at once. */
const lifetimes = { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Grant: 600, Session: 600, Interaction: 600 }

export async function start(options: start.Options): Promise<start.ReturnType> {
  for (const face of faces) if (!options.clients[face]) throw new TypeError(`start needs a client for ${face}`)
  const state: { apps?: Record<Face, FaceApp> } = {}
  const server = await listenLoopback({
    name: 'devnet social providers',
    port: options.port,
    host: options.host,
    handle: (req, res) => void route(state.apps, req, res),
    finish: () => Promise.resolve(),
  })
  try {
    // One signing key for the six: an RSA key takes up to half a second to make on a small machine, and
    // a token's `iss` and `aud` already tell the faces apart. The issuers name the bound port, known only now.
    const key = await signingKey()
    const apps = faces.map((face) => faceApp(face, `${server.url}/${face}`, options.clients[face], key))
    state.apps = Object.fromEntries(apps.map((app) => [app.face, app])) as Record<Face, FaceApp>
  } catch (error) {
    await server.stop()
    throw error
  }
  const endpoints = Object.fromEntries(faces.map((face) => [face, endpointsOf(face, server.url)])) as Record<Face, Endpoints>
  return { origin: server.url, endpoints, stop: server.stop }
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `origin` says which. */
    port: number
    /** Loopback only; default 127.0.0.1. */
    host?: string
    /** One client per face (ids and secrets the caller chooses; redirect URIs exact-matched). */
    clients: Record<Face, Client>
  }
  type ReturnType = { origin: string; endpoints: Record<Face, Endpoints>; stop(): Promise<void> }
}

function endpointsOf(face: Face, origin: string): Endpoints {
  const issuer = `${origin}/${face}`
  const { kind, scopes, userinfo } = table[face]
  return {
    issuer,
    authorization: `${issuer}/auth`,
    token: `${issuer}/token`,
    userinfo: `${issuer}${userinfo}`,
    ...(face === 'github' ? { emails: `${issuer}/api/user/emails` } : {}),
    kind,
    scopes: [...scopes],
  }
}

/** One face: its oidc-provider instance, as the router and the interaction pages use it. */
type FaceApp = Interaction.Context & { issuer: string; clientId: string; callback: ReturnType<Provider['callback']> }

function faceApp(face: Face, issuer: string, client: Client, key: JsonWebKey): FaceApp {
  const people = directory(face)
  const provider = new Provider(issuer, configuration(face, issuer, client, people, key))
  provider.on('server_error', (_ctx, error) => console.error(`[doorway:oidc:${face}]`, error))
  if (face === 'apple') provider.on('authorization.success', introduceOnce(people))
  return { face, info: table[face], provider, directory: people, clientName, issuer, clientId: client.clientId, callback: provider.callback() }
}

function configuration(face: Face, issuer: string, client: Client, people: Directory, key: JsonWebKey): Configuration {
  const info = table[face]
  return {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: clientName,
        redirect_uris: client.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [key] },
    // Cookies are per host, not per port or path, and the secure-site runs on 127.0.0.1 too: each face
    // has its own names and signing keys.
    cookies: {
      names: { session: `_doorway_${face}_session`, interaction: `_doorway_${face}_interaction`, resume: `_doorway_${face}_resume` },
      keys: [Ids.random()],
      long: { signed: true },
      short: { signed: true },
    },
    claims: { openid: ['sub'], ...Object.fromEntries(Object.entries(info.claims).map(([scope, claims]) => [scope, [...claims]])) },
    // oidc-provider grants only the scopes it knows: the OAuth 2 faces' scopes are listed here, and their
    // requests, without `openid`, get an access token and no ID token.
    scopes: ['openid', ...info.scopes],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    // Google and Apple put the email (and Google the name) in the ID token itself.
    conformIdTokenClaims: false,
    allowOmittingSingleRegisteredRedirectUri: false,
    // The client is a server (the secure-site's), never a browser page.
    clientBasedCORS: () => false,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: info.kind === 'oidc' },
      // What none of the six offers.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
    },
    ttl: lifetimes,
    // A token lives its lifetime, as the real providers' do, whatever happens to the browser's session.
    expiresWithSession: () => Promise.resolve(false),
    interactions: { policy: policy(), url: (_ctx, interaction) => `/${face}/interaction/${interaction.uid}` },
    // A grant from an earlier sign-in is never reused: consent is asked every time (see the module comment).
    loadExistingGrant: (ctx) => {
      const id = ctx.oidc.result?.consent?.grantId
      return id === undefined ? Promise.resolve(undefined) : ctx.oidc.provider.Grant.find(id)
    },
    findAccount: (_ctx, sub) => {
      const person = people.get(sub)
      if (!person) return Promise.resolve(undefined)
      const claims = face === 'google' || face === 'apple' ? Profiles.claims(face, issuer, sub, person) : { sub }
      return Promise.resolve({ accountId: sub, claims: () => claims })
    },
    renderError: (ctx, out) => {
      ctx.type = 'html'
      ctx.body = Pages.error('Sign-in failed', out.error_description ?? out.error)
    },
  }
}

/** oidc-provider's login and consent prompts, asked on every authorization, and Google's select_account. */
function policy() {
  const { base, Check, Prompt } = interactionPolicy
  const prompts = base()
  prompts.get('login')?.checks.add(new Check('devnet_every_time', 'the devnet signs in on every authorization', (ctx) => !ctx.oidc.result?.login))
  // Clients send prompt=select_account to Google; the sign-in page is also the account chooser.
  prompts.add(new Prompt({ name: 'select_account', requestable: true }), 0)
  return prompts
}

/**
 * Apple gives the name only once, in the form post's `user` field on a person's first sign-in
 * with the app; the ID token never has it.
 */
function introduceOnce(people: Directory) {
  const introduced = new Set<string>()
  return (ctx: KoaContextWithOIDC, out: Record<string, string>) => {
    const subject = ctx.oidc.session?.accountId
    const person = subject === undefined ? undefined : people.get(subject)
    if (ctx.oidc.responseMode !== 'form_post' || out.code === undefined || !person || introduced.has(subject!)) return
    const user = Profiles.appleUser(person, new Set(String(ctx.oidc.params?.scope ?? '').split(' ')))
    if (user === undefined) return
    introduced.add(subject!)
    out.user = user
  }
}

/** An RS256 signing key, made at start. */
async function signingKey(): Promise<JsonWebKey> {
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
  const { privateKey } = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])
  const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey('jwk', privateKey)
  const key: JsonWebKey & { kid: string } = { ...jwk, kid: Ids.random(), use: 'sig' }
  return key
}

async function route(apps: Record<Face, FaceApp> | undefined, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://loopback')
  const face = url.pathname.split('/')[1] ?? ''
  const path = decode(url.pathname.slice(face.length + 1)) || '/'
  try {
    // DNS rebinding: a page on another name that resolves to loopback must not drive a sign-in.
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Only loopback host names may use the devnet social providers')
    if (!apps) throw new HttpError(503, 'The devnet social providers are starting')
    if (!isFace(face)) throw new HttpError(404, `No provider at /${face}: try ${faces.map((f) => `/${f}`).join(', ')}`)
    const app = apps[face]
    const interaction = /^\/interaction\/([\w-]+)(?:\/(\w*))?$/.exec(path)
    if (interaction) return await Interaction.handle(app, interaction[1]!, interaction[2] ?? '', req, res)
    const info = Profiles.userInfoRoutes.find((candidate) => candidate.face === face && candidate.path === path)
    if (info) return await userInfo(app, info, url.searchParams, req, res)
    // Discord's client builds the picture's URL from the user's id and avatar hash, as its CDN lays it out.
    const avatar = /^\/avatars\/([\w.]+)\.svg$/.exec(path) ?? (face === 'discord' ? /^\/avatars\/(\d+)\/[0-9a-f]{1,64}\.png$/.exec(path) : null)
    if (avatar && req.method === 'GET') return sendAvatar(app, avatar[1]!, res)
    return await forward(app, url, req, res)
  } catch (error) {
    if (res.headersSent) return void res.destroy()
    if (error instanceof errors.SessionNotFound)
      return Interaction.sendPage(res, 400, Pages.error('Sign-in expired', 'This sign-in has expired or ended in another tab: start again from the app.'))
    const status = error instanceof HttpError ? error.status : 500
    if (status === 500) console.error('[doorway:oidc]', error)
    if (status === 413) res.setHeader('connection', 'close')
    const message = status === 500 ? 'Internal error' : (error as Error).message
    if (path.startsWith('/interaction/')) return Interaction.sendPage(res, status, Pages.error('Sign-in failed', message))
    sendJson(res, status, { error: status === 404 ? 'not_found' : 'invalid_request', error_description: message })
  }
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** Hands the request to the face's oidc-provider, mounted at `/${face}` as its issuer says. */
function forward(app: FaceApp, url: URL, req: IncomingMessage, res: ServerResponse) {
  const path = url.pathname.slice(app.face.length + 1) || '/'
  req.url = `${path}${appleFormPost(app.face, path, req.method, url.searchParams) ?? url.search}`
  // oidc-provider builds its URLs from the mount path: what `originalUrl` has before the stripped URL.
  Object.assign(req, { originalUrl: `/${app.face}${req.url}` })
  return app.callback(req, res)
}

/**
 * Apple answers with a form post when the name or email is asked for (it refuses a query): a client
 * that leaves response_mode out gets the form post. The query with it, or undefined if unchanged.
 */
function appleFormPost(face: Face, path: string, method: string | undefined, search: URLSearchParams): string | undefined {
  const scopes = new Set((search.get('scope') ?? '').split(' '))
  if (face !== 'apple' || path !== '/auth' || method !== 'GET' || search.has('response_mode') || !(scopes.has('name') || scopes.has('email'))) return undefined
  search.set('response_mode', 'form_post')
  return `?${search.toString()}`
}

/**
 * An OAuth 2 face's user-info call: the bearer token must be one this face issued to its client,
 * unexpired, with the scopes the endpoint needs; the answer has the real provider's shape.
 */
async function userInfo(app: FaceApp, route: Profiles.UserInfoRoute, query: URLSearchParams, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'GET') {
    res.setHeader('allow', 'GET')
    throw new HttpError(405, 'User info takes GET')
  }
  const value = /^Bearer +([\x21-\x7e]+)$/i.exec(req.headers.authorization ?? '')?.[1]
  const token = value === undefined ? undefined : await app.provider.AccessToken.find(value)
  const person = token && !token.isExpired && token.clientId === app.clientId ? app.directory.get(token.accountId) : undefined
  if (!token || !person) {
    res.setHeader('www-authenticate', 'Bearer error="invalid_token"')
    return sendJson(res, 401, Profiles.unauthorized[route.face])
  }
  const scopes = new Set((token.scope ?? '').split(' '))
  if (!route.requires.every((scope) => scopes.has(scope))) return sendJson(res, 403, Profiles.forbidden[route.face])
  const answer = route.answer({ issuer: app.issuer, subject: token.accountId, person, scopes, query })
  sendJson(res, answer.status, answer.body)
}

function sendAvatar(app: FaceApp, subject: string, res: ServerResponse) {
  const person = app.directory.get(subject)
  if (!person) throw new HttpError(404, 'No such picture')
  res.writeHead(200, { ...securityHeaders, 'content-type': 'image/svg+xml', 'content-security-policy': "default-src 'none'" }).end(Profiles.avatarSvg(person, subject))
}
