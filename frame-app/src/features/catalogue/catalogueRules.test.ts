import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { WalletListing } from '../../api/client.js'
import { allWalletsAtom, loadMoreAtom } from './allWallets.js'
import { apiAtom } from '../../core/api.js'
import { connectListsAtom } from './catalogue.js'
import { configAtom } from '../../core/config.js'
import { hostWalletsAtom } from '../../core/wallets.js'

const listing = (id: string): WalletListing => ({
  id,
  name: id,
  image_id: id,
  image_url: `http://api.test/image/${id}`,
  rdns: `io.example.${id}`,
  chains: ['eip155:1'],
  mobile_link: null,
  desktop_link: null,
  webapp_link: null,
  homepage: null,
  app_store: null,
  play_store: null,
  chrome_store: null,
  badge_type: 'none',
  order: 0,
})

/** The api's catalogue, in its own order w1…wN: it honours include, exclude and paging. */
const catalogue = (size: number) => Array.from({ length: size }, (_, i) => listing(`w${i + 1}`))

/** A store for a dapp with these featured ids, its api answering from `wallets`. */
function setup(featuredWalletIds: string[], wallets = catalogue(60)) {
  const store = createStore()
  store.set(configAtom, {
    projectId: 'p',
    networks: [{ caipNetworkId: 'eip155:1' }],
    featuredWalletIds,
    includeWalletIds: [],
    excludeWalletIds: [],
    customWallets: [],
  } as unknown as Protocol.Config)
  const api = vi.spyOn(store.get(apiAtom), 'wallets').mockImplementation(async ({ page, entries, include, exclude }) => {
    const found = wallets.filter((w) => (!include?.length || include.includes(w.id)) && !exclude?.includes(w.id))
    return { data: found.slice((page - 1) * entries, page * entries), count: found.length }
  })
  return { store, api }
}

describe('connectListsAtom', () => {
  test("behavior: featured wallets keep the dapp's order, whatever order the api answers in (spec §9)", async () => {
    const { store } = setup(['w9', 'w2', 'w5'])
    const { featured } = await store.get(connectListsAtom)
    expect(featured.map((w) => w.id)).toEqual(['w9', 'w2', 'w5'])
  })

  test('behavior: at most 4 featured wallets, the first 4 the dapp lists (spec §9)', async () => {
    const { store } = setup(['w7', 'w3', 'w11', 'w1', 'w5', 'w2'])
    const { featured } = await store.get(connectListsAtom)
    expect(featured.map((w) => w.id)).toEqual(['w7', 'w3', 'w11', 'w1'])
  })

  test('behavior: featured wallets are not repeated in the 4 recommended ones (spec §9)', async () => {
    const { store } = setup(['w3', 'w1'])
    const { featured, recommended } = await store.get(connectListsAtom)
    expect(featured.map((w) => w.id)).toEqual(['w3', 'w1'])
    expect(recommended.map((w) => w.id)).toEqual(['w2', 'w4', 'w5', 'w6'])
  })

  test('behavior: installed wallets are listed above, so neither featured nor recommended repeat them; recommended still holds 4 (spec §9)', async () => {
    const { store } = setup(['w2', 'w3'])
    const installed = (rdns: string): Protocol.WalletInfo => ({ uuid: crypto.randomUUID(), name: rdns, icon: 'data:image/svg+xml,', rdns, type: 'ANNOUNCED' })
    store.set(hostWalletsAtom, [installed('io.example.w2'), installed('io.example.w4'), installed('com.not.listed')])
    const { featured, recommended } = await store.get(connectListsAtom)
    expect(featured.map((w) => w.id)).toEqual(['w3'])
    expect(recommended.map((w) => w.id)).toEqual(['w1', 'w5', 'w6', 'w7'])
  })

  test('behavior: without featured ids there are no featured wallets and 4 recommended (spec §9)', async () => {
    const { store, api } = setup([])
    const { featured, recommended } = await store.get(connectListsAtom)
    expect(featured).toEqual([])
    expect(recommended.map((w) => w.id)).toEqual(['w1', 'w2', 'w3', 'w4'])
    expect(api).toHaveBeenCalledTimes(1)
  })
})

describe('image prefetch', () => {
  /** A stand-in for the browser's Image: records each image and the src it was last given. */
  function fakeImages() {
    const images: { src: string; onload: (() => void) | null; onerror: (() => void) | null }[] = []
    vi.stubGlobal(
      'Image',
      class {
        src = ''
        onload: (() => void) | null = null
        onerror: (() => void) | null = null
        constructor() {
          images.push(this)
        }
      },
    )
    return images
  }
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  test('behavior: images of the first 20 wallets of a page are prefetched; one still loading after 2 s is given up (spec §9)', async () => {
    vi.useFakeTimers()
    const images = fakeImages()
    const { store } = setup([])
    await store.set(loadMoreAtom)
    expect(store.get(allWalletsAtom).pages[0]).toHaveLength(40)
    expect(images.map((i) => i.src)).toEqual(catalogue(20).map((w) => w.image_url))
    images[0]!.onload?.()
    vi.advanceTimersByTime(1_999)
    expect(images[1]!.src).toBe('http://api.test/image/w2')
    vi.advanceTimersByTime(1)
    expect(images[0]!.src).toBe('http://api.test/image/w1')
    expect(images.slice(1).every((i) => i.src === '')).toBe(true)
  })
})
