/**
 * The wallet's entropy and its two independent 2-of-2 splits (docs/embedded-wallet.md §1, §2):
 * a device pair (D on this device, A on the server) and a recovery pair (R1 on the server under its
 * key, R2 sealed to the vault). Either pair rebuilds the entropy; one share of each does not. Shamir
 * shares carry no integrity, so every combine is checked against the address the device recorded.
 * `import * as Shares from '@doorway/secure-site/common/Shares'`.
 */
import { entropyToMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { combine as combineShares, split } from 'shamir-secret-sharing'
import { mnemonicToAccount } from 'viem/accounts'

/** 16 bytes: a 12-word BIP-39 mnemonic. */
export const entropyBytes = 16

export function entropy(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(entropyBytes))
}

export type Split = { device: Uint8Array; server: Uint8Array; recovery1: Uint8Array; recovery2: Uint8Array }

/** Two independent splits of the same entropy. */
export async function splitTwice(secret: Uint8Array): Promise<Split> {
  const [device, server] = await split(secret, 2, 2)
  const [recovery1, recovery2] = await split(secret, 2, 2)
  return { device: device!, server: server!, recovery1: recovery1!, recovery2: recovery2! }
}

/** The EVM account of the entropy: BIP-39, then BIP-32 m/44'/60'/0'/0/0. */
export function evmAccount(secret: Uint8Array) {
  return mnemonicToAccount(entropyToMnemonic(secret, wordlist))
}

/** What key export shows (docs/embedded-wallet.md §8): the 12 words and the account's private key as hex. */
export function exportable(secret: Uint8Array): { mnemonic: string; privateKey: `0x${string}` } {
  const mnemonic = entropyToMnemonic(secret, wordlist)
  const key = mnemonicToAccount(mnemonic).getHdKey().privateKey!
  return { mnemonic, privateKey: `0x${Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('')}` }
}

/**
 * Rebuilds the entropy from two shares of one split and checks it against the address this device
 * recorded: a tampered or mismatched share gives another address and is refused (docs/embedded-wallet.md §2).
 */
export async function combine(a: Uint8Array, b: Uint8Array, expectedAddress: string): Promise<Uint8Array> {
  const refused = () => new Error('The shares do not rebuild this wallet: nothing is signed')
  // Shares of two different splits may share their x coordinate (1 in 255): the library refuses them
  // itself, which is the same refusal.
  const secret = await combineShares([a, b]).catch(() => {
    throw refused()
  })
  if (secret.length !== entropyBytes || evmAccount(secret).address.toLowerCase() !== expectedAddress.toLowerCase()) throw refused()
  return secret
}
