/**
 * Social sign-in in the frame's state (issue 24; spec §1 socials, §7 30 s, §8 socials timeout;
 * docs/embedded-wallet.md §5). The popup opened in the person's click goes to the secure-site's own
 * /oauth/start, which sends it on to the provider; meanwhile the flow the secure-site started is redeemed
 * until the person is done there. Done connects the embedded wallet exactly as a verified email code
 * does: a new wallet on this device, or an existing wallet's device step (VERIFY_DEVICE). The frame
 * never sees the provider's answer: only the account, or the email the approval link went to.
 * Loaded with Connect's social row (views/Connect/SocialLogin.tsx); the requests go through embeddedSession.ts.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { alerts, format, somethingWentWrong, ui } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { secureSocialText, socialText } from '@doorway/shared/texts/social'
import { atom, type Getter, type Setter } from 'jotai'
import { raiseAlertAtom } from '../../core/alerts.js'
import { showToastAtom } from '../../core/toasts.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { hostAtom, notifyAtom } from '../../core/host.js'
import { goBackAtom, intentAtom, openAtom } from '../../core/modal.js'
import { popAtom, pushAtom, replaceAtom, resetAtom, routeAtom } from '../../core/router.js'
import { addingEmailAtom, connectAtom, deviceStepAtom } from './emailLogin.js'
import { requestTimeout, secureCall } from './embeddedSession.js'
import { secureStatusAtom } from './secure.js'
import * as Redirect from './socialRedirect.js'

/** The six OAuth providers and Farcaster (a QR code or app link instead of a window: ConnectingFarcaster). */
type Provider = (typeof Protocol.socials)[number]

/** The sign-in window, as much of a WindowProxy as the flow uses (a fake one in tests). */
export type Popup = { readonly closed: boolean; close(): void; location: { href: string } }

/**
 * Opens the sign-in window. Call it synchronously in the click handler, before any await: a browser
 * opens a popup only during the click's user activation, which an await gives up. The frame has that
 * activation (the person clicked here), the secure iframe does not, so the frame opens the window and
 * the secure-site only names where it goes. about:blank until then; null when the browser blocked it.
 */
export function openPopup(): Popup | null {
  return window.open('about:blank', 'doorway-social', 'popup,width=480,height=640')
}

/** How a click signs in here: a window, or (spec §7 social-redirect) the dapp's page itself, in an in-app browser or Telegram. */
export const redirectModeAtom = atom((get) => Redirect.redirects(navigator.userAgent, !!get(configAtom)?.telegram))

/**
 * What a click hands the flow: the window it opened (null: blocked), 'redirect' (no window: the page
 * goes), or 'qr' (Farcaster: the person approves in their Farcaster app, from a QR code or a link).
 */
export type Way = Popup | null | 'redirect' | 'qr'

/** Call synchronously in the click, as openPopup: the window, or no window in redirect mode or for Farcaster. */
export const wayOf = (provider: Provider, redirect: boolean): Way => (provider === 'farcaster' ? 'qr' : redirect ? 'redirect' : openPopup())

/** The view a provider's flow shows. */
const routeOf = (provider: Provider) => (provider === 'farcaster' ? ({ view: 'ConnectingFarcaster' } as const) : ({ view: 'ConnectingSocial', provider } as const))

/**
 * Connect's social row: the providers of `features.socials` in their order, Farcaster among them, the
 * first as a wide button, the next three as icon buttons, the rest behind "More".
 */
export function socialRow(providers: readonly Provider[]) {
  return { first: providers[0], icons: providers.slice(1, 4), more: providers.slice(4) }
}

/**
 * What the ConnectingSocial view shows. waiting: the person is at the provider; checking: the window
 * closed and the flow gets one last look; blocked: the browser opened no window; closed, failed: over,
 * with Try again (`error` says why). Redirect mode: redirecting, the page is leaving for the provider;
 * returning, it came back and the flow is redeemed.
 */
export type Social = {
  provider: Provider
  phase: 'waiting' | 'checking' | 'blocked' | 'closed' | 'failed' | 'redirecting' | 'returning'
  error: string | null
  /** Farcaster: the connect URI its app opens (the QR code and the link), once the relay gave it. */
  url?: string
}
export const socialAtom = atom<Social | null>(null)

/** How often the window is looked at: `closed` is a property, no event says it changed. */
export const closedPollMs = 500

// The flow in progress: its abort and the popup handle, which no route can carry (per store, as all state).
type Flow = { controller: AbortController; popup: Popup | null; closed: boolean }
const newFlow = (popup: Popup | null): Flow => ({ controller: new AbortController(), popup, closed: false })
const flowAtom = atom<Flow | null>(null)

/** A provider chosen on Connect, with the window its click opened: the view shows the flow. */
export const chooseSocialAtom = atom(null, (_get, set, { provider, popup }: { provider: Provider; popup: Way }) => {
  set(addingEmailAtom, false)
  set(pushAtom, routeOf(provider))
  return set(runAtom, provider, popup)
})

