import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import { configAtom } from '../core/config.js'
import type { Connector } from '../core/connectors/Connector.js'
import { accountAtom, accountsAtom, activeNamespaceAtom } from '../core/connection.js'
import { request } from './solanaRequests.js'

const chainId = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3'
const address = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const solanaNetwork = { caipNetworkId: chainId, name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrl: 'http://127.0.0.1:8899' }
const evmNetwork = { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrl: 'http://127.0.0.1:8545' }

function setup(options: { connected?: boolean } = {}) {
  const store = createStore()
  store.set(configAtom, { networks: [evmNetwork, solanaNetwork] } as Protocol.Config)
  const signTransaction = vi.fn(async (bytes: Uint8Array) => new Uint8Array([...bytes, 1]))
  const signMessage = vi.fn(async () => new Uint8Array(64).fill(5))
  const connector = { id: 'w', name: 'W', type: 'ANNOUNCED', namespaces: ['solana'], request: vi.fn(), solana: { signTransaction, signMessage } } as unknown as Connector
  if (options.connected !== false) store.set(accountAtom, { connector, address, chainId })
  // The connection the modal makes when asked: the person picks a wallet, which answers with its account.
  const connect = vi.fn(async (s: typeof store) => {
    s.set(accountAtom, { connector, address, chainId })
    return [address]
  })
  return { store, connect, signTransaction, signMessage }
}

describe('the Doorway wallet\'s solana_* requests', () => {
  test('behavior: solana_requestAccounts answers the connected account as CAIP-10, without asking the person', async () => {
    const { store, connect } = setup()
    expect(await request(store, 'solana_requestAccounts', undefined, connect)).toEqual([`${chainId}:${address}`])
    expect(connect).not.toHaveBeenCalled()
  })

  test('behavior: not connected on Solana, the dapp\'s Solana network becomes the one in use and the modal asks for a wallet', async () => {
    const { store, connect } = setup({ connected: false })
    expect(store.get(activeNamespaceAtom)).toBe('eip155')
    expect(await request(store, 'solana_requestAccounts', undefined, connect)).toEqual([`${chainId}:${address}`])
    expect(connect).toHaveBeenCalledWith(store, 'solana')
    expect(store.get(activeNamespaceAtom)).toBe('solana')
  })

  test('behavior: a transaction and a message go to the account\'s wallet as bytes, and come back as bytes', async () => {
    const { store, connect, signTransaction, signMessage } = setup()
    const transaction = new Uint8Array([1, 2, 3])
    expect(await request(store, 'solana_signTransaction', { transaction, pubkey: address }, connect)).toEqual({ transaction: new Uint8Array([1, 2, 3, 1]) })
    expect(signTransaction).toHaveBeenCalledWith(transaction, expect.objectContaining({ address, chainId }))
    const message = new TextEncoder().encode('hi')
    expect(await request(store, 'solana_signMessage', { message, pubkey: address }, connect)).toEqual({ signature: new Uint8Array(64).fill(5) })
    expect(signMessage).toHaveBeenCalledWith(message, expect.objectContaining({ address }))
  })

  test('error: another account is 4100, bad params -32602, an unknown method 4200, no Solana account 4100, no Solana network 4902', async () => {
    const { store, connect, signTransaction } = setup()
    const code = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: number }) => error.code)
    const other = '11111111111111111111111111111111'
    expect(await code(request(store, 'solana_signTransaction', { transaction: new Uint8Array(3), pubkey: other }, connect))).toBe(4100)
    expect(await code(request(store, 'solana_signTransaction', { transaction: 'AQID', pubkey: address }, connect))).toBe(-32602)
    expect(await code(request(store, 'solana_signTransaction', { transaction: new Uint8Array(1233), pubkey: address }, connect))).toBe(-32602)
    expect(await code(request(store, 'solana_signAndSendTransaction', {}, connect))).toBe(4200)
    expect(signTransaction).not.toHaveBeenCalled()
    const empty = setup({ connected: false })
    expect(await code(request(empty.store, 'solana_signMessage', { message: new Uint8Array(1), pubkey: address }, empty.connect))).toBe(4100)
    empty.store.set(configAtom, { networks: [evmNetwork] } as Protocol.Config)
    expect(await code(request(empty.store, 'solana_requestAccounts', undefined, empty.connect))).toBe(4902)
    expect(store.get(accountsAtom).solana?.address).toBe(address)
  })
})
