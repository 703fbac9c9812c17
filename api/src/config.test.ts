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
