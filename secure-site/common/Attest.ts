/**
 * What the vault vouches for (docs/embedded-wallet.md §2): the wallet it registered, and each re-seal of
 * R2 to a device key the person approved. The vault signs these statements with its own ECDSA P-256 key,
 * whose public half is pinned in the secure-site build, so a device can refuse a wallet or a re-sealed
 * share that a malicious server substitutes: the server holds no key that makes these signatures.
 * WebCrypto only, for browser and Node. `import * as Attest from '@doorway/secure-site/common/Attest'`.
 */
import * as Base64url from './Base64url.js'

/** ECDSA P-256 / SHA-256; signatures are the 64-byte r‖s as base64url (86 chars). */
export const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const
const signing = { name: 'ECDSA', hash: 'SHA-256' } as const

export type Statement =
  /** The wallet the vault registered. */
  | { kind: 'wallet'; userId: string; email: string; address: string }
  /** `device`: fingerprint of the device seal key point it was re-sealed to; `sealed`: fingerprint of the re-sealed bytes. */
  | { kind: 'reseal'; userId: string; email: string; address: string; device: string; sealed: string }
  /** The head of the user's audit chain the vault was told: the entry at `seq` has this `hash` (docs/embedded-wallet.md §10). */
  | { kind: 'auditHead'; userId: string; seq: number; hash: string }

// Versioned, so a statement of another protocol or version can never verify as one of these.
const domain = 'doorway/vault/v1'

/**
 * Canonical bytes: `doorway/vault/v1\n<kind>\n` + the fields in the type's order joined by '\n', the
 * address lowercased and a seq in decimal. A field holding '\n' throws: it could shift the fields of one
 * statement into another.
 */
export function encode(statement: Statement): Uint8Array {
  const fields = fieldsOf(statement)
  for (const field of fields) if (typeof field !== 'string' || field.includes('\n')) throw new Error('A statement field must be a string without a line break')
  return new TextEncoder().encode([domain, statement.kind, ...fields].join('\n'))
}

function fieldsOf(statement: Statement): unknown[] {
  if (statement.kind === 'auditHead') {
    const { userId, seq, hash } = statement
    // One text per seq: a whole number from 1, never a string or a fraction that prints like one.
    if (!Number.isSafeInteger(seq) || seq < 1) throw new Error('An audit head names a whole seq from 1')
    return [userId, String(seq), hash]
  }
  const { userId, email, address } = statement
  const common = [userId, email, typeof address === 'string' ? address.toLowerCase() : address]
  if (statement.kind === 'wallet') return common
  if (statement.kind === 'reseal') return [...common, statement.device, statement.sealed]
  throw new Error(`Unknown statement kind ${String((statement as { kind: unknown }).kind)}`)
}

export async function sign(key: CryptoKey, statement: Statement): Promise<string> {
  const signature = await crypto.subtle.sign(signing, key, buffer(encode(statement)))
  return Base64url.encode(new Uint8Array(signature))
}

/** False for a bad signature, wrong length, bad base64url, or a point that does not import; never throws. */
export async function verify(publicKey: Uint8Array, statement: Statement, signature: string): Promise<boolean> {
  try {
    if (typeof signature !== 'string' || !/^[\w-]{86}$/.test(signature)) return false
    const key = await crypto.subtle.importKey('raw', buffer(publicKey), algorithm, false, ['verify'])
    return await crypto.subtle.verify(signing, key, Base64url.decode(signature), buffer(encode(statement)))
  } catch {
    return false
  }
}

/** SHA-256 hex of bytes (what tickets and statements name keys and ciphertexts by). */
export async function fingerprint(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer(bytes)))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** WebCrypto's typings want ArrayBuffer-backed views. */
const buffer = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>
