/**
 * The NFTs tab's state: the NFTs the connected account holds on its chain, a page at a time by the api's
 * cursor, without spam. Part of the NFTs chunk. Like the Activity tab's, it belongs to one account on
 * one chain: another reads as a fresh state, and an answer for the one before is dropped.
 */
import type { ChainId } from '@doorway/shared/Caip'
import { atom, type Getter } from 'jotai'
import type { Nft } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'

export type Nfts = {
  /** The account and chain these NFTs belong to. */
  key: string
  status: 'idle' | 'loading' | 'ready' | 'error'
  nfts: Nft[]
  next: string | undefined
}
const initial = (key: string): Nfts => ({ key, status: 'idle', nfts: [], next: undefined })
const loadedAtom = atom<Nfts>(initial(''))

const scopeOf = (get: Getter) => {
  const account = get(accountAtom)
  return account && { address: account.address, chainId: account.chainId, key: `${account.address.toLowerCase()}|${account.chainId}` }
}
const loadedFor = (get: Getter, key: string) => {
  const loaded = get(loadedAtom)
  return loaded.key === key ? loaded : initial(key)
}

/** The NFTs of the connected account on its chain. */
export const nftsAtom = atom((get) => loadedFor(get, scopeOf(get)?.key ?? ''))

/** Fetches the first page again, or the next one; a failure keeps what is shown and the cursor, for Retry. */
export const fetchNftsAtom = atom(null, async (get, set, page: 'first' | 'next' = 'first') => {
  const scope = scopeOf(get)
  if (!scope) return
  const before = loadedFor(get, scope.key)
  if (before.status === 'loading' || (page === 'next' && !before.next)) return
  // An unsupported network holds nothing to show, without calling (spec §7).
  if (!get(activeNetworkAtom)) return set(loadedAtom, { ...initial(scope.key), status: 'ready' })
  set(loadedAtom, { ...before, status: 'loading' })
  try {
    const answer = await get(apiAtom).nfts(scope.address, { chainId: scope.chainId, cursor: page === 'next' ? before.next : undefined })
    if (scopeOf(get)?.key !== scope.key) return
    const fresh = visibleNfts(answer.data, scope.chainId)
    const nfts = page === 'next' ? dedupe([...before.nfts, ...fresh]) : fresh
    set(loadedAtom, { key: scope.key, status: 'ready', nfts, next: answer.next ?? undefined })
  } catch {
    if (scopeOf(get)?.key !== scope.key) return
    set(loadedAtom, { ...before, status: 'error' })
  }
})

/** Only the connected chain, and no spam (spec §5, as for history). */
export function visibleNfts(nfts: readonly Nft[], chainId: ChainId): Nft[] {
  return nfts.filter((n) => n.chain === chainId && !n.flags.is_spam)
}

function dedupe(nfts: Nft[]): Nft[] {
  const seen = new Set<string>()
  return nfts.filter((n) => !seen.has(n.id) && !!seen.add(n.id))
}