/** Try again, or Continue after a blocked window: the same provider, with the window this click opened. */
export const retrySocialAtom = atom(null, (get, set, popup: Way) => {
  const route = get(routeAtom)
  if (route.view === 'ConnectingSocial') return set(runAtom, route.provider, popup)
  if (route.view === 'ConnectingFarcaster') return set(runAtom, 'farcaster', popup)
})

/** The view went away (back, close, another view): the flow ends here, in the secure-site and at the server; the window closes. */
export const leaveSocialAtom = atom(null, (get, set) => {
  const flow = get(flowAtom)
  set(flowAtom, null)
  set(socialAtom, null)
  if (flow) end(get, flow)
})

/** The view's Cancel: leaves it, which ends the flow. */
export const cancelSocialAtom = atom(null, (_get, set) => {
  set(leaveSocialAtom)
  set(goBackAtom)
})

const runAtom = atom(null, async (get, set, provider: Provider, way: Way) => {
  const previous = get(flowAtom)
  const popup = way === 'redirect' || way === 'qr' ? null : way
  if (previous) end(get, previous, popup)
  const flow = newFlow(popup)
  set(flowAtom, flow)
  if (way === null) return set(socialAtom, { provider, phase: 'blocked', error: null })
  set(socialAtom, { provider, phase: way === 'redirect' ? 'redirecting' : 'waiting', error: null })
  const { signal } = flow.controller
  const current = () => isCurrent(get, flow)

  let url: string
  try {
    url = await start(get, provider, signal, way === 'redirect')
  } catch (error) {
    if (!current()) return
    if (!timedOut(error)) return fail(get, set, flow, describe(error))
    // spec §8 socials timeout: the secure wallet did not start the flow in 30 s; the person is back on Connect.
    stop(get, set, flow)
    set(raiseAlertAtom, { key: 'socialsTimeout', ...alerts.socialsTimeout })
    set(popAtom)
    return
  }
  if (!current()) return
  // The popup goes only to the secure-site's own page (which the secure-site checked too): never where a frame bug or a server names.
  if (way !== 'qr' && new URL(url).origin !== secureOrigin(get)) return fail(get, set, flow, secureSocialText.unsafeStart)
  if (way === 'redirect') return leave(get, set, flow, provider, url)
  // Farcaster: the relay's connect URI (the secure-site checked it is one), for the person's Farcaster app.
  if (way === 'qr') set(socialAtom, { provider, phase: 'waiting', error: null, url })
  else way.location.href = url
  return set(redeemAtom, flow, provider)
})

const isCurrent = (get: Getter, flow: Flow) =>
  !flow.controller.signal.aborted && get(flowAtom) === flow && ['ConnectingSocial', 'ConnectingFarcaster'].includes(get(routeAtom).view)

/**
 * Redirect mode: the SDK sends the dapp's page to this origin's redirect page and on to the flow's start
 * (socialRedirect.ts); the secure-site keeps the flow for the page that comes back. An SDK that will not
 * (an older one, a frame URL it does not know) answers other than undefined: the view says so.
 */
async function leave(get: Getter, set: Setter, flow: Flow, provider: Provider, url: string) {
  const { host } = get(hostAtom)
  const refused = () => fail(get, set, flow, format(socialText.redirectRefused, { provider: ui.socials[provider] }))
  if (!host) return refused()
  try {
    const answer = await host.call('redirect', Redirect.hopUrl(url, location.href), { signal: flow.controller.signal, timeoutMs: requestTimeout.timeoutMs })
    if (answer !== undefined && isCurrent(get, flow)) refused()
  } catch {
    if (isCurrent(get, flow)) refused()
  }
}

/**
 * Back from a redirect (the SDK's `resume`, spec §5 result_uri): the modal opens on ConnectingSocial
 * and redeems the flow the secure-site kept; one it does not know (expired, another browser, storage
 * the browser cleared) says so on Connect.
 */
export const resumeSocialAtom = atom(null, async (get, set, flowId: string) => {
  const flow = newFlow(null)
  // As a window seen closed: the callback sent the page back once the provider answered, so a flow still pending is one left unfinished.
  flow.closed = true
  set(flowAtom, flow)
  // The person's intent, as an open: the secure frame loads now (App.tsx loads it only on intent).
  set(intentAtom, true)
  let provider: Provider
  try {
    await secureReady(get, flow.controller.signal)
    ;({ provider } = await secureCall(get, (channel, op) => channel.call('socialResume', { op, flowId }, { signal: flow.controller.signal, timeoutMs: requestTimeout.timeoutMs })))
  } catch (error) {
    if (get(flowAtom) === flow) set(flowAtom, null)
    set(resetAtom, { view: 'Connect' })
    set(openAtom, true)
    set(notifyAtom, { type: 'show' })
    set(showToastAtom, { message: describe(error), variant: 'error' })
    return
  }
  if (get(flowAtom) !== flow) return
  set(resetAtom, routeOf(provider))
  set(socialAtom, { provider, phase: 'returning', error: null })
  set(openAtom, true)
  set(notifyAtom, { type: 'show' })
  return set(redeemAtom, flow, provider)
})

