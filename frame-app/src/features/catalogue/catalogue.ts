/**
 * The wallet catalogue (spec §3 wallet state): featured and recommended wallets from the api for the
 * dapp's chains, honouring include, exclude and featured ids, and the recent ones. The AllWallets
 * view's pages and search are allWallets.ts, loaded with that view.
 */
import * as Constants from '@doorway/shared/Constants'
import * as S from '@doorway/shared/Schema'
import { atom } from 'jotai'
import type { WalletListing } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import * as Storage from '../../core/storage.js'
import { hostWalletsAtom, recentWalletsAtom } from '../../core/wallets.js'

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

export const fromListing = (w: WalletListing): Wallet => ({
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
export const baseQueryAtom = atom((get) => {
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
