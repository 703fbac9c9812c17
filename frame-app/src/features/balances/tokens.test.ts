import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Client from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { toastAtom } from '../../core/toasts.js'
import { nativeBalanceAtom } from './balance.js'
import { loadTokensAtom, nativeBalance, tokensAtom } from './tokens.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 3000, quantity: { decimals: '18', numeric: '1' }, iconUrl: 'http://api.test/i' }

const anvil: Protocol.Network = { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true }

/** A store connected on `chainId`, with the dapp configuring only Anvil 31337. */
function connected(chainId: `eip155:${number}` = 'eip155:31337') {
  const store = createStore()
  store.set(configAtom, { networks: [anvil], projectId: 'p', sdkType: 'appkit', sdkVersion: 'v' } as unknown as Protocol.Config)
  store.set(accountAtom, { connector: {} as Connector, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId })
  return store
}

describe('loadTokensAtom', () => {
  test('behavior: loads the balances of the connected account on its network', async () => {
    const store = connected()
    const balances = vi.spyOn(store.get(apiAtom), 'balances').mockResolvedValue([eth])
    await store.set(loadTokensAtom)
    expect(balances).toHaveBeenCalledWith('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', { chainId: 'eip155:31337', forceUpdate: undefined })
    expect(store.get(tokensAtom)).toEqual({ status: 'ready', balances: [eth], lastFailure: null })
  })

  test("error: a failure shows 'Token Balance Unavailable' and a retry waits 30 s (spec §5, §8)", async () => {
    const store = connected()
    const balances = vi.spyOn(store.get(apiAtom), 'balances').mockRejectedValue(new Client.ApiError(502, 'node down'))
    await store.set(loadTokensAtom)
    expect(store.get(tokensAtom).status).toBe('error')
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: 'Token Balance Unavailable' })

    vi.advanceTimersByTime(29_999)
    await store.set(loadTokensAtom, { force: true })
    expect(balances).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    balances.mockResolvedValue([eth])
    await store.set(loadTokensAtom, { force: true })
    expect(balances).toHaveBeenCalledTimes(2)
    expect(store.get(tokensAtom).status).toBe('ready')
  })

  test("error: a network the dapp does not support shows 'Token Balance Unavailable' without calling the api", async () => {
    const store = connected('eip155:1')
    const balances = vi.spyOn(store.get(apiAtom), 'balances')
    await store.set(loadTokensAtom)
    expect(balances).not.toHaveBeenCalled()
    expect(store.get(toastAtom).toast?.message).toBe('Token Balance Unavailable')
  })
})

describe('nativeBalance', () => {
  const solana: Protocol.Network = { caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, testnet: true }
  const polkadot: Protocol.Network = { caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', name: 'Polkadot', nativeCurrency: { name: 'Polkadot', symbol: 'DOT', decimals: 10 }, testnet: false }
  const sol = { ...eth, name: 'Solana', symbol: 'SOL', chainId: solana.caipNetworkId, quantity: { decimals: '9', numeric: '2.5' } }
  const evmAccount = (request: Connector['request']) => ({ connector: { request } as Connector, address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 'eip155:31337' as const })
  const solAccount = { connector: {} as Connector, address: 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96', chainId: solana.caipNetworkId }

  test('behavior: an EVM account\'s is its wallet\'s eth_getBalance, with 3 decimals (spec §9)', async () => {
    const request = vi.fn(async () => '0x1bc16d674ec80000')
    expect(await nativeBalance(evmAccount(request), anvil, createStore().get(apiAtom))).toEqual({ state: 'ready', formatted: '2.000 ETH' })
    expect(request).toHaveBeenCalledWith({ method: 'eth_getBalance', params: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'latest'] })
  })

  test('behavior: another namespace\'s is the api\'s native balance, its wallet never asked', async () => {
    const api = createStore().get(apiAtom)
    const balances = vi.spyOn(api, 'balances').mockResolvedValue([sol])
    expect(await nativeBalance(solAccount, solana, api)).toEqual({ state: 'ready', formatted: '2.500 SOL' })
    expect(balances).toHaveBeenCalledWith(solAccount.address, { chainId: solana.caipNetworkId })
  })

  test('behavior: a namespace whose balances nothing reads says so, without asking the api', async () => {
    const api = createStore().get(apiAtom)
    const balances = vi.spyOn(api, 'balances')
    expect(await nativeBalance({ ...solAccount, chainId: polkadot.caipNetworkId }, polkadot, api)).toEqual({ state: 'notSupported', network: 'Polkadot' })
    expect(balances).not.toHaveBeenCalled()
  })

  test.each([
    ['a wallet failing', evmAccount(async () => Promise.reject(new Error('down'))), anvil],
    ['a wallet answering no hex', evmAccount(async () => 'lots'), anvil],
    ['the api without the native token', solAccount, solana],
  ])('error: %s is unavailable', async (_, account, network) => {
    const api = createStore().get(apiAtom)
    vi.spyOn(api, 'balances').mockResolvedValue([])
    expect(await nativeBalance(account, network, api)).toEqual({ state: 'unavailable' })
  })

  test('behavior: nativeBalanceAtom reads the connected account\'s on the network in use; disconnected it is unavailable', async () => {
    const store = connected()
    expect(await store.get(nativeBalanceAtom)).toEqual({ state: 'unavailable' })
    store.set(accountAtom, evmAccount(async () => '0xde0b6b3a7640000'))
    expect(await store.get(nativeBalanceAtom)).toEqual({ state: 'ready', formatted: '1.000 ETH' })
  })
})
