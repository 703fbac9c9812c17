import { createStore } from 'jotai'
import { expect, test } from 'vitest'
import { type Wallet, recentCatalogueWalletsAtom, rememberWalletAtom } from './catalogue.js'
import { recentWalletsAtom } from '../../core/wallets.js'

const wallet = (id: string): Wallet => ({ id, name: id, rdns: null })

test('behavior: WalletConnect wallets become recent, newest first, at most 2 (spec §9)', () => {
  const store = createStore()
  for (const id of ['rainbow', 'zerion', 'trust']) store.set(rememberWalletAtom, wallet(id))
  expect(store.get(recentCatalogueWalletsAtom).map((w) => w.id)).toEqual(['trust', 'zerion'])
  store.set(rememberWalletAtom, wallet('zerion'))
  expect(store.get(recentCatalogueWalletsAtom).map((w) => w.id)).toEqual(['zerion', 'trust'])
})

test('behavior: an extension connected later shares the 2 places and pushes the oldest out', () => {
  const store = createStore()
  store.set(rememberWalletAtom, wallet('rainbow'))
  store.set(rememberWalletAtom, wallet('zerion'))
  store.set(recentWalletsAtom, 'dev.doorway.wallet')
  expect(store.get(recentWalletsAtom)).toEqual(['dev.doorway.wallet', 'zerion'])
  expect(store.get(recentCatalogueWalletsAtom).map((w) => w.id)).toEqual(['zerion'])
})
