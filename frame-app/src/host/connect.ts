/**
 * The frame's side of the host channel (docs/architecture.md §4): pin the host origin, accept its port, and
 * expose the flat frame API. What the state reports back to the host is wired in src/wire.ts.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import type * as Logger from '@doorway/shared/Logger'
import { alerts } from '@doorway/shared/Texts'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import type { createStore } from 'jotai'
import { flushSync } from 'react-dom'
import { raiseAlertAtom } from '../core/alerts.js'
import { configAtom, hostOriginAtom } from '../core/config.js'
import { embeddedId, walletConnectId } from '../core/connectors/Connector.js'
import { restoreAtom, statusAtom, storedConnectorId, walletEventAtom } from '../core/connection.js'
import { hostAtom } from '../core/host.js'
import { closeModalAtom, homeAtom, openModalAtom } from '../core/modal.js'
import { hostWalletsAtom } from '../core/wallets.js'
import { restoreEmbeddedAtom } from '../features/embedded/embedded.js'
import { secureStatusAtom } from '../features/embedded/secure.js'
import { restoreWalletConnectAtom } from '../features/walletConnect/walletConnect.js'
import { loadEmailLogin, loadSocialLogin } from '../views/Connect/Connect.js'
import { featureOf } from '../views/View.js'
import { modalStateAtom } from './modalState.js'

type Store = ReturnType<typeof createStore>

/** The Solana wallets' connectors and events are a chunk of their own: an EVM-only dapp never loads it. */
const standardWallets = () => import('../core/standardWallets.js')

/** Accepts the host's port, serves the frame API on it, and lets the state notify the host through it. */
export async function connect(options: { store: Store; log: Logger.Logger; parentOrigin: string }) {
  const { store, log, parentOrigin } = options
  const port = await Channel.accept({ parentOrigin, log })
  store.set(hostOriginAtom, parentOrigin)
  const host = Channel.create<Protocol.FrameApi, Protocol.HostApi>({
    port,
    log,
    accepts: Protocol.frameParams,
    expects: Protocol.hostResults,
    expose,
    handlers: handlers(store),
  })
  store.set(hostAtom, { host, warn: log.warn })
  return host
}

/** The flat frame API (spec §1): what the host may ask, each answered with the modal's state. */
function handlers(store: Store): Channel.Handlers<Protocol.FrameApi> {
  const state = () => store.get(modalStateAtom)
  let requests: Promise<(request: Protocol.RpcRequest) => Promise<unknown>> | undefined
  return {
    init({ config, wallets }) {
      store.set(configAtom, config)
      store.set(hostWalletsAtom, wallets)
      // spec §8: a missing project id raises the configuration alert.
      if (!config.projectId) store.set(raiseAlertAtom, { key: 'projectIdNotConfigured', ...alerts.projectIdNotConfigured })
      // spec §1: embedded mode renders in place, open from the start.
      if (config.embedded) store.set(openModalAtom)
      if (config.features.email) void loadEmailLogin()
      if (config.features.socials) void loadSocialLogin()
      // Back from a social sign-in's redirect (spec §5 result_uri, §7 social-redirect): the modal opens and finishes it.
      if (config.resume) void resumeSocial(store, config.resume)
      void store.set(restoreAtom)
      // A stored WalletConnect session comes back at once; otherwise the connector waits for the
      // modal to open (issue 14: no relay socket nor its 134 KB before intent).
      if (storedConnectorId() === walletConnectId) void store.set(restoreWalletConnectAtom)
      if (storedConnectorId() === embeddedId) restoreEmbedded(store)
      // Draw ahead the view opening will show (core/modal.ts homeAtom).
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
    async standardWallets({ wallets }) {
      void store.set((await standardWallets()).reportWalletsAtom, wallets)
      return null
    },
    async standardEvent(event) {
      store.set((await standardWallets()).standardEventAtom, event)
      return null
    },
    async editNetworks(edit) {
      const { editNetworksAtom } = await import('../core/networkEdits.js')
      store.set(editNetworksAtom, edit)
      return state()
    },
    // The dapp's EIP-1193 (and Doorway wallet) requests are a chunk of their own: the first one loads it.
    request: async (params) => (await (requests ??= import('./requests.js').then((Requests) => Requests.create(store))))(params),
    async open({ view, arguments: args }) {
      const feature = view && featureOf(view)
      const config = store.get(configAtom)
      if (!config) throw Errors.notInitialized()
      if (feature && !config.features[feature]) throw Errors.featureOff(view, feature)
      // Arguments are checked by modules loaded only when given: the first chunk goes without them.
      const route =
        view === 'Send' && args
          ? { view, prefill: (await import('../features/send/sendArguments.js')).parse(args, config.networks) }
          : view === 'Swap' && args
            ? { view, prefill: (await import('../features/swap/swapArguments.js')).parse(args, config.networks) }
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
  }
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

async function resumeSocial(store: Store, flowId: string) {
  const { resumeSocialAtom } = await import('../features/embedded/socialLogin.js')
  await store.set(resumeSocialAtom, flowId)
}
