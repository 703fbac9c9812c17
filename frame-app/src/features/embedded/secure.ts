import type * as Channel from '@doorway/shared/Channel'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'

/** The nested secure-site frame (docs/architecture.md §6): loaded only when email or socials are on. */
export type SecureStatus =
  | { state: 'idle' | 'loading' | 'error' }
  | { state: 'ready'; origin: string; channel: Channel.Channel<Protocol.SecureApi> }
export const secureStatusAtom = atom<SecureStatus>({ state: 'idle' })

/**
 * Where the secure iframe shows itself (a view's slot, in frame coordinates: useSecureSlot),
 * or null: hidden. The frame only positions it; what it shows is the secure-site's own DOM.
 */
export type SecureSlot = { top: number; left: number; width: number; height: number }
export const secureSlotAtom = atom<SecureSlot | null>(null)