/** Redeems the flow until the provider answered: the account, the device step, or why not. */
const redeemAtom = atom(null, async (get, set, flow: Flow, provider: Provider) => {
  const { signal } = flow.controller
  const { popup } = flow
  const current = () => isCurrent(get, flow)
  const look = () => {
    if (!popup?.closed || flow.closed) return
    flow.closed = true
    if (current()) set(socialAtom, { provider, phase: 'checking', error: null })
  }

  // Closed already (while the flow was starting): no need to wait for the first look.
  look()
  const watch = setInterval(look, closedPollMs)
  try {
    for (;;) {
      // A provider page with COOP cuts the opener, and `closed` then reads true while the person is still
      // there. So a window seen closed ends the flow only after a redeem that began after it was seen
      // answers pending: a sign-in finished before the window closed is never lost.
      const closedBefore = flow.closed
      const answer = await secureCall(get, (channel, op) => channel.call('socialRedeem', { op }, { signal, timeoutMs: Constants.embeddedRequestTimeoutMs }))
      if (!current()) return
      if ('account' in answer) {
        done(get, set, flow)
        return set(connectAtom, answer.account)
      }
      if ('action' in answer) {
        done(get, set, flow)
        // Farcaster proved an account that is no one's yet: the email the person adds next (in the secure-site's form) links it.
        if (answer.action === 'ADD_EMAIL') {
          set(addingEmailAtom, true)
          return set(replaceAtom, { view: 'EmailLogin' })
        }
        return set(deviceStepAtom, answer.email)
      }
      if (closedBefore) return fail(get, set, flow, null, 'closed')
    }
  } catch (error) {
    if (current()) fail(get, set, flow, describe(error))
  } finally {
    clearInterval(watch)
  }
})

/**
 * socialStart within spec §7's 30 s, the secure frame's loading included: a click right after the modal
 * opened may find it still loading. The flow's origin is the host as the frame pinned it.
 */
async function start(get: Getter, provider: Provider, signal: AbortSignal, redirect: boolean): Promise<string> {
  const deadline = await secureReady(get, signal)
  const options = { signal, timeoutMs: Math.max(1, deadline - Date.now()) }
  const host = get(hostOriginAtom) ?? location.origin
  const { url } = await secureCall(get, (channel, op) => channel.call('socialStart', { op, provider, host, ...(redirect && { redirect }) }, options))
  return url
}

/** Waits for the secure frame within spec §7's 30 s (it may still be loading); the deadline left for the call. */
async function secureReady(get: Getter, signal: AbortSignal): Promise<number> {
  const deadline = Date.now() + Constants.embeddedRequestTimeoutMs
  while (isLoading(get) && Date.now() < deadline && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, 100))
  if (isLoading(get)) throw signal.aborted ? Errors.aborted() : Errors.timedOut()
  return deadline
}

const isLoading = (get: Getter) => ['idle', 'loading'].includes(get(secureStatusAtom).state)

function secureOrigin(get: Getter): string | undefined {
  const secure = get(secureStatusAtom)
  return secure.state === 'ready' ? secure.origin : undefined
}

const timedOut = (error: unknown) => error instanceof Errors.DoorwayError && error.message === Errors.timedOut().message

/** A refusal in the words the secure-site gave (the server's, naming the provider); a request timeout as the email login says it. */
function describe(error: unknown): string {
  if (timedOut(error)) return emailText.timedOut
  return (error instanceof Error && error.message) || somethingWentWrong
}

/** The flow ended without a connection: the view says why and offers Try again. */
function fail(get: Getter, set: Setter, flow: Flow, error: string | null, phase: 'closed' | 'failed' = 'failed') {
  const provider = get(socialAtom)?.provider
  stop(get, set, flow)
  if (provider) set(socialAtom, { provider, phase, error })
}

/** The flow failed or timed out: ended everywhere, and no longer the flow in progress. */
function stop(get: Getter, set: Setter, flow: Flow) {
  if (get(flowAtom) === flow) set(flowAtom, null)
  end(get, flow)
}

/**
 * The flow was redeemed: the secure-site holds no flow any more, so nothing is cancelled, and leaving the
 * view that follows ends nothing. The callback page closes itself; closing covers one that could not.
 */
function done(get: Getter, set: Setter, flow: Flow) {
  if (get(flowAtom) === flow) set(flowAtom, null)
  flow.popup?.close()
}

/**
 * Ends a flow: its request in flight is aborted (the secure-site aborts its fetch), the flow is cancelled
 * at the server (a late callback is refused there; after a sign-in there is nothing left to cancel), and
 * the window closes, wherever it is (the provider's page, an error page). `keep` is a window the next
 * flow reuses (window.open by the same name hands back a window still open).
 */
function end(get: Getter, flow: Flow, keep?: Popup | null) {
  flow.controller.abort()
  if (flow.popup && flow.popup !== keep) flow.popup.close()
  void secureCall(get, (channel, op) => channel.call('socialCancel', { op }, requestTimeout)).catch(() => {})
}
