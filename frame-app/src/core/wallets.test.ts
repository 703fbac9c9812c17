import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test } from 'vitest'
import { hostWalletsAtom, installedWalletsAtom, recentWalletsAtom } from './wallets.js'

const wallet = (rdns: string): Protocol.WalletInfo => ({ uuid: crypto.randomUUID(), name: rdns, icon: 'data:image/svg+xml,', rdns, type: 'ANNOUNCED' })

describe('recentWalletsAtom', () => {
  test('behavior: newest first, no repeats, at most 2 (spec §9)', () => {
    const store = createStore()
    for (const rdns of ['a.one', 'b.two', 'a.one', 'c.three']) store.set(recentWalletsAtom, rdns)
    expect(store.get(recentWalletsAtom)).toEqual(['c.three', 'a.one'])
  })
})

describe('installedWalletsAtom', () => {
  test('behavior: recent wallets come first, most recent first; the rest keep their order', () => {
    const store = createStore()
    store.set(hostWalletsAtom, ['a.one', 'b.two', 'c.three', 'd.four'].map(wallet))
    store.set(recentWalletsAtom, 'd.four')
    store.set(recentWalletsAtom, 'b.two')
    expect(store.get(installedWalletsAtom).map((w) => w.rdns)).toEqual(['b.two', 'd.four', 'a.one', 'c.three'])
  })
})
