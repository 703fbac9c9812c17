/**
 * The Doorway Dev Wallet: what a browser extension wallet is, as a script on the host page, for the demo
 * and the e2e tests. It holds account 0 of the standard test mnemonic and talks to the local anvil chains.
 */
import { announce } from './Announce.js'
import * as Badge from './Badge.js'
import * as Icon from './Icon.js'
import * as Prompt from './Prompt.js'
import * as Solana from './solana/index.js'
import * as Wallet from './Wallet.js'

declare const __DEV_WALLET_CHAINS__: Record<number, string>

const wallet = Wallet.create({
  approve: Prompt.create(document),
  storage: localStorage,
  origin: location.origin,
  chains: __DEV_WALLET_CHAINS__,
})

// A fresh uuid per page load, as EIP-6963 asks; rdns is the stable identity dapps remember.
const info = { uuid: crypto.randomUUID(), name: Prompt.name, icon: Icon.dataUri, rdns: 'dev.doorway.wallet' }
announce(window, info, wallet.provider)
// Its Solana side, through Wallet Standard (issue 23).
Solana.install()

declare global {
  interface Window {
    doorwayDevWallet: Readonly<Pick<typeof wallet, 'provider' | 'address' | 'setChain' | 'addKnownChain'>>
  }
}
const { provider, address, setChain, addKnownChain } = wallet
window.doorwayDevWallet = Object.freeze({ provider, address, setChain, addKnownChain })

if (document.body) Badge.mount(document, wallet)
else document.addEventListener('DOMContentLoaded', () => Badge.mount(document, wallet))
