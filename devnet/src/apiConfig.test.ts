import * as Config from '@doorway/api/config'
import { describe, expect, test } from 'vitest'
import * as ApiConfig from './apiConfig.js'
import { apiStack } from './stack.js'

const token = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', name: 'Doorway USD', symbol: 'DUSD', decimals: 6 }
const stack: ApiConfig.LocalStack = {
  port: 9787,
  chains: [
    { id: 31337, rpcUrl: 'http://127.0.0.1:9545' },
    { id: 31338, rpcUrl: 'http://127.0.0.1:9546' },
  ],
  origins: ['http://localhost:6173'],
  tokens: { 'eip155:31337': [token] },
}

describe('local', () => {
  test('behavior: the local stack moved by env (ports, demo origin) is what the api serves and allows', () => {
    const config = ApiConfig.local(stack, {})
    expect(config.publicUrl).toBe('http://127.0.0.1:9787')
    expect(config.networks['eip155:31337']).toMatchObject({ rpcUrl: 'http://127.0.0.1:9545', name: 'Anvil 31337', tokens: [token] })
    expect(config.networks['eip155:31338']).toMatchObject({ rpcUrl: 'http://127.0.0.1:9546', tokens: [] })
    expect(config.projects['doorway-demo']?.origins).toEqual(['http://localhost:6173'])
    expect(config.projects['doorway-foreign']?.origins).not.toContain('http://localhost:6173')
  })

  test('behavior: the devnet NFT collections marked spam are the network spam list', () => {
    const nfts = {
      'eip155:31337': [
        { address: '0x00000000000000000000000000000000000000A1', spam: false },
        { address: '0x00000000000000000000000000000000000000A2', spam: true },
      ],
    }
    const config = ApiConfig.local({ ...stack, nfts }, {})
    expect(config.networks['eip155:31337']?.spamNfts).toEqual(['0x00000000000000000000000000000000000000A2'])
    expect(config.networks['eip155:31338']?.spamNfts).toEqual([])
  })

  test('behavior: the exchange the devnet deployed on a chain is that network’s; a chain without one has none', () => {
    const exchange = {
      'eip155:31337': {
        router: '0x76ca03a67C049477FfB09694dFeF00416dB69746',
        factory: '0x39dD11C243Ac4Ac250980FA3AEa016f73C509f37',
        weth: '0xef11D1c2aA48826D4c41e54ab82D1Ff5Ad8A64Ca',
      },
    }
    const config = ApiConfig.local({ ...stack, exchange }, {})
    expect(config.networks['eip155:31337']?.exchange).toEqual(exchange['eip155:31337'])
    expect(config.networks['eip155:31338']).not.toHaveProperty('exchange')
  })

  test('behavior: each chain’s bundler, paymaster and Delegation Framework are its network’s smart accounts; a chain without them has none', () => {
    const smartAccounts = {
      'eip155:31337': {
        bundlerUrl: 'http://127.0.0.1:9795',
        paymasterUrl: 'http://127.0.0.1:9796',
        environment: {
          EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
          DelegationManager: '0x00000000000000000000000000000000000000D1',
          SimpleFactory: '0x00000000000000000000000000000000000000D2',
          implementations: { HybridDeleGatorImpl: '0x00000000000000000000000000000000000000D3' },
          caveatEnforcers: { AllowedTargetsEnforcer: '0x00000000000000000000000000000000000000D4' },
        },
      },
    } as const
    const config = ApiConfig.local({ ...stack, smartAccounts }, {})
    expect(config.networks['eip155:31337']?.smartAccounts).toEqual(smartAccounts['eip155:31337'])
    expect(config.networks['eip155:31338']).not.toHaveProperty('smartAccounts')
    // The api's own check of an operator's file passes what devnet builds.
    expect(Config.parse(JSON.parse(JSON.stringify(config)))).toEqual(config)
  })

  test('behavior: the devnet’s sandbox onramp is the onramp provider; without one there is none', () => {
    expect(ApiConfig.local({ ...stack, onrampUrl: 'http://127.0.0.1:9793' }, {}).onramp).toEqual({ providerUrl: 'http://127.0.0.1:9793' })
    expect(ApiConfig.local(stack, {})).not.toHaveProperty('onramp')
  })

  test('behavior: the devnet’s Solana chain and regtest Esplora are networks of their kind, priced, and the api takes the result', () => {
    const solana = {
      chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z' as const,
      rpcUrl: 'http://127.0.0.1:9899',
      tokens: [{ address: 'AQoKYV7tYpTrFZN6P5oUufbQKAUr9mNYGe1TTJC9wajM', name: 'Doorway USD', symbol: 'DUSD', decimals: 6 }],
    }
    const bitcoin = { chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const, esploraUrl: 'http://127.0.0.1:9794' }
    const exchange = { 'eip155:31337': { router: '0x76ca03a67C049477FfB09694dFeF00416dB69746', factory: '0x39dD11C243Ac4Ac250980FA3AEa016f73C509f37', weth: '0xef11D1c2aA48826D4c41e54ab82D1Ff5Ad8A64Ca' } }
    const nfts = { 'eip155:31337': [{ address: '0x00000000000000000000000000000000000000A2', spam: true }] }
    const config = ApiConfig.local({ ...stack, solana, bitcoin, exchange, nfts, onrampUrl: 'http://127.0.0.1:9793' }, {})
    expect(config.networks[solana.chainId]).toEqual({
      kind: 'solana',
      rpcUrl: solana.rpcUrl,
      name: 'Solana Devnet (local)',
      nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
      testnet: true,
      tokens: solana.tokens,
    })
    expect(config.networks[bitcoin.chainId]).toEqual({
      kind: 'bip122',
      esploraUrl: bitcoin.esploraUrl,
      name: 'Bitcoin Regtest (local)',
      nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
      testnet: true,
      tokens: [],
    })
    expect(config.prices).toMatchObject({ SOL: 150, BTC: 60_000 })
    // The api's own check of an operator's file passes what devnet builds.
    expect(Config.parse(JSON.parse(JSON.stringify(config)))).toEqual(config)
  })

  test('behavior: without a Solana chain or an Esplora stand-in the api serves the EVM chains alone', () => {
    expect(Object.keys(ApiConfig.local(stack, {}).networks)).toEqual(['eip155:31337', 'eip155:31338'])
  })

  test('behavior: DOORWAY_API_DATA moves the embedded database', () => {
    expect(ApiConfig.local(stack, {}).storage).toEqual({ kind: 'embedded', dir: '.doorway/api-data' })
    expect(ApiConfig.local(stack, { DOORWAY_API_DATA: '/tmp/api-data' }).storage).toEqual({ kind: 'embedded', dir: '/tmp/api-data' })
  })
})

