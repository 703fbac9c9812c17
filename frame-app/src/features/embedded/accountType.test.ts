import * as SmartAccount from '@doorway/shared/SmartAccount'
import { format } from '@doorway/shared/Texts'
import { embeddedText } from '@doorway/shared/texts/embedded'
import { createStore } from 'jotai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { ApiError } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { configAtom } from '../../core/config.js'
import * as Storage from '../../core/storage.js'
import { preferredAccountTypeAtom, smartFor } from './accountType.js'

// Storage picks its backend when imported and Node has no localStorage: the frame's cookie path on a fake jar.
const jar = await vi.hoisted(async () => {
  const { cookieJar } = await import('../../core/cookieJar.testing.js')
  const jar = cookieJar()
  vi.stubGlobal('document', jar)
  return jar
})
afterEach(() => jar.cookies.clear())
afterAll(() => vi.unstubAllGlobals())

const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const anvil = { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrl: 'http://127.0.0.1:8545', testnet: true }
const other = { ...anvil, caipNetworkId: 'eip155:31338', name: 'Anvil 2', rpcUrl: 'http://127.0.0.1:8546' }
/** The api's answer: MetaMask's Delegation Framework as an operator configures it (more than the account needs). */
const environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
  SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
  implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4', MultiSigDeleGatorImpl: '0x56a9EdB16a0105eb5a4C54f4C062e2868844f3A7' },
  caveatEnforcers: { AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB' },
} as const
const answer = (fields: { paymasterUrl?: string } = {}) => ({ chainId: 'eip155:31337', bundlerUrl: 'http://127.0.0.1:4337', ...fields, environment })

/** A store with the dapp's config; the person prefers the smart account unless told otherwise. */
function setup(options: { prefer?: 'eoa' | 'smartAccount'; defaultAccountTypes?: Record<string, string> } = {}) {
  const store = createStore()
  store.set(configAtom, { networks: [anvil, other], ...(options.defaultAccountTypes && { defaultAccountTypes: options.defaultAccountTypes }) } as never)
  if (options.prefer !== 'eoa') store.set(preferredAccountTypeAtom, options.prefer ?? 'smartAccount')
  const smartAccounts = vi.spyOn(store.get(apiAtom), 'smartAccounts')
  return { store, smartAccounts }
}

describe('preferredAccountTypeAtom', () => {
  test('behavior: without a choice or a dapp default, the EOA', () => {
    const store = createStore()
    expect(store.get(preferredAccountTypeAtom)).toBe('eoa')
    store.set(configAtom, { networks: [anvil] } as never)
    expect(store.get(preferredAccountTypeAtom)).toBe('eoa')
  })

  test.each([
    [{ eip155: 'smartAccount' }, 'smartAccount'],
    [{ eip155: 'eoa' }, 'eoa'],
    [{ eip155: 'payment' }, 'eoa'],
    [{ solana: 'smartAccount' }, 'eoa'],
  ])('param: the dapp\'s defaultAccountTypes %o is %s', (defaultAccountTypes, expected) => {
    const store = createStore()
    store.set(configAtom, { networks: [anvil], defaultAccountTypes } as never)
    expect(store.get(preferredAccountTypeAtom)).toBe(expected)
  })

  test('behavior: the person\'s choice wins over the dapp\'s default, and is kept on this device', async () => {
    const store = createStore()
    store.set(configAtom, { networks: [anvil], defaultAccountTypes: { eip155: 'smartAccount' } } as never)
    store.set(preferredAccountTypeAtom, 'eoa')
    expect(store.get(preferredAccountTypeAtom)).toBe('eoa')
    expect(Storage.read('accountType', (x): x is string => typeof x === 'string')).toBe('eoa')

    // The next page load reads the stored choice (the atom's first value is read when its module loads).
    store.set(preferredAccountTypeAtom, 'smartAccount')
    vi.resetModules()
    const reloaded = await import('./accountType.js')
    expect(createStore().get(reloaded.preferredAccountTypeAtom)).toBe('smartAccount')
  })

  test('error: a stored value that is no account type is ignored', async () => {
    Storage.write('accountType', 'payment')
    vi.resetModules()
    const reloaded = await import('./accountType.js')
    expect(createStore().get(reloaded.preferredAccountTypeAtom)).toBe('eoa')
  })
})

