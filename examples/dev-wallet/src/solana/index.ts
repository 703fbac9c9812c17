/**
 * The dev wallet's Solana side on the page: registered through Wallet Standard, as Solana extensions
 * register, and asking the person through the same prompt as the EVM side (so e2e approves or rejects
 * it the same way).
 */
import { registerWallet } from '@wallet-standard/wallet'
import * as Icon from '../Icon.js'
import * as Prompt from '../Prompt.js'
import * as Wallet from './Wallet.js'

declare const __DEV_WALLET_SOLANA_RPC__: string

declare global {
  interface Window {
    doorwayDevSolanaWallet: Readonly<{ address: string }>
  }
}

export function install() {
  const prompt = Prompt.create(document)
  const { wallet, address } = Wallet.create({
    // The prompt prints the network as it is given; its type names the EVM side's numbers only.
    approve: ({ chain, ...approval }) => prompt({ ...approval, chainId: chain as unknown as number }),
    storage: localStorage,
    origin: location.origin,
    rpcUrl: __DEV_WALLET_SOLANA_RPC__,
    icon: Icon.dataUri as Wallet.Wallet['icon'],
  })
  registerWallet(wallet)
  window.doorwayDevSolanaWallet = Object.freeze({ address })
}
