import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChainId } from '@doorway/shared/Caip'
import { type Address, createPublicClient, createWalletClient, erc20Abi, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as Tokens from '@doorway/devnet/tokens'
import * as App from '../app.js'
import type { Config, EvmNetwork } from '../config.js'
import type { Deps } from '../deps.js'
import { memoryStorage, projectId, testConfig, testDeps } from '../testing.js'

// Ports apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chains = [
  { id: 31337, port: 18611, rpcUrl: 'http://127.0.0.1:18611' },
  { id: 31338, port: 18612, rpcUrl: 'http://127.0.0.1:18612' },
]
const local: ChainId = 'eip155:31337'
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-balance-'))

let anvil: Anvil.start.ReturnType
let manifest: Tokens.Manifest
let config: Config
beforeAll(async () => {
  anvil = await Anvil.start({ chains })
  manifest = await Tokens.deploy({ chains, manifest: join(dir, 'devnet.json') })
  config = testConfig({ 'eip155:31337': chains[0]!.rpcUrl, 'eip155:31338': chains[1]!.rpcUrl }, manifest.tokens)
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const token = (symbol: string, chainId: ChainId = local) => manifest.tokens[chainId]!.find((t) => t.symbol === symbol)!

/** An app with its own caches, a fake clock and a counting RPC. */
function setup(overrides: { config?: Config } & Partial<Deps> = {}) {
  const clock = { now: 1_700_000_000_000 }
  const { deps, calls } = testDeps(overrides.config ?? config, { now: () => clock.now, ...overrides })
  const app = App.create(deps)
  const get = async (path: string, query: Record<string, string> = {}) => {
    const response = await app.request(`${path}?${new URLSearchParams({ projectId, st: 'appkit', sv: 'html-core-1.0.0', ...query })}`)
    return { status: response.status, body: await response.json() }
  }
  const post = async (path: string, body: unknown) => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }
    const response = await app.request(path, init)
    return { status: response.status, body: await response.json() }
  }
  return { app, deps, calls, clock, get, post }
}

// Every error answer is one plain message: no stack, no internals.
function expectError(answer: { status: number; body: unknown }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status)
  expect(Object.keys(answer.body as object)).toEqual(['message'])
  const text = (answer.body as { message: string }).message
  expect(text).toMatch(message)
  expect(text).not.toMatch(/\n\s+at |\.ts:\d+/)
}

// A fresh address per test, so transfers elsewhere do not move its balances.
let nextAddress = 0xd00d0000
const freshAddress = (): Address => `0x${(nextAddress++).toString(16).padStart(40, '0')}`

async function send(chain: (typeof chains)[number], transfer: { to: Address; ether?: string; token?: Tokens.Token; amount?: string }) {
  const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })
  // anvil's accounts are unlocked: the node signs for account 0
  const wallet = createWalletClient({ transport: http(chain.rpcUrl), account: Tokens.holders[0]! })
  const hash = transfer.token
    ? await wallet.writeContract({
        address: transfer.token.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [transfer.to, parseUnits(transfer.amount!, transfer.token.decimals)],
        chain: null,
      })
    : await wallet.sendTransaction({ to: transfer.to, value: parseEther(transfer.ether!), chain: null })
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
}

const balancePath = (address: string) => `/v1/account/${address}/balance`

