/**
 * Sign-in on connect (spec §4 Sign-in (SIWX), issue 13): what the rest of the modal needs to know. The
 * steps themselves (the dapp's functions called through the host, the wallet's signature) live in
 * siwxFlow.ts, a chunk loaded only when the dapp turned sign-in on. Sign-in follows the connection
 * through the core's events (wireSignIn), so the core knows nothing of it.
 */
import type * as Protocol from '@doorway/shared/Protocol'
import { atom, type createStore } from 'jotai'
import { configAtom } from '../../core/config.js'
import * as Events from '../../core/events.js'
import { shakeModalAtom } from '../../core/modal.js'
import { resetAtom, routeAtom } from '../../core/router.js'

/** checking: looking for a session; ready: asking the person; signing: the wallet and the dapp are at it. */
export type SignIn =
  | { step: 'idle' }
  | { step: 'checking' | 'signing'; required: boolean }
  | { step: 'ready'; required: boolean; error?: string | undefined }
export const signInAtom = atom<SignIn>({ step: 'idle' })

/** The session the dapp accepted (or already had) for the connected account. */
export type Session = { data: Protocol.SiwxData; message: string; signature: string }
export const sessionAtom = atom<Session | null>(null)

export const loadFlow = () => import('./siwxFlow.js')

/** The sign view: AppKit's older siweConfig has its own name (spec §2 ConnectingSiwe). */
export const signViewAtom = atom((get) => (get(configAtom)?.siwx?.siwe ? 'ConnectingSiwe' : 'SIWXSignMessage'))

// spec §4: close is disabled on the sign and approve views while sign-in is required and no session exists.
const lockedViews: readonly string[] = ['SIWXSignMessage', 'ConnectingSiwe', 'ApproveTransaction']
export const closeLockedAtom = atom((get) => {
  const signIn = get(signInAtom)
  return signIn.step !== 'idle' && signIn.required && !get(sessionAtom) && lockedViews.includes(get(routeAtom).view)
})

/**
 * A wallet connected, or came back at start-up (spec §4). With sign-in on, the sign view takes over a
 * connection made now while the dapp is asked for a session; a restored one is checked quietly and
 * the modal opens only when there is none. Answers whether sign-in took over.
 */
export const beginSignInAtom = atom(null, (get, set, { restored }: { restored: boolean }) => {
  const siwx = get(configAtom)?.siwx
  set(sessionAtom, null)
  if (!siwx) return false
  set(signInAtom, { step: 'checking', required: siwx.required })
  if (!restored) set(resetAtom, { view: get(signViewAtom) })
  void loadFlow().then((flow) => set(flow.checkAtom, { restored }))
  return true
})

/** A session is per account: another account signs in again (asked only when it has none). */
const accountChangedAtom = atom(null, (_get, set) => void set(beginSignInAtom, { restored: true }))

/** Where a connection made in a connect view leads: the account, unless sign-in took over. */
export const connectedHomeAtom = atom(null, (get, set) => {
  if (get(signInAtom).step === 'idle') set(resetAtom, { view: 'Account' })
})

/** A wallet disconnected: sign-in is over, and the dapp forgets its sessions if it asked to. */
export const endSignInAtom = atom(null, (get, set) => {
  set(signInAtom, { step: 'idle' })
  set(sessionAtom, null)
  if (get(configAtom)?.siwx?.signOutOnDisconnect) void loadFlow().then((flow) => set(flow.signOutAtom))
})

/**
 * spec §4: while sign-in is required, the person cannot close the sign views (a shake says so);
 * closing otherwise cancels the sign-in, which closes or, when required, disconnects. Answers whether
 * sign-in took the close over.
 */
const closingAtom = atom(null, (get, set, { silent }: { silent: boolean }) => {
  if (get(signInAtom).step === 'idle') return false
  if (get(closeLockedAtom) && !silent) set(shakeModalAtom)
  else void loadFlow().then((flow) => set(flow.cancelAtom))
  return true
})

/** Sign-in follows the core's connection and closing events; the app wires this once per store (src/wire.ts). */
export function wireSignIn(store: ReturnType<typeof createStore>) {
  Events.on(store, 'connected', beginSignInAtom)
  Events.on(store, 'accountChanged', accountChangedAtom)
  Events.on(store, 'disconnected', endSignInAtom)
  Events.on(store, 'closing', closingAtom)
}
