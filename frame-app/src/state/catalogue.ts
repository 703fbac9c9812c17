/**
 * The wallet catalogue (spec §3 wallet state): featured, recommended and all wallets from the api,
 * for the dapp's chains, honouring include, exclude and featured ids, with custom wallets first.
 */
import * as Constants from '@doorway/shared/Constants'
import * as S from '@doorway/shared/Schema'
import { atom } from 'jotai'
import type { WalletListing } from '../api/client.js'
import { apiAtom } from './api.js'
import { configAtom } from './config.js'
import * as Storage from './storage.js'
import { hostWalletsAtom, recentWalletsAtom } from './wallets.js'

/** Where a wallet can be opened or installed (spec §3 wallet listing); null when it has no such place. */
export type Links = {
  mobile: string | null
  desktop: string | null
  webapp: string | null
  appStore: string | null
  playStore: string | null
  chromeStore: string | null
  homepage: string | null
}

/** A wallet as the views show it: from the catalogue, or one of the dapp's custom wallets. */
export type Wallet = { id: string; name: string; imageUrl?: string | undefined; rdns: string | null; links?: Links }

const fromListing = (w: WalletListing): Wallet => ({
  id: w.id,
  name: w.name,
  imageUrl: w.image_url,
  rdns: w.rdns,
  links: {
    mobile: w.mobile_link,
    desktop: w.desktop_link,
    webapp: w.webapp_link,
    appStore: w.app_store,
    playStore: w.play_store,
    chromeStore: w.chrome_store,
    homepage: w.homepage,
  },
})

/** The wallet a person picked last, for the WalletConnect view's logo, tabs and links. */
export const chosenWalletAtom = atom<Wallet | null>(null)

const link = S.union(S.string({ max: 512 }), S.literal(null))
const storedWallet = S.object({
  id: S.string({ min: 1, max: 128 }),
  name: S.string({ min: 1, max: 128 }),
  imageUrl: S.optional(S.string({ max: 2048 })),
  rdns: S.union(S.string({ max: 128 }), S.literal(null)),
  links: S.optional(
    S.object({ mobile: link, desktop: link, webapp: link, appStore: link, playStore: link, chromeStore: link, homepage: link }),
  ),
})
const recentDetailsKey = 'recentCatalogueWallets'
const recentDetailsAtom = atom<readonly Wallet[]>(
  Storage.read(recentDetailsKey, S.array(storedWallet, Constants.recentWalletsMax)) ?? [],
)

/**
 * Catalogue wallets connected by WalletConnect lately, newest first: they share the recent list
 * (spec §9: at most 2) with installed wallets, so a recent extension can push them out.
 */
export const recentCatalogueWalletsAtom = atom((get) => {
  const recent = get(recentWalletsAtom)
  return get(recentDetailsAtom)
    .filter((w) => recent.includes(w.id))
    .sort((a, b) => recent.indexOf(a.id) - recent.indexOf(b.id))
})

export const rememberWalletAtom = atom(null, (get, set, wallet: Wallet) => {
  set(recentWalletsAtom, wallet.id)
  const next = [wallet, ...get(recentDetailsAtom).filter((w) => w.id !== wallet.id)].slice(0, Constants.recentWalletsMax)
  set(recentDetailsAtom, next)
  Storage.write(recentDetailsKey, next)
})

/** What every catalogue query shares: the dapp's chains and its include/exclude lists. */
const baseQueryAtom = atom((get) => {
  const config = get(configAtom)
  return {
    chains: config?.networks.map((n) => n.caipNetworkId) ?? [],
    include: config?.includeWalletIds ?? [],
    exclude: config?.excludeWalletIds ?? [],
  }
})

/** spec §9: featured (4) and recommended (4) for the Connect view, without installed wallets. */
export const connectListsAtom = atom(async (get) => {
  const api = get(apiAtom)
  const base = get(baseQueryAtom)
  const featuredIds = get(configAtom)?.featuredWalletIds ?? []
  const installed = new Set(get(hostWalletsAtom).map((w) => w.rdns))
  const recent = new Set(get(recentCatalogueWalletsAtom).map((w) => w.id))
  // Installed wallets and recent ones are listed above: not twice.
  const notInstalled = (w: WalletListing) => (!w.rdns || !installed.has(w.rdns)) && !recent.has(w.id)
  const [featured, rest] = await Promise.all([
    featuredIds.length
      ? api.wallets({ ...base, page: 1, entries: featuredIds.length, include: featuredIds })
      : Promise.resolve({ data: [], count: 0 }),
    api.wallets({
      ...base,
      page: 1,
      entries: Constants.recommendedWalletsCount + installed.size + recent.size,
      exclude: [...base.exclude, ...featuredIds],
    }),
  ])
  // Featured in the dapp's own order (spec §1 featured wallet ids).
  const featuredSorted = [...featured.data].sort((a, b) => featuredIds.indexOf(a.id) - featuredIds.indexOf(b.id))
  return {
    featured: featuredSorted.filter(notInstalled).slice(0, Constants.featuredWalletsCount).map(fromListing),
    recommended: rest.data.filter(notInstalled).slice(0, Constants.recommendedWalletsCount).map(fromListing),
    count: rest.count + featured.count + (get(configAtom)?.customWallets.length ?? 0),
  }
})

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