describe('GET /v1/account/:address/balance', () => {
  test('behavior: native coin and every token with price, value and exact quantities', async () => {
    const { get } = setup()
    // account 3 is never sent from in these tests
    const answer = await get(balancePath(Tokens.holders[3]!), { currency: 'usd', chainId: local })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      balances: [
        {
          name: 'Ether',
          symbol: 'ETH',
          chainId: local,
          value: 30_000_000,
          price: 3000,
          quantity: { decimals: '18', numeric: '10000' },
          iconUrl: 'http://api.test/public/getTokenImage/ETH',
        },
        {
          name: 'Doorway USD',
          symbol: 'DUSD',
          chainId: local,
          address: `${local}:${token('DUSD').address}`,
          value: 1_000_000,
          price: 1,
          quantity: { decimals: '6', numeric: '1000000' },
          iconUrl: 'http://api.test/public/getTokenImage/DUSD',
        },
        {
          name: 'Doorway Token',
          symbol: 'DWT',
          chainId: local,
          address: `${local}:${token('DWT').address}`,
          value: 250_000,
          price: 0.25,
          quantity: { decimals: '18', numeric: '1000000' },
          iconUrl: 'http://api.test/public/getTokenImage/DWT',
        },
        {
          name: 'Doorway Tether USD',
          symbol: 'DUSDT',
          chainId: local,
          address: `${local}:${token('DUSDT').address}`,
          value: 1_000_000,
          price: 1,
          quantity: { decimals: '6', numeric: '1000000' },
          iconUrl: 'http://api.test/public/getTokenImage/DUSDT',
        },
      ],
    })
  })

  test('behavior: without chainId, every configured network in order', async () => {
    const { get, calls } = setup()
    const { body } = await get(balancePath(Tokens.holders[3]!))
    expect(body.balances.map((b: { chainId: string; symbol: string }) => `${b.chainId} ${b.symbol}`)).toEqual([
      'eip155:31337 ETH',
      'eip155:31337 DUSD',
      'eip155:31337 DWT',
      'eip155:31337 DUSDT',
      'eip155:31338 ETH',
      'eip155:31338 DUSD',
      'eip155:31338 DWT',
      'eip155:31338 DUSDT',
    ])
    expect(calls).toHaveLength(8)
  })

  test('behavior: fractional amounts are exact; tokens not held are left out, the native coin stays', async () => {
    const { get } = setup()
    const to = freshAddress()
    const empty = await get(balancePath(to), { chainId: local })
    expect(empty.body.balances).toEqual([expect.objectContaining({ symbol: 'ETH', value: 0, quantity: { decimals: '18', numeric: '0' } })])
    await send(chains[0]!, { to, token: token('DUSD'), amount: '0.5' })
    await send(chains[0]!, { to, token: token('DWT'), amount: '0.000000000000000001' })
    const { body } = await get(balancePath(to), { chainId: local, forceUpdate: 'true' })
    expect(body.balances.map((b: { symbol: string; quantity: unknown; value: number }) => [b.symbol, b.quantity, b.value])).toEqual([
      ['ETH', { decimals: '18', numeric: '0' }, 0],
      ['DUSD', { decimals: '6', numeric: '0.5' }, 0.5],
      ['DWT', { decimals: '18', numeric: '0.000000000000000001' }, 0.25e-18],
    ])
  })

  test('behavior: a transfer shows only after forceUpdate=true; the cache answers without RPC calls until then', async () => {
    const { get, calls } = setup()
    const to = freshAddress()
    const query = { chainId: local, currency: 'usd' }
    expect((await get(balancePath(to), query)).body.balances).toHaveLength(1)
    const made = calls.length
    await send(chains[0]!, { to, token: token('DUSD'), amount: '2' })
    await send(chains[0]!, { to, ether: '0.5' })
    const cached = await get(balancePath(to), query)
    expect(cached.body.balances).toEqual([expect.objectContaining({ symbol: 'ETH', quantity: { decimals: '18', numeric: '0' } })])
    expect(calls).toHaveLength(made)
    const forced = await get(balancePath(to), { ...query, forceUpdate: 'true' })
    expect(forced.body.balances.map((b: { symbol: string; quantity: { numeric: string } }) => `${b.quantity.numeric} ${b.symbol}`)).toEqual(['0.5 ETH', '2 DUSD'])
    expect(calls.length).toBeGreaterThan(made)
    // the forced read refreshed the cache for the next plain read
    const after = calls.length
    expect((await get(balancePath(to), query)).body).toEqual(forced.body)
    expect(calls).toHaveLength(after)
  })

  test('behavior: cached for 30 s on the clock (spec §9), then read from the node again', async () => {
    const { get, calls, clock } = setup()
    const to = freshAddress()
    await get(balancePath(to), { chainId: local })
    await send(chains[0]!, { to, token: token('DWT'), amount: '3' })
    const made = calls.length
    clock.now += 29_999
    expect((await get(balancePath(to), { chainId: local })).body.balances).toHaveLength(1)
    expect(calls).toHaveLength(made)
    clock.now += 1
    const fresh = await get(balancePath(to), { chainId: local })
    expect(fresh.body.balances.map((b: { symbol: string }) => b.symbol)).toEqual(['ETH', 'DWT'])
    expect(calls.length).toBeGreaterThan(made)
  })

  test('behavior: the cache is per address and network; addresses match in any case', async () => {
    const { get, calls } = setup()
    const holder = Tokens.holders[3]!
    await get(balancePath(holder), { chainId: local })
    const made = calls.length
    await get(balancePath(holder.toLowerCase()), { chainId: local })
    expect(calls).toHaveLength(made)
    await get(balancePath(holder), { chainId: 'eip155:31338' })
    expect(calls.length).toBeGreaterThan(made)
  })

  test.each(['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'bip122:000000000019d6689c085ae165831e93'])(
    'behavior: unsupported network %s answers empty without any RPC call (spec §7)',
    async (chainId) => {
      const { get, calls } = setup()
      const answer = await get(balancePath(Tokens.holders[0]!), { chainId })
      expect(answer).toEqual({ status: 200, body: { balances: [] } })
      expect(calls).toEqual([])
    },
  )

  test('behavior: a configured non-EVM network answers empty without eth_getBalance (spec §7)', async () => {
    const solana: ChainId = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
    const withSolana = { ...config, networks: { ...config.networks, [solana]: { ...config.networks[local]!, tokens: [] } } }
    const { get, calls } = setup({ config: withSolana })
    expect(await get(balancePath(Tokens.holders[0]!), { chainId: solana })).toEqual({ status: 200, body: { balances: [] } })
    expect(calls).toEqual([])
  })

  test('behavior: tokens with 0 decimals are neither read nor listed (spec §9)', async () => {
    const dusd = token('DUSD')
    const network = config.networks[local]!
    const withZero = { ...config, networks: { [local]: { ...network, tokens: [...network.tokens, { ...dusd, symbol: 'ZERO', decimals: 0 }] } } }
    const { get, calls } = setup({ config: withZero })
    const { body } = await get(balancePath(Tokens.holders[3]!), { chainId: local })
    expect(body.balances.map((b: { symbol: string }) => b.symbol)).toEqual(['ETH', 'DUSD', 'DWT', 'DUSDT'])
    expect(calls).toHaveLength(4)
  })

  test('behavior: a symbol without a price has price 0 and no value', async () => {
    const { get } = setup({ config: { ...config, prices: { ETH: 3000 } } })
    const { body } = await get(balancePath(Tokens.holders[3]!), { chainId: local })
    const [, dusd] = body.balances
    expect(dusd).toMatchObject({ symbol: 'DUSD', price: 0 })
    expect(dusd).not.toHaveProperty('value')
  })

  test.each(['0x123', 'vitalik.eth', `${local}:${'0x'.padEnd(42, 'a')}`, 'a'.repeat(40)])('error: malformed address %s is a 400', async (address) => {
    const { get, calls } = setup()
    expectError(await get(balancePath(address), { chainId: local }), 400, /^Invalid address/)
    expect(calls).toEqual([])
  })

  test.each(['31337', 'eip155:', 'eip155:0x7a69', 'eip155:31337:0x0', 'cosmos:hub', ''])('error: malformed chainId %j is a 400', async (chainId) => {
    const { get } = setup()
    expectError(await get(balancePath(Tokens.holders[0]!), { chainId }), 400, /^Invalid chainId/)
  })

  test('param: currency other than usd is a 400', async () => {
    const { get } = setup()
    expectError(await get(balancePath(Tokens.holders[0]!), { chainId: local, currency: 'eur' }), 400, 'Invalid currency: expected usd')
  })

  test('error: projectId missing is a 400, unknown is a 403', async () => {
    const { app } = setup()
    const missing = await app.request(`${balancePath(Tokens.holders[0]!)}?chainId=${local}`)
    expectError({ status: missing.status, body: await missing.json() }, 400, 'Missing projectId')
    const { get } = setup()
    expectError(await get(balancePath(Tokens.holders[0]!), { projectId: 'nobody' }), 403, 'Unknown projectId nobody')
  })

  test('error: a node that does not answer is a 502 naming the network, not a stack trace', async () => {
    const dead = { ...config, networks: { [local]: { ...(config.networks[local] as EvmNetwork), rpcUrl: 'http://127.0.0.1:1' } } }
    const { get } = setup({ config: dead })
    expectError(await get(balancePath(Tokens.holders[0]!), { chainId: local }), 502, `The node for ${local} did not answer`)
  })

  test('error: a configured token without code is a 502, not a zero balance', async () => {
    const network = config.networks[local]!
    const ghost = { ...config, networks: { [local]: { ...network, tokens: [{ ...token('DUSD'), address: freshAddress() }] } } }
    const { get } = setup({ config: ghost })
    expectError(await get(balancePath(Tokens.holders[0]!), { chainId: local }), 502, /^The node gave no answer for balanceOf of DUSD/)
  })
})

