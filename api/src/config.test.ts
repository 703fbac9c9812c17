import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import * as Config from './config.js'

const dir = mkdtempSync(join(tmpdir(), 'doorway-api-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const config: Config.Config = {
  host: '0.0.0.0',
  port: 8787,
  publicUrl: 'https://api.example.com',
  networks: {
    'eip155:1': {
      rpcUrl: 'https://rpc.example.com/mainnet',
      name: 'Ethereum',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: false,
      tokens: [{ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
    },
  },
  projects: { 'my-dapp': { origins: ['https://dapp.example'] } },
  prices: { ETH: 3000, USDC: 1 },
  storage: { kind: 'postgres', url: 'postgres://doorway@db.example/doorway' },
}

describe('load', () => {
  test('behavior: the JSON file DOORWAY_API_CONFIG names is the configuration', () => {
    const file = join(dir, 'api.json')
    writeFileSync(file, JSON.stringify(config))
    expect(Config.load({ DOORWAY_API_CONFIG: file })).toEqual(config)
  })

  test('error: without DOORWAY_API_CONFIG the api has no configuration and says how to give one', () => {
    expect(() => Config.load({})).toThrow(/DOORWAY_API_CONFIG/)
  })

  test('error: an unreadable DOORWAY_API_CONFIG file throws', () => {
    expect(() => Config.load({ DOORWAY_API_CONFIG: '/nonexistent/doorway.json' })).toThrow(/ENOENT/)
  })
})

const solanaChain = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const bitcoinChain = 'bip122:000000000019d6689c085ae165831e93'
const solanaNetwork = {
  kind: 'solana',
  rpcUrl: 'https://solana-rpc.example.com',
  name: 'Solana',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  testnet: false,
  tokens: [{ address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', name: 'USD Coin', symbol: 'USDC', decimals: 6 }],
}
const bitcoinNetwork = {
  kind: 'bip122',
  esploraUrl: 'https://blockstream.info/api',
  name: 'Bitcoin',
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  testnet: false,
  tokens: [],
}
const environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
  SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
  implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4' },
  caveatEnforcers: { AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB' },
} as const
const smartAccounts = { bundlerUrl: 'https://bundler.example/mainnet', paymasterUrl: 'https://paymaster.example/mainnet', environment }
const withSmartAccounts = (value: unknown) => ({ ...config, networks: { 'eip155:1': { ...config.networks['eip155:1'], smartAccounts: value } } })
const withEnvironment = (changes: Record<string, unknown>) => withSmartAccounts({ ...smartAccounts, environment: { ...environment, ...changes } })
const enforcers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`Enforcer${i}`, environment.caveatEnforcers.AllowedTargetsEnforcer]))
const withNetwork = (chainId: string, network: unknown) => ({ ...config, networks: { ...config.networks, [chainId]: network } })
const without = (object: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key))

describe('parse', () => {
  test('behavior: EVM, Solana and Bitcoin networks side by side are the configuration as written', () => {
    const all = { ...config, networks: { ...config.networks, [solanaChain]: solanaNetwork, [bitcoinChain]: bitcoinNetwork }, indexer: { pollMs: 500 }, onramp: { providerUrl: 'https://onramp.example' } }
    expect(Config.parse(structuredClone(all))).toEqual(all)
  })

  test('behavior: an EVM network’s smart accounts, with or without a paymaster, are the configuration as written', () => {
    for (const value of [smartAccounts, without(smartAccounts, 'paymasterUrl')]) expect(Config.parse(structuredClone(withSmartAccounts(value)))).toEqual(withSmartAccounts(value))
  })

  test('behavior: a Bitcoin network may leave its (empty) token list out', () => {
    const parsed = Config.parse(withNetwork(bitcoinChain, without(bitcoinNetwork, 'tokens')))
    expect(parsed.networks[bitcoinChain]).toEqual(bitcoinNetwork)
  })

  test.each<[string, unknown, RegExp]>([
    ['a network id that is not CAIP-2', { ...config, networks: { 'ethereum:1': config.networks['eip155:1'] } }, /networks\["ethereum:1"\]: expected a CAIP-2 network id/],
    ['a Solana network without its kind (read as EVM)', withNetwork(solanaChain, without(solanaNetwork, 'kind')), /networks\["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"\].kind: kind evm serves eip155: network ids only/],
    ['a kind of another namespace than its id', withNetwork('eip155:10', solanaNetwork), /networks\["eip155:10"\].kind: kind solana serves solana: network ids only/],
    ['an unknown kind', withNetwork(solanaChain, { ...solanaNetwork, kind: 'cosmos' }), /\.kind: expected evm, solana or bip122/],
    ['SOL with other than 9 decimals', withNetwork(solanaChain, { ...solanaNetwork, nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 18 } }), /nativeCurrency\.decimals: expected 9/],
    ['BTC with other than 8 decimals', withNetwork(bitcoinChain, { ...bitcoinNetwork, nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 18 } }), /nativeCurrency\.decimals: expected 8/],
    ['an EVM token address on a Solana network', withNetwork(solanaChain, { ...solanaNetwork, tokens: [{ ...solanaNetwork.tokens[0], address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' }] }), /tokens\[0\]\.address: expected an address of this network/],
    ['a mint address on an EVM network', { ...config, networks: { 'eip155:1': { ...config.networks['eip155:1'], tokens: solanaNetwork.tokens } } }, /tokens\[0\]\.address: expected an address of this network/],
    ['a Bitcoin network with tokens', withNetwork(bitcoinChain, { ...bitcoinNetwork, tokens: solanaNetwork.tokens }), /tokens: a Bitcoin network has no tokens/],
    ['a Bitcoin network with an rpcUrl instead of esploraUrl', withNetwork(bitcoinChain, { ...without(bitcoinNetwork, 'esploraUrl'), rpcUrl: 'https://btc.example' }), /esploraUrl: missing/],
    ['a Solana network with an exchange', withNetwork(solanaChain, { ...solanaNetwork, exchange: { router: '0x', factory: '0x', weth: '0x' } }), /exchange: unknown field/],
    ['an rpcUrl that is not http(s)', withNetwork(solanaChain, { ...solanaNetwork, rpcUrl: 'ws://solana.example' }), /rpcUrl: expected an http\(s\) URL/],
    ['a missing network name', withNetwork(solanaChain, without(solanaNetwork, 'name')), /\.name: missing/],
    ['a bundlerUrl that is not http(s)', withSmartAccounts({ ...smartAccounts, bundlerUrl: 'wss://bundler.example' }), /networks\["eip155:1"\]\.smartAccounts\.bundlerUrl: expected an http\(s\) URL/],
    ['a paymasterUrl that is no URL', withSmartAccounts({ ...smartAccounts, paymasterUrl: 'paymaster' }), /smartAccounts\.paymasterUrl: expected an http\(s\) URL/],
    ['smart accounts without a bundler', withSmartAccounts(without(smartAccounts, 'bundlerUrl')), /smartAccounts\.bundlerUrl: missing/],
    ['smart accounts without the Delegation Framework', withSmartAccounts(without(smartAccounts, 'environment')), /smartAccounts\.environment: missing/],
    ['an EntryPoint that is no address', withEnvironment({ EntryPoint: '0x1234' }), /smartAccounts\.environment\.EntryPoint: expected a 0x-prefixed 40-hex-digit address/],
    ['implementations without the HybridDeleGator', withEnvironment({ implementations: { MultiSigDeleGatorImpl: environment.SimpleFactory } }), /environment\.implementations\.HybridDeleGatorImpl: missing/],
    ['a caveat enforcer that is no address', withEnvironment({ caveatEnforcers: { IdEnforcer: 'nope' } }), /environment\.caveatEnforcers\["IdEnforcer"\]: expected a 0x-prefixed/],
    ['a contract name that is not letters and digits', withEnvironment({ caveatEnforcers: { 'Id Enforcer': environment.SimpleFactory } }), /caveatEnforcers\["Id Enforcer"\]: expected a contract name/],
    ['more caveat enforcers than the api answers with', withEnvironment({ caveatEnforcers: enforcers(129) }), /environment\.caveatEnforcers: expected at most 128 contracts/],
    ['an unknown field of the Delegation Framework', withEnvironment({ Entrypoint: environment.EntryPoint }), /environment\.Entrypoint: unknown field/],
    ['a Solana network with smart accounts', withNetwork(solanaChain, { ...solanaNetwork, smartAccounts }), /smartAccounts: unknown field/],
    ['a misspelt field', { ...config, prises: {} }, /prises: unknown field/],
    ['a negative price', { ...config, prices: { ETH: -1 } }, /prices\["ETH"\]: expected a price/],
    ['a port out of range', { ...config, port: 70_000 }, /port: expected an integer from 0 to 65535/],
    ['an unknown storage kind', { ...config, storage: { kind: 'sqlite', dir: '/tmp' } }, /storage\.kind: expected embedded or postgres/],
    ['projects whose origins are not a list', { ...config, projects: { p: { origins: 'https://dapp.example' } } }, /projects\["p"\]\.origins: expected an array/],
    ['a configuration that is no object', [config], /the file: expected an object/],
  ])('error: %s is refused, naming where', (_, value, message) => {
    expect(() => Config.parse(value)).toThrow(message)
    expect(() => Config.parse(value)).toThrow(/^Invalid api configuration: /)
  })
})

describe('load (checked)', () => {
  test('error: a file with a wrong field does not start the api: the error names the field', () => {
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify(withNetwork(solanaChain, { ...solanaNetwork, rpcUrl: 'nope' })))
    expect(() => Config.load({ DOORWAY_API_CONFIG: file })).toThrow(/networks\["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"\]\.rpcUrl: expected an http\(s\) URL/)
  })
})
