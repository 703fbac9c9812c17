import { type KeyboardEvent, type RefObject, useCallback } from 'react'

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Keeps Tab and Shift+Tab cycling inside the dialog. */
export function useFocusTrap(ref: RefObject<HTMLElement | null>) {
  return useCallback(
    (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !ref.current) return
      const items = [...ref.current.querySelectorAll<HTMLElement>(focusable)].filter((el) => el.offsetParent !== null)
      if (!items.length) return event.preventDefault()
      const first = items[0]!
      const last = items[items.length - 1]!
      const active = ref.current.ownerDocument.activeElement
      if (event.shiftKey && (active === first || active === ref.current)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && active === last) {
        event.preventDefault()
        first.focus()
      }
    },
    [ref],
  )
}
