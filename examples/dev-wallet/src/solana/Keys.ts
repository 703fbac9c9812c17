/**
 * The Solana dev key: SLIP-0010 `m/44'/501'/<index>'/0'` of the devnet test mnemonic, the path Phantom
 * and Solflare use, so the same mnemonic opens the same account in them.
 */
import * as Slip10 from '@doorway/shared/Slip10'
import { Keypair } from '@solana/web3.js'
import { mnemonicToSeedSync } from '@scure/bip39'
import { testMnemonic } from '../Wallet.js'

export function devKey(mnemonic: string = testMnemonic, index = 0): Keypair {
  const { privateKey } = Slip10.derive(mnemonicToSeedSync(mnemonic), `m/44'/501'/${index}'/0'`)
  return Keypair.fromSeed(privateKey)
}
