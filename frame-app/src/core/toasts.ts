/**
 * Toasts (spec §2): loading, success or error. A new toast waits 150 ms for the previous one to
 * close (spec §9 toast swap delay). Success and error hide by themselves; loading stays until replaced.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Ids from '@doorway/shared/Ids'
import { atom } from 'jotai'

/** `info` is calm news (e.g. a request the person declined); `detail` is a second, smaller line. */
export type Toast = { id: string; variant: 'loading' | 'success' | 'info' | 'error'; message: string; detail?: string | undefined }

export const toastVisibleMs = 2_500
// A toast with details takes longer to read.
const detailVisibleMs = 6_000

/** The toast on screen (or leaving it) and whether it is shown. */
export const toastAtom = atom<{ toast: Toast | null; visible: boolean }>({ toast: null, visible: false })

const timersAtom = atom(() => ({ swap: undefined as Timer | undefined, hide: undefined as Timer | undefined }))
type Timer = ReturnType<typeof setTimeout>

export const showToastAtom = atom(null, (get, set, input: Omit<Toast, 'id'>) => {
  const timers = get(timersAtom)
  clearTimeout(timers.swap)
  clearTimeout(timers.hide)
  const toast = { ...input, id: Ids.random() }
  const show = () => {
    set(toastAtom, { toast, visible: true })
    if (toast.variant !== 'loading') timers.hide = setTimeout(() => set(hideToastAtom), toast.detail ? detailVisibleMs : toastVisibleMs)
  }
  const { toast: previous, visible } = get(toastAtom)
  if (!previous || !visible) return show()
  set(toastAtom, { toast: previous, visible: false })
  timers.swap = setTimeout(show, Constants.toastSwapDelayMs)
})

export const hideToastAtom = atom(null, (get, set) => {
  const { toast } = get(toastAtom)
  set(toastAtom, { toast, visible: false })
})
