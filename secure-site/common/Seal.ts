/**
 * Sealing bytes to a recipient's public key (docs/embedded-wallet.md §2): the secure-site seals the
 * recovery share R2 to the vault, and the vault re-seals it to a device's ephemeral key, so the
 * secure-site server only ever stores and forwards ciphertext. ECDH P-256 with a fresh ephemeral key,
 * HKDF-SHA-256, AES-256-GCM with caller-given associated data. WebCrypto only, for browser and Node.
 * Layout: version (1) ‖ ephemeral public key (65) ‖ iv (12) ‖ ciphertext with tag.
 * `import * as Seal from '@doorway/secure-site/common/Seal'`.
 */

const version = 1
const curve = { name: 'ECDH', namedCurve: 'P-256' } as const
const pointBytes = 65
const ivBytes = 12
const info = new TextEncoder().encode('doorway/seal/v1')

export function generateKeyPair(options: { extractable?: boolean } = {}): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(curve, options.extractable ?? false, ['deriveBits']) as Promise<CryptoKeyPair>
}

/** A public key as it is pinned or sent: the uncompressed point. */
export async function exportPublicKey(key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.exportKey('raw', key))
}

export async function seal(recipient: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  const peer = await crypto.subtle.importKey('raw', buffer(recipient), curve, false, [])
  const ephemeral = await generateKeyPair()
  const epk = await exportPublicKey(ephemeral.publicKey)
  const key = await derive(ephemeral.privateKey, peer, epk, ['encrypt'])
  const iv = crypto.getRandomValues(new Uint8Array(ivBytes))
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: buffer(aad) }, key, buffer(plaintext)))
  return concat(Uint8Array.of(version), epk, iv, ciphertext)
}

/** The plaintext, or a thrown error for a wrong key, wrong associated data or any altered byte. */
export async function open(recipient: CryptoKey, sealed: Uint8Array, aad: Uint8Array): Promise<Uint8Array> {
  if (sealed[0] !== version || sealed.length < 1 + pointBytes + ivBytes + 16) throw new Error('Not a sealed box')
  const epk = sealed.slice(1, 1 + pointBytes)
  const iv = sealed.slice(1 + pointBytes, 1 + pointBytes + ivBytes)
  const peer = await crypto.subtle.importKey('raw', buffer(epk), curve, false, [])
  const key = await derive(recipient, peer, epk, ['decrypt'])
  const plaintext = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: buffer(aad) }, key, buffer(sealed.slice(1 + pointBytes + ivBytes)))
  return new Uint8Array(plaintext)
}

async function derive(privateKey: CryptoKey, publicKey: CryptoKey, epk: Uint8Array, usages: KeyUsage[]): Promise<CryptoKey> {
  const secret = await crypto.subtle.deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256)
  const ikm = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: buffer(epk), info }, ikm, { name: 'AES-GCM', length: 256 }, false, usages)
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** WebCrypto's typings want ArrayBuffer-backed views. */
const buffer = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>
