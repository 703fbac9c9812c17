/**
 * SLIP-0010 key derivation for ed25519 (https://github.com/satoshilabs/slips/blob/master/slip-0010.md):
 * what Solana wallets use to turn a BIP-39 seed into a key at `m/44'/501'/<account>'/0'`. ed25519 has no
 * public-key derivation, so every segment must be hardened. `import * as Slip10 from './Slip10.js'` →
 * `Slip10.derive(seed, "m/44'/501'/0'/0'")`. The secure-site, the devnet and the dev wallet share it.
 */
import { hmac } from '@noble/hashes/hmac'
import { sha512 } from '@noble/hashes/sha2'

export type Key = {
  /** The 32-byte ed25519 seed (what `Keypair.fromSeed` and `ed25519.getPublicKey` take). */
  privateKey: Uint8Array
  chainCode: Uint8Array
}

const hardenedOffset = 0x8000_0000
const masterSecret = new TextEncoder().encode('ed25519 seed')

/** The key at `path` ("m" or "m/44'/501'/0'/0'"; `h` or `H` may stand for `'`). */
export function derive(seed: Uint8Array, path: string): Key {
  // BIP-32 bounds a seed to 128–512 bits
  if (seed.length < 16 || seed.length > 64) throw new Error(`A SLIP-0010 seed is 16 to 64 bytes, not ${seed.length}`)
  let key = master(seed)
  for (const index of parsePath(path)) key = child(key, index)
  return key
}

/** The path's indexes, each without its hardened bit. */
export function parsePath(path: string): number[] {
  const segments = path.split('/')
  if (segments[0] !== 'm') throw new Error(`A derivation path starts with "m", not "${path}"`)
  return segments.slice(1).map((segment) => {
    const match = /^(\d{1,10})(['hH]?)$/.exec(segment)
    if (!match) throw new Error(`"${segment}" in "${path}" is not a path segment (e.g. 44')`)
    // ed25519 cannot derive a public child, so an unhardened segment would silently mean another key
    if (!match[2]) throw new Error(`ed25519 derives hardened segments only: write ${segment}' in "${path}"`)
    const index = Number(match[1])
    if (index >= hardenedOffset) throw new Error(`${segment} in "${path}" is over the largest index, ${hardenedOffset - 1}'`)
    return index
  })
}

function master(seed: Uint8Array): Key {
  return split(hmac(sha512, masterSecret, seed))
}

function child(parent: Key, index: number): Key {
  const data = new Uint8Array(37)
  data.set(parent.privateKey, 1) // 0x00 || key || ser32(index + 2^31)
  new DataView(data.buffer).setUint32(33, index + hardenedOffset)
  return split(hmac(sha512, parent.chainCode, data))
}

function split(digest: Uint8Array): Key {
  return { privateKey: digest.slice(0, 32), chainCode: digest.slice(32) }
}
