/**
 * createModal(): a native <dialog> holding a transparent, full-viewport, preloaded iframe on the frame
 * origin (docs/architecture.md §4). `open()` is only a message and `showModal()`. This composes the parts in
 * internal/: the elements (dialog), one opening and its promise (opening), the frame and its channel
 * (frame), the dapp's events (events), the EIP-1193 provider (provider) and the page's wallets (wallets).
 * The page's Solana wallets are a chunk of their own (standard/), which `loadStandard` fetches only once
 * the dapp has a solana network: the ESM entry imports it, the script build fetches it from beside itself.
 * Module boundaries pass functions and tuples, not objects: their names would survive minifying.
 */
import * as Errors from '@doorway/shared/Errors'
import * as Logger from '@doorway/shared/Logger'
import * as Protocol from '@doorway/shared/Protocol'
import { sdk as text } from '@doorway/shared/Texts'
import * as Dialog from './internal/dialog.js'
import * as Events from './internal/events.js'
import * as Frame from './internal/frame.js'
import * as Opening from './internal/opening.js'
import * as Options from './internal/options.js'
import * as Provider from './internal/provider.js'
import * as Siwx from './internal/siwx.js'
import * as Wallets from './internal/wallets.js'
import type * as Standard from './standard/index.js'
import type { Modal, Options as ModalOptions, State } from './types.js'

declare const __DOORWAY_FRAME_URL__: string
declare const __DOORWAY_VERSION__: string

// Wallet prompts and modal flows wait on a person; they still end.
const personTimeoutMs = 300_000

export function createModal(options: ModalOptions, loadStandard: () => Promise<typeof Standard>): Modal {
  const log = Logger.console_('sdk')
  const config = Options.resolve(options, __DOORWAY_VERSION__)
  config.resume = Options.resume(new URL(location.href))
  const url = new URL(options.frameUrl ?? __DOORWAY_FRAME_URL__)
  // spec §8: a missing projectId raises the configuration alert (shown by the frame on open).
  if (!config.projectId) log.error(text.projectIdMissing)
  const { embedded } = options
  const [iframe, dialog] = Dialog.create(!!embedded, () => void call('close', { person: true }).then(setState, log.warn))
  const element = embedded ? iframe : dialog
  const [emit, subscribe, clear] = Events.create(log)
  let state: State = { open: !!embedded, view: 'Connect', loading: false, status: 'disconnected' }
  const setState = (next: State) => emit('state', (state = next))
  const opening = Opening.create(embedded ? undefined : dialog, iframe, emit)
  const [start, , end] = opening
  const lifetime = new AbortController()
  const wallets = Wallets.discover({
    log,
    onChange: (list) => void call('wallets', { wallets: list }).catch(log.warn),
    onEvent: (event) => void call('walletEvent', event).catch(log.warn),
  })
  const [load, call] = Frame.connect(
    iframe,
    url,
    () => (embedded ? embedded.append(iframe) : options.disableAppend || document.body.append(dialog)),
    log,
    lifetime.signal,
    {
      event: (event) => Events.fromFrame(event, setState, opening, emit, provider),
      walletRequest: ({ uuid, request }) => wallets.request(uuid, request),
      siwx: (call) => Siwx.call(options.siwx ?? options.siweConfig, call),
      standardRequest: (params) => (relay ?? Promise.reject(Errors.unknownWallet())).then((request) => request(params)),
      redirect: (to) => to.startsWith(url.href) && location.assign(to + encodeURIComponent(location.href)),
    },
    (channel) => channel.call('init', { config, wallets: wallets.list() }).then(setState),
  )
  const provider = Provider.create((request) => (load(), call('request', request, { timeoutMs: personTimeoutMs })))
  let relay: Promise<Standard.Request> | undefined
  const loadRelay = () => void (relay ??= loadStandard().then((chunk) => chunk.start(call, log, lifetime.signal, config.networks, modal))).catch(log.error)
  if (config.networks.some((n) => n.caipNetworkId.startsWith('solana:'))) loadRelay()
  // spec §4 "Account type and adapters": the frame applies the rules and answers their errors (spec §8).
  // A solana edit the frame accepted means the dapp has solana networks (a removal, that it had them: loaded already).
  const edit = async (params: Protocol.EditNetworks) => {
    setState(await call('editNetworks', params))
    if (params.namespace === 'solana') loadRelay()
  }
  const modal: Modal = {
    element,
    open(openOptions = {}) {
      load()
      const result = start()
      call('open', { view: openOptions.view, arguments: openOptions.arguments })
        .then((next) => (setState(next), emit('open', { view: next.view })))
        .catch((error) => (log.error(error), end({ status: 'closed' }, error)))
      return result
    },
    async close() {
      if (end({ status: 'closed' })) await call('close', {}).then(setState, log.warn)
    },
    addNetwork: async (namespace, network) => edit({ op: 'addNetwork', namespace, network: Options.network(network, namespace) }),
    removeNetwork: async (namespace, id) => edit({ op: 'removeNetwork', namespace, id }),
    addAdapter: async ({ namespace }, networks) => edit({ op: 'addAdapter', namespace, networks: networks.map((n) => Options.network(n, namespace)) }),
    removeAdapter: async (namespace) => edit({ op: 'removeAdapter', namespace }),
    getState: () => ({ ...state }),
    getProvider: () => provider,
    subscribe,
    destroy() {
      end({ status: 'closed' })
      wallets.stop()
      lifetime.abort(Errors.disconnected())
      element.remove()
      clear()
    },
  }
  return modal
}
