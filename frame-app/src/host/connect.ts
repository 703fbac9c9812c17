/**
 * The frame's side of the host channel (DESIGN.md §4): pin the host origin, accept its port, expose
 * the flat frame API, and wire the effects that report back to the host.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import type * as Logger from '@doorway/shared/Logger'
import { alerts } from '@doorway/shared/Texts'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import type { createStore } from 'jotai'
import { flushSync } from 'react-dom'
import { raiseAlertAtom } from '../state/alerts.js'
import { configAtom, hostOriginAtom } from '../state/config.js'
import { trackAtom } from '../state/analytics.js'
import { embeddedId, walletConnectId } from '../connectors/Connector.js'
import { accountAtom, chainIdAtom, connectedAtom, restoreAtom, statusAtom, storedConnectorId, walletEventAtom } from '../state/connection.js'
import { approvalAtom, cancelApprovalAtom, restoreEmbeddedAtom } from '../state/embedded.js'
import { secureStatusAtom } from '../state/secure.js'
import { hostAtom, notifyAtom } from '../state/host.js'
import { checkChainAtom, closeModalAtom, homeAtom, intentAtom, modalStateAtom, openAtom, openModalAtom } from '../state/modal.js'
import { restoreWalletConnectAtom, warmWalletConnectAtom } from '../state/walletConnect.js'
import { hostWalletsAtom } from '../state/wallets.js'
import { loadEmailLogin, loadSocialLogin } from '../views/Connect/Connect.js'
import { featureOf, preloadAfterIntent } from '../views/View.js'
import * as Requests from './requests.js'

type Store = ReturnType<typeof createStore>

export async function connect(options: { store: Store; log: Logger.Logger; parentOrigin: string }) {
  const { store, log, parentOrigin } = options
  const port = await Channel.accept({ parentOrigin, log })
  store.set(hostOriginAtom, parentOrigin)
  const state = () => store.get(modalStateAtom)

  const host = Channel.create<Protocol.FrameApi, Protocol.HostApi>({
    port,
    log,
    accepts: Protocol.frameParams,
    expects: Protocol.hostResults,
    expose,
    handlers: {
      init({ config, wallets }) {
        store.set(configAtom, config)
        store.set(hostWalletsAtom, wallets)
        // spec §8: a missing project id raises the configuration alert.
        if (!config.projectId) store.set(raiseAlertAtom, { key: 'projectIdNotConfigured', ...alerts.projectIdNotConfigured })
        // spec §1: embedded mode renders in place, open from the start.
        if (config.embedded) store.set(openModalAtom)
        if (config.features.email) void loadEmailLogin()
        if (config.features.socials) void loadSocialLogin()
        void store.set(restoreAtom)
        // A stored WalletConnect session comes back at once; otherwise the connector waits for the
        // modal to open (issue 14: no relay socket nor its 134 KB before intent).
        if (storedConnectorId() === walletConnectId) void store.set(restoreWalletConnectAtom)
        if (storedConnectorId() === embeddedId) restoreEmbedded(store)
        // Draw ahead the view opening will show (state/modal.ts homeAtom).
        store.set(homeAtom)
        return state()
      },
      wallets({ wallets }) {
        store.set(hostWalletsAtom, wallets)
        void store.set(restoreAtom)
        return null
      },
      walletEvent(event) {
        store.set(walletEventAtom, event)
        return null
      },
      request: Requests.create(store),
      async open({ view, arguments: args }) {
        const feature = view && featureOf(view)
        const config = store.get(configAtom)
        if (!config) throw Errors.notInitialized()
        if (feature && !config.features[feature]) throw Errors.featureOff(view, feature)
        // Arguments are checked by modules loaded only when given: the first chunk goes without them.
        const route =
          view === 'Send' && args
            ? { view, prefill: (await import('../state/sendArguments.js')).parse(args, config.networks) }
            : view === 'Swap' && args
              ? { view, prefill: (await import('../state/swapArguments.js')).parse(args, config.networks) }
              : view && { view }
        // Render synchronously: open() is on the click-to-visible path.
        flushSync(() => store.set(openModalAtom, route))
        return state()
      },
      close({ person }) {
        // The dapp asked, so the host already closed: no echo. A person's Escape on the host is handled
        // as in the frame, which reports the close (or refuses it while sign-in is required).
        store.set(closeModalAtom, { silent: !person })
        return state()
      },
    },
  })
  store.set(hostAtom, { host, warn: log.warn })
  store.sub(modalStateAtom, () => store.set(notifyAtom, { type: 'state', state: state() }))
  // The view drawn ahead follows the connection while the modal is closed.
  store.sub(connectedAtom, () => store.set(homeAtom))
  // After the first opening, once the frame is idle (never on the open path): the WalletConnect
  // connector warms (its chunk and the relay, for a fast QR) and the views a connection leads to load.
  const unsubscribeIntent = store.sub(intentAtom, () => {
    unsubscribeIntent()
    whenIdle(() => {
      if (storedConnectorId() !== walletConnectId) store.set(warmWalletConnectAtom)
      const config = store.get(configAtom)
      if (config) preloadAfterIntent(config)
    })
  })
  store.sub(chainIdAtom, () => store.set(checkChainAtom))
  // spec §4: closing the modal rejects a pending embedded-wallet request (4001).
  store.sub(openAtom, () => {
    const approval = store.get(approvalAtom)
    if (!store.get(openAtom) && approval) store.set(cancelApprovalAtom, approval.op)
  })
  wireAnalytics(store)
  return host
}

/**
 * spec §4 start-up sync for the embedded wallet: connecting at once, then CONNECT_DEVICE when its
 * secure frame has answered (or failed to load, which restore reports as disconnected).
 */
function restoreEmbedded(store: Store) {
  store.set(statusAtom, (s) => ({ ...s, eip155: 'connecting' }))
  const unsubscribe = store.sub(secureStatusAtom, () => {
    const { state } = store.get(secureStatusAtom)
    if (state !== 'ready' && state !== 'error') return
    unsubscribe()
    void store.set(restoreEmbeddedAtom)
  })
}

/** The events analytics reports, taken from state changes rather than sprinkled through views. */
function wireAnalytics(store: Store) {
  store.sub(openAtom, () => void store.set(trackAtom, store.get(openAtom) ? 'MODAL_OPEN' : 'MODAL_CLOSE'))
  let previous = store.get(accountAtom)
  store.sub(accountAtom, () => {
    const account = store.get(accountAtom)
    if (account && !previous) void store.set(trackAtom, 'CONNECT_SUCCESS', { name: account.connector.name })
    else if (!account && previous) void store.set(trackAtom, 'DISCONNECT_SUCCESS')
    else if (account && previous && account.chainId !== previous.chainId) void store.set(trackAtom, 'SWITCH_NETWORK', { network: account.chainId })
    previous = account
  })
}

/** Runs `work` when the frame is idle (within 2 s); Safari has no requestIdleCallback. */
function whenIdle(work: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 2_000 })
  else setTimeout(work, 200)
}
