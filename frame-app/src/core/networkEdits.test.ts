import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test } from 'vitest'
import { configAtom } from './config.js'
import { accountAtom } from './connection.js'
import type { Connector } from './connectors/Connector.js'
import { activeNetworkAtom } from './network.js'
import * as NetworkEdits from './networkEdits.js'

const network = (caipNetworkId: Protocol.Network['caipNetworkId'], name: string = caipNetworkId): Protocol.Network => ({
  caipNetworkId,
  name,
  nativeCurrency: { name: 'Coin', symbol: 'C', decimals: 18 },
  testnet: true,
})
const anvil = network('eip155:31337', 'Anvil 31337')
const anvil2 = network('eip155:31338', 'Anvil 31338')
const solana = network('solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', 'Solana Local')
const state: NetworkEdits.Networks = { networks: [anvil, anvil2, solana], adapters: ['eip155', 'solana'] }
const ids = (s: NetworkEdits.Networks) => s.networks.map((n) => n.caipNetworkId)

describe('apply', () => {
  test('behavior: addNetwork adds to an existing adapter, once', () => {
    const added = network('eip155:1', 'Mainnet')
    const next = NetworkEdits.apply(state, { op: 'addNetwork', namespace: 'eip155', network: added }, [])
    expect(ids(next)).toEqual([...ids(state), 'eip155:1'])
    expect(ids(NetworkEdits.apply(next, { op: 'addNetwork', namespace: 'eip155', network: added }, []))).toEqual(ids(next))
  })

  test('behavior: removeNetwork takes a CAIP-2 id or the namespace reference', () => {
    expect(ids(NetworkEdits.apply(state, { op: 'removeNetwork', namespace: 'eip155', id: 31338 }, []))).toEqual(['eip155:31337', solana.caipNetworkId])
    expect(ids(NetworkEdits.apply(state, { op: 'removeNetwork', namespace: 'eip155', id: 'eip155:31337' }, []))).toEqual(['eip155:31338', solana.caipNetworkId])
  })

  test('behavior: addAdapter adds the namespace with its networks; removeAdapter removes both', () => {
    const btc = network('bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'Bitcoin Regtest')
    const added = NetworkEdits.apply(state, { op: 'addAdapter', namespace: 'bip122', networks: [btc] }, [])
    expect(added.adapters).toEqual(['eip155', 'solana', 'bip122'])
    expect(ids(added)).toContain(btc.caipNetworkId)
    const removed = NetworkEdits.apply(added, { op: 'removeAdapter', namespace: 'bip122' }, [])
    expect(removed).toEqual({ adapters: ['eip155', 'solana'], networks: state.networks })
  })

  test('behavior: removing an adapter while connected in its namespace is ignored (spec §4)', () => {
    expect(NetworkEdits.apply(state, { op: 'removeAdapter', namespace: 'solana' }, ['solana'])).toBe(state)
  })

  test.each([
    ['addNetwork without its adapter', { op: 'addNetwork', namespace: 'bip122', network: network('bip122:0f9188f13cb7b2c71f2a335e3a4fc328') }, "Adapter for namespace bip122 doesn't exist"],
    ['removeNetwork without its adapter', { op: 'removeNetwork', namespace: 'polkadot', id: 'x' }, "Adapter for namespace polkadot doesn't exist"],
    ['removeNetwork of an unknown id', { op: 'removeNetwork', namespace: 'eip155', id: 1 }, 'Network with ID 1 not found'],
    ['removeNetwork of the last of its namespace', { op: 'removeNetwork', namespace: 'solana', id: solana.caipNetworkId }, 'Cannot remove last network for a namespace'],
    ['removeAdapter that is not there', { op: 'removeAdapter', namespace: 'polkadot' }, 'Adapter not found'],
    ['addAdapter without networks', { op: 'addAdapter', namespace: 'bip122', networks: [] }, 'CaipNetwork not found'],
    ['addNetwork of another namespace', { op: 'addNetwork', namespace: 'eip155', network: solana }, 'Invalid CAIP-2 network id'],
  ] as const)('error: %s', (_, edit, message) => {
    expect(() => NetworkEdits.apply(state, edit as Protocol.EditNetworks, [])).toThrow(message)
  })
})

describe('editNetworksAtom', () => {
  const config = { networks: [anvil, anvil2, solana], defaultNetwork: 'eip155:31338', features: {} } as unknown as Protocol.Config

  test('behavior: the config follows at once; a removed default network falls back to the first of its namespace', () => {
    const store = createStore()
    store.set(configAtom, config)
    expect(store.get(activeNetworkAtom)?.caipNetworkId).toBe('eip155:31338')
    store.set(NetworkEdits.editNetworksAtom, { op: 'removeNetwork', namespace: 'eip155', id: 31338 })
    expect(store.get(configAtom)?.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:31337', solana.caipNetworkId])
    expect(store.get(activeNetworkAtom)?.caipNetworkId).toBe('eip155:31337')
  })

  test('behavior: the adapter of a connected namespace stays', () => {
    const store = createStore()
    store.set(configAtom, config)
    const connector = { id: 'w', name: 'W', type: 'ANNOUNCED', namespaces: ['solana'], request: async () => null } as Connector
    store.set(accountAtom, { connector, address: 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96', chainId: solana.caipNetworkId })
    store.set(NetworkEdits.editNetworksAtom, { op: 'removeAdapter', namespace: 'solana' })
    expect(store.get(NetworkEdits.adaptersAtom)).toEqual(['eip155', 'solana'])
    expect(store.get(configAtom)?.networks).toHaveLength(3)
  })

  test('error: before init there is nothing to edit', () => {
    expect(() => createStore().set(NetworkEdits.editNetworksAtom, { op: 'removeAdapter', namespace: 'solana' })).toThrow('not initialised')
  })
})
