// A lazy chunk: loaded only when features.email is on (spec §1). Connect's way into the email login; the
// email step (EmailLogin) and the code step (EmailVerifyOtp), both typed only in the secure-site's own DOM
// over the view (docs/embedded-wallet.md §4); and a new browser's wait for approval (EmailVerifyDevice).
import { format, ui } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useRef, useState } from 'react'
import { Icon } from '../../components/Icon.js'
import { pushAtom } from '../../core/router.js'
import { addingEmailAtom, codeStepAtom, emailStepAtom, leaveStepAtom, loginAtom, otherEmailAtom, resendLinkAtom } from '../../features/embedded/emailLogin.js'
import { SecureScreen } from '../../features/embedded/SecureScreen.js'
import './EmailLogin.css'

/** On Connect: the email is typed in the secure-site, on the view this opens. */
export default function EmailLogin() {
  const push = useSetAtom(pushAtom)
  return (
    <section aria-label={ui.connect.email}>
      <button type="button" className="list-button" onClick={() => push({ view: 'EmailLogin' })}>
        <Icon name="mail" />
        <span>{ui.connect.continueWithEmail}</span>
      </button>
    </section>
  )
}

/** The email step: the secure-site's form, over this view; the code step follows once a code is mailed. */
export function EmailStep() {
  const adding = useAtomValue(addingEmailAtom)
  return <SecureScreen start={useSetAtom(emailStepAtom)} size={adding ? 'email-slot with-note' : 'email-slot'} />
}

/** The code step: the secure-site's digits, resend and throttles, over this view. */
export function EmailVerifyOtp() {
  return <SecureScreen start={useSetAtom(codeStepAtom)} size="code-slot" />
}

/**
 * The device step (VERIFY_DEVICE, docs/embedded-wallet.md §4): an existing wallet on a new browser waits
 * while the person approves this browser from the mailed link. Leaving the view ends the wait.
 */
export function EmailVerifyDevice() {
  const login = useAtomValue(loginAtom)
  const resend = useSetAtom(resendLinkAtom)
  const otherEmail = useSetAtom(otherEmailAtom)
  const leave = useSetAtom(leaveStepAtom)
  const now = useNow(login.resendAt)
  const intro = useRef<HTMLParagraphElement>(null)
  // The code step's focused digit is gone: the explanation takes the focus, so it is read first.
  useEffect(() => intro.current?.focus(), [])
  // Back, close or any other view: a wait whose view is gone must not connect later.
  useEffect(() => () => leave(), [leave])
  const sending = login.busy === 'sending'
  const wait = Math.max(0, Math.ceil((login.resendAt - now) / 1000))
  const status = sending ? emailText.sendingLink : login.waiting ? emailText.waitingApproval : ''

  return (
    <div className="stack device-step">
      <p ref={intro} tabIndex={-1} className="device-intro">
        {format(emailText.linkSent, { email: login.email })}
      </p>
      <p className="muted">{emailText.linkHint}</p>
      <div role="status" className="device-status">
        {(login.waiting || sending) && <span className="spinner" aria-hidden="true" />}
        <span>{status}</span>
        {login.notice && <span className="muted">{login.notice}</span>}
      </div>
      {login.error && (
        <p className="error" role="alert">
          {login.error}
        </p>
      )}
      <button
        type="button"
        // A wait that ended leaves resending as the way on: it is the main action then.
        className={login.waiting ? 'list-button' : 'primary-button'}
        disabled={wait > 0 || sending}
        onClick={() => void resend()}
      >
        {wait > 0 ? format(emailText.resendLinkIn, { n: wait }) : emailText.resendLink}
      </button>
      <button type="button" className="list-button" onClick={otherEmail}>
        {emailText.otherEmail}
      </button>
    </div>
  )
}

/** The clock, ticking each second until `until`. */
function useNow(until: number): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (now >= until) return
    const timer = setTimeout(() => setNow(Date.now()), 1_000)
    return () => clearTimeout(timer)
  }, [now, until])
  return now
}
