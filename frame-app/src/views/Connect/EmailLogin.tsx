// A lazy chunk: loaded only when features.email is on (spec §1). The email step on Connect, the
// code step (EmailVerifyOtp) that follows it, and a new browser's wait for approval (EmailVerifyDevice).
import { format, ui } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { useAtomValue, useSetAtom } from 'jotai'
import { type ClipboardEvent, type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import {
  leaveStepAtom,
  loginAtom,
  otherEmailAtom,
  resendCodeAtom,
  resendLinkAtom,
  submitCodeAtom,
  submitEmailAtom,
} from '../../features/embedded/emailLogin.js'
import { secureStatusAtom } from '../../features/embedded/secure.js'
import './EmailLogin.css'

export default function EmailLogin() {
  const login = useAtomValue(loginAtom)
  const secure = useAtomValue(secureStatusAtom)
  const submit = useSetAtom(submitEmailAtom)
  const [email, setEmail] = useState(login.email)
  const id = useId()
  const sending = login.busy === 'sending'
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!sending) void submit(email)
  }
  return (
    <section aria-label={ui.connect.email}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={id}>{emailText.label}</label>
          <input
            id={id}
            className="search"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={emailText.placeholder}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={!!login.error}
            aria-describedby={login.error ? `${id}-error` : undefined}
            disabled={sending}
          />
          {login.error && (
            <div id={`${id}-error`} className="error" role="alert">
              {login.error}
            </div>
          )}
          {secure.state === 'error' && (
            <div className="error" role="alert">
              {emailText.unavailable}
            </div>
          )}
        </div>
        <button type="submit" className="primary-button" disabled={sending || secure.state !== 'ready' || !email.trim()}>
          {sending ? emailText.sending : login.retry ? emailText.retry : emailText.submit}
        </button>
      </form>
    </section>
  )
}

const digits = 6

/** The code step: six digit fields, paste anywhere, resend after the throttle, or another email. */
export function EmailVerifyOtp() {
  const login = useAtomValue(loginAtom)
  const submit = useSetAtom(submitCodeAtom)
  const resend = useSetAtom(resendCodeAtom)
  const otherEmail = useSetAtom(otherEmailAtom)
  const now = useNow(login.resendAt)
  const groupId = useId()
  const verifying = login.busy === 'verifying'
  // The code last sent: a timeout clears the fields, and Try again sends it once more (spec §7).
  const sent = useRef('')
  const send = (value: string) => {
    sent.current = value
    void submit(value)
  }
  const { code, inputs, fill, onKeyDown, onPaste } = useDigits(login.error, send)
  const wait = Math.max(0, Math.ceil((login.resendAt - now) / 1000))

  return (
    <div className="stack otp">
      <p>{format(emailText.codeSent, { email: login.email })}</p>
      <p className="muted">{emailText.codeMailHint}</p>
      <div role="group" aria-labelledby={groupId} className="otp-digits">
        <span id={groupId} className="visually-hidden">
          {emailText.codeGroup}
        </span>
        {code.map((value, at) => (
          <input
            key={at}
            ref={(el) => {
              inputs.current[at] = el
            }}
            className="otp-digit"
            inputMode="numeric"
            autoComplete={at === 0 ? 'one-time-code' : 'off'}
            maxLength={at === 0 ? digits : 1}
            aria-label={format(emailText.digit, { n: at + 1 })}
            aria-invalid={!!login.error}
            value={value}
            disabled={verifying}
            onChange={(event) => fill(at, event.target.value)}
            onKeyDown={onKeyDown(at)}
            onPaste={onPaste(at)}
          />
        ))}
      </div>
      <p role="status" className="muted">
        {verifying ? emailText.verifying : login.busy === 'sending' ? emailText.sending : (login.notice ?? '')}
      </p>
      {login.error && (
        <p className="error" role="alert">
          {login.error}
        </p>
      )}
      {login.retry && login.busy === null && sent.current && (
        <button type="button" className="primary-button" onClick={() => send(sent.current)}>
          {emailText.retry}
        </button>
      )}
      <button type="button" className="list-button" disabled={wait > 0 || login.busy !== null} onClick={() => void resend()}>
        {wait > 0 ? format(emailText.resendIn, { n: wait }) : emailText.resend}
      </button>
      <button type="button" className="list-button" onClick={otherEmail} disabled={verifying}>
        {emailText.otherEmail}
      </button>
    </div>
  )
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

/**
 * The six digit fields: typing or pasting fills them from the one at hand, Backspace and the arrows
 * move between them, and a full code goes to `send`. A refused code (`error`) clears them.
 */
function useDigits(error: string | null, send: (code: string) => void) {
  const [code, setCode] = useState<string[]>(() => Array<string>(digits).fill(''))
  const inputs = useRef<(HTMLInputElement | null)[]>([])
  useEffect(() => inputs.current[0]?.focus(), [])
  // A refused code is cleared so the next one can be typed from the first digit.
  useEffect(() => {
    if (!error) return
    setCode(Array<string>(digits).fill(''))
    inputs.current[0]?.focus()
  }, [error])

  const fill = (at: number, typed: string) => {
    const next = [...code]
    const chars = typed.replace(/\D/g, '').slice(0, digits - at).split('')
    if (chars.length === 0) {
      next[at] = ''
      return setCode(next)
    }
    chars.forEach((c, i) => (next[at + i] = c))
    setCode(next)
    const value = next.join('')
    if (value.length === digits && /^\d{6}$/.test(value)) return send(value)
    inputs.current[Math.min(at + chars.length, digits - 1)]?.focus()
  }
  const onKeyDown = (at: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !code[at] && at > 0) {
      event.preventDefault()
      const next = [...code]
      next[at - 1] = ''
      setCode(next)
      inputs.current[at - 1]?.focus()
    } else if (event.key === 'ArrowLeft' && at > 0) inputs.current[at - 1]?.focus()
    else if (event.key === 'ArrowRight' && at < digits - 1) inputs.current[at + 1]?.focus()
  }
  const onPaste = (at: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault()
    fill(at, event.clipboardData.getData('text'))
  }
  return { code, inputs, fill, onKeyDown, onPaste }
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
