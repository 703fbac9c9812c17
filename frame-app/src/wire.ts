/**
 * Where the frame is wired (docs/architecture.md §5): every subscription from one part to another, made
 * once per store by main.tsx. The layout of frame-app/src:
 *   main.tsx, App.tsx, Modal.tsx  the entry, the React root, and the modal's shell (header, view, toasts)
 *   core/                config, connection (and connectors/: the Connector type, injected wallets),
 *                        network, routes, history, router, modal, host, storage, wallets, theme, toasts,
 *                        alerts, api, and events: the hub the core publishes what happened on
 *   features/<feature>/  one folder per feature with its atoms, rules, argument checks and tests: send,
 *                        swap, onramp, activity, nfts, names, balances, catalogue, siwx, analytics,
 *                        embedded (its connector and secure frame too), walletConnect (its connector too)
 *   views/<View>/        the UI of each spec §2 view; components/ holds the pieces views share
 *   host/                the host channel: the frame API, the requests it relays, the state the host sees
 *   api/                 the api client
 * Two rules. The core imports no feature (.dependency-cruiser.cjs checks it): it publishes connected,
 * accountChanged, disconnected and closing on core/events.ts, and features subscribe here. A lazy part
 * may import the eager part, never the reverse: a feature's lazy modules (siwxFlow, embeddedSession,
 * sendRules…) are reached only through import().
 */
import type { createStore } from 'jotai'
import { configAtom } from './core/config.js'
import { chainIdAtom, connectedAtom, storedConnectorId } from './core/connection.js'
import { walletConnectId } from './core/connectors/Connector.js'
import { notifyAtom } from './core/host.js'
import { checkChainAtom, homeAtom, intentAtom } from './core/modal.js'
import { wireAnalytics } from './features/analytics/analytics.js'
import { wireEmbedded } from './features/embedded/embedded.js'
import { wireSignIn } from './features/siwx/siwx.js'
import { warmWalletConnectAtom } from './features/walletConnect/walletConnect.js'
import { modalStateAtom } from './host/modalState.js'
import { preloadAfterIntent } from './views/View.js'

type Store = ReturnType<typeof createStore>

export function wire(store: Store) {
  // The host hears every change of the modal's state.
  store.sub(modalStateAtom, () => store.set(notifyAtom, { type: 'state', state: store.get(modalStateAtom) }))
  // The view drawn ahead follows the connection while the modal is closed.
  store.sub(connectedAtom, () => store.set(homeAtom))
  wireIntent(store)
  store.sub(chainIdAtom, () => store.set(checkChainAtom))
  wireEmbedded(store)
  wireAnalytics(store)
  wireSignIn(store)
}

/**
 * After the first opening, once the frame is idle (never on the open path): the WalletConnect
 * connector warms (its chunk and the relay, for a fast QR) and the views a connection leads to load.
 */
function wireIntent(store: Store) {
  const unsubscribe = store.sub(intentAtom, () => {
    unsubscribe()
    whenIdle(() => {
      if (storedConnectorId() !== walletConnectId) store.set(warmWalletConnectAtom)
      const config = store.get(configAtom)
      if (config) preloadAfterIntent(config)
    })
  })
}

/** Runs `work` when the frame is idle (within 2 s); Safari has no requestIdleCallback. */
function whenIdle(work: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 2_000 })
  else setTimeout(work, 200)
}
