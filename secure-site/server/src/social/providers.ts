/**
 * The social providers the server signs people in with (docs/embedded-wallet.md §5): configuration only,
 * so a deployment names a client per provider and the real endpoints come by default; the devnet stand-in
 * (devnet/src/oidc/provider.ts) is the same configuration at another origin.
 * `import * as Social from './social/providers.js'`.
 */
import { type SocialProvider, socialProviders } from '@doorway/shared/Constants'
import type * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Texts from '@doorway/shared/Texts'
import * as Farcaster from './farcaster.js'

/** The six OAuth providers, each a client configured here. */
export type Provider = SocialProvider
/** What a flow signs in with: an OAuth provider, or Farcaster (its relay, farcaster.ts). */
export type FlowProvider = SecureSite.FlowProvider

/**
 * One provider's client. `oidc` faces sign in with an ID token (google, apple), `oauth2` faces with a
 * user-info call (github, x, discord, facebook).
 */
export type ProviderConfig = {
  kind: 'oidc' | 'oauth2'
  /** The issuer: an OIDC ID token's `iss`, and the RFC 9207 `iss` answer parameter when a provider sends one. */
  issuer: string
  authorization: string
  token: string
  /** OIDC: the standard user-info, asked only when the ID token carries no email (Apple has none); OAuth 2: the provider's own. */
  userinfo?: string
  /** GitHub's list of the account's emails, with which the provider verified. */
  emails?: string
  clientId: string
  clientSecret: string
  scopes: string[]
  /** How the token request authenticates the client; client_secret_basic unless the provider wants the secret in the body. */
  clientAuth?: 'basic' | 'post'
  /** Apple answers by a POSTed form when the name or email is asked (its docs). */
  responseMode?: 'form_post'
  /** The provider advertises RFC 9207: an answer without `iss` is refused (one with it is always checked). */
  issParameter?: boolean
  /** Discord: where its avatar pictures are (its CDN; the devnet stand-in serves its own), from the id and hash user-info gives. */
  avatarBase?: string
}

export type Config = {
  /** The secure origin (e.g. http://127.0.0.1:5175): the popup opens `/oauth/start` there, and providers answer at `/oauth/callback`. */
  callbackOrigin: string
  providers: Partial<Record<Provider, ProviderConfig>>
  /** Sign In With Farcaster (farcaster.ts): its relay and the RPC that reads the ID registry; none without it. */
  farcaster?: Farcaster.FarcasterConfig
  /** How long a redeem waits for the provider's answer before it says pending; `socialPollMs` unless a test says. */
  pollMs?: number
  /** How long a request to a provider (token, user-info) may take; 10 s unless a test says. */
  timeoutMs?: number
}

export const providers = socialProviders

/** The provider's name as the person knows it. */
export const name = (provider: FlowProvider): string => Texts.ui.socials[provider]

export const redirectUri = (config: Pick<Config, 'callbackOrigin'>) => `${config.callbackOrigin}/oauth/callback`
export const startUrl = (config: Pick<Config, 'callbackOrigin'>, flowId: string) => `${config.callbackOrigin}/oauth/start?flow=${flowId}`

type Endpoints = Omit<ProviderConfig, 'clientId' | 'clientSecret'>

/** The real providers' endpoints and scopes, from their documentation. */
export const defaults: Record<Provider, Endpoints> = {
  google: {
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
    token: 'https://oauth2.googleapis.com/token',
    userinfo: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: ['openid', 'email', 'profile'],
  },
  // Apple's client secret is a JWT the team signs with its key (its docs): the operator makes one and
  // renews it before it expires (at most 6 months). Apple sends no name claim and has no user-info.
  apple: {
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    authorization: 'https://appleid.apple.com/auth/authorize',
    token: 'https://appleid.apple.com/auth/token',
    scopes: ['openid', 'email', 'name'],
    clientAuth: 'post',
    responseMode: 'form_post',
  },
  github: {
    kind: 'oauth2',
    issuer: 'https://github.com',
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    userinfo: 'https://api.github.com/user',
    emails: 'https://api.github.com/user/emails',
    scopes: ['read:user', 'user:email'],
    clientAuth: 'post',
  },
  x: {
    kind: 'oauth2',
    issuer: 'https://x.com',
    authorization: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    userinfo: 'https://api.x.com/2/users/me',
    // GET /2/users/me needs tweet.read and users.read; confirmed_email needs users.email.
    scopes: ['tweet.read', 'users.read', 'users.email'],
  },
  discord: {
    kind: 'oauth2',
    issuer: 'https://discord.com',
    authorization: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    userinfo: 'https://discord.com/api/users/@me',
    scopes: ['identify', 'email'],
  },
  facebook: {
    kind: 'oauth2',
    issuer: 'https://www.facebook.com',
    authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
    token: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfo: 'https://graph.facebook.com/me?fields=id,name,email,picture',
    scopes: ['email', 'public_profile'],
    clientAuth: 'post',
  },
}

