/**
 * The fresh-auth ticket the secure-site server gives a device for the vault (notes/embedded-wallet.md
 * §4.2): after a fresh code (and new-device approval) the server signs, with its own ECDSA P-256 ticket
 * key, which sealed R2 may be re-sealed to which device key, for how long, once. The vault trusts
 * nothing else; the server never sees R2 in clear. `import * as Ticket from './Ticket.js'`.
 */
import * as Ids from '@doorway/shared/Ids'
import { base64url, fromBase64url, sha256Hex } from './bytes.js'

/** A ticket is good this long after it is issued, and never longer. */
export const lifetimeMs = 2 * 60_000

export type Claims = { userId: string; sealed: string; device: string; exp: number; jti: string }

const signing = { name: 'ECDSA', hash: 'SHA-256' } as const
export const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const

export async function issue(key: CryptoKey, options: { userId: string; sealed: Uint8Array; device: Uint8Array; now: number }): Promise<{ ticket: string; signature: string }> {
  const claims: Claims = {
    userId: options.userId,
    sealed: await sha256Hex(options.sealed),
    device: await sha256Hex(options.device),
    exp: options.now + lifetimeMs,
    jti: Ids.random(),
  }
  const ticket = base64url(new TextEncoder().encode(JSON.stringify(claims)))
  const signature = new Uint8Array(await crypto.subtle.sign(signing, key, new TextEncoder().encode(ticket)))
  return { ticket, signature: base64url(signature) }
}

/** The claims of a ticket the key signed, or undefined for a forged, malformed or expired one. */
export async function read(publicKey: CryptoKey, ticket: string, signature: string, now: number): Promise<Claims | undefined> {
  if (!/^[\w-]{1,2048}$/.test(ticket) || !/^[\w-]{86}$/.test(signature)) return undefined
  const valid = await crypto.subtle.verify(signing, publicKey, fromBase64url(signature), new TextEncoder().encode(ticket))
  if (!valid) return undefined
  let claims: Partial<Claims>
  try {
    claims = JSON.parse(new TextDecoder().decode(fromBase64url(ticket))) as Partial<Claims>
  } catch {
    return undefined
  }
  const { userId, sealed, device, exp, jti } = claims
  if (typeof userId !== 'string' || typeof sealed !== 'string' || typeof device !== 'string' || typeof exp !== 'number' || !Ids.isId(jti)) return undefined
  if (exp <= now || exp > now + lifetimeMs) return undefined
  return { userId, sealed, device, exp, jti }
}
