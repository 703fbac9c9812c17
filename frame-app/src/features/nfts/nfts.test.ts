import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import * as Client from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom, chainChangedAtom } from '../../core/connection.js'
import { fetchNftsAtom, nftsAtom, visibleNfts } from './nfts.js'

const alice = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const key = `${alice.toLowerCase()}|eip155:31337`

function nft(n: number, options: { spam?: boolean; chain?: string } = {}): Client.Nft {
  return {
    id: `nft${n}`,
    chain: options.chain ?? 'eip155:31337',
    contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    tokenId: String(n),
    standard: 'erc721',
    name: `Door #${n}`,
    collection: { name: 'Doors' },
    amount: '1',
    flags: { is_spam: options.spam ?? false },
  }
}
const page = (data: Client.Nft[], next: string | null = null) => ({ data, next })
const anvil = (caipNetworkId: Caip.ChainId) => ({ caipNetworkId, name: caipNetworkId, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true })

function connected(chainId: Caip.ChainId = 'eip155:31337') {
  const store = createStore()
  store.set(configAtom, { networks: [anvil('eip155:31337'), anvil('eip155:31338')], projectId: 'p', sdkType: 'appkit', sdkVersion: 'v' } as unknown as Protocol.Config)
  store.set(accountAtom, { connector: {} as Connector, address: alice, chainId })
  return { store, nfts: vi.spyOn(store.get(apiAtom), 'nfts') }
}

describe('visibleNfts', () => {
  test('behavior: spam and other chains are hidden', () => {
    const list = [nft(1), nft(2, { spam: true }), nft(3, { chain: 'eip155:1' })]
    expect(visibleNfts(list, 'eip155:31337').map((n) => n.id)).toEqual(['nft1'])
  })
})

describe('fetchNftsAtom', () => {
  test('behavior: the first page, then the next by its cursor, without spam', async () => {
    const { store, nfts } = connected()
    nfts.mockResolvedValueOnce(page([nft(1), nft(2, { spam: true })], 'n2')).mockResolvedValueOnce(page([nft(3)]))
    const first = store.set(fetchNftsAtom)
    expect(store.get(nftsAtom).status).toBe('loading')
    await first
    expect(nfts).toHaveBeenCalledWith(alice, { chainId: 'eip155:31337', cursor: undefined })
    expect(store.get(nftsAtom)).toEqual({ key, status: 'ready', nfts: [nft(1)], next: 'n2' })
    await store.set(fetchNftsAtom, 'next')
    expect(nfts).toHaveBeenLastCalledWith(alice, { chainId: 'eip155:31337', cursor: 'n2' })
    expect(store.get(nftsAtom)).toEqual({ key, status: 'ready', nfts: [nft(1), nft(3)], next: undefined })
  })

  test('error: a failure is the error state; what was shown and the cursor stay for Retry', async () => {
    const { store, nfts } = connected()
    nfts.mockResolvedValueOnce(page([nft(1)], 'n2')).mockRejectedValueOnce(new Client.ApiError(500, 'down'))
    await store.set(fetchNftsAtom)
    await store.set(fetchNftsAtom, 'next')
    expect(store.get(nftsAtom)).toEqual({ key, status: 'error', nfts: [nft(1)], next: 'n2' })
  })

  test('param: a network the dapp does not configure holds nothing, without calling', async () => {
    const { store, nfts } = connected('eip155:1')
    await store.set(fetchNftsAtom)
    expect(nfts).not.toHaveBeenCalled()
    expect(store.get(nftsAtom)).toMatchObject({ status: 'ready', nfts: [] })
  })

  test('behavior: another chain is a fresh state, and the answer for the one before is dropped', async () => {
    const { store, nfts } = connected()
    let resolve!: (value: Awaited<ReturnType<Client.Client['nfts']>>) => void
    nfts.mockReturnValueOnce(new Promise((r) => (resolve = r)))
    const first = store.set(fetchNftsAtom)
    store.set(chainChangedAtom, 'eip155:31338')
    expect(store.get(nftsAtom)).toEqual({ key: `${alice.toLowerCase()}|eip155:31338`, status: 'idle', nfts: [], next: undefined })
    resolve(page([nft(1)]))
    await first
    expect(store.get(nftsAtom).nfts).toEqual([])
  })
})