describe('POST /v1/fungible/price', () => {
  test('behavior: known tokens and native coins with their price; unknown ones left out', async () => {
    const { post, calls } = setup()
    const dwt = `eip155:31338:${token('DWT', 'eip155:31338').address}`
    const addresses = [
      `${local}:${token('DUSD').address.toLowerCase()}`,
      dwt,
      `${local}:native`,
      'eip155:31338:0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      `${local}:${freshAddress()}`,
      `eip155:1:${token('DUSD').address}`,
    ]
    const answer = await post('/v1/fungible/price', { currency: 'usd', addresses, projectId })
    expect(answer).toEqual({
      status: 200,
      body: {
        fungibles: [
          { name: 'Doorway USD', symbol: 'DUSD', iconUrl: 'http://api.test/public/getTokenImage/DUSD', price: 1, address: addresses[0] },
          { name: 'Doorway Token', symbol: 'DWT', iconUrl: 'http://api.test/public/getTokenImage/DWT', price: 0.25, address: dwt },
          { name: 'Ether', symbol: 'ETH', iconUrl: 'http://api.test/public/getTokenImage/ETH', price: 3000, address: addresses[2] },
          { name: 'Ether', symbol: 'ETH', iconUrl: 'http://api.test/public/getTokenImage/ETH', price: 3000, address: addresses[3] },
        ],
      },
    })
    expect(calls).toEqual([])
  })

  test.each([
    ['not JSON', '{"currency":', 'Expected a JSON object body'],
    ['a JSON array', '[]', 'Expected a JSON object body'],
    ['no addresses', { currency: 'usd', projectId }, /^Invalid addresses/],
    ['addresses not a list', { currency: 'usd', addresses: 'eip155:1:native', projectId }, /^Invalid addresses/],
    ['a malformed address', { currency: 'usd', addresses: ['eip155:1:0x12'], projectId }, /^Invalid addresses/],
    ['too many addresses', { currency: 'usd', addresses: Array(101).fill('eip155:1:native'), projectId }, /^Invalid addresses/],
    ['another currency', { currency: 'eur', addresses: [], projectId }, 'Invalid currency: expected usd'],
    ['no projectId', { currency: 'usd', addresses: [] }, 'Missing projectId'],
  ])('error: a body with %s is a 400', async (_, body, message) => {
    const { post } = setup()
    expectError(await post('/v1/fungible/price', body), 400, message)
  })

  test('error: an unknown projectId is a 403', async () => {
    const { post } = setup()
    expectError(await post('/v1/fungible/price', { currency: 'usd', addresses: [], projectId: 'nobody' }), 403, 'Unknown projectId nobody')
  })
})

