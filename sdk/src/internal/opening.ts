/**
 * One opening of the modal: the promise `open()` returns, settled by the frame's result or by the close
 * (spec §4), with the dialog shown for as long as it lasts.
 */
import type { OpenResult } from '../types.js'
import * as Dialog from './dialog.js'
import type * as Events from './events.js'

/**
 * `start` shows the modal, once per opening, and returns the promise open() settles with; `settle`
 * settles it and leaves the modal open (`connected`, `sent`, `swapped`); `end` hides the modal, settles
 * open() and tells the dapp (`close`), and is false when no opening was under way. No `dialog` in
 * embedded mode, which is always shown.
 */
export function create(
  dialog: HTMLDialogElement | undefined,
  iframe: HTMLIFrameElement,
  emit: Events.Emit,
): Opening {
  let pending: Promise<OpenResult> | undefined
  let settlers: { resolve(result: OpenResult): void; reject(error: unknown): void } | undefined
  let hide: (() => void) | undefined

  const settle: Settle = (result, error) => {
    if (error) settlers?.reject(error)
    else settlers?.resolve(result)
    settlers = undefined
  }

  return [
    () => {
      if (!pending) {
        hide = dialog && Dialog.show(dialog, iframe)
        pending = new Promise<OpenResult>((resolve, reject) => (settlers = { resolve, reject }))
      }
      return pending
    },
    settle,
    (result, error) => {
      if (!pending) return false
      hide?.()
      hide = pending = undefined
      settle(result, error)
      emit('close', result)
      return true
    },
  ]
}

export type Opening = readonly [start: () => Promise<OpenResult>, settle: Settle, end: (...args: Parameters<Settle>) => boolean]
/** An error rejects open(); otherwise it resolves with `result`. */
type Settle = (result: OpenResult, error?: unknown) => void
