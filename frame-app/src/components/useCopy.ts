import { useSetAtom } from 'jotai'
import { useCallback } from 'react'
import { showToastAtom } from '../core/toasts.js'

/** Copies text to the clipboard and says how it went in a toast. */
export function useCopy() {
  const toast = useSetAtom(showToastAtom)
  return useCallback(
    (text: string, messages: { copied: string; failed: string }) =>
      navigator.clipboard.writeText(text).then(
        () => toast({ variant: 'success', message: messages.copied }),
        () => toast({ variant: 'error', message: messages.failed }),
      ),
    [toast],
  )
}
