/**
 * The same page with Doorway (issue 14): the SDK package as a dapp's bundler takes it, `createModal()`
 * at start-up, and the button calling `open()`. The first frame after `open()` presents the dialog;
 * the bench checks separately that the frame had drawn its wallet options before the click.
 */
import { createModal } from '@doorway/sdk'
import { markShown, mount } from './page.js'

const modal = createModal({
  projectId: 'doorway-demo',
  networks: [{ id: 31337, name: 'Anvil 31337', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } }, testnet: true }],
})
Object.assign(globalThis, { modal })

mount(null, () => {
  void modal.open()
  markShown()
})
