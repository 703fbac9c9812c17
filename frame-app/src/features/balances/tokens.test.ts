import type * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Client from '../../api/client.js'
import type { Connector } from '../../core/connectors/Connector.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { toastAtom } from '../../core/toasts.js'
import { loadTokensAtom, tokensAtom } from './tokens.js'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 3000, quantity: { decimals: '18', numeric: '1' }, iconUrl: 'http://api.test/i' }

const anvil = { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true }

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
