import type { ChainId } from '@doorway/shared/Caip'
import { atom } from 'jotai'
import { configAtom } from './config.js'

/** The network the user picked; before any pick, the dapp's default or its first network. */
const pickedAtom = atom<ChainId | null>(null)

export const activeNetworkAtom = atom(
  (get) => {
    const config = get(configAtom)
    const id = get(pickedAtom) ?? config?.defaultNetwork ?? config?.networks[0]?.caipNetworkId
    return config?.networks.find((n) => n.caipNetworkId === id)
  },
  (_get, set, id: ChainId) => set(pickedAtom, id),
)
