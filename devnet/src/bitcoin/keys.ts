/**
 * The devnet's Bitcoin payment keys: BIP84 (native segwit, P2WPKH) keys on regtest, derived from the
 * devnet's test mnemonic (tokens.ts, anvil's), so every developer and test has the same funded
 * `bcrt1q…` addresses. Dev only, never shipped. `import * as BitcoinKeys from './bitcoin/keys.js'`.
 */
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { type NETWORK, p2wpkh } from '@scure/btc-signer'
import * as Tokens from '../tokens.js'

/** Regtest's address prefixes: bech32 `bcrt`, base58 versions as testnet's. */
export const network: typeof NETWORK = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }

/** CAIP-2 of regtest: `bip122:` and the first 32 hex characters of its genesis block hash. */
export const chainId = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const

/** A payment key: the first external chain of BIP84 account 0, coin type 1 (every test network). */
export type PaymentKey = {
  /** bcrt1q…: P2WPKH of the compressed public key. */
  readonly address: string
  /** 33 bytes, compressed. */
  readonly publicKey: Uint8Array
  /** 32 bytes. */
  readonly privateKey: Uint8Array
  /** m/84'/1'/0'/0/index. */
  readonly path: string
}

// The seed costs 2048 PBKDF2 rounds: made once, on first use.
let root: HDKey | undefined
const master = () => (root ??= HDKey.fromMasterSeed(mnemonicToSeedSync(Tokens.mnemonic)))

/** The payment key at m/84'/1'/0'/0/index. */
export function payment(index: number): PaymentKey {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31) throw new RangeError(`A key index is an integer from 0 to 2^31 - 1, not ${index}`)
  const path = `m/84'/1'/0'/0/${index}`
  const { publicKey, privateKey } = master().derive(path)
  // Both exist for a key derived from a seed; checked so the types say so.
  if (!publicKey || !privateKey) throw new Error(`No key at ${path}`)
  const address = p2wpkh(publicKey, network).address
  if (!address) throw new Error(`No address for ${path}`)
  return { address, publicKey, privateKey, path }
}
