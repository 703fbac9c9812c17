/**
 * The balance and history routes on a Bitcoin network, against the devnet's Esplora stand-in over a
 * regtest chain that checks every signature: balances after a faucet and a transfer, history of both
 * sides, pages, bad input (400) and a failing Esplora server (502/503, the api's error envelope).
 */
import * as Esplora from '@doorway/devnet/bitcoin/esplora'
import * as BitcoinKeys from '@doorway/devnet/bitcoin/keys'
import * as Wallet from '@doorway/devnet/bitcoin/wallet'
import * as SolanaKeys from '@doorway/devnet/solana/keys'
import * as Balances from '@doorway/shared/contracts/api/balances'
import * as History from '@doorway/shared/contracts/api/history'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from '../app.js'
import * as EsploraClient from '../chains/Esplora.js'
import * as Upstream from '../chains/Upstream.testing.js'
import type { BitcoinNetwork, Config } from '../config.js'
import { projectId, testConfig, testDeps } from '../testing.js'

let esplora: Esplora.Server
let config: Config
let network: BitcoinNetwork
const chainId = Esplora.chainId
// Each test its own keys: the chain is shared by the file.
let nextKey = 100
const key = () => BitcoinKeys.payment(nextKey++)

beforeAll(async () => {
  esplora = await Esplora.start({ port: 0 })
  const base = testConfig({ 'eip155:31337': 'http://127.0.0.1:1' })
  network = { kind: 'bip122', esploraUrl: esplora.url, name: 'Bitcoin regtest', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }, testnet: true, tokens: [] }
  config = { ...base, networks: { ...base.networks, [chainId]: network }, prices: { ...base.prices, BTC: 60_000 } }
})
afterAll(() => esplora?.stop())

/** An app with its own caches and a fake clock; its Esplora client records the paths it asks for. */
function setup(used: Config = config) {
  const clock = { now: 1_700_000_000_000 }
  const paths: string[] = []
  const client = EsploraClient.create(used)
  const esploraCounting: EsploraClient.Esplora = (id, path, signal) => {
    paths.push(path)
    return client(id, path, signal)
  }
  const { deps, calls } = testDeps(used, { now: () => clock.now, esplora: esploraCounting })
  const app = App.create(deps)
  const get = async (path: string, query: Record<string, string> = {}) => {
    const response = await app.request(`${path}?${new URLSearchParams({ projectId, ...query })}`)
    return { status: response.status, body: await response.json() }
  }
  return { calls, paths, clock, get }
}

function expectError(answer: { status: number; body: unknown }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status)
  expect(Object.keys(answer.body as object)).toEqual(['message'])
  expect((answer.body as { message: string }).message).toMatch(message)
}

const balancePath = (address: string) => `/v1/account/${address}/balance`
const historyPath = (address: string) => `/v1/account/${address}/history`
const withServer = (url: string): Config => ({ ...config, networks: { [chainId]: { ...network, esploraUrl: url } } })

type Page = { status: number; body: { data: History.Transaction[]; next: string | null } }

