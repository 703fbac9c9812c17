import { describe, expect, test } from 'vitest'
import type { Balance } from '../api/client.js'
import * as Assets from './assets.js'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const dusd = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const dwt = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'

const balance = (chainId: string, symbol: string, numeric: string, decimals: number, value: number, address?: string): Balance => ({
  name: symbol === 'ETH' ? 'Ether' : `Doorway ${symbol}`,
  symbol,
  chainId,
  ...(address && { address: `${chainId}:${address}` }),
  value,
  price: 1,
  quantity: { decimals: String(decimals), numeric },
  iconUrl: 'http://127.0.0.1:8787/public/getTokenImage/x',
})

const balances: Record<string, Balance[]> = {
  'eip155:31337': [
    balance('eip155:31337', 'ETH', '1.5', 18, 4500),
    balance('eip155:31337', 'DWT', '0.25', 18, 0.0625, dwt),
    balance('eip155:31337', 'DUSD', '1000000', 6, 1_000_000, dusd),
  ],
  'eip155:31338': [balance('eip155:31338', 'ETH', '2', 18, 6000)],
}

const context = (calls: string[] = []): Assets.get.Context => ({
  address: account.toLowerCase(),
  networks: ['eip155:31337', 'eip155:31338', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
  async balances(chainId) {
    calls.push(chainId)
    return balances[chainId] ?? []
  },
})

describe('get', () => {
  test('behavior: every eip155 network of the dapp, by hex chain id, highest value first, in ERC-7811 shape', async () => {
    const calls: string[] = []
    const assets = await Assets.get(Assets.parse([{ account }]), context(calls))
    expect(calls).toEqual(['eip155:31337', 'eip155:31338'])
    expect(assets).toMatchInlineSnapshot(`
      {
        "0x7a69": [
          {
            "address": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
            "balance": "0xe8d4a51000",
            "metadata": {
              "decimals": 6,
              "name": "Doorway DUSD",
              "symbol": "DUSD",
            },
            "type": "erc20",
          },
          {
            "address": "native",
            "balance": "0x14d1120d7b160000",
            "metadata": {
              "decimals": 18,
              "name": "Ether",
              "symbol": "ETH",
            },
            "type": "native",
          },
          {
            "address": "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
            "balance": "0x3782dace9d90000",
            "metadata": {
              "decimals": 18,
              "name": "Doorway DWT",
              "symbol": "DWT",
            },
            "type": "erc20",
          },
        ],
        "0x7a6a": [
          {
            "address": "native",
            "balance": "0x1bc16d674ec80000",
            "metadata": {
              "decimals": 18,
              "name": "Ether",
              "symbol": "ETH",
            },
            "type": "native",
          },
        ],
      }
    `)
  })

  test('param: chainFilter narrows to the dapp\'s networks it names, and asks the api for those only', async () => {
    const calls: string[] = []
    const assets = await Assets.get(Assets.parse([{ account, chainFilter: ['0x7A6A', '0x1'] }]), context(calls))
    expect(Object.keys(assets)).toEqual(['0x7a6a'])
    expect(calls).toEqual(['eip155:31338'])
  })

  test('param: assetTypeFilter keeps the types it names', async () => {
    const assets = await Assets.get(Assets.parse([{ account, chainFilter: ['0x7a69'], assetTypeFilter: ['ERC20'] }]), context())
    expect(assets['0x7a69']!.map((a) => a.type)).toEqual(['erc20', 'erc20'])
  })

  test.each([
    ['addresses', [dwt.toLowerCase(), 'native']],
    ['{ address, type } entries', [{ address: dwt, type: 'erc20' }, { address: 'native', type: 'native' }]],
  ])('param: assetFilter (%s) returns exactly the named assets and overrides the other filters', async (_, list) => {
    const assets = await Assets.get(Assets.parse([{ account, chainFilter: ['0x7a6a'], assetTypeFilter: ['erc20'], assetFilter: { '0x7a69': list } }]), context())
    expect(Object.keys(assets)).toEqual(['0x7a69'])
    expect(assets['0x7a69']!.map((a) => a.metadata.symbol)).toEqual(['ETH', 'DWT'])
  })

  test('param: an assetFilter chain with an empty list returns every asset of that chain', async () => {
    const assets = await Assets.get(Assets.parse([{ account, assetFilter: { '0x7a69': [] } }]), context())
    expect(assets['0x7a69']).toHaveLength(3)
  })

  test('error: another account than the connected one is refused with 4100 and the api is not asked', async () => {
    const calls: string[] = []
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    await expect(Assets.get(Assets.parse([{ account: other }]), context(calls))).rejects.toMatchObject({ code: 4100 })
    expect(calls).toEqual([])
  })

  test('error: an api failure rejects the request (no made-up empty answer)', async () => {
    const failing = { ...context(), balances: () => Promise.reject(new Error('api down')) }
    await expect(Assets.get(Assets.parse([{ account }]), failing)).rejects.toThrow('api down')
  })
})

describe('parse', () => {
  test.each([
    ['no params', undefined, 'expected [{ account'],
    ['an empty list', [], 'expected [{ account'],
    ['two objects', [{ account }, { account }], 'expected [{ account'],
    ['no account', [{}], '`account` must be an address'],
    ['a bad account', [{ account: '0x123' }], '`account` must be an address'],
    ['chainFilter not a list', [{ account, chainFilter: '0x1' }], '`chainFilter` must be a list of strings'],
    ['chainFilter decimal', [{ account, chainFilter: ['31337'] }], '`chainFilter` must list hex chain ids'],
    ['assetTypeFilter numbers', [{ account, assetTypeFilter: [1] }], '`assetTypeFilter` must be a list of strings'],
    ['assetFilter a list', [{ account, assetFilter: [] }], '`assetFilter` must map hex chain ids'],
    ['assetFilter bad chain', [{ account, assetFilter: { mainnet: [] } }], '`assetFilter` must map hex chain ids'],
    ['assetFilter bad asset', [{ account, assetFilter: { '0x1': ['usdc'] } }], 'an `assetFilter` asset must be an address or "native"'],
    ['a huge chainFilter', [{ account, chainFilter: Array.from({ length: 300 }, () => '0x1') }], '`chainFilter` must be a list of strings'],
  ])('error: %s is refused with -32602 and says why', (_, params, message) => {
    expect(() => Assets.parse(params)).toThrow(message)
    try {
      Assets.parse(params)
    } catch (error) {
      expect(error).toMatchObject({ code: -32602 })
    }
  })
})