describe('fromDeployed', () => {
  test('behavior: this machine’s stack serves what devnet deployed, on the chains and port of stack.ts', () => {
    const config = ApiConfig.fromDeployed({ tokens: { 'eip155:31337': [token] }, onrampUrl: 'http://127.0.0.1:9793' }, {})
    expect(config.port).toBe(apiStack.port)
    expect(Object.keys(config.networks)).toEqual(apiStack.chains.map((chain) => `eip155:${chain.id}`))
    expect(config.networks['eip155:31337']?.tokens).toEqual([token])
    expect(config.projects['doorway-demo']?.origins).toEqual(apiStack.origins)
    expect(config.onramp).toEqual({ providerUrl: 'http://127.0.0.1:9793' })
  })

  test('behavior: the Solana chain and Esplora stand-in start.ts passes are served beside the anvil chains', () => {
    const solana = { chainId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z' as const, rpcUrl: 'http://127.0.0.1:8899', tokens: [] }
    const bitcoin = { chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' as const, esploraUrl: 'http://127.0.0.1:8794' }
    const config = ApiConfig.fromDeployed({ tokens: {}, solana, bitcoin }, {})
    expect(Object.keys(config.networks)).toEqual([...apiStack.chains.map((chain) => `eip155:${chain.id}`), solana.chainId, bitcoin.chainId])
  })
})