describe('GET /v1/account/:address/balance on Bitcoin', () => {
  test('behavior: BTC after a faucet and a transfer: what is left after the amount and the fee, priced', async () => {
    const me = key()
    const friend = key()
    await esplora.faucet(me.address, 1_000_000n)
    const { fee } = await Wallet.transfer({ esploraUrl: esplora.url, key: me, to: friend.address, amount: 250_000n })
    const { get, paths, calls } = setup()
    const mine = await get(balancePath(me.address), { chainId, currency: 'usd' })
    const left = 1_000_000n - 250_000n - fee
    expect(mine).toEqual({
      status: 200,
      body: {
        balances: [
          {
            name: 'Bitcoin',
            symbol: 'BTC',
            chainId,
            value: (Number(left) / 1e8) * 60_000,
            price: 60_000,
            quantity: { decimals: '8', numeric: String(Number(left) / 1e8) },
            iconUrl: 'http://api.test/public/getTokenImage/BTC',
          },
        ],
      },
    })
    expect(Balances.balances(mine.body)).toBe(true)
    const theirs = await get(balancePath(friend.address), { chainId })
    expect(theirs.body.balances[0].quantity).toEqual({ decimals: '8', numeric: '0.0025' })
    expect(paths).toEqual([`/address/${me.address}`, `/address/${friend.address}`])
    expect(calls).toEqual([])
  })

  test('behavior: without chainId a regtest address is read on the regtest network only', async () => {
    const me = key()
    await esplora.faucet(me.address, 5_000n)
    const { get, calls } = setup()
    const { body } = await get(balancePath(me.address))
    expect(body.balances.map((b: { chainId: string; quantity: { numeric: string } }) => [b.chainId, b.quantity.numeric])).toEqual([[chainId, '0.00005']])
    expect(calls).toEqual([])
  })

  test('behavior: a bech32 address in upper case is the same account', async () => {
    const me = key()
    await esplora.faucet(me.address, 7_000n)
    const { get } = setup()
    const { body } = await get(balancePath(me.address.toUpperCase()), { chainId })
    expect(body.balances[0].quantity.numeric).toBe('0.00007')
  })

  test.each([
    ['a mainnet address', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /^Invalid address: expected a Bitcoin address \(bech32 or base58\) of bip122:/],
    ['a Solana address', SolanaKeys.address(0), /^Invalid address: expected a Bitcoin address/],
    ['an EVM address', '0x000000000000000000000000000000000000dEaD', /^Invalid address: expected a Bitcoin address/],
    ['a regtest address with a broken checksum', `${BitcoinKeys.payment(0).address.slice(0, -1)}x`, /^Invalid address: expected a Bitcoin address/],
  ])('error: %s on a Bitcoin network is a 400, with no call', async (_, address, message) => {
    const { get, paths } = setup()
    expectError(await get(balancePath(address), { chainId }), 400, message)
    expect(paths).toEqual([])
  })

  test('error: an Esplora server that does not answer is a 502; a busy one a 503', async () => {
    const down = setup(withServer('http://127.0.0.1:1'))
    expectError(await down.get(balancePath(key().address), { chainId }), 502, `The Esplora server for ${chainId} did not answer`)
    const busy = await Upstream.start(Upstream.answering(429, 'Too Many Requests'))
    try {
      expectError(await setup(withServer(busy.url)).get(balancePath(key().address), { chainId }), 503, /is busy \(HTTP 429\)/)
    } finally {
      await busy.stop()
    }
  })

  test('error: an Esplora error or a malformed answer is a 502 with its reason, not a crash', async () => {
    const failing = await Upstream.start(Upstream.answering(500, 'RPC error: database offline\nmore'))
    const odd = await Upstream.start(Upstream.answering(200, { chain_stats: { funded_txo_sum: 'a lot' } }))
    try {
      expectError(await setup(withServer(failing.url)).get(balancePath(key().address), { chainId }), 502, /answered HTTP 500: RPC error: database offline$/)
      expectError(await setup(withServer(odd.url)).get(balancePath(key().address), { chainId }), 502, /gave no answer for \/address\//)
    } finally {
      await Promise.all([failing.stop(), odd.stop()])
    }
  })
})

describe('GET /v1/account/:account/history on Bitcoin', () => {
  const history = (get: ReturnType<typeof setup>['get'], address: string, query: Record<string, string> = {}) =>
    get(historyPath(address), { chainId, ...query }) as Promise<Page>

  test('behavior: a faucet and a transfer, newest first, as each side sees them', async () => {
    const me = key()
    const friend = key()
    const funding = await esplora.faucet(me.address, 1_000_000n)
    const { txid } = await Wallet.transfer({ esploraUrl: esplora.url, key: me, to: friend.address, amount: 250_000n })
    const { get } = setup()
    const mine = await history(get, me.address)
    expect(mine.status).toBe(200)
    expect(History.historyPage(mine.body)).toBe(true)
    const btc = { fungible_info: { name: 'Bitcoin', symbol: 'BTC', icon: { url: 'http://api.test/public/getTokenImage/BTC' } }, price: 60_000 }
    expect(mine.body).toEqual({
      data: [
        {
          id: `${chainId}:${txid}`,
          metadata: { operationType: 'send', hash: txid, minedAt: expect.any(String), sentFrom: me.address, sentTo: friend.address, status: 'confirmed', nonce: -1, chain: chainId },
          // What went to the friend: the change and the fee are left out.
          transfers: [{ ...btc, direction: 'out', quantity: { numeric: '0.0025' }, value: 150, sender: me.address, recipient: friend.address }],
        },
        {
          id: `${chainId}:${funding}`,
          metadata: { operationType: 'receive', hash: funding, minedAt: expect.any(String), sentFrom: '', sentTo: me.address, status: 'confirmed', nonce: -1, chain: chainId },
          transfers: [{ ...btc, direction: 'in', quantity: { numeric: '0.01' }, value: 600, recipient: me.address }],
        },
      ],
      next: null,
    })
    const theirs = await history(get, friend.address)
    expect(theirs.body.data).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ operationType: 'receive', hash: txid, sentFrom: me.address, sentTo: friend.address }),
        transfers: [expect.objectContaining({ direction: 'in', quantity: { numeric: '0.0025' }, sender: me.address, recipient: friend.address })],
      }),
    ])
  })

  test('behavior: a transfer to itself is a send of what it moved', async () => {
    const me = key()
    await esplora.faucet(me.address, 100_000n)
    const { txid } = await Wallet.transfer({ esploraUrl: esplora.url, key: me, to: me.address, amount: 40_000n })
    const { get } = setup()
    const [moved] = (await history(get, me.address)).body.data
    expect(moved).toMatchObject({ metadata: { operationType: 'send', hash: txid }, transfers: [{ direction: 'self' }] })
  })

  test('behavior: 20 a page by cursor (Esplora pages by 25), each entry once, newest first', async () => {
    const me = key()
    const txids: string[] = []
    for (let i = 0; i < 27; i++) txids.push(await esplora.faucet(me.address, 1_000n + BigInt(i)))
    const { get, paths } = setup()
    const first = await history(get, me.address)
    expect(first.body.data).toHaveLength(20)
    const second = await history(get, me.address, { cursor: first.body.next! })
    expect(second.body.next).toBeNull()
    expect([...first.body.data, ...second.body.data].map((t) => t.metadata.hash)).toEqual([...txids].reverse())
    expect(paths).toEqual([`/address/${me.address}/txs`, `/address/${me.address}/txs/chain/${txids[7]}`])
  })

  test.each([
    ['a Bitcoin account without chainId', () => key().address, {}, /^Missing chainId/],
    ['a Solana account on a Bitcoin network', () => SolanaKeys.address(0), { chainId }, /^Invalid account: expected a Bitcoin address/],
    ['a cursor of another chain', () => key().address, { chainId, cursor: Buffer.from(`["solana",1,"${'1'.repeat(64)}"]`).toString('base64url') }, /^Invalid cursor/],
    ['a cursor that is no txid', () => key().address, { chainId, cursor: Buffer.from('["bip122","nope"]').toString('base64url') }, /^Invalid cursor/],
  ])('error: %s is a 400 with no call', async (_, account, query, message) => {
    const { get, paths } = setup()
    expectError(await get(historyPath(account()), query), 400, message)
    expect(paths).toEqual([])
  })

  test('error: an Esplora server that does not answer is a 502; a malformed list a 502 too', async () => {
    expectError(await setup(withServer('http://127.0.0.1:1')).get(historyPath(key().address), { chainId }), 502, `The Esplora server for ${chainId} did not answer`)
    const odd = await Upstream.start(Upstream.answering(200, [{ txid: 'nope' }]))
    try {
      expectError(await setup(withServer(odd.url)).get(historyPath(key().address), { chainId }), 502, /gave no answer for \/address\/.*\/txs$/)
    } finally {
      await odd.stop()
    }
  })
})