describe('GET /v1/identity/:address', () => {
  const registered = (address: string) => ({
    name: 'alice.doorway.eth',
    address,
    coinType: 60,
    attributes: { avatar: 'https://example.test/alice.png' },
    registeredAt: 1,
  })

  test('behavior: name and avatar of the address from storage, in any case', async () => {
    const storage = memoryStorage()
    const address = freshAddress()
    await storage.names.put(registered(address))
    const { get } = setup({ storage })
    expect(await get(`/v1/identity/${address.toUpperCase().replace('0X', '0x')}`, { sender: address })).toEqual({
      status: 200,
      body: { name: 'alice.doorway.eth', avatar: 'https://example.test/alice.png' },
    })
  })

  test('behavior: null name and avatar for an address without a name; null avatar without the attribute', async () => {
    const storage = memoryStorage()
    const named = freshAddress()
    await storage.names.put({ ...registered(named), attributes: {} })
    const { get } = setup({ storage })
    expect((await get(`/v1/identity/${freshAddress()}`)).body).toEqual({ name: null, avatar: null })
    expect((await get(`/v1/identity/${named}`)).body).toEqual({ name: 'alice.doorway.eth', avatar: null })
  })

  test('behavior: cached for 5 minutes (spec §9)', async () => {
    const storage = memoryStorage()
    const { get, clock } = setup({ storage })
    const address = freshAddress()
    expect((await get(`/v1/identity/${address}`)).body).toEqual({ name: null, avatar: null })
    await storage.names.put(registered(address))
    clock.now += 299_999
    expect((await get(`/v1/identity/${address}`)).body).toEqual({ name: null, avatar: null })
    clock.now += 1
    expect((await get(`/v1/identity/${address}`)).body.name).toBe('alice.doorway.eth')
  })

  test('error: a malformed address is a 400; an unknown projectId a 403', async () => {
    const { get } = setup()
    expectError(await get('/v1/identity/0xnope'), 400, /^Invalid address/)
    expectError(await get(`/v1/identity/${freshAddress()}`, { projectId: 'nobody' }), 403, 'Unknown projectId nobody')
  })
})

describe('GET /v1/supported-chains', () => {
  test('behavior: the configured networks over http, none over ws', async () => {
    const { get, calls } = setup()
    expect(await get('/v1/supported-chains')).toEqual({ status: 200, body: { http: ['eip155:31337', 'eip155:31338'], ws: [] } })
    expect(calls).toEqual([])
  })
})
