/**
 * A view whose content is a screen of the secure-site (the email and code steps, key export, devices
 * and activity): the frame makes the slot and starts the screen once the secure frame is ready; what
 * shows there is the secure-site's own DOM. Leaving the view ends the screen there too.
 */
import { emailText } from '@doorway/shared/texts/email'
import { ui } from '@doorway/shared/Texts'
import { useAtomValue } from 'jotai'
import { useEffect } from 'react'
import { secureStatusAtom } from './secure.js'
import { useSecureSlot } from './useSecureSlot.js'

export function SecureScreen({ start, hint, size }: {
  /** Runs the screen until the person is done; aborted when the view goes (keep it stable). */
  start: (signal: AbortSignal) => unknown
  hint?: string
  /** A slot class sized for the screen (EmailLogin.css); the default fits the tallest. */
  size?: string
}) {
  const slotRef = useSecureSlot()
  const secure = useAtomValue(secureStatusAtom).state
  useEffect(() => {
    if (secure !== 'ready') return
    const leaving = new AbortController()
    void start(leaving.signal)
    return () => leaving.abort()
  }, [start, secure])
  return (
    <div className="stack">
      {hint && <p className="muted">{hint}</p>}
      {secure === 'error' && (
        <p className="error" role="alert">
          {emailText.unavailable}
        </p>
      )}
      <div ref={slotRef} className={size ? `secure-slot ${size}` : 'secure-slot'}>
        {secure !== 'ready' && secure !== 'error' && <span className="spinner" role="img" aria-label={ui.modal.loading} />}
      </div>
    </div>
  )
}
