/**
 * The nested secure-site frame (docs/architecture.md §6), on its own origin, over the same hardened channel as
 * the host's: this side is the parent. It stays hidden until a view (ApproveTransaction, ExportWallet)
 * gives it a slot (useSecureSlot); it is never moved in the DOM, which would reload it and lose its state.
 */
import * as Channel from '@doorway/shared/Channel'
import * as Constants from '@doorway/shared/Constants'
import { expose } from 'comlink'
import * as Logger from '@doorway/shared/Logger'
import { ui } from '@doorway/shared/Texts'
import * as Protocol from '@doorway/shared/Protocol'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useLayoutEffect, useRef } from 'react'
import { configAtom } from '../../core/config.js'
import { openAtom } from '../../core/modal.js'
import { accentOf, onAccent } from '../../core/theme.js'
import { secureSlotAtom, secureStatusAtom } from './secure.js'

declare const __DOORWAY_SECURE_URL__: string
export const secureUrl = new URL(__DOORWAY_SECURE_URL__)

export function SecureFrame() {
  const ref = useRef<HTMLIFrameElement>(null)
  const setStatus = useSetAtom(secureStatusAtom)
  const status = useAtomValue(secureStatusAtom)
  const config = useAtomValue(configAtom)
  // Shown only over an open modal's slot for it.
  const slot = useAtomValue(secureSlotAtom)
  const open = useAtomValue(openAtom)
  const shown = open ? slot : null
  // A layout effect: the listener is in place in the same task that inserts the iframe, so the secure-site's
  // one `ready` can never arrive before it (a passive effect can run after that message on a busy thread,
  // and the channel would then never open).
  useLayoutEffect(() => {
    const iframe = ref.current!
    const log = Logger.create({ scope: 'frame:secure' })
    const lifetime = new AbortController()
    setStatus({ state: 'loading' })
    Channel.offer({ iframe, origin: secureUrl.origin, log, signal: lifetime.signal })
      .then(async (port) => {
        const channel = Channel.create<Protocol.SecureClientApi, Protocol.SecureApi>({
          port,
          log,
          accepts: Protocol.secureClientParams,
          handlers: {},
          expects: Protocol.secureResults,
          expose,
        })
        lifetime.signal.addEventListener('abort', () => channel.close())
        const { origin } = await channel.call('status', {})
        if (origin !== secureUrl.origin) throw new Error(`secure-site reported ${origin}`)
        setStatus({ state: 'ready', origin, channel })
      })
      .catch((error) => {
        if (lifetime.signal.aborted) return
        log.error(error)
        setStatus({ state: 'error' })
      })
    return () => lifetime.abort()
  }, [setStatus])
  // The secure-site's screens take the modal's theme, accent and locale, now and whenever the dapp changes them.
  const theme = config?.themeMode ?? 'dark'
  const accent = config?.accent ?? accentOf(theme)
  const channel = status.state === 'ready' ? status.channel : undefined
  useEffect(() => {
    channel?.call('configure', { theme, accent, onAccent: onAccent(accent), locale: Constants.numberLocale }).catch(() => {})
  }, [channel, theme, accent])
  // Shown, it takes keyboard focus so a keyboard user lands on the secure-site's own buttons.
  useEffect(() => {
    if (shown) ref.current?.focus()
  }, [shown !== null])
  return (
    <iframe
      ref={ref}
      className={shown ? 'secure-frame shown' : 'secure-frame'}
      style={shown ? { top: shown.top, left: shown.left, width: shown.width, height: shown.height } : undefined}
      title={ui.secure.title}
      src={secureUrl.href}
      allow="clipboard-write"
      {...(shown ? {} : { tabIndex: -1, 'aria-hidden': true })}
    />
  )
}
