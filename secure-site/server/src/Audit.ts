/**
 * The user's audit log (docs/embedded-wallet.md §10): append-only and hash-chained per user, so a
 * row changed, dropped or reordered in the database shows. Each entry's hash is
 * `sha256hex(prevHash ‖ canonical({ seq, userId, at, kind, detail }))`, the first entry's prevHash is
 * 64 zeros, and canonical JSON sorts object keys at every depth: the same bytes the browser hashes
 * (common/AuditChain.ts), whose `canonical` and `genesis` these are. `import * as Audit from './Audit.js'`.
 */
import { createHash } from 'node:crypto'
import { canonical, genesis } from '@doorway/secure-site/common/AuditChain'

export { canonical, genesis }

/** What the server records; never a share, a code or a key. */
export const kinds = {
  deviceEnrolled: 'device.enrolled',
  codeSent: 'code.sent',
  codeVerified: 'code.verified',
  walletCreated: 'wallet.created',
  shareReleased: 'share.released',
  recoveryReleased: 'recovery.released',
  approvalRequested: 'approval.requested',
  codeCancelled: 'code.cancelled',
  deviceShareStored: 'device.shareStored',
  sessionEnded: 'session.ended',
  keyExported: 'key.exported',
  deviceRevoked: 'device.revoked',
  // docs/embedded-wallet.md §5: a redeemed social sign-in; a provider's account linked to the user, or
  // waiting for the owner's approval of the device before it is.
  socialVerified: 'social.verified',
  socialLinked: 'social.linked',
  socialLinkRequested: 'social.linkRequested',
} as const

export type Entry = { seq: number; userId: string; at: number; kind: string; detail: Record<string, unknown> }

export function hash(prevHash: string, entry: Entry): string {
  const { seq, userId, at, kind, detail } = entry
  return createHash('sha256').update(prevHash).update(canonical({ seq, userId, at, kind, detail })).digest('hex')
}

/** Checks one user's entries, in order from the first: the first broken link, or ok. */
export function verifyChain(entries: readonly (Entry & { prevHash: string; hash: string })[]): { ok: true } | { ok: false; seq: number } {
  let prev = genesis
  for (const [i, entry] of entries.entries()) {
    if (entry.seq !== i + 1 || entry.prevHash !== prev || entry.hash !== hash(prev, entry)) return { ok: false, seq: entry.seq }
    prev = entry.hash
  }
  return { ok: true }
}
