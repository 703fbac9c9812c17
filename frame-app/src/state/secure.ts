import { atom } from 'jotai'

/** The nested secure-site frame (DESIGN.md §6): loaded only when email or socials are on. */
export type SecureStatus = { state: 'idle' | 'loading' | 'error' } | { state: 'ready'; origin: string }
export const secureStatusAtom = atom<SecureStatus>({ state: 'idle' })
