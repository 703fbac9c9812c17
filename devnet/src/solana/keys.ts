/**
 * The devnet's Solana keys: the EVM test mnemonic ("test test … junk", tokens.ts) read as Solana wallets
 * read it, at m/44'/501'/<index>'/0' (SLIP-0010), so the same words fund both chains' dev accounts.
 * `import * as Keys from './keys.js'` → `Keys.keypair(0)`, `Keys.address(0)`.
 */
import * as Slip10 from '@doorway/shared/Slip10'
import { mnemonicToSeedSync } from '@scure/bip39'
import { Keypair } from '@solana/web3.js'
import { mnemonic } from '../tokens.js'

// PBKDF2 with 2048 rounds is slow enough to matter when every dev key is derived at start.
let seed: Uint8Array | undefined

/** The derivation path of dev key `index` (a hardened account index, as Phantom and Solflare use). */
export function path(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= 0x8000_0000) throw new Error(`A Solana key index is an integer from 0 to 2^31 - 1, not ${index}`)
  return `m/44'/501'/${index}'/0'`
}

/** Dev key `index` of the test mnemonic. */
export function keypair(index: number): Keypair {
  seed ??= mnemonicToSeedSync(mnemonic)
  return Keypair.fromSeed(Slip10.derive(seed, path(index)).privateKey)
}

/** Dev key `index`'s address (base58). */
export function address(index: number): string {
  return keypair(index).publicKey.toBase58()
}
