/**
 * The AllWallets view's list (spec §3 wallet state, §9 pages): all wallets from the api for the dapp's
 * chains, page by page or by search, with the dapp's custom wallets first. Only that view imports it.
 */
import * as Constants from '@doorway/shared/Constants'
import { atom } from 'jotai'
import type { WalletListing } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { baseQueryAtom, fromListing, type Wallet } from './catalogue.js'
import { configAtom } from '../../core/config.js'

export type AllWallets = { search: string; pages: Wallet[][]; count: number | null; loading: boolean; failed: boolean }
export const allWalletsAtom = atom<AllWallets>({ search: '', pages: [], count: null, loading: false, failed: false })

/** The dapp's custom wallets that match the search (spec §1 custom wallets), listed first. */
export const customWalletsAtom = atom((get) => {
  const search = get(allWalletsAtom).search.toLowerCase()
  return (get(configAtom)?.customWallets ?? [])
    .filter((w) => w.name.toLowerCase().includes(search))
    .map(
      (w): Wallet => ({
        id: w.id,
        name: w.name,
        imageUrl: w.imageUrl,
        rdns: null,
        links: {
          mobile: w.mobileLink ?? null,
          desktop: w.desktopLink ?? null,
          webapp: w.webappLink ?? null,
          appStore: null,
          playStore: null,
          chromeStore: null,
          homepage: w.homepage ?? null,
        },
      }),
    )
})

/** Loads the next page: 40 entries while browsing, 100 for a search (spec §9). */
export const loadMoreAtom = atom(null, async (get, set) => {
  const state = get(allWalletsAtom)
  const loaded = state.pages.reduce((n, p) => n + p.length, 0)
  if (state.loading || (state.count !== null && loaded >= state.count)) return
  set(allWalletsAtom, { ...state, loading: true, failed: false })
  const entries = state.search ? Constants.walletSearchSize : Constants.walletPageSize
  try {
    const page = await get(apiAtom).wallets({ ...get(baseQueryAtom), page: state.pages.length + 1, entries, search: state.search })
    // A newer search may have replaced this one while it travelled: drop the stale answer.
    if (get(allWalletsAtom).search !== state.search) return
    const next = get(allWalletsAtom)
    set(allWalletsAtom, { ...next, pages: [...next.pages, page.data.map(fromListing)], count: page.count, loading: false })
    prefetchImages(page.data.slice(0, Constants.imagePrefetchCount))
  } catch {
    if (get(allWalletsAtom).search === state.search) set(allWalletsAtom, { ...get(allWalletsAtom), loading: false, failed: true })
  }
})

/** A new search starts from the first page. The view debounces keystrokes (spec §9: ≥ 300 ms). */
export const searchAtom = atom(null, (_get, set, search: string) => {
  set(allWalletsAtom, { search, pages: [], count: null, loading: false, failed: false })
  return set(loadMoreAtom)
})

/** spec §9: images of the first 20 wallets of a page are prefetched; a prefetch gives up after 2 s. */
function prefetchImages(wallets: WalletListing[]) {
  if (typeof Image === 'undefined') return
  for (const wallet of wallets) {
    const image = new Image()
    const timer = setTimeout(() => (image.src = ''), Constants.imagePreloadTimeoutMs)
    image.onload = image.onerror = () => clearTimeout(timer)
    image.src = wallet.image_url
  }
}
