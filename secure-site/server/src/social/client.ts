/**
 * The server as a confidential OAuth 2 / OIDC client (docs/embedded-wallet.md §5), with oauth4webapi:
 * the authorization request (PKCE S256, `state`, `nonce` for OIDC), then the provider's answer checked
 * (`state`, RFC 9207 `iss`), the code exchanged with the client secret, and the person read from the ID
 * token (issuer, audience, nonce, expiry checked) or the provider's user-info. `import * as Client from './client.js'`.
 */
import * as oauth from 'oauth4webapi'
import type { SocialFlow } from '../storage/Storage.js'
import * as Profiles from './profiles.js'
import type * as Social from './providers.js'

/** How long one request to a provider may take before it is aborted. */
export const timeoutMs = 10_000

/** The person refused at the provider (`error=access_denied`). */
export class Denied extends Error {}

/** The provider's answer failed a check, or a request to it failed: the cause says which, for the log. */
export class Invalid extends Error {}

/** The provider's authorization URL for the flow: where GET /oauth/start sends the popup. */
export async function authorizationUrl(config: Social.ProviderConfig, options: { redirectUri: string; flow: Pick<SocialFlow, 'state' | 'nonce' | 'codeVerifier'> }): Promise<string> {
  const { redirectUri, flow } = options
  const url = new URL(config.authorization)
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri,
    scope: config.scopes.join(' '),
    state: flow.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(flow.codeVerifier!),
    code_challenge_method: 'S256',
    ...(config.kind === 'oidc' && { nonce: flow.nonce }),
    ...(config.responseMode && { response_mode: config.responseMode }),
  }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

/**
 * The provider's answer at the callback, checked and turned into the person's profile. Throws Denied when
 * the person said no, Invalid when any check or request failed.
 */
export async function complete(config: Social.ProviderConfig, options: { provider: Social.Provider; redirectUri: string; flow: SocialFlow; params: URLSearchParams; timeoutMs?: number }): Promise<Profiles.Profile> {
  const { provider, redirectUri, flow, params } = options
  const as = server(config)
  const client: oauth.Client = { client_id: config.clientId }
  const request = requestOptions(options.timeoutMs ?? timeoutMs)
  let validated: URLSearchParams
  try {
    validated = oauth.validateAuthResponse(as, client, params, flow.state)
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied') throw new Denied('The person did not allow the app', { cause: error })
    throw new Invalid('The authorization response was refused', { cause: error })
  }
  try {
    const auth = config.clientAuth === 'post' ? oauth.ClientSecretPost(config.clientSecret) : oauth.ClientSecretBasic(config.clientSecret)
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, validated, redirectUri, flow.codeVerifier!, request(config.token))
    if (config.kind === 'oidc') {
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: flow.nonce, requireIdToken: true })
      const claims = oauth.getValidatedIdTokenClaims(tokens)! as Record<string, unknown>
      // Google puts the email in the ID token when `email` is asked; a provider that does not answers it at user-info.
      const merged = claims.email === undefined && config.userinfo ? { ...(await userInfo(as, client, tokens.access_token, claims.sub as string, request(config.userinfo))), ...claims } : claims
      return provider === 'apple' ? Profiles.apple(merged, params.get('user')) : Profiles.google(merged)
    }
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response)
    return await oauth2Profile(provider, config, tokens.access_token, request)
  } catch (error) {
    if (error instanceof Invalid) throw error
    throw new Invalid(`${provider}'s answer could not be checked`, { cause: error })
  }
}

function server(config: Social.ProviderConfig): oauth.AuthorizationServer {
  return {
    issuer: config.issuer,
    authorization_endpoint: config.authorization,
    token_endpoint: config.token,
    ...(config.userinfo && { userinfo_endpoint: config.userinfo }),
    ...(config.issParameter && { authorization_response_iss_parameter_supported: true }),
  }
}

type Options = { signal: () => AbortSignal; [oauth.allowInsecureRequests]: boolean }
type Request = (url: string) => Options

/**
 * Every request to a provider is aborted after `ms`. oauth4webapi refuses plain http; it is allowed only
 * to loopback hosts, where the devnet stand-in and tests run, never to another host.
 */
function requestOptions(ms: number): Request {
  return (url) => ({ signal: () => AbortSignal.timeout(ms), [oauth.allowInsecureRequests]: isLoopbackHttp(url) })
}

export function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url)
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]')
}

async function userInfo(as: oauth.AuthorizationServer, client: oauth.Client, accessToken: string, subject: string, options: Options) {
  const response = await oauth.userInfoRequest(as, client, accessToken, options)
  return (await oauth.processUserInfoResponse(as, client, subject, response)) as Record<string, unknown>
}

/** The OAuth 2 faces' own user-info calls, with the access token, in each provider's shape. */
async function oauth2Profile(provider: Social.Provider, config: Social.ProviderConfig, accessToken: string, request: Request): Promise<Profiles.Profile> {
  const get = (url: string) => resource(accessToken, url, request(url))
  if (!config.userinfo) throw new Invalid(`No user-info endpoint is configured for ${provider}`)
  switch (provider) {
    case 'github': {
      if (!config.emails) throw new Invalid('No emails endpoint is configured for github')
      const [user, emails] = await Promise.all([get(config.userinfo), get(config.emails)])
      return Profiles.github(object(user), emails)
    }
    case 'x':
      // X answers the picture and the confirmed email only when asked for them.
      return Profiles.x(object(await get(withFields(config.userinfo, 'user.fields', 'profile_image_url,confirmed_email'))))
    case 'discord':
      return Profiles.discord(object(await get(config.userinfo)), config.avatarBase)
    case 'facebook':
      // The Graph API answers only the id and name unless the fields are named.
      return Profiles.facebook(object(await get(withFields(config.userinfo, 'fields', 'id,name,email,picture'))))
    default:
      throw new Invalid(`${provider} is no OAuth 2 provider here`)
  }
}

/** The URL asking for `fields`, unless its configuration names them already. */
function withFields(url: string, name: string, fields: string): string {
  const asked = new URL(url)
  if (!asked.searchParams.has(name)) asked.searchParams.set(name, fields)
  return asked.href
}

/** A GET with the access token: the JSON of a 200, else Invalid. */
async function resource(accessToken: string, url: string, options: Options): Promise<unknown> {
  // GitHub's API refuses requests without a User-Agent.
  const headers = new Headers({ accept: 'application/json', 'user-agent': 'Doorway' })
  const response = await oauth.protectedResourceRequest(accessToken, 'GET', new URL(url), headers, null, options)
  if (response.status !== 200) throw new Invalid(`${url} answered ${response.status}`)
  return response.json()
}

function object(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  throw new Invalid('The user-info answer is no JSON object')
}
