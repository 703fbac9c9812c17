/**
 * What each provider's answer says of the person, as one profile (docs/embedded-wallet.md §5): a stable
 * subject, the email with whether the provider verified it, a name and a picture. Pure functions over the
 * JSON each provider documents; an answer without a subject is refused. `import * as Profiles from './profiles.js'`.
 */
import type { SocialProfile } from '../storage/Storage.js'

export type Profile = SocialProfile

/** An answer that cannot be read as the provider documents it. */
export class Unreadable extends Error {}

type Json = Record<string, unknown>

/** google: the ID token's (or user-info's) sub, email, email_verified (a boolean), name, picture. */
export function google(claims: Json): Profile {
  return profile({ subject: claims.sub, email: claims.email, emailVerified: claims.email_verified === true, username: claims.name, avatar: claims.picture })
}

/**
 * apple: sub and email; email_verified is the string 'true' in Apple's tokens (a boolean in some). No
 * picture, and the name only in the `user` form field of the person's first sign-in (Apple's docs): JSON
 * the person typed, never signed, so it is only a display name and never decides who they are.
 */
export function apple(claims: Json, user?: string | null): Profile {
  const verified = claims.email_verified === true || claims.email_verified === 'true'
  return profile({ subject: claims.sub, email: claims.email, emailVerified: verified, username: appleName(user), avatar: undefined })
}

/** `{"name":{"firstName":…,"lastName":…}}` as one name; undefined for anything else. */
function appleName(user: string | null | undefined): string | undefined {
  if (!user || user.length > 2_048) return undefined
  try {
    const name = (JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } } | null)?.name
    const parts = [name?.firstName, name?.lastName].filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    return parts.length ? parts.map((part) => part.trim()).join(' ') : undefined
  } catch {
    return undefined
  }
}

/**
 * github: /user's numeric id, login and avatar_url; the email is the primary one of /user/emails, with
 * whether GitHub verified it (its public `email` may be any address the person typed).
 */
export function github(user: Json, emails: unknown): Profile {
  const list = Array.isArray(emails) ? (emails as Json[]) : []
  const primary = list.find((e) => e && e.primary === true && typeof e.email === 'string')
  const subject = typeof user.id === 'number' && Number.isSafeInteger(user.id) && user.id > 0 ? String(user.id) : undefined
  return profile({ subject, email: primary?.email, emailVerified: primary?.verified === true, username: user.login, avatar: user.avatar_url })
}

/** x: /2/users/me's data; X gives confirmed_email only for an email it confirmed. */
export function x(answer: Json): Profile {
  const data = (typeof answer.data === 'object' && answer.data !== null ? answer.data : {}) as Json
  const email = data.confirmed_email
  return profile({ subject: data.id, email, emailVerified: typeof email === 'string', username: data.username, avatar: data.profile_image_url })
}

/** discord: /users/@me's id, email and verified, global_name (else username), and the avatar's CDN URL from its hash. */
export function discord(user: Json, avatarBase = 'https://cdn.discordapp.com'): Profile {
  const id = user.id
  const hash = user.avatar
  const avatar = typeof id === 'string' && /^\d+$/.test(id) && typeof hash === 'string' && /^(a_)?[0-9a-f]{1,64}$/.test(hash) ? `${avatarBase}/avatars/${id}/${hash}.png` : undefined
  return profile({ subject: id, email: user.email, emailVerified: user.verified === true, username: user.global_name ?? user.username, avatar })
}

/** facebook: /me's id, name, email and picture.data.url. Facebook only returns an email it confirmed, so one it returns is verified. */
export function facebook(user: Json): Profile {
  const picture = (user.picture as { data?: { url?: unknown } } | undefined)?.data?.url
  return profile({ subject: user.id, email: user.email, emailVerified: typeof user.email === 'string', username: user.name, avatar: picture })
}

/** At most what the answer to the device carries (shared/src/contracts/secureSite.ts): a name of 1–100 characters, an http(s) picture URL of at most 500. */
export const limits = { subject: 255, username: 100, avatar: 500, email: 254 } as const

function profile(raw: { subject: unknown; email: unknown; emailVerified: boolean; username: unknown; avatar: unknown }): Profile {
  const { subject } = raw
  if (typeof subject !== 'string' || subject === '' || subject.length > limits.subject) throw new Unreadable('The answer names no subject')
  const email = typeof raw.email === 'string' && raw.email !== '' && raw.email.length <= limits.email ? raw.email : null
  const username = typeof raw.username === 'string' ? raw.username.trim().slice(0, limits.username) || null : null
  return { subject, email, emailVerified: email !== null && raw.emailVerified, username, avatar: avatarOf(raw.avatar) }
}

function avatarOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > limits.avatar) return null
  try {
    return /^https?:$/.test(new URL(value).protocol) && /^https?:\/\//.test(value) ? value : null
  } catch {
    return null
  }
}
