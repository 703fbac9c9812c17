import type { Namespace } from '@doorway/shared/Caip'
import { atom } from 'jotai'

/** spec §4: connection status per namespace. Connectors arrive in later issues. */
export type Status = 'connecting' | 'connected' | 'disconnected'
export const statusAtom = atom<Partial<Record<Namespace, Status>>>({})

export const connectedAtom = atom((get) => Object.values(get(statusAtom)).includes('connected'))
