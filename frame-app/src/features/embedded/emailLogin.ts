/**
 * The embedded wallet's login in the frame's state (spec §2 Connect, §5 email rules, §7 30 s
 * timeouts). The email and the code are typed only on the secure origin (docs/embedded-wallet.md §4):
 * the secure-site draws both steps over the view's slot, and this side learns only the outcome, then
 * shows what follows: the code step, the account, or a new browser's wait for approval (VERIFY_DEVICE).
 * Only EmailLogin imports it, so it loads with that chunk; the requests go through embeddedSession.ts.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { somethingWentWrong } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { atom, type Getter } from 'jotai'
import { hostOriginAtom } from '../../core/config.js'
import { closeModalAtom } from '../../core/modal.js'
import { popAtom, pushAtom, replaceAtom, routeAtom } from '../../core/router.js'
import { connectedHomeAtom } from '../siwx/siwx.js'
import { adoptAtom, onSecureScreen, requestTimeout, secureCall } from './embeddedSession.js'

/** What the device step shows: the address, progress, and the last refusal in words. */
export type Login = {
  email: string
  busy: 'sending' | null
  error: string | null
  /** When a new link may be asked for (spec §5: 30 s after the last). */
  resendAt: number
  notice: string | null
  /** The secure-site is waiting for this browser's approval from the mailed link. */
  waiting: boolean
}
/** The email step follows a Farcaster sign-in (ADD_EMAIL): the secure-site's form says why above the field, so its slot is taller. */
export const addingEmailAtom = atom(false)

const idle: Login = { email: '', busy: null, error: null, resendAt: 0, notice: null, waiting: false }
export const loginAtom = atom<Login>(idle)

/** How long the device step waits for the approval: the mailed link's life, not the 30 s of a request. */
export const deviceApprovalTimeoutMs = 15 * 60_000

/** `timedOut` names what did not come in time: the secure-site's answer, or the person's approval. */
function describe(error: unknown, timedOut: string = emailText.timedOut): string {
  const message = error instanceof Error ? error.message : String(error)
  if (message === Errors.timedOut().message) return timedOut
  return message || somethingWentWrong
}

const host = (get: Getter) => get(hostOriginAtom) ?? location.origin

/**
 * CONNECT_EMAIL, on the EmailLogin view: the secure-site shows its email form until a code is mailed,
 * then the code step follows. Leaving the view (`signal`) takes the form away there too.
 */
export const emailStepAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const outcome = await onSecureScreen(get, set, signal, (channel, op, options) => channel.call('emailStep', { op, host: host(get) }, options))
  if (signal.aborted || get(routeAtom).view !== 'EmailLogin') return
  if (outcome?.action === 'VERIFY_OTP') set(pushAtom, { view: 'EmailVerifyOtp' })
  else if (outcome?.action === 'close') set(closeModalAtom)
  else set(popAtom)
})

/** The embedded account becomes the connection, and the modal shows what follows a connection (after a code or a social sign-in). */
export const connectAtom = atom(null, (_get, set, account: Protocol.EmbeddedAccount) => {
  void set(adoptAtom, { account, restored: false })
  set(loginAtom, idle)
  set(connectedHomeAtom)
})

/**
 * CONNECT_OTP, on the EmailVerifyOtp view: the secure-site shows the code step (digits, resend, its
 * throttles) and creates or recovers the wallet. An existing wallet on a new browser answers
 * VERIFY_DEVICE: the device step replaces the code step (going back from it leaves for the email
 * step, the code being spent) and the wait starts.
 */
export const codeStepAtom = atom(null, async (get, set, signal: AbortSignal) => {
  const outcome = await onSecureScreen(get, set, signal, (channel, op, options) => channel.call('codeStep', { op }, options))
  if (signal.aborted || get(routeAtom).view !== 'EmailVerifyOtp') return
  if (outcome && 'account' in outcome) return set(connectAtom, outcome.account)
  if (outcome?.action === 'VERIFY_DEVICE') return set(deviceStepAtom, outcome.email)
  if (outcome?.action === 'close') set(closeModalAtom)
  else set(popAtom)
})

/**
 * VERIFY_DEVICE after a verified code or a social sign-in: the device step replaces the step the person
 * was on (going back from it leaves that step, which is spent) and the wait for the approval starts.
 */
export const deviceStepAtom = atom(null, (_get, set, email: string) => {
  // The vault has just mailed the link: a new one only after the same 30 s as a code (spec §5).
  set(loginAtom, { ...idle, email, resendAt: Date.now() + Constants.emailLoginThrottleMs })
  set(replaceAtom, { view: 'EmailVerifyDevice' })
  void set(awaitDeviceAtom)
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
  set(loginAtom, { ...get(loginAtom), waiting: true, error: null })
  const options = { signal: controller.signal, timeoutMs: deviceApprovalTimeoutMs }
  try {
    const { account } = await secureCall(get, (channel, op) => channel.call('awaitDevice', { op }, options))
    if (!controller.signal.aborted && get(routeAtom).view === 'EmailVerifyDevice') set(connectAtom, account)
  } catch (error) {
    if (!controller.signal.aborted) set(loginAtom, { ...get(loginAtom), waiting: false, error: describe(error, emailText.approvalTimedOut) })
  } finally {
    if (get(deviceWaitAtom) === controller) set(deviceWaitAtom, null)
  }
})

/** The device step went away (back, close, another email): a wait for approval ends, here and in the secure-site. */
export const leaveStepAtom = atom(null, (get, set) => {
  const wait = get(deviceWaitAtom)
  set(deviceWaitAtom, null)
  wait?.abort()
  set(loginAtom, idle)
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
    if (here()) set(loginAtom, { ...get(loginAtom), busy: null, error: describe(error) })
  }
})

/** "Use another email": back to the email step, where the secure-site shows what was typed; a wait for approval ends. */
export const otherEmailAtom = atom(null, (_get, set) => {
  set(leaveStepAtom)
  set(popAtom)
})
