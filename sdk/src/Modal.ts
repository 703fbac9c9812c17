/**
 * createModal(): a native <dialog> holding a transparent, full-viewport, preloaded iframe on the frame
 * origin (DESIGN.md §4). `open()` is only a message and `showModal()`. Nothing is injected into the
 * host's <head>; styles are set through CSSOM, which a strict CSP allows.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Logger from '@doorway/shared/Logger'
import { sdk as text } from '@doorway/shared/Texts'
import * as Protocol from '@doorway/shared/Protocol'
import * as Options from './internal/options.js'
import * as Provider from './internal/provider.js'
import * as Siwx from './internal/siwx.js'
import * as Wallets from './internal/wallets.js'
import type { Events, Modal, OpenResult, Options as ModalOptions, State } from './types.js'

declare const __DOORWAY_FRAME_URL__: string
declare const __DOORWAY_VERSION__: string

const loadTimeoutMs = 15_000
// Wallet prompts and modal flows wait on a person; they still end.
const personTimeoutMs = 300_000
const fill = 'position:fixed;inset:0;width:100%;height:100%;max-width:none;max-height:none;margin:0;padding:0;border:0;background:transparent;overflow:hidden'
// Closed, the dialog is still laid out, unseen, inert and letting clicks through, so that the frame
// keeps its card painted and opening shows it in the next frame (issue 14). display:none would make
// the frame paint only after the click.
const closed = `${fill};display:block;opacity:0;pointer-events:none`

export function createModal(options: ModalOptions): Modal {
  const log = Logger.console_('sdk')
  const config = Options.resolve(options, __DOORWAY_VERSION__)
  const frameUrl = new URL(options.frameUrl ?? __DOORWAY_FRAME_URL__)
  const embedded = options.embedded
  // spec §8: a missing projectId raises the configuration alert (shown by the frame on open).
  if (!config.projectId) log.error(text.projectIdMissing)

  const iframe = document.createElement('iframe')
  iframe.title = text.frameTitle
  iframe.allow = 'clipboard-write'
  iframe.referrerPolicy = 'origin'
  iframe.style.cssText = embedded ? 'width:100%;height:100%;border:0;display:block' : fill
  const dialog = document.createElement('dialog')
  dialog.ariaLabel = text.dialogLabel
  const seen = (open: boolean) => {
    dialog.style.cssText = open ? fill : closed
    dialog.inert = !open
  }
  seen(false)
  dialog.append(iframe)
  const element = embedded ? iframe : dialog

  let state: State = { open: !!embedded, view: 'Connect', loading: false, status: 'disconnected' }
  let settle: { resolve(result: OpenResult): void; reject(error: unknown): void } | undefined
  let pendingOpen: Promise<OpenResult> | undefined
  let opener: Element | null = null
  let overflow = ''
  const page = document.documentElement.style
  const listeners = new Map<keyof Events, Set<(data: never) => void>>()
  // One dapp callback that throws must not stop the others or the channel.
  const emit = <E extends keyof Events>(event: E, data: Events[E]) =>
    listeners.get(event)?.forEach((cb) => {
      try {
        cb(data as never)
      } catch (error) {
        log.error(error)
      }
    })

  const lifetime = new AbortController()
  const wallets = Wallets.discover({
    log,
    onChange: (list) => void ready.then((channel) => channel.call('wallets', { wallets: list })).catch(log.warn),
    onEvent: (event) => void ready.then((channel) => channel.call('walletEvent', event)).catch(log.warn),
  })
  let loadTimer: ReturnType<typeof setTimeout>
  let failLoad: (error: Error) => void
  // The frame is placed and loads once the host page has drawn itself and gone idle (at most 1 s), so
  // it never delays the page's own first paint (issue 14); anything that needs it sooner (open(), a
  // provider request) loads it at once. It answers within the timeout.
  const load = () => {
    if (iframe.src || lifetime.signal.aborted) return
    // Placed only now: even an empty frame added before the first paint delays it.
    if (embedded) embedded.append(iframe)
    else if (!options.disableAppend) document.body.append(dialog)
    iframe.src = frameUrl.href
    loadTimer = setTimeout(failLoad, loadTimeoutMs, Errors.frameUnavailable())
  }
  // Safari has no requestIdleCallback: the next task there.
  const idle = typeof requestIdleCallback == 'function' ? requestIdleCallback(load, { timeout: 1_000 }) : setTimeout(load)
  const handshake = Channel.offer({ iframe, origin: frameUrl.origin, log, signal: lifetime.signal }).then((port) => {
    clearTimeout(loadTimer)
    const channel = Channel.create<Protocol.HostApi, Protocol.FrameApi>({
      port,
      log,
      accepts: Protocol.hostParams,
      expects: Protocol.frameResults,
      expose: Channel.respond,
      handlers: {
        event: onFrameEvent,
        walletRequest: ({ uuid, request }) => wallets.request(uuid, request),
        siwx: (call) => Siwx.call(options.siwx ?? options.siweConfig, call),
      },
    })
    lifetime.signal.addEventListener('abort', () => channel.close())
    return channel.call('init', { config, wallets: wallets.list() }).then(setState).then(() => channel)
  })
  // The frame either answers in time or every open() and request fails with a clear error.
  const ready = Promise.race([
    handshake,
    new Promise<never>((_, reject) => (failLoad = reject)),
  ])
  ready.catch(log.error)

  const provider = Provider.create((request) =>
    (load(), ready).then((channel) => channel.call('request', request, { timeoutMs: personTimeoutMs })),
  )

  function onFrameEvent(event: Protocol.FrameEvent) {
    const { type } = event
    if (type === 'state') setState(event.state)
    else if (type === 'close') finishClose(event.result)
    // `connected` or `sent` (Send flow): open() settles; the modal stays until closed.
    else if (type === 'result') settleOpen(event.result)
    else if (type === 'show') show()
    // App links replace nothing (the OS takes them); web pages get a new tab (Protocol frameEvent).
    else if (type === 'navigate') open(event.url, /^https?:/i.test(event.url) ? '_blank' : '_self', 'noopener')
    else if (type === 'connect' || type === 'accountChanged') {
      emit(type, event.account)
      provider.emit('accountsChanged', [event.account.address])
      if (type === 'connect') provider.emit('connect', { chainId: Caip.eip155Hex(event.account.chainId) })
    } else if (type === 'chainChanged') {
      emit(type, { chainId: event.chainId })
      provider.emit('chainChanged', Caip.eip155Hex(event.chainId))
    } else {
      emit('disconnect', {})
      provider.emit('accountsChanged', [])
      provider.emit('disconnect', Errors.disconnected())
    }
    return null
  }

  function setState(next: State) {
    state = next
    emit('state', state)
  }

  /** Shows the dialog, once per opening; returns the promise open() settles with. */
  function show() {
    if (!pendingOpen) {
      if (!embedded) {
        opener = document.activeElement
        overflow = page.overflow
        page.overflow = 'hidden'
        seen(true)
        dialog.showModal()
        iframe.focus()
      }
      pendingOpen = new Promise<OpenResult>((resolve, reject) => (settle = { resolve, reject }))
    }
    return pendingOpen
  }

  function settleOpen(result: OpenResult, error?: unknown) {
    if (error) settle?.reject(error)
    else settle?.resolve(result)
    settle = undefined
  }

  function finishClose(result: OpenResult, error?: unknown) {
    if (!pendingOpen) return
    if (dialog.open) {
      dialog.close()
      seen(false)
      page.overflow = overflow
      ;(opener as HTMLElement | null)?.focus?.()
    }
    opener = null
    pendingOpen = undefined
    settleOpen(result, error)
    emit('close', result)
  }

  // A focused dialog (before the frame takes focus) gets Escape as `cancel`: the person's close, which
  // the frame may refuse (spec §4: sign-in required) or carry out and report.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    void ready.then((channel) => channel.call('close', { person: true })).then(setState, log.warn)
  })

  const modal: Modal = {
    element,
    open(openOptions = {}) {
      load()
      const result = show()
      ready
        .then((channel) => channel.call('open', { view: openOptions.view, arguments: openOptions.arguments }))
        .then((next) => {
          setState(next)
          emit('open', { view: next.view })
        })
        .catch((error) => {
          log.error(error)
          finishClose({ status: 'closed' }, error)
        })
      return result
    },
    async close() {
      if (!pendingOpen) return
      finishClose({ status: 'closed' })
      await ready.then((channel) => channel.call('close', {})).then(setState, log.warn)
    },
    getState: () => ({ ...state }),
    getProvider: () => provider,
    subscribe(event, callback) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(callback as (data: never) => void)
      return () => void set.delete(callback as (data: never) => void)
    },
    destroy() {
      finishClose({ status: 'closed' })
      clearTimeout(loadTimer)
      ;(self.cancelIdleCallback ?? clearTimeout)(idle as never)
      wallets.stop()
      lifetime.abort(Errors.disconnected())
      element.remove()
      listeners.clear()
    },
  }
  return modal
}
