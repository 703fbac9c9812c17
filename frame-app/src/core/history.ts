/** The view stack of spec §2 as pure functions over an immutable history. */
import type { Route } from './routes.js'

export type History = readonly Route[]

/** spec §2: push adds a view unless it is already the current one. */
export function push(history: History, route: Route): History {
  return current(history)?.view === route.view ? history : [...history, route]
}

/** spec §2: replace swaps the current view. */
export function replace(history: History, route: Route): History {
  return [...history.slice(0, -1), route]
}

/** spec §2: reset sets a single-item history. */
export function reset(route: Route): History {
  return [route]
}

/**
 * spec §2: go back pops a view; it closes the modal when only one view remains or when the history
 * contains UnsupportedChain.
 */
export function goBack(history: History): { history: History; close: boolean } {
  if (history.length <= 1 || history.some((r) => r.view === 'UnsupportedChain')) return { history, close: true }
  return { history: history.slice(0, -1), close: false }
}

/**
 * Ends a flow: everything from the first `view` on gives way to `route` (the whole history when the
 * flow is not in it). Going back from `route` then leaves the flow, e.g. from a send's result to Account.
 */
export function replaceFrom(history: History, view: Route['view'], route: Route): History {
  const start = history.findIndex((r) => r.view === view)
  return [...history.slice(0, Math.max(start, 0)), route]
}

export function current(history: History): Route | undefined {
  return history[history.length - 1]
}

/**
 * spec §2 opening rules, in order. Rule 1 ("no chain adapters": basic mode, docs/architecture.md §10) is
 * checked before the explicit view because the spec lists it first.
 */
export function opening(options: {
  basic: boolean
  connected: boolean
  mobile: boolean
  view?: Route | undefined
}): Route {
  const { basic, connected, mobile, view } = options
  if (basic && !connected) return { view: mobile ? 'AllWallets' : 'ConnectingWalletConnectBasic' }
  if (view) return view
  if (connected) return { view: 'Account' }
  return { view: 'Connect' }
}

/** spec §2: closing while embedded resets to Account when connected, else Connect. */
export function embeddedHome(connected: boolean): Route {
  return { view: connected ? 'Account' : 'Connect' }
}
