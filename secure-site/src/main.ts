/**
 * The secure-site (DESIGN.md §6): its own origin, embedded only by the frame-app. Keys will live
 * here; for now it proves the nested cross-origin channel with a status call.
 */
import * as Channel from '@doorway/shared/Channel'
import { expose } from 'comlink'
import * as Logger from '@doorway/shared/Logger'
import * as Protocol from '@doorway/shared/Protocol'

declare const __DOORWAY_FRAME_ORIGIN__: string

const log = Logger.create({ scope: 'secure' })
const parentOrigin = Channel.parentOrigin()

// Only the frame-app's origin may talk to this frame; anything else gets no channel at all.
if (window.parent !== window && parentOrigin === __DOORWAY_FRAME_ORIGIN__) {
  Channel.accept({ parentOrigin, log })
    .then((port) =>
      Channel.create<Protocol.SecureApi, Protocol.SecureClientApi>({
        port,
        log,
        accepts: Protocol.secureParams,
        expects: Protocol.secureClientResults,
        expose,
        handlers: { status: () => ({ version: Protocol.version, origin: location.origin }) },
      }),
    )
    .catch((error) => log.error(error))
} else {
  log.warn('refusing to run for', parentOrigin ?? 'no parent')
}