describe('smartFor', () => {
  test('behavior: with the EOA preferred there is no smart account, and the api is not asked', async () => {
    const { store, smartAccounts } = setup({ prefer: 'eoa' })
    expect(await smartFor(store.get, owner, 'eip155:31337')).toEqual({})
    expect(smartAccounts).not.toHaveBeenCalled()
  })

  test('behavior: a Solana network has no smart account', async () => {
    const { store, smartAccounts } = setup()
    expect(await smartFor(store.get, owner, 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')).toEqual({})
    expect(smartAccounts).not.toHaveBeenCalled()
  })

  test('error: a network the api has no smart accounts for (404) connects the EOA and says so', async () => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockRejectedValue(new ApiError(404, 'Not Found'))
    expect(await smartFor(store.get, owner, 'eip155:31337')).toEqual({ unavailable: 'Smart accounts are not available on Anvil' })
    expect(smartAccounts).toHaveBeenCalledExactlyOnceWith('eip155:31337')
  })

  test.each([
    ['answers 502', new ApiError(502, 'Bad Gateway')],
    ['cannot be reached', new TypeError('fetch failed')],
  ])('error: an api that %s connects the EOA and says it could not be reached', async (_, error) => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockRejectedValue(error)
    expect(await smartFor(store.get, owner, 'eip155:31337')).toEqual({ unavailable: format(embeddedText.smartAccountUnreachable, { network: 'Anvil' }) })
  })

  test.each([
    ['a paymaster', { paymasterUrl: 'http://127.0.0.1:4338' }, true],
    ['no paymaster', {}, false],
  ])('behavior: on a network with %s, the smart account is the owner\'s counterfactual one, sponsored: %s', async (_, fields, sponsored) => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockResolvedValue(answer(fields))
    const { smart, unavailable } = await smartFor(store.get, owner, 'eip155:31337')
    expect(unavailable).toBeUndefined()
    expect(smart?.address).toBe(SmartAccount.counterfactual(owner, environment).address)
    expect(smart?.sponsored).toBe(sponsored)
  })

  test('behavior: the account on a chain is built once, at the same address, with only what the account needs of the environment, and the enforcers for sessions', async () => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockResolvedValue(answer())
    const { smart } = await smartFor(store.get, owner, 'eip155:31337')
    const first = await smart!.on('eip155:31337')
    const again = await smart!.on('eip155:31337')
    expect(again.account).toBe(first.account)
    expect(first.account.address).toBe(smart!.address)
    expect(first.network).toEqual({
      bundlerUrl: 'http://127.0.0.1:4337',
      paymasterUrl: undefined,
      environment: { EntryPoint: environment.EntryPoint, DelegationManager: environment.DelegationManager, SimpleFactory: environment.SimpleFactory, implementations: { HybridDeleGatorImpl: environment.implementations.HybridDeleGatorImpl } },
      // The enforcers build sessions' delegations; the secure-site trusts only its own pinned ones.
      enforcers: environment.caveatEnforcers,
    })
    expect(smartAccounts).toHaveBeenCalledExactlyOnceWith('eip155:31337')
  })

  test('error: a later chain without smart accounts rejects when used, naming it', async () => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockImplementation(async (chainId) => {
      if (chainId === 'eip155:31337') return answer()
      throw new ApiError(404, 'Not Found')
    })
    const { smart } = await smartFor(store.get, owner, 'eip155:31337')
    await expect(smart!.on('eip155:31338')).rejects.toThrow('Smart accounts are not available on Anvil 2')
  })

  test('error: a chain whose framework gives the owner another address is not this account\'s', async () => {
    const { store, smartAccounts } = setup()
    smartAccounts.mockImplementation(async (chainId) =>
      chainId === 'eip155:31337' ? answer() : { ...answer(), environment: { ...environment, SimpleFactory: '0x0000000000000000000000000000000000000001' } },
    )
    const { smart } = await smartFor(store.get, owner, 'eip155:31337')
    await expect(smart!.on('eip155:31338')).rejects.toThrow(/^Smart accounts are not available on /)
  })
})
