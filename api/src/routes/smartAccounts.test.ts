import type { ChainId } from '@doorway/shared/Caip'
import * as SmartAccountsContract from '@doorway/shared/contracts/api/smartAccounts'
import { describe, expect, test } from 'vitest'
import * as App from '../app.js'
import * as Config from '../config.js'
import type { EvmNetwork, SmartAccounts } from '../config.js'
import { projectId, testConfig, testDeps } from '../testing.js'

// MetaMask's v1.3.0 deployment, cut to one caveat enforcer.
const environment: SmartAccounts['environment'] = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
  SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
  implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4', MultiSigDeleGatorImpl: '0x56a9EdB16a0105eb5a4C54f4C062e2868844f3A7' },
  caveatEnforcers: { AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB' },
}
const sponsored: SmartAccounts = { bundlerUrl: 'https://bundler.example/31337', paymasterUrl: 'https://paymaster.example/31337', environment }
const unsponsored: SmartAccounts = { bundlerUrl: 'https://bundler.example/31338', environment }

// No node is ever called: the RPC URLs point nowhere.
const rpcUrls: Partial<Record<ChainId, string>> = { 'eip155:31337': 'http://127.0.0.1:1', 'eip155:31338': 'http://127.0.0.1:1', 'eip155:31339': 'http://127.0.0.1:1' }

function setup() {
  const base = testConfig(rpcUrls)
  const config: Config.Config = {
    ...base,
    networks: {
      ...base.networks,
      'eip155:31337': { ...(base.networks['eip155:31337'] as EvmNetwork), smartAccounts: sponsored },
      'eip155:31338': { ...(base.networks['eip155:31338'] as EvmNetwork), smartAccounts: unsponsored },
    },
  }
  const { deps, calls } = testDeps(config)
  const app = App.create(deps)
  const get = async (chainId: string, project = projectId) => {
    const response = await app.request(`/v1/smart-accounts/${chainId}?${new URLSearchParams({ projectId: project })}`)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  return { get, calls }
}

describe('GET /v1/smart-accounts/:chainId', () => {
  test('behavior: the network’s bundler, paymaster and Delegation Framework, as configured, without calling a node', async () => {
    const { get, calls } = setup()
    const answer = await get('eip155:31337')
    expect(answer).toEqual({ status: 200, body: { chainId: 'eip155:31337', ...sponsored } })
    expect(SmartAccountsContract.smartAccounts(answer.body)).toBe(true)
    expect(calls).toEqual([])
  })

  test('behavior: a network without a paymaster answers without paymasterUrl', async () => {
    const { get } = setup()
    const answer = await get('eip155:31338')
    expect(answer).toEqual({ status: 200, body: { chainId: 'eip155:31338', bundlerUrl: unsponsored.bundlerUrl, environment } })
    expect(answer.body).not.toHaveProperty('paymasterUrl')
    expect(SmartAccountsContract.smartAccounts(answer.body)).toBe(true)
  })

  test('behavior: the most contracts a configuration may name still pass the frame’s check of the answer', async () => {
    const { limits } = SmartAccountsContract
    const many = (count: number, prefix: string) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, environment.SimpleFactory]))
    const widest = {
      ...sponsored,
      environment: {
        ...environment,
        implementations: { ...many(limits.implementations - 1, 'Impl'), HybridDeleGatorImpl: environment.implementations.HybridDeleGatorImpl },
        caveatEnforcers: many(limits.caveatEnforcers, 'E'.repeat(60)),
      },
    }
    const config = Config.parse({ ...testConfig(), networks: { 'eip155:1': { ...testConfig(rpcUrls).networks['eip155:31337'], smartAccounts: widest } } })
    const response = await App.create(testDeps(config).deps).request(`/v1/smart-accounts/eip155:1?projectId=${projectId}`)
    expect(response.status).toBe(200)
    expect(SmartAccountsContract.smartAccounts(await response.json())).toBe(true)
  })

  test.each([
    ['a configured network without smart accounts', 'eip155:31339'],
    ['a network the api does not configure', 'eip155:1'],
  ])('error: %s is 404', async (_, chainId) => {
    const { get } = setup()
    expect(await get(chainId)).toEqual({ status: 404, body: { message: `No smart accounts on ${chainId}` } })
  })

  test.each(['ethereum:1', 'eip155:0x1', 'eip155'])('param: %s is no network id: 400', async (chainId) => {
    const { get } = setup()
    expect(await get(chainId)).toEqual({ status: 400, body: { message: 'Invalid chainId: expected a CAIP-2 network id like eip155:1' } })
  })

  test('error: an unknown project is 403, a missing one 400', async () => {
    const { get } = setup()
    expect(await get('eip155:31337', 'nobody')).toEqual({ status: 403, body: { message: 'Unknown projectId nobody' } })
    expect((await get('eip155:31337', '')).status).toBe(400)
  })
})
