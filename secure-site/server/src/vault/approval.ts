/**
 * The rules of a new-device approval (docs/embedded-wallet.md §4 VERIFY_DEVICE), which the server-facing
 * routes and the person's pages both apply. `import * as Approval from './vault/approval.js'`.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import type * as Page from './page.js'
import type * as Store from './store.js'

export const hourMs = 3_600_000
/** An approval link lives 15 minutes. */
export const lifetimeMs = 15 * 60_000
/** At most 5 approval mails per user an hour, as the code mails (§4 send cap). */
export const mailLimit: Store.Limit = { max: 5, windowMs: hourMs }
/** At most 20 re-seals per user an hour. */
export const resealLimit: Store.Limit = { max: 20, windowMs: hourMs }

/** A new link's token: 32 random bytes, base64url (43 characters). */
export function token(): string {
  return Base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
}

export const tokenPattern = /^[\w-]{43}$/

/** How the store keeps a token: its SHA-256, so a copy of the database opens no link. */
export function tokenHash(token: string): Promise<string> {
  return Attest.fingerprint(new TextEncoder().encode(token))
}

/** Why an approval can no longer be decided, or undefined while it can. */
export function closed(approval: Store.Approval, device: Store.Device | undefined, now: number): Exclude<Page.Refusal, 'unknown' | 'decision' | 'tooLarge' | 'error'> | undefined {
  // A device removed after it was asked for: its old links must not bring it back.
  if (device?.revokedAt != null && device.revokedAt >= approval.createdAt) return 'revoked'
  if (approval.state === 'approved' || approval.state === 'denied') return 'used'
  if (approval.state === 'superseded') return 'superseded'
  if (approval.expiresAt <= now) return 'expired'
  return undefined
}
