/**
 * The fresh-auth ticket the secure-site server gives a device for the vault (docs/embedded-wallet.md
 * §2): after a fresh code (and new-device approval) the server signs, with its own ECDSA P-256 ticket
 * key, which sealed R2 may be re-sealed to which device key, for how long, once. The vault trusts
 * nothing else; the server never sees R2 in clear. `import * as Ticket from './Ticket.js'`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Ids from '@doorway/shared/Ids'

/** A ticket is good this long after it is issued, and never longer. */
export const lifetimeMs = 2 * 60_000

export type Claims = { userId: string; sealed: string; device: string; exp: number; jti: string }

const signing = { name: 'ECDSA', hash: 'SHA-256' } as const
export const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const

export async function issue(key: CryptoKey, options: { userId: string; sealed: Uint8Array; device: Uint8Array; now: number }): Promise<{ ticket: string; signature: string }> {
  const claims: Claims = {
    userId: options.userId,
    sealed: await fingerprint(options.sealed),
    device: await fingerprint(options.device),
    exp: options.now + lifetimeMs,
    jti: Ids.random(),
  }
  const ticket = Base64url.encode(new TextEncoder().encode(JSON.stringify(claims)))
  const signature = new Uint8Array(await crypto.subtle.sign(signing, key, new TextEncoder().encode(ticket)))
  return { ticket, signature: Base64url.encode(signature) }
}

/** The claims of a ticket the key signed, or undefined for a forged, malformed or expired one. */
export async function read(publicKey: CryptoKey, ticket: string, signature: string, now: number): Promise<Claims | undefined> {
  if (!/^[\w-]{1,2048}$/.test(ticket) || !/^[\w-]{86}$/.test(signature)) return undefined
  const valid = await crypto.subtle.verify(signing, publicKey, Base64url.decode(signature), new TextEncoder().encode(ticket))
  if (!valid) return undefined
  let claims: Partial<Claims>
  try {
    claims = JSON.parse(new TextDecoder().decode(Base64url.decode(ticket))) as Partial<Claims>
  } catch {
    return undefined
  }
  const { userId, sealed, device, exp, jti } = claims
  if (typeof userId !== 'string' || typeof sealed !== 'string' || typeof device !== 'string' || typeof exp !== 'number' || !Ids.isId(jti)) return undefined
  if (exp <= now || exp > now + lifetimeMs) return undefined
  return { userId, sealed, device, exp, jti }
}

/** How a ticket names the sealed share and the device key: their SHA-256, in hex. */
export async function fingerprint(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}
