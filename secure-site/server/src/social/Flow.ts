/**
 * A social sign-in's life (docs/embedded-wallet.md §5, API.md Social sign-in), bound to the device that
 * started it: started → authorizing (the popup went to the provider; Farcaster: its relay channel is open)
 * → verifying (the one callback that took it checks the answer; Farcaster: the one redeem that read the
 * relay's) → done or failed → redeemed by that device, once: by its redeem, or, for an account that gave no
 * verified email (Farcaster's), by the email code that links it. Cancelled by the device or by its next
 * start; expired after `socialFlowTtlMs`. The decisions here are pure; storage makes each step atomic.
 * `import * as Flow from './Flow.js'`.
 */
import * as Constants from '@doorway/shared/Constants'
import * as oauth from 'oauth4webapi'
import type { SocialFlow, SocialProfile } from '../storage/Storage.js'
import * as Social from './providers.js'

/** A new flow: its own random `state` and `nonce` (256 bits each, apart from the id the device holds) and a PKCE verifier. */
export function create(options: { id: string; deviceId: string; provider: Social.FlowProvider; host: string; attested: boolean; now: number }): SocialFlow {
  const { now, ...rest } = options
  return {
    ...rest,
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
    status: 'started',
    reason: null,
    profile: null,
    userId: null,
    createdAt: now,
    expiresAt: now + Constants.socialFlowTtlMs,
    finishedAt: null,
    returnTo: null,
    channelToken: null,
  }
}

export const expired = (flow: SocialFlow, now: number) => now >= flow.expiresAt

/** Still with the person or the provider: a redeem waits for it to change. */
export const waiting = (flow: SocialFlow, now: number) => ['started', 'authorizing', 'verifying'].includes(flow.status) && !expired(flow, now)

/** Why a page at /oauth/start or /oauth/callback refuses, as pages.ts words it. */
export type PageRefusal = 'malformed' | 'unknown' | 'off' | 'opened' | 'notOpened' | 'used' | 'expired'

/**
 * GET /oauth/start: only a started, live flow goes to the provider; opening it again does not restart it.
 * A Farcaster flow has no page to go to: the person's Farcaster app answers on the relay.
 */
export function opening(flow: SocialFlow | undefined, now: number): 'go' | PageRefusal {
  if (!flow) return 'unknown'
  if (flow.provider === 'farcaster') return 'malformed'
  if (flow.status === 'cancelled' || (expired(flow, now) && flow.status !== 'redeemed')) return 'expired'
  if (flow.status === 'started') return 'go'
  return flow.status === 'authorizing' ? 'opened' : 'used'
}

/** The callback that could not take its flow: why (a replayed or late answer changes nothing). */
export function lateCallback(flow: SocialFlow | undefined, now: number): PageRefusal {
  if (!flow) return 'unknown'
  if (flow.status === 'cancelled' || expired(flow, now)) return 'expired'
  return flow.status === 'started' ? 'notOpened' : 'used'
}

/**
 * Redirect mode: the dapp's page a flow sends the person back to, with the flow's id in `result_uri`
 * for the modal to redeem (spec §5: the SDK removes it after use). A query parameter rather than a
 * fragment: hash routers and Telegram's launch parameters own the fragment. Only a page of the origin
 * that started the flow, so no one can use the callback as an open redirect; null when it is not one.
 */
export function returnUrl(value: string, flow: Pick<SocialFlow, 'id' | 'host'>): string | null {
  if (value.length > maxReturnLength || !URL.canParse(value)) return null
  const url = new URL(value)
  if (url.origin !== flow.host || url.username || url.password) return null
  url.searchParams.set(resultParameter, flow.id)
  return url.href
}

/** The query parameter that brings a redirect flow back (spec §5 names it for Telegram; every redirect uses it). */
export const resultParameter = 'result_uri'
const maxReturnLength = 2_048

export type Refusal = { status: 403 | 404 | 409 | 410; message: string; reason: string }

/** Why a flow failed, as the device hears it (the flow keeps the reason, so each redeem says the same). */
export const failures = {
  denied: (provider: Social.FlowProvider) => `You did not allow the app to use your ${Social.name(provider)} account`,
  invalid: (provider: Social.FlowProvider) => `${Social.name(provider)}'s answer could not be checked: try again`,
  unverifiedEmail: (provider: Social.FlowProvider) => `${Social.name(provider)} has not verified an email for this account. Verify one there, or continue with email.`,
} as const

export type Failure = keyof typeof failures

export const refusals = {
  unknown: { status: 404, message: 'This sign-in is not known: start again', reason: 'unknown' },
  otherDevice: { status: 403, message: 'This sign-in was started on another device', reason: 'otherDevice' },
  expired: { status: 410, message: 'This sign-in expired or was cancelled: start again', reason: 'expired' },
  redeemed: { status: 409, message: 'This sign-in was already used', reason: 'redeemed' },
} as const satisfies Record<string, Refusal>

/** POST /v1/social/redeem for the device's own flow: wait while it is with the provider, refuse, or sign in. */
export function redeeming(flow: SocialFlow, now: number): 'wait' | 'done' | Refusal {
  if (flow.status === 'redeemed') return refusals.redeemed
  if (flow.status === 'failed') {
    const reason = (flow.reason ?? 'invalid') as Failure
    return { status: 403, message: (failures[reason] ?? failures.invalid)(flow.provider), reason }
  }
  if (flow.status === 'cancelled' || expired(flow, now)) return refusals.expired
  return flow.status === 'done' ? 'done' : 'wait'
}

/**
 * POST /v1/email/verify's `link`: this device's flow, done and live, whose account gave no verified email
 * (Farcaster's never does): the email the code just proved becomes that account's (docs/embedded-wallet.md §5).
 */
export function linkable(flow: SocialFlow | undefined, deviceId: string, now: number): flow is SocialFlow & { profile: SocialProfile } {
  if (!flow?.profile || flow.deviceId !== deviceId || flow.status !== 'done' || expired(flow, now)) return false
  return !(flow.profile.emailVerified && flow.profile.email)
}

/**
 * Wakes the redeems waiting on a flow when this instance changes it (its callback, a cancel). Another
 * instance's change is seen when the waiter reads the flow again, every `recheckMs`.
 */
export function notifier() {
  const waiting = new Map<string, Set<() => void>>()
  return {
    notify(id: string) {
      for (const wake of waiting.get(id) ?? []) wake()
    },
    /** Resolves when the flow is notified, after `ms`, or when `signal` aborts, whichever is first. */
    wait(id: string, ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        const wakers = waiting.get(id) ?? new Set()
        waiting.set(id, wakers)
        const wake = () => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', wake)
          wakers.delete(wake)
          if (wakers.size === 0) waiting.delete(id)
          resolve()
        }
        const timer = setTimeout(wake, ms)
        wakers.add(wake)
        if (signal?.aborted) wake()
        else signal?.addEventListener('abort', wake)
      })
    },
  }
}

export type Notifier = ReturnType<typeof notifier>

/** How often a waiting redeem reads its flow again (another instance may have taken the callback), and looks at a Farcaster relay. */
export const recheckMs = 1_000

/**
 * How long a provider's account waits for the owner's approval of the device before it would no longer be
 * linked by it: an approval link lives 15 min and the person may ask for a few (docs/embedded-wallet.md §4).
 */
export const pendingLinkMs = 60 * 60_000