/**
 * The devnet stand-in's endpoints (devnet/src/oidc/provider.ts) at `origin`: each face is an issuer of
 * its own at `/${face}`, with the real provider's paths for user-info, RFC 9207 on, and its clients
 * registered for client_secret_basic.
 */
export function devnetEndpoints(origin: string): Record<Provider, Endpoints> {
  const at = (face: Provider, path = '') => `${origin}/${face}${path}`
  const face = (provider: Provider, userinfo: string, extra: Partial<Endpoints> = {}): Endpoints => ({
    ...defaults[provider],
    issuer: at(provider),
    authorization: at(provider, '/auth'),
    token: at(provider, '/token'),
    userinfo: at(provider, userinfo),
    issParameter: true,
    clientAuth: 'basic',
    ...extra,
  })
  return {
    google: face('google', '/me'),
    apple: face('apple', '/me'),
    github: face('github', '/api/user', { emails: at('github', '/api/user/emails') }),
    x: face('x', '/2/users/me'),
    discord: face('discord', '/api/users/@me', { avatarBase: at('discord', '') }),
    facebook: face('facebook', '/me'),
  }
}

/** The client ids and secrets the devnet stand-in is started with (devnet/src/start.ts). */
export const devnetClient = (provider: Provider) => ({ clientId: `doorway-${provider}`, clientSecret: `devnet-${provider}-secret` })

/**
 * The configuration from the environment (API.md Social sign-in): DOORWAY_SOCIAL_<P>_CLIENT_ID and
 * _CLIENT_SECRET turn provider P on; _ISSUER, _AUTHORIZATION_URL, _TOKEN_URL, _USERINFO_URL and _EMAILS_URL
 * move its endpoints; DOORWAY_SOCIAL_DEVNET=<origin> turns all six on against the devnet stand-in;
 * DOORWAY_SOCIAL_CALLBACK_ORIGIN is the secure origin (`defaultOrigin`). DOORWAY_FARCASTER_* turn
 * Farcaster on (farcaster.ts `fromEnv`), with or without the others. Undefined when none is on.
 */
export function fromEnv(env: NodeJS.ProcessEnv, defaultOrigin: string): Config | undefined {
  const devnet = env.DOORWAY_SOCIAL_DEVNET ? devnetEndpoints(origin(env.DOORWAY_SOCIAL_DEVNET, 'DOORWAY_SOCIAL_DEVNET')) : undefined
  const configured: Config['providers'] = {}
  for (const provider of providers) {
    const variable = (suffix: string) => env[`DOORWAY_SOCIAL_${provider.toUpperCase()}_${suffix}`] || undefined
    const client = { clientId: variable('CLIENT_ID'), clientSecret: variable('CLIENT_SECRET'), ...(devnet && !variable('CLIENT_ID') && devnetClient(provider)) }
    if (!client.clientId || !client.clientSecret) continue
    const base = devnet?.[provider] ?? defaults[provider]
    const url = (suffix: string, fallback: string | undefined) => {
      const value = variable(suffix)
      return value === undefined ? fallback : http(value, `DOORWAY_SOCIAL_${provider.toUpperCase()}_${suffix}`).href
    }
    configured[provider] = {
      ...base,
      issuer: url('ISSUER', base.issuer)!,
      authorization: url('AUTHORIZATION_URL', base.authorization)!,
      token: url('TOKEN_URL', base.token)!,
      userinfo: url('USERINFO_URL', base.userinfo),
      emails: url('EMAILS_URL', base.emails),
      clientId: client.clientId,
      clientSecret: client.clientSecret,
    }
  }
  const callbackOrigin = origin(env.DOORWAY_SOCIAL_CALLBACK_ORIGIN ?? defaultOrigin, 'DOORWAY_SOCIAL_CALLBACK_ORIGIN')
  // The SIWF domain is the secure origin's, as the callback's: what the person's Farcaster app shows as asking.
  const farcaster = Farcaster.fromEnv(env, callbackOrigin)
  if (Object.keys(configured).length === 0 && !farcaster) return undefined
  return { callbackOrigin, providers: configured, ...(farcaster && { farcaster }) }
}

const origin = (value: string, variable: string) => http(value, variable).origin

function http(value: string, variable: string): URL {
  try {
    const url = new URL(value)
    if (/^https?:$/.test(url.protocol)) return url
  } catch {
    // refused below, as any other value that is no http(s) URL
  }
  throw new Error(`${variable} is not an http(s) URL: ${value}`)
}
