/**
 * The audit chain as the browser checks it (docs/embedded-wallet.md §10): the server's hashing
 * (secure-site/server/src/Audit.ts) in WebCrypto, so the secure-site can recompute every link of the log
 * `GET /v1/audit` lists, and hold it against the vault's signed statement of the chain's head. A thief
 * with the database can rewrite the log and recompute every hash after the row they changed; they cannot
 * make the vault's key sign the new head, and the vault keeps the head it was told, append-only.
 * `import * as AuditChain from '@doorway/secure-site/common/AuditChain'`.
 */
import * as Attest from './Attest.js'

/** The previous hash of the first entry. */
export const genesis = '0'.repeat(64)

/** An entry as GET /v1/audit lists it; the user is the session's, which the device knows. */
export type Listed = { seq: number; at: number; kind: string; detail: Record<string, unknown>; hash: string }

/** The vault's statement of the head: the entry at `seq` has `hash`, signed with its pinned key. */
export type Head = { seq: number; hash: string; signature: string }

/**
 * `verified`: every link holds and the newest entry is the one the vault vouches for. `unconfirmed`:
 * the links hold, but the vault vouches for none, or only for an older entry (it missed the newest
 * appends). `changed`: a link is broken, the vault's signature does not verify, or the entry at the
 * vault's seq is missing or has another hash.
 */
export type Verdict = { state: 'verified' | 'unconfirmed' } | { state: 'changed'; /** The first entry that does not hold. */ seq: number }

/** JSON with object keys sorted at every depth: the bytes the hash covers. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

/** `sha256hex(prevHash ‖ canonical({ seq, userId, at, kind, detail }))`, as Audit.ts hashes on the server. */
export async function hash(prevHash: string, entry: { seq: number; userId: string; at: number; kind: string; detail: Record<string, unknown> }): Promise<string> {
  const { seq, userId, at, kind, detail } = entry
  return Attest.fingerprint(new TextEncoder().encode(prevHash + canonical({ seq, userId, at, kind, detail })))
}

/** The first broken link of `userId`'s entries listed from seq 1, or undefined when every link holds. */
export async function broken(userId: string, entries: readonly Listed[]): Promise<number | undefined> {
  let prev = genesis
  for (const [i, entry] of entries.entries()) {
    if (entry.seq !== i + 1 || entry.hash !== (await hash(prev, { ...entry, userId }))) return entry.seq
    prev = entry.hash
  }
  return undefined
}

/** The whole check: the chain itself, then the vault's signed head against the entry at its seq. */
export async function check(options: check.Options): Promise<Verdict> {
  const { userId, entries, head, vaultSigningKey } = options
  const link = await broken(userId, entries)
  if (link !== undefined) return { state: 'changed', seq: link }
  if (!head) return { state: 'unconfirmed' }
  const vouched = await Attest.verify(vaultSigningKey, { kind: 'auditHead', userId, seq: head.seq, hash: head.hash }, head.signature)
  // The vault is told each head after its entry is stored, so its seq is never ahead of an untouched log.
  if (!vouched || entries[head.seq - 1]?.hash !== head.hash) return { state: 'changed', seq: head.seq }
  return { state: head.seq === entries.length ? 'verified' : 'unconfirmed' }
}

export declare namespace check {
  type Options = {
    userId: string
    entries: readonly Listed[]
    /** The vault's statement as the server passed it on; null when the vault vouched for none. */
    head: Head | null
    /** The vault's signing key, pinned in the build. */
    vaultSigningKey: Uint8Array
  }
}
