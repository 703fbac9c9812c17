/**
 * createModal(): a native <dialog> holding a transparent, full-viewport, preloaded iframe on the frame
 * origin (DESIGN.md §4). `open()` is only a message and `showModal()`. Nothing is injected into the
 * host's <head>; styles are set through CSSOM, which a strict CSP allows.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Logger from '@doorway/shared/Logger'
import { sdk as text } from '@doorway/shared/Messages'
import * as Protocol from '@doorway/shared/Protocol'
import * as Options from './internal/options.js'
import type { Events, Modal, OpenResult, Options as ModalOptions, State } from './types.js'

declare const __DOORWAY_FRAME_URL__: string
declare const __DOORWAY_VERSION__: string

const loadTimeoutMs = 15_000
const fill = 'position:fixed;inset:0;width:100%;height:100%;max-width:none;max-height:none;margin:0;padding:0;border:0;background:transparent;overflow:hidden'

export function createModal(options: ModalOptions): Modal {
  const log = Logger.create({ scope: 'sdk' })
  const config = Options.resolve(options, __DOORWAY_VERSION__)
  const frameUrl = new URL(options.frameUrl ?? __DOORWAY_FRAME_URL__)
  const embedded = options.embedded
  // spec §8: a missing projectId raises the configuration alert (shown by the frame on open).
  if (!config.projectId) log.error(text.projectIdMissing)

  const iframe = document.createElement('iframe')
  iframe.src = frameUrl.href
  iframe.title = text.frameTitle
  iframe.allow = 'clipboard-write'
  iframe.referrerPolicy = 'origin'
  iframe.style.cssText = embedded ? 'width:100%;height:100%;border:0;display:block' : fill
  const dialog = document.createElement('dialog')
  dialog.setAttribute('aria-label', text.dialogLabel)
  dialog.style.cssText = fill
  dialog.append(iframe)
  const element = embedded ? iframe : dialog
  if (embedded) embedded.append(iframe)
  else if (!options.disableAppend) document.body.append(dialog)

  let state: State = { open: !!embedded, view: 'Connect', loading: false }
  let settle: { resolve(result: OpenResult): void; reject(error: unknown): void } | undefined
  let pendingOpen: Promise<OpenResult> | undefined
  let opener: Element | null = null
  let overflow = ''
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
  const loadTimer = new AbortController()
  setTimeout(() => loadTimer.abort(Errors.frameUnavailable()), loadTimeoutMs)
  const ready = Channel.offer({ iframe, origin: frameUrl.origin, log, signal: lifetime.signal })
    .then((port) => {
      const channel = Channel.create({
        port,
        log,
        local: Protocol.hostApi,
        remote: Protocol.frameApi,
        handlers: { event: onFrameEvent },
        expose: Channel.respond,
      })
      lifetime.signal.addEventListener('abort', () => channel.close())
      return channel.call('init', config).then(setState, (e) => Promise.reject(e)).then(() => channel)
    })
  ready.catch((error) => log.error(error))

  function onFrameEvent(event: Protocol.FrameEvent) {
    if (event.type === 'state') setState(event.state)
    else finishClose(event.result)
    return null
  }

  function setState(next: State) {
    state = next
    emit('state', state)
  }

  function whenReady() {
    return Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        if (loadTimer.signal.aborted) reject(loadTimer.signal.reason)
        loadTimer.signal.addEventListener('abort', () => reject(loadTimer.signal.reason))
      }),
    ])
  }

  function finishClose(result: OpenResult, error?: unknown) {
    if (!pendingOpen) return
    if (dialog.open) {
      dialog.close()
      document.documentElement.style.overflow = overflow
      if (opener instanceof HTMLElement || opener instanceof SVGElement) opener.focus()
    }
    opener = null
    pendingOpen = undefined
    if (error) settle?.reject(error)
    else settle?.resolve(result)
    settle = undefined
    emit('close', result)
  }

  // A focused dialog (before the frame takes focus) gets Escape as `cancel`.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault()
    void modal.close()
  })

  const modal: Modal = {
    element,
    open(openOptions = {}) {
      if (!pendingOpen) {
        if (!embedded) {
          opener = document.activeElement
          overflow = document.documentElement.style.overflow
          document.documentElement.style.overflow = 'hidden'
          dialog.showModal()
          iframe.focus()
        }
        pendingOpen = new Promise<OpenResult>((resolve, reject) => (settle = { resolve, reject }))
      }
      const result = pendingOpen
      whenReady()
        .then((channel) => channel.call('open', { view: openOptions.view }))
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
      await whenReady().then((channel) => channel.call('close', {})).then(setState, (e) => log.warn(e))
    },
    getState: () => ({ ...state }),
    subscribe(event, callback) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(callback as (data: never) => void)
      return () => void set.delete(callback as (data: never) => void)
    },
    destroy() {
      finishClose({ status: 'closed' })
      lifetime.abort(Errors.disconnected())
      element.remove()
      listeners.clear()
    },
  }
  return modal
}
