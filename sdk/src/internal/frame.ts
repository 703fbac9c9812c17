/**
 * The frame and the channel to it (docs/architecture.md §4). The frame is placed and loads once the
 * host page has drawn itself and gone idle (at most 1 s), so it never delays the page's own first
 * paint (issue 14); anything that needs it sooner (open(), a provider request) calls `load`. It answers
 * within the timeout, or every call fails with a clear error.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import type * as Logger from '@doorway/shared/Logger'
import * as Protocol from '@doorway/shared/Protocol'

const loadTimeoutMs = 15_000

type Frame = Channel.Channel<Protocol.FrameApi>
type Log = Pick<Logger.Logger, 'warn' | 'debug' | 'error'>

/**
 * Loads `iframe` from `url` and opens the channel to it. `place` puts the frame (or its dialog) in the
 * page just before it loads; `handlers` answer the frame's calls; `init` is the first call, made before
 * any other goes through; `signal` (destroy()) stops the loading and closes the channel. Returns `load`,
 * to load the frame at once, and `call`, which waits for the frame to answer and take `init`.
 */
export function connect(
  iframe: HTMLIFrameElement,
  url: URL,
  place: () => void,
  log: Log,
  signal: AbortSignal,
  handlers: Channel.Handlers<Protocol.HostApi>,
  init: (channel: Frame) => Promise<unknown>,
): readonly [load: () => void, call: Frame['call']] {
  let timer: ReturnType<typeof setTimeout>
  let fail: (error: Error) => void
  const load = () => {
    if (iframe.src || signal.aborted) return
    // Placed only now: even an empty frame added before the first paint delays it.
    place()
    iframe.src = url.href
    timer = setTimeout(fail, loadTimeoutMs, Errors.frameUnavailable())
  }
  // Safari has no requestIdleCallback: the next task there (setTimeout reads the options object as a 0 ms delay).
  const idle = (self.requestIdleCallback ?? (setTimeout as unknown as typeof requestIdleCallback))(load, { timeout: 1_000 })
  const handshake = Channel.offer({ iframe, origin: url.origin, log, signal }).then((port) => {
    clearTimeout(timer)
    const channel = Channel.create<Protocol.HostApi, Protocol.FrameApi>({
      port,
      log,
      accepts: Protocol.hostParams,
      expects: Protocol.frameResults,
      expose: Channel.respond,
      handlers,
    })
    signal.addEventListener('abort', () => channel.close())
    return init(channel).then(() => channel)
  })
  const ready = Promise.race([handshake, new Promise<never>((_, reject) => (fail = reject))])
  ready.catch(log.error)
  signal.addEventListener('abort', () => {
    clearTimeout(timer)
    ;(self.cancelIdleCallback ?? clearTimeout)(idle as never)
  })
  const call: Frame['call'] = (method, params, callOptions) => ready.then((channel) => channel.call(method, params, callOptions))
  return [load, call]
}
