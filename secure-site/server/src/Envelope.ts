/**
 * The server's envelope for the shares it keeps in clear on arrival (A_i and R1, docs/embedded-wallet.md §2): AES-256-GCM
 * under KEK_A, a key that lives outside the database (a file or the environment; a KMS in production),
 * with associated data binding each ciphertext to its row (user‖device), so a ciphertext moved to
 * another row does not open. Layout: iv (12) ‖ ciphertext with tag. `import * as Envelope from './Envelope.js'`.
 */
const ivBytes = 12
const buffer = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>

/** KEK_A from its 32 raw bytes; usable, never exportable. */
export async function importKey(raw: Uint8Array): Promise<CryptoKey> {
  if (raw.length !== 32) throw new Error('KEK_A must be 32 bytes')
  return crypto.subtle.importKey('raw', buffer(raw), 'AES-GCM', false, ['encrypt', 'decrypt'])
}

export async function encrypt(key: CryptoKey, plaintext: Uint8Array, aad: string): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(ivBytes))
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(aad) }, key, buffer(plaintext))
  const out = new Uint8Array(ivBytes + ciphertext.byteLength)
  out.set(iv)
  out.set(new Uint8Array(ciphertext), ivBytes)
  return out
}

/** The plaintext; throws for another key, another row's associated data, or any altered byte. */
export async function decrypt(key: CryptoKey, envelope: Uint8Array, aad: string): Promise<Uint8Array> {
  const plaintext = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: buffer(envelope.slice(0, ivBytes)), additionalData: new TextEncoder().encode(aad) },
    key,
    buffer(envelope.slice(ivBytes)),
  )
  return new Uint8Array(plaintext)
}
