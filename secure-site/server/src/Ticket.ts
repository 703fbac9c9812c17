/**
 * The ticket the secure-site server gives the vault with each call (docs/embedded-wallet.md §2): signed
 * with the server's own ECDSA P-256 ticket key, it says which user, for which purpose, names the sealed
 * share and the device key by fingerprint, lives 2 minutes and is used once. A ticket proves only that
 * the server asks: the vault re-seals R2 only to a device the person approved from the vault's own mail.
 * `import * as Ticket from './Ticket.js'`.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Ids from '@doorway/shared/Ids'

/** How a ticket names the sealed share and the device key: their SHA-256, in hex (the vault's statements do too). */
export const fingerprint = Attest.fingerprint

/** A ticket is good this long after it is issued, and never longer. */
export const lifetimeMs = 2 * 60_000

/**
 * The vault route a ticket opens; a ticket for one never opens another. `head` tells the vault the audit
 * chain's new head, `readHead` asks for its signed statement of it (docs/embedded-wallet.md §10).
 */
export const purposes = ['register', 'approve', 'reseal', 'revoke', 'head', 'readHead'] as const
export type Purpose = (typeof purposes)[number]

export type Claims = {
  purpose: Purpose
  userId: string
  /** Fingerprint of the sealed R2 the call is about, when it names one. */
  sealed?: string
  /** Fingerprint of the device seal key point the call is about, when it names one. */
  device?: string
  exp: number
  jti: string
}

const signing = { name: 'ECDSA', hash: 'SHA-256' } as const
export const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const

// The user id is printed into the vault's signed statements, whose fields are separated by line breaks.
const userIdPattern = /^[\x21-\x7e]{1,128}$/
const fingerprintPattern = /^[0-9a-f]{64}$/

export async function issue(key: CryptoKey, options: issue.Options): Promise<{ ticket: string; signature: string }> {
  const claims: Claims = { purpose: options.purpose, userId: options.userId, exp: options.now + lifetimeMs, jti: Ids.random() }
  if (options.sealed) claims.sealed = await fingerprint(options.sealed)
  if (options.device) claims.device = await fingerprint(options.device)
  const ticket = Base64url.encode(new TextEncoder().encode(JSON.stringify(claims)))
  const signature = new Uint8Array(await crypto.subtle.sign(signing, key, new TextEncoder().encode(ticket)))
  return { ticket, signature: Base64url.encode(signature) }
}

export declare namespace issue {
  type Options = { purpose: Purpose; userId: string; sealed?: Uint8Array; device?: Uint8Array; now: number }
}

/** The claims of a ticket the key signed, or undefined for a forged, malformed or expired one, or an unknown purpose. */
export async function read(publicKey: CryptoKey, ticket: string, signature: string, now: number): Promise<Claims | undefined> {
  if (typeof ticket !== 'string' || typeof signature !== 'string' || !/^[\w-]{1,2048}$/.test(ticket) || !/^[\w-]{86}$/.test(signature)) return undefined
  const valid = await crypto.subtle.verify(signing, publicKey, Base64url.decode(signature), new TextEncoder().encode(ticket))
  if (!valid) return undefined
  let claims: unknown
  try {
    claims = JSON.parse(new TextDecoder().decode(Base64url.decode(ticket)))
  } catch {
    return undefined
  }
  if (typeof claims !== 'object' || claims === null) return undefined
  const { purpose, userId, sealed, device, exp, jti } = claims as Record<string, unknown>
  if (!purposes.includes(purpose as Purpose) || typeof userId !== 'string' || !userIdPattern.test(userId)) return undefined
  if (!optionalFingerprint(sealed) || !optionalFingerprint(device) || typeof exp !== 'number' || !Ids.isId(jti)) return undefined
  if (exp <= now || exp > now + lifetimeMs) return undefined
  return { purpose: purpose as Purpose, userId, ...(sealed !== undefined && { sealed }), ...(device !== undefined && { device }), exp, jti }
}

const optionalFingerprint = (value: unknown): value is string | undefined => value === undefined || (typeof value === 'string' && fingerprintPattern.test(value))
