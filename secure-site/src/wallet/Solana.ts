/**
 * The embedded wallet's Solana key (docs/embedded-wallet.md §1): the same entropy as the EVM account,
 * BIP-39 to a seed, then SLIP-0010 ed25519 at m/44'/501'/0'/0', the path Phantom and Solflare use, so
 * the exported key opens the same account there. The key stays on this origin: the frame gets the
 * address and signatures only. `import * as Solana from './Solana.js'` → `Solana.fromEntropy(secret)`.
 */
import * as Slip10 from '@doorway/shared/Slip10'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { entropyToMnemonic, mnemonicToSeedSync } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'

/** Phantom's and Solflare's default account. */
export const path = "m/44'/501'/0'/0'"

/** A base58 address: 32 bytes are 32 to 44 characters. */
export const addressPattern = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

export type Key = {
  /** base58 of the public key. */
  readonly address: string
  readonly publicKey: Uint8Array
  /** The 32-byte ed25519 seed; zeroed by `forget` when the wallet locks. */
  readonly privateKey: Uint8Array
}

/** The Solana key of the wallet's 16 bytes of entropy. */
export function fromEntropy(secret: Uint8Array): Key {
  const seed = mnemonicToSeedSync(entropyToMnemonic(secret, wordlist))
  try {
    return fromSeed(seed)
  } finally {
    seed.fill(0)
  }
}

/** The Solana key of a BIP-39 seed. */
export function fromSeed(seed: Uint8Array): Key {
  const { privateKey, chainCode } = Slip10.derive(seed, path)
  chainCode.fill(0)
  const publicKey = ed25519.getPublicKey(privateKey)
  return { address: base58.encode(publicKey), publicKey, privateKey }
}

/**
 * An ed25519 signature over exactly `message`. A key zeroed by `forget` (the wallet locked or signed
 * out while the person was deciding) signs nothing rather than signing with a key that is not theirs.
 */
export function sign(key: Key, message: Uint8Array): Uint8Array {
  if (key.privateKey.every((byte) => byte === 0)) throw new Error('The Solana key was locked: nothing is signed')
  return ed25519.sign(message, key.privateKey)
}

/** Drops the private key from memory (the wallet locked). */
export function forget(key: Key): void {
  key.privateKey.fill(0)
}

/**
 * What key export shows (docs/embedded-wallet.md §8): base58 of the 64-byte secret key, private then
 * public, the form Phantom and Solflare import and `Keypair.fromSecretKey` takes.
 */
export function exportable(secret: Uint8Array): string {
  const key = fromEntropy(secret)
  const secretKey = new Uint8Array(64)
  secretKey.set(key.privateKey)
  secretKey.set(key.publicKey, 32)
  try {
    return base58.encode(secretKey)
  } finally {
    secretKey.fill(0)
    forget(key)
  }
}
