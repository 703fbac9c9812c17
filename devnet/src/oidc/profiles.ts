/**
 * What each devnet social provider says about a person (provider.ts): the OIDC faces' claims, and the
 * OAuth 2 faces' user-info endpoints in the real providers' shapes (docs/embedded-wallet.md §5): GitHub
 * `GET /user` and `/user/emails`, X `GET /2/users/me`, Discord `GET /api/users/@me`, Facebook `GET /me`.
 */
import type { Face } from './faces.js'
import { type Person, avatarHash } from './users.js'

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }
export type OAuth2Face = Exclude<Face, 'google' | 'apple'>

/** A person's picture, served by the devnet itself (provider.ts) so that nothing leaves loopback. */
export const pictureUrl = (issuer: string, subject: string) => `${issuer}/avatars/${subject}.svg`

/** Every claim an OIDC face has for the person; oidc-provider releases the ones the granted scopes name. */
export function claims(face: 'google' | 'apple', issuer: string, subject: string, person: Person): Record<string, Json> {
  const { email, emailVerified, name } = person
  if (face === 'google')
    return { sub: subject, ...(email ? { email, email_verified: emailVerified } : {}), ...(name ? { name } : {}), picture: pictureUrl(issuer, subject) }
  // Apple sends these booleans as the strings "true" and "false".
  return email
    ? { sub: subject, email, email_verified: String(emailVerified), is_private_email: String(email.endsWith('@privaterelay.appleid.com')) }
    : { sub: subject }
}

/** Apple's `user` form field, sent on a person's first sign-in only: the name and email as typed. */
export function appleUser(person: Person, scopes: ReadonlySet<string>): string | undefined {
  const [firstName = '', ...rest] = (person.name ?? '').split(' ')
  const user = {
    ...(scopes.has('name') && person.name ? { name: { firstName, lastName: rest.join(' ') } } : {}),
    ...(scopes.has('email') && person.email ? { email: person.email } : {}),
  }
  return Object.keys(user).length ? JSON.stringify(user) : undefined
}

export type Request = { issuer: string; subject: string; person: Person; scopes: ReadonlySet<string>; query: URLSearchParams }
export type Answer = { status: number; body: Json }

export type UserInfoRoute = {
  face: OAuth2Face
  /** Below the face's root, e.g. `/api/user` for `/github/api/user`. */
  path: string
  /** Scopes the access token must carry, else 403. */
  requires: readonly string[]
  answer(request: Request): Answer
}

const ok = (body: Json): Answer => ({ status: 200, body })

export const userInfoRoutes: readonly UserInfoRoute[] = [
  { face: 'github', path: '/api/user', requires: [], answer: githubUser },
  { face: 'github', path: '/api/user/emails', requires: ['user:email'], answer: githubEmails },
  { face: 'x', path: '/2/users/me', requires: ['tweet.read', 'users.read'], answer: xMe },
  { face: 'discord', path: '/api/users/@me', requires: ['identify'], answer: discordMe },
  { face: 'facebook', path: '/me', requires: [], answer: facebookMe },
]

// GitHub keeps emails private by default: the public `email` is null and /user/emails has the address.
function githubUser({ issuer, subject, person }: Request): Answer {
  return ok({ id: Number(subject), login: person.username, name: person.name ?? null, avatar_url: pictureUrl(issuer, subject), email: null })
}

function githubEmails({ person }: Request): Answer {
  return ok(person.email ? [{ email: person.email, primary: true, verified: person.emailVerified, visibility: 'private' }] : [])
}

// X answers id, name and username, and the `user.fields` asked for; confirmed_email only when confirmed.
function xMe({ issuer, subject, person, scopes, query }: Request): Answer {
  const fields = new Set((query.get('user.fields') ?? '').split(','))
  const { email, emailVerified } = person
  return ok({
    data: {
      id: subject,
      name: person.name ?? person.username,
      username: person.username,
      ...(fields.has('profile_image_url') ? { profile_image_url: pictureUrl(issuer, subject) } : {}),
      ...(fields.has('confirmed_email') && scopes.has('users.email') && email && emailVerified ? { confirmed_email: email } : {}),
    },
  })
}

function discordMe({ subject, person, scopes }: Request): Answer {
  return ok({
    id: subject,
    username: person.username,
    global_name: person.name ?? null,
    avatar: avatarHash(subject),
    discriminator: '0',
    ...(scopes.has('email') ? { email: person.email ?? null, verified: person.email ? person.emailVerified : false } : {}),
  })
}

const facebookFields = new Set(['id', 'name', 'email', 'picture'])

// The Graph API answers the `fields` asked for (id and name by default) and refuses unknown ones;
// the email needs the email permission and a confirmed address.
function facebookMe({ issuer, subject, person, scopes, query }: Request): Answer {
  const fields = (query.get('fields') ?? 'id,name').split(',').map((field) => field.trim().split(/[.{]/)[0] ?? '')
  const unknown = fields.find((field) => !facebookFields.has(field))
  if (unknown !== undefined)
    return { status: 400, body: { error: { message: `(#100) Tried accessing nonexisting field (${unknown})`, type: 'OAuthException', code: 100 } } }
  const values: Record<string, Json> = {
    id: subject,
    name: person.name ?? person.username,
    ...(scopes.has('email') && person.email && person.emailVerified ? { email: person.email } : {}),
    picture: { data: { height: 50, is_silhouette: false, url: pictureUrl(issuer, subject), width: 50 } },
  }
  return ok(Object.fromEntries(fields.filter((field) => field in values).map((field) => [field, values[field]!])))
}

/** Each provider's answer to a missing, unknown or expired token (401). */
export const unauthorized: Readonly<Record<OAuth2Face, Json>> = {
  github: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
  x: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
  discord: { message: '401: Unauthorized', code: 0 },
  facebook: { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190 } },
}

/** Each provider's answer to a token without the scope an endpoint needs (403). */
export const forbidden: Readonly<Record<OAuth2Face, Json>> = {
  github: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' },
  x: { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Forbidden' },
  discord: { message: 'Missing Access', code: 50001 },
  facebook: { error: { message: '(#200) Permissions error', type: 'OAuthException', code: 200 } },
}

/** A round picture with the person's initial, for `pictureUrl`. */
export function avatarSvg(person: Person, subject: string): string {
  const initial = /[a-z0-9]/i.exec(person.name ?? person.username)?.[0]?.toUpperCase() ?? '?'
  const hue = parseInt(avatarHash(subject).slice(0, 4), 16) % 360
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="hsl(${hue} 55% 45%)"/><text x="48" y="62" font-family="sans-serif" font-size="44" text-anchor="middle" fill="#fff">${initial}</text></svg>`
}
