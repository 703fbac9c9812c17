/** jotai bindings of the view stack (spec §2). The rules themselves live in history.ts. */
import { atom } from 'jotai'
import * as History from './history.js'
import type { Route } from './routes.js'

export const historyAtom = atom<History.History>([{ view: 'Connect' }])
export const routeAtom = atom((get) => History.current(get(historyAtom)) ?? { view: 'Connect' as const })
export const canGoBackAtom = atom((get) => get(historyAtom).length > 1)

/** Which way the last navigation went, for the view transition; `none` draws a view with no transition (closed). */
export const directionAtom = atom<'forward' | 'back' | 'none'>('forward')

export const pushAtom = atom(null, (get, set, route: Route) => {
  set(directionAtom, 'forward')
  set(historyAtom, History.push(get(historyAtom), route))
})
export const replaceAtom = atom(null, (get, set, route: Route) => {
  set(directionAtom, 'forward')
  set(historyAtom, History.replace(get(historyAtom), route))
})
export const resetAtom = atom(null, (_get, set, route: Route) => {
  set(directionAtom, 'forward')
  set(historyAtom, History.reset(route))
})

/** Ends the flow that starts at `view` with `route` (History.replaceFrom). */
export const replaceFromAtom = atom(null, (get, set, view: Route['view'], route: Route) => {
  set(directionAtom, 'forward')
  set(historyAtom, History.replaceFrom(get(historyAtom), view, route))
})

/** Returns true when going back means closing the modal (spec §2); the caller then closes. */
export const popAtom = atom(null, (get, set) => {
  const { history, close } = History.goBack(get(historyAtom))
  if (close) return true
  set(directionAtom, 'back')
  set(historyAtom, history)
  return false
})
