/** Modal open/closed, loading and shake (spec §4 Modal), and the opening/closing rules (spec §2). */
import * as Constants from '@doorway/shared/Constants'
import { atom, type Getter } from 'jotai'
import { configAtom, mobileAtom } from './config.js'
import { chainIdAtom, connectedAtom } from './connection.js'
import { publishAtom } from './events.js'
import { notifyAtom } from './host.js'
import * as History from './history.js'
import { directionAtom, historyAtom, popAtom, pushAtom, resetAtom } from './router.js'
import type { Route } from './routes.js'

export const openAtom = atom(false)
export const loadingAtom = atom(false)
export const shakeAtom = atom(false)

/** The person showed intent: the modal has been opened (the embedded wallet's frame and WalletConnect wait for it). */
export const intentAtom = atom(false)

const openingRoute = (get: Getter, view?: Route) =>
  History.opening({ basic: get(configAtom)?.basic ?? false, connected: get(connectedAtom), mobile: get(mobileAtom), view })

export const openModalAtom = atom(null, (get, set, view?: Route) => {
  const route = openingRoute(get, view)
  // The view opening shows is usually drawn already (homeAtom): then opening only shows it.
  if (!isDrawn(get(historyAtom), route)) set(resetAtom, route)
  set(intentAtom, true)
  set(openAtom, true)
})

/**
 * While closed, the frame keeps drawn the view that opening without an explicit view will show (spec
 * §2 rules), so that showing the dialog shows a card already painted (issue 14). A WalletConnect
 * view is not drawn ahead: it would reach the relay before the person asked for anything.
 */
export const homeAtom = atom(null, (get, set) => {
  if (get(openAtom) || get(configAtom)?.embedded) return
  const route = openingRoute(get)
  const ahead = route.view === 'ConnectingWalletConnectBasic' ? { view: 'Connect' as const } : route
  if (isDrawn(get(historyAtom), ahead)) return
  set(directionAtom, 'none')
  set(historyAtom, History.reset(ahead))
})

/** The history is that one view, with no arguments on either side (a route with arguments is drawn anew). */
const isDrawn = (history: History.History, route: Route) =>
  history.length === 1 && history[0]!.view === route.view && Object.keys(history[0]!).length === 1 && Object.keys(route).length === 1

export const closeModalAtom = atom(null, (get, set, options?: { silent?: boolean }) => {
  // A feature may take the close over: sign-in in progress cancels itself, or refuses (features/siwx/siwx.ts).
  if (set(publishAtom, { type: 'closing', silent: options?.silent ?? false })) return
  set(loadingAtom, false)
  if (get(configAtom)?.embedded) set(resetAtom, History.embeddedHome(get(connectedAtom)))
  else {
    set(openAtom, false)
    set(homeAtom)
  }
  // The modal closed itself (Escape, close button, backdrop, going back at the root): tell the host.
  if (!options?.silent) set(notifyAtom, { type: 'close', result: { status: 'closed' } })
})

/** The header's back action: pops, or closes when spec §2 says going back closes. */
export const goBackAtom = atom(null, (_get, set) => {
  if (set(popAtom)) set(closeModalAtom)
})

// A per-store timer slot (never module state: one store per modal instance).
const shakeTimerAtom = atom(() => ({ id: undefined as ReturnType<typeof setTimeout> | undefined }))
/** spec §4: a 500 ms shake, e.g. when an action is refused. */
export const shakeModalAtom = atom(null, (get, set) => {
  const timer = get(shakeTimerAtom)
  clearTimeout(timer.id)
  set(shakeAtom, true)
  timer.id = setTimeout(() => set(shakeAtom, false), Constants.shakeMs)
})

/**
 * The wallet's chain against the dapp's networks: an unconfigured chain shows UnsupportedChain unless
 * allowUnsupportedChain (spec §4); a supported one again closes it. Run whenever the chain changes.
 */
export const checkChainAtom = atom(null, (get, set) => {
  const config = get(configAtom)
  const chainId = get(chainIdAtom)
  if (!config || !chainId) return
  const supported = config.allowUnsupportedChain || config.networks.some((n) => n.caipNetworkId === chainId)
  const showing = get(historyAtom).some((r) => r.view === 'UnsupportedChain')
  if (supported) return showing && set(closeModalAtom)
  if (showing) return
  if (get(openAtom)) return set(pushAtom, { view: 'UnsupportedChain' })
  set(resetAtom, { view: 'UnsupportedChain' })
  set(openAtom, true)
  set(notifyAtom, { type: 'show' })
})
