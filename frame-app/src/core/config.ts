import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'

/** The dapp's options as validated on receipt from the host (null until `init`). */
export const configAtom = atom<Protocol.Config | null>(null)

/** The host page's origin, pinned at the handshake (docs/architecture.md §4). Shown wherever trust is asked. */
export const hostOriginAtom = atom<string | null>(null)

export const featuresAtom = atom((get) => get(configAtom)?.features)

/** True in a phone-like browser: spec §2 opening rule 1 shows AllWallets there. */
export const mobileAtom = atom(
  typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches && matchMedia('(max-width: 600px)').matches,
)
