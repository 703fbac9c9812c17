/**
 * The modal's elements (docs/architecture.md §4): a native <dialog> holding a transparent,
 * full-viewport iframe, or the iframe alone in embedded mode. Nothing is injected into the host's
 * <head>; styles are set through CSSOM, which a strict CSP allows.
 */
import { sdk as text } from '@doorway/shared/Texts'

const fill = 'position:fixed;inset:0;width:100%;height:100%;max-width:none;max-height:none;margin:0;padding:0;border:0;background:transparent;overflow:hidden'
// Closed, the dialog is still laid out, unseen, inert and letting clicks through, so that the frame
// keeps its card painted and opening shows it in the next frame (issue 14). display:none would make
// the frame paint only after the click.
const closed = `${fill};display:block;opacity:0;pointer-events:none`

/**
 * The frame, and the dialog around it, closed: full-viewport in the dialog, or filling the element it is
 * embedded in. Neither is in the page yet (they are placed when the frame loads). A focused dialog
 * (before the frame takes focus) gets Escape as `cancel`: the person's close, which `onCancel` asks of
 * the frame; it may refuse (spec §4: sign-in required) or carry it out and report. The dialog closes
 * only when the opening ends.
 */
export function create(embedded: boolean, onCancel: () => void): readonly [iframe: HTMLIFrameElement, dialog: HTMLDialogElement] {
  const iframe = document.createElement('iframe')
  iframe.title = text.frameTitle
  iframe.allow = 'clipboard-write'
  iframe.referrerPolicy = 'origin'
  iframe.style.cssText = embedded ? 'width:100%;height:100%;border:0;display:block' : fill
  const dialog = document.createElement('dialog')
  dialog.ariaLabel = text.dialogLabel
  seen(dialog, false)
  dialog.append(iframe)
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    onCancel()
  })
  // The browser may close a modal dialog itself (a second Escape with no activation between skips
  // `cancel`); still shown to us (not inert), it stays a modal and the close is asked of the frame.
  // `close` comes a task later: our own close, then a reopen, leaves it open by then, and nothing to do.
  dialog.addEventListener('close', () => dialog.open || dialog.inert || (dialog.showModal(), onCancel()))
  return [iframe, dialog]
}

/**
 * Shows the dialog over the page, which stops scrolling, and focuses the frame. What it returns undoes
 * that: hides the dialog, gives the page its scrolling back and the focus to the element that had it.
 */
export function show(dialog: HTMLDialogElement, iframe: HTMLIFrameElement) {
  const opener = document.activeElement as HTMLElement | null
  const page = document.documentElement.style
  const overflow = page.overflow
  page.overflow = 'hidden'
  seen(dialog, true)
  dialog.showModal()
  iframe.focus()
  return () => {
    // Unseen first: the `close` listener then knows the close is ours, whenever the browser fires it.
    seen(dialog, false)
    dialog.close()
    page.overflow = overflow
    opener?.focus?.()
  }
}

function seen(dialog: HTMLDialogElement, open: boolean) {
  dialog.style.cssText = open ? fill : closed
  dialog.inert = !open
}
