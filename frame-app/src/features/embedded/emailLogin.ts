/**
 * The embedded wallet's login in the frame's state (spec §2 Connect, §5 email rules, §7 30 s
 * timeouts): the email and code steps. Only EmailLogin imports it, so it loads with that chunk; the
 * requests themselves go through embeddedSession.ts.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Email from '@doorway/shared/Email'
import * as Errors from '@doorway/shared/Errors'
import { somethingWentWrong } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { atom } from 'jotai'
import { hostOriginAtom } from '../../core/config.js'
import { adoptAtom, requestTimeout, secureCall } from './embeddedSession.js'
import { popAtom, pushAtom } from '../../core/router.js'
import { connectedHomeAtom } from '../siwx/siwx.js'

/** What the email and code steps show: the address, progress, and the last refusal in words. */
export type Login = {
  email: string
  busy: 'sending' | 'verifying' | null
  error: string | null
  /** The refusal was a timeout or an unreachable secure-site: the view offers a retry. */
  retry: boolean
  /** When a new code may be asked for (spec §5: 30 s after the last). */
  resendAt: number
  notice: string | null
}
const idle: Login = { email: '', busy: null, error: null, retry: false, resendAt: 0, notice: null }
export const loginAtom = atom<Login>(idle)

function describe(error: unknown): { error: string; retry: boolean } {
  const message = error instanceof Error ? error.message : String(error)
  if (message === Errors.timedOut().message) return { error: emailText.timedOut, retry: true }
  if (message === emailText.unavailable || message === emailText.timedOut || message === emailText.mailFailed) return { error: message, retry: true }
  return { error: message || somethingWentWrong, retry: false }
}

/** CONNECT_EMAIL: the email is checked here first (spec §5), then by the server. */
export const submitEmailAtom = atom(null, async (get, set, input: string) => {
  const email = Email.normalize(input)
  if (!email) return set(loginAtom, { ...get(loginAtom), email: input, error: emailText.invalid, retry: false })
  set(loginAtom, { ...idle, email, busy: 'sending' })
  try {
    const host = get(hostOriginAtom) ?? location.origin
    await secureCall(get, (channel, op) => channel.call('connectEmail', { op, email, host }, requestTimeout))
    set(loginAtom, { ...idle, email, resendAt: Date.now() + Constants.emailLoginThrottleMs })
    set(pushAtom, { view: 'EmailVerifyOtp' })
  } catch (error) {
    set(loginAtom, { ...idle, email, ...describe(error) })
  }
})

/** Asks for a new code from the code step; the server's throttle answers with the seconds to wait. */
export const resendCodeAtom = atom(null, async (get, set) => {
  const { email } = get(loginAtom)
  set(loginAtom, { ...get(loginAtom), busy: 'sending', error: null, notice: null })
  try {
    const host = get(hostOriginAtom) ?? location.origin
    await secureCall(get, (channel, op) => channel.call('connectEmail', { op, email, host }, requestTimeout))
    set(loginAtom, { ...idle, email, resendAt: Date.now() + Constants.emailLoginThrottleMs, notice: emailText.resent })
  } catch (error) {
    set(loginAtom, { ...get(loginAtom), busy: null, ...describe(error) })
  }
})

/** CONNECT_OTP: a 6-digit code (spec §5), then the wallet is created or recovered in the secure-site. */
export const submitCodeAtom = atom(null, async (get, set, code: string) => {
  if (!/^\d{6}$/.test(code)) return set(loginAtom, { ...get(loginAtom), error: emailText.codeInvalid, retry: false })
  set(loginAtom, { ...get(loginAtom), busy: 'verifying', error: null, notice: null })
  try {
    const { account } = await secureCall(get, (channel, op) => channel.call('connectOtp', { op, code }, requestTimeout))
    void set(adoptAtom, { account, restored: false })
    set(loginAtom, idle)
    set(connectedHomeAtom)
  } catch (error) {
    set(loginAtom, { ...get(loginAtom), busy: null, ...describe(error) })
  }
})

/** "Use another email": back to the email step, keeping what was typed. */
export const otherEmailAtom = atom(null, (get, set) => {
  set(loginAtom, { ...idle, email: get(loginAtom).email })
  set(popAtom)
})
