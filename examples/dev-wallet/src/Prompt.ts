/**
 * The approval prompt: what an extension's popup is, drawn on the page at the bottom-right.
 * It is a modal <dialog>, not a popover: a modal dialog (the Doorway modal) makes every element outside
 * it inert, popovers shown above it included, so only a later modal dialog stays clickable on top.
 */
import * as Dom from './Dom.js'
import type { Approval } from './Wallet.js'

export const name = 'Doorway Dev Wallet'

/** An `approve` for Wallet.create that asks the person on the page. The wallet sends one at a time. */
export function create(doc: Document): (approval: Approval) => Promise<boolean> {
  return (approval) =>
    new Promise((resolve) => {
      const reject = Dom.el(doc, 'button', Dom.button(false), 'Reject')
      const approve = Dom.el(doc, 'button', Dom.button(true), 'Approve')
      const dialog = Dom.el(
        doc,
        'dialog',
        `${Dom.panel} ${Dom.font} bottom: 88px; top: auto; left: auto; width: 340px; max-width: calc(100vw - 32px);`,
        Dom.el(doc, 'strong', 'display: block; margin-bottom: 6px;', name),
        Dom.el(doc, 'div', 'color: #4b5563;', approval.origin),
        Dom.el(doc, 'div', 'color: #4b5563; margin-bottom: 8px;', `Network ${approval.chainId}`),
        Dom.el(doc, 'p', 'margin: 0 0 12px; max-height: 160px; overflow: auto; overflow-wrap: anywhere; white-space: pre-wrap;', approval.description),
        Dom.el(doc, 'div', 'display: flex; gap: 8px; justify-content: flex-end;', reject, approve),
      )
      dialog.setAttribute('role', 'dialog')
      dialog.setAttribute('aria-label', name)
      let answered = false
      const answer = (approved: boolean) => {
        if (answered) return
        answered = true
        resolve(approved)
        dialog.remove()
      }
      reject.type = approve.type = 'button'
      reject.addEventListener('click', () => answer(false))
      approve.addEventListener('click', () => answer(true))
      // Escape closes a modal dialog: that is a Reject, as closing an extension popup is.
      dialog.addEventListener('close', () => answer(false))
      doc.body.append(dialog)
      dialog.showModal()
    })
}
