/**
 * The embedded wallet's login in the frame's state (spec §2 Connect, §5 email rules, §7 30 s
 * timeouts): the email and code steps, and the wait for a new browser's approval (VERIFY_DEVICE,
 * docs/embedded-wallet.md §4). Only EmailLogin imports it, so it loads with that chunk; the requests
 * themselves go through embeddedSession.ts.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Email from '@doorway/shared/Email'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { somethingWentWrong } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { atom } from 'jotai'
import { hostOriginAtom } from '../../core/config.js'
import { adoptAtom, requestTimeout, secureCall } from './embeddedSession.js'
import { popAtom, pushAtom, replaceAtom, routeAtom } from '../../core/router.js'
import { connectedHomeAtom } from '../siwx/siwx.js'

/** What the email and code steps show: the address, progress, and the last refusal in words. */
export type Login = {
  email: string
  busy: 'sending' | 'verifying' | null
  error: string | null
  /** The refusal was a timeout or an unreachable secure-site: the view offers a retry. */
  retry: boolean
  /** When a new code or link may be asked for (spec §5: 30 s after the last). */
  resendAt: number
  notice: string | null
  /** The device step: the secure-site is waiting for this browser's approval from the mailed link. */
  waiting: boolean
}
const idle: Login = { email: '', busy: null, error: null, retry: false, resendAt: 0, notice: null, waiting: false }
export const loginAtom = atom<Login>(idle)

/** How long the device step waits for the approval: the mailed link's life, not the 30 s of a request. */
export const deviceApprovalTimeoutMs = 15 * 60_000

/** `timedOut` names what did not come in time: the secure-site's answer, or the person's approval. */
function describe(error: unknown, timedOut: string = emailText.timedOut): { error: string; retry: boolean } {
  const message = error instanceof Error ? error.message : String(error)
  if (message === Errors.timedOut().message) return { error: timedOut, retry: true }
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

/** The embedded account becomes the connection, and the modal shows what follows a connection. */
const connectAtom = atom(null, (_get, set, account: Protocol.EmbeddedAccount) => {
  void set(adoptAtom, { account, restored: false })
  set(loginAtom, idle)
  set(connectedHomeAtom)
})

/**
 * CONNECT_OTP: a 6-digit code (spec §5), then the wallet is created or recovered in the secure-site.
 * An existing wallet on a new browser answers VERIFY_DEVICE instead: the code step gives way to the
 * device step (going back from it leaves for the email step, the code being spent) and the wait starts.
 */
export const submitCodeAtom = atom(null, async (get, set, code: string) => {
  if (!/^\d{6}$/.test(code)) return set(loginAtom, { ...get(loginAtom), error: emailText.codeInvalid, retry: false })
  set(loginAtom, { ...get(loginAtom), busy: 'verifying', error: null, notice: null })
  try {
    const result = await secureCall(get, (channel, op) => channel.call('connectOtp', { op, code }, requestTimeout))
    if ('account' in result) return set(connectAtom, result.account)
    // The person left the code step meanwhile: no view would show the wait, so none starts.
    if (get(routeAtom).view !== 'EmailVerifyOtp') return
    // The vault has just mailed the link: a new one only after the same 30 s as a code (spec §5).
    set(loginAtom, { ...idle, email: get(loginAtom).email, resendAt: Date.now() + Constants.emailLoginThrottleMs })
    set(replaceAtom, { view: 'EmailVerifyDevice' })
    void set(awaitDeviceAtom)
  } catch (error) {
    set(loginAtom, { ...get(loginAtom), busy: null, ...describe(error) })
  }
})

// The device step's wait in progress, aborted when the person leaves the view (per store, as all state).
const deviceWaitAtom = atom<AbortController | null>(null)

/**
 * VERIFY_DEVICE (docs/embedded-wallet.md §4): waits up to the link's life for the approval; the
 * secure-site then recovers the wallet here. A timeout or the person leaving aborts it there too
 * (secureCall), and an approval that lands after the view is gone connects nothing.
 */
const awaitDeviceAtom = atom(null, async (get, set) => {
  get(deviceWaitAtom)?.abort()
  const controller = new AbortController()
  set(deviceWaitAtom, controller)
  set(loginAtom, { ...get(loginAtom), waiting: true, error: null, retry: false })
  const options = { signal: controller.signal, timeoutMs: deviceApprovalTimeoutMs }
  try {
    const { account } = await secureCall(get, (channel, op) => channel.call('awaitDevice', { op }, options))
    if (!controller.signal.aborted && get(routeAtom).view === 'EmailVerifyDevice') set(connectAtom, account)
  } catch (error) {
    if (!controller.signal.aborted) set(loginAtom, { ...get(loginAtom), waiting: false, ...describe(error, emailText.approvalTimedOut) })
  } finally {
    if (get(deviceWaitAtom) === controller) set(deviceWaitAtom, null)
  }
})

/**
 * The code or device step went away (back, close, another email): the login is the email step's again,
 * keeping the address, and a wait for approval ends, here and in the secure-site.
 */
export const leaveStepAtom = atom(null, (get, set) => {
  const wait = get(deviceWaitAtom)
  set(deviceWaitAtom, null)
  wait?.abort()
  set(loginAtom, { ...idle, email: get(loginAtom).email })
})

/** Mails a new approval link (the last one stops working); a wait that had ended starts again. */
export const resendLinkAtom = atom(null, async (get, set) => {
  set(loginAtom, { ...get(loginAtom), busy: 'sending', error: null, notice: null })
  const here = () => get(routeAtom).view === 'EmailVerifyDevice'
  try {
    await secureCall(get, (channel, op) => channel.call('resendDevice', { op }, requestTimeout))
    if (!here()) return
    set(loginAtom, { ...get(loginAtom), busy: null, resendAt: Date.now() + Constants.emailLoginThrottleMs, notice: emailText.linkResent })
    if (!get(loginAtom).waiting) void set(awaitDeviceAtom)
  } catch (error) {
    if (here()) set(loginAtom, { ...get(loginAtom), busy: null, ...describe(error) })
  }
})

/** "Use another email": back to the email step, keeping what was typed; a wait for approval ends. */
export const otherEmailAtom = atom(null, (_get, set) => {
  set(leaveStepAtom)
  set(popAtom)
})
