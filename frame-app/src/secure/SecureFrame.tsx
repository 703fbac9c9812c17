/**
 * The nested secure-site frame (DESIGN.md §6), on its own origin. Same hardened channel as the host's:
 * this side is the parent. The embedded wallet itself comes later; for now it proves the path.
 */
import * as Channel from '@doorway/shared/Channel'
import { expose } from 'comlink'
import * as Logger from '@doorway/shared/Logger'
import { ui } from '@doorway/shared/Messages'
import * as Protocol from '@doorway/shared/Protocol'
import { useSetAtom } from 'jotai'
import { useEffect, useRef } from 'react'
import { secureStatusAtom } from '../state/secure.js'

declare const __DOORWAY_SECURE_URL__: string
export const secureUrl = new URL(__DOORWAY_SECURE_URL__)

export function SecureFrame() {
  const ref = useRef<HTMLIFrameElement>(null)
  const setStatus = useSetAtom(secureStatusAtom)
  useEffect(() => {
    const iframe = ref.current!
    const log = Logger.create({ scope: 'frame:secure' })
    const lifetime = new AbortController()
    setStatus({ state: 'loading' })
    Channel.offer({ iframe, origin: secureUrl.origin, log, signal: lifetime.signal })
      .then((port) => {
        const secure = Channel.create<Protocol.SecureClientApi, Protocol.SecureApi>({
          port,
          log,
          accepts: Protocol.secureClientParams,
          handlers: {},
          expects: Protocol.secureResults,
          expose,
        })
        lifetime.signal.addEventListener('abort', () => secure.close())
        return secure.call('status', {})
      })
      .then(({ origin }) => {
        if (origin !== secureUrl.origin) throw new Error(`secure-site reported ${origin}`)
        setStatus({ state: 'ready', origin })
      })
      .catch((error) => {
        if (lifetime.signal.aborted) return
        log.error(error)
        setStatus({ state: 'error' })
      })
    return () => lifetime.abort()
  }, [setStatus])
  return <iframe ref={ref} className="secure-frame" title={ui.secure.title} src={secureUrl.href} tabIndex={-1} aria-hidden="true" />
}
