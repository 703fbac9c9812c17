/** The host channel as the frame's state needs it: notify the host, and run requests on host wallets. */
import type * as Channel from '@doorway/shared/Channel'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'

export type Host = Pick<Channel.Channel<Protocol.HostApi>, 'call'>

export const hostAtom = atom<{ host: Host | null; warn(...args: unknown[]): void }>({ host: null, warn: () => {} })

/** Tells the host something happened; a failure to tell is logged, never thrown into the UI. */
export const notifyAtom = atom(null, (get, _set, event: Protocol.FrameEvent) => {
  const { host, warn } = get(hostAtom)
  host?.call('event', event).catch(warn)
})
