/**
 * Sign-in on connect (spec §4 Sign-in (SIWX), issue 13): what the rest of the modal needs to know. The
 * steps themselves (the dapp's functions called through the host, the wallet's signature) live in
 * siwxFlow.ts, a chunk loaded only when the dapp turned sign-in on.
 */
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { configAtom } from './config.js'
import { resetAtom, routeAtom } from './router.js'

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
