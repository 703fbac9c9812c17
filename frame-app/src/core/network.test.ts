import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import type { Connector } from './connectors/Connector.js'
import { configAtom } from './config.js'
import { accountAtom } from './connection.js'
import { activeNetworkAtom, switchNetworkAtom } from './network.js'

const network = (id: number): Protocol.Network => ({
  caipNetworkId: `eip155:${id}`,
  name: `Anvil ${id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrl: `http://127.0.0.1:${8545 + id - 31337}`,
  testnet: true,
})
const rpcError = (code: number) => Object.assign(new Error('wallet says no'), { code })

function setup(answer: (method: string) => Promise<unknown>) {
  const store = createStore()
  store.set(configAtom, { networks: [network(31337), network(31339)] } as Protocol.Config)
  const request = vi.fn(({ method }: Protocol.RpcRequest) => answer(method))
  const connector = { id: 'w', name: 'W', type: 'ANNOUNCED', namespaces: ['eip155'], request } as Connector
  store.set(accountAtom, { connector, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 'eip155:31337' })
  return { store, request, methods: () => request.mock.calls.map(([r]) => r.method) }
}

describe('switchNetworkAtom (spec §4 EVM network switch)', () => {
  test('behavior: a switch call, then the account is on the new chain', async () => {
    const { store, methods } = setup(() => Promise.resolve(null))
    await store.set(switchNetworkAtom, network(31339))
    expect(methods()).toEqual(['wallet_switchEthereumChain'])
    expect(store.get(activeNetworkAtom)?.caipNetworkId).toBe('eip155:31339')
  })

  test('behavior: an unrecognised chain (4902) is added with the dapp’s network, then switched to', async () => {
    let switches = 0
    const { store, request, methods } = setup((method) =>
      method === 'wallet_switchEthereumChain' && switches++ === 0 ? Promise.reject(rpcError(4902)) : Promise.resolve(null),
    )
    await store.set(switchNetworkAtom, network(31339))
    expect(methods()).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_switchEthereumChain'])
    expect(request.mock.calls[1]![0].params).toEqual([
      {
        chainId: '0x7a6b',
        chainName: 'Anvil 31339',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: ['http://127.0.0.1:8547'],
      },
    ])
  })

  test.each<[string, (method: string) => Promise<unknown>]>([
    ['the switch fails otherwise', () => Promise.reject(rpcError(-32603))],
    ['adding fails', (method) => Promise.reject(rpcError(method === 'wallet_switchEthereumChain' ? 4902 : 4001))],
  ])("error: 'Chain is not supported' when %s; the account stays where it was", async (_, answer) => {
    const { store } = setup(answer)
    await expect(store.set(switchNetworkAtom, network(31339))).rejects.toThrow('Chain is not supported')
    expect(store.get(activeNetworkAtom)?.caipNetworkId).toBe('eip155:31337')
  })

  test('behavior: disconnected, it only picks the network (no wallet call)', async () => {
    const { store, request } = setup(() => Promise.resolve(null))
    store.set(accountAtom, null)
    await store.set(switchNetworkAtom, network(31339))
    expect(request).not.toHaveBeenCalled()
    expect(store.get(activeNetworkAtom)?.caipNetworkId).toBe('eip155:31339')
  })
})
