/** Wallets the host page has (spec §3 wallet state, the installed part) and the recent ones. */
import * as Constants from '@doorway/shared/Constants'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import type { Connector } from './connectors/Connector.js'
import * as Storage from './storage.js'

export const hostWalletsAtom = atom<readonly Protocol.WalletInfo[]>([])
/**
 * The host page's Wallet Standard (Solana) wallets, once the SDK's chunk for them has reported some:
 * how their connectors join the EVM ones. Set by core/standardWallets.ts, a lazy chunk, so the first
 * chunk holds no Wallet Standard code.
 */
export const standardWalletsAtom = atom<{ join(evm: readonly Connector[]): Connector[] } | undefined>(undefined)

const recentKey = 'recentWallets'
const recentBaseAtom = atom<readonly string[]>(Storage.read(recentKey, isStringList) ?? [])

/** rdns of the wallets used last, newest first, at most 2 (spec §9). */
export const recentWalletsAtom = atom(
  (get) => get(recentBaseAtom),
  (get, set, rdns: string) => {
    const next = [rdns, ...get(recentBaseAtom).filter((r) => r !== rdns)].slice(0, Constants.recentWalletsMax)
    set(recentBaseAtom, next)
    Storage.write(recentKey, next)
  },
)

/** Installed wallets with the recent ones first (spec §3 Connect: recent wallets first). */
export const installedWalletsAtom = atom((get) => {
  const recent = get(recentWalletsAtom)
  const rank = (w: Protocol.WalletInfo) => (recent.includes(w.rdns) ? recent.indexOf(w.rdns) : recent.length)
  return [...get(hostWalletsAtom)].sort((a, b) => rank(a) - rank(b))
})

function isStringList(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string')
}
