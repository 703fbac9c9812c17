/**
 * The dev controls: an always-visible badge at the bottom-right with the wallet's network menu, so a
 * person (or a test) can move the wallet to another chain on its own, as in an extension's menu.
 * It sits in the top layer as a popover; while a modal <dialog> is open it is inert like the rest of
 * the page (use `window.doorwayDevWallet.setChain` then).
 */
import * as Dom from './Dom.js'
import type * as Wallet from './Wallet.js'

export function mount(doc: Document, wallet: ReturnType<typeof Wallet.create>): HTMLElement {
  const status = Dom.el(doc, 'span', 'color: #4b5563;')
  const select = Dom.el(doc, 'select', `${Dom.font} margin-left: 6px;`)
  const disconnect = Dom.el(doc, 'button', `${Dom.button(false)} padding: 2px 8px; margin-left: 8px;`, 'Disconnect')
  const badge = Dom.el(
    doc,
    'div',
    `${Dom.panel} ${Dom.font} bottom: 16px; top: auto; left: auto; padding: 8px 12px; display: flex; align-items: center; gap: 8px;`,
    Dom.el(doc, 'strong', '', 'Dev Wallet'),
    status,
    Dom.el(doc, 'label', '', 'Wallet network', select),
    disconnect,
  )
  badge.popover = 'manual'
  badge.setAttribute('role', 'region')
  badge.setAttribute('aria-label', 'Doorway Dev Wallet controls')
  disconnect.type = 'button'

  select.addEventListener('change', () => wallet.setChain(Number(select.value)))
  disconnect.addEventListener('click', () => wallet.provider.request({ method: 'wallet_revokePermissions' }))

  const render = () => {
    const { chainId, chains, permitted } = wallet.state()
    const address = `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`
    status.textContent = permitted ? `${address} connected` : 'not connected'
    disconnect.hidden = !permitted
    select.replaceChildren(
      ...chains.map(({ id, rpcUrl }) => {
        const option = Dom.el(doc, 'option', '', `${id} · ${new URL(rpcUrl).host}`)
        option.value = String(id)
        return option
      }),
    )
    select.value = String(chainId)
  }
  wallet.onChange(render)
  render()
  doc.body.append(badge)
  badge.showPopover()
  return badge
}
