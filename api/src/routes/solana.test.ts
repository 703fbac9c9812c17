/**
 * The balance and history routes on a Solana network, against the devnet's real Solana chain (litesvm
 * behind its JSON-RPC) with its DUSD mint: SOL and SPL balances, history of transfers in and out, pages,
 * bad input (400) and a failing node (502/503, the api's error envelope).
 */
import * as SolanaRpc from '@doorway/devnet/solana/rpc'
import * as SolanaTokens from '@doorway/devnet/solana/tokens'
import * as Balances from '@doorway/shared/contracts/api/balances'
import * as History from '@doorway/shared/contracts/api/history'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from '../app.js'
import * as Solana from '../chains/Solana.testing.js'
import * as Upstream from '../chains/Upstream.testing.js'
import type { Config, SolanaNetwork } from '../config.js'
import type { Deps } from '../deps.js'
import { projectId, testConfig, testDeps } from '../testing.js'

// An EVM network whose node is never up: a Solana request must not reach it.
const evm = 'eip155:31337'

let chain: SolanaRpc.Chain
let dusd: SolanaTokens.Deployed['dusd']
let config: Config
let network: SolanaNetwork

beforeAll(async () => {
  chain = await SolanaRpc.start({ port: 0 })
  dusd = (await SolanaTokens.deploy(chain)).dusd
  const base = testConfig({ [evm]: 'http://127.0.0.1:1' })
  network = {
    kind: 'solana',
    rpcUrl: chain.url,
    name: 'Solana local',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    testnet: true,
    tokens: [{ address: dusd.mint, name: 'Doorway USD', symbol: 'DUSD', decimals: 6 }],
  }
  config = { ...base, networks: { ...base.networks, [chain.chainId]: network }, prices: { ...base.prices, SOL: 150 } }
}, 120_000)
afterAll(() => chain?.stop())

/** An app with its own caches, a fake clock and a counting RPC. */
function setup(overrides: { config?: Config } & Partial<Deps> = {}) {
  const clock = { now: 1_700_000_000_000 }
  const { deps, calls } = testDeps(overrides.config ?? config, { now: () => clock.now, ...overrides })
  const app = App.create(deps)
  const get = async (path: string, query: Record<string, string> = {}) => {
    const response = await app.request(`${path}?${new URLSearchParams({ projectId, ...query })}`)
    return { status: response.status, body: await response.json() }
  }
  return { calls, clock, get }
}

function expectError(answer: { status: number; body: unknown }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status)
  expect(Object.keys(answer.body as object)).toEqual(['message'])
  expect((answer.body as { message: string }).message).toMatch(message)
}

const balancePath = (address: string) => `/v1/account/${address}/balance`
const historyPath = (address: string) => `/v1/account/${address}/history`
const sol = (n: string) => BigInt(Math.round(Number(n) * 1e9))

/** A network config whose node is `url`. */
const withNode = (url: string): Config => ({ ...config, networks: { [chain.chainId]: { ...network, rpcUrl: url } } })

describe('GET /v1/account/:address/balance on Solana', () => {
  test('behavior: SOL and the configured SPL tokens the account holds, priced, in the EVM balances’ shape', async () => {
    const me = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '2', dusd: '25' })
    const { get, calls } = setup()
    const answer = await get(balancePath(me.address), { chainId: chain.chainId, currency: 'usd' })
    expect(answer).toEqual({
      status: 200,
      body: {
        balances: [
          {
            name: 'Solana',
            symbol: 'SOL',
            chainId: chain.chainId,
            value: 300,
            price: 150,
            quantity: { decimals: '9', numeric: '2' },
            iconUrl: 'http://api.test/public/getTokenImage/SOL',
          },
          {
            name: 'Doorway USD',
            symbol: 'DUSD',
            chainId: chain.chainId,
            address: `${chain.chainId}:${dusd.mint}`,
            value: 25,
            price: 1,
            quantity: { decimals: '6', numeric: '25' },
            iconUrl: 'http://api.test/public/getTokenImage/DUSD',
          },
        ],
      },
    })
    expect(Balances.balances(answer.body)).toBe(true)
    expect(calls.map((c) => c.method).sort()).toEqual(['getBalance', 'getTokenAccountsByOwner', 'getTokenAccountsByOwner'])
  })

  test('behavior: an empty account shows SOL at 0 and no token', async () => {
    const { get } = setup()
    const { body } = await get(balancePath(Solana.account().address), { chainId: chain.chainId })
    expect(body.balances).toEqual([expect.objectContaining({ symbol: 'SOL', quantity: { decimals: '9', numeric: '0' }, value: 0 })])
  })

  test('behavior: without chainId a Solana address is read on the Solana networks only', async () => {
    const me = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '1.5' })
    const { get, calls } = setup()
    const { status, body } = await get(balancePath(me.address))
    expect(status).toBe(200)
    expect(body.balances.map((b: { symbol: string; quantity: { numeric: string } }) => [b.symbol, b.quantity.numeric])).toEqual([['SOL', '1.5']])
    expect(calls.every((c) => c.chainId === chain.chainId)).toBe(true)
  })

  test('behavior: the answer is reused for 30 s; forceUpdate reads the chain again', async () => {
    const me = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '1' })
    const { get, clock } = setup()
    const numeric = async (query: Record<string, string> = {}) => (await get(balancePath(me.address), { chainId: chain.chainId, ...query })).body.balances[0].quantity.numeric
    expect(await numeric()).toBe('1')
    await SolanaTokens.fund(chain, me.address, { sol: '1' })
    expect(await numeric()).toBe('1')
    expect(await numeric({ forceUpdate: 'true' })).toBe('2')
    await SolanaTokens.fund(chain, me.address, { sol: '1' })
    clock.now += 30_001
    expect(await numeric()).toBe('3')
  })

  test.each([
    ['an EVM address', '0x000000000000000000000000000000000000dEaD', /^Invalid address: expected a Solana address \(base58 of 32 bytes\) on solana:/],
    ['base58 that is not 32 bytes', 'a'.repeat(40), /^Invalid address: expected a Solana address/],
    ['no address of any kind', 'vitalik.eth', /^Invalid address: expected an EVM \(0x…\), Solana or Bitcoin address/],
  ])('error: %s on a Solana network is a 400, with no node call', async (_, address, message) => {
    const { get, calls } = setup()
    expectError(await get(balancePath(address), { chainId: chain.chainId }), 400, message)
    expect(calls).toEqual([])
  })

  test('error: a node that does not answer is a 502 naming the network', async () => {
    const { get } = setup({ config: withNode('http://127.0.0.1:1') })
    expectError(await get(balancePath(Solana.account().address), { chainId: chain.chainId }), 502, `The node for ${chain.chainId} did not answer`)
  })

  test('error: a busy node (HTTP 429) is a 503, so the client may try again', async () => {
    const busy = await Upstream.start(Upstream.answering(429, { jsonrpc: '2.0', id: 1, error: { code: 429, message: 'Too many requests' } }))
    try {
      const { get } = setup({ config: withNode(busy.url) })
      expectError(await get(balancePath(Solana.account().address), { chainId: chain.chainId }), 503, /is busy \(HTTP 429\)/)
    } finally {
      await busy.stop()
    }
  })

  test('error: a node answering something else than a balance is a 502, not a crash', async () => {
    const odd = await Upstream.start(Upstream.answering(200, { jsonrpc: '2.0', id: 1, result: { value: 'lots' } }))
    try {
      const { get } = setup({ config: withNode(odd.url) })
      expectError(await get(balancePath(Solana.account().address), { chainId: chain.chainId }), 502, /^The node gave no answer for/)
    } finally {
      await odd.stop()
    }
  })
})

type Page = { status: number; body: { data: History.Transaction[]; next: string | null } }

describe('GET /v1/account/:account/history on Solana', () => {
  const history = (get: ReturnType<typeof setup>['get'], address: string, query: Record<string, string> = {}) =>
    get(historyPath(address), { chainId: chain.chainId, ...query }) as Promise<Page>

  test('behavior: SOL in and out, newest first, the sent amount without the fee', async () => {
    const me = Solana.account()
    const friend = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '3' })
    const signature = await Solana.sendSol(chain.url, me, friend.address, sol('0.5'))
    const { get } = setup()
    const mine = await history(get, me.address)
    expect(mine.status).toBe(200)
    expect(History.historyPage(mine.body)).toBe(true)
    expect(mine.body.next).toBeNull()
    const [sent, funded] = mine.body.data
    expect(sent).toEqual({
      id: `${chain.chainId}:${signature}`,
      metadata: {
        operationType: 'send',
        hash: signature,
        minedAt: expect.any(String),
        sentFrom: me.address,
        sentTo: friend.address,
        status: 'confirmed',
        nonce: -1,
        chain: chain.chainId,
      },
      transfers: [
        {
          fungible_info: { name: 'Solana', symbol: 'SOL', icon: { url: 'http://api.test/public/getTokenImage/SOL' } },
          direction: 'out',
          quantity: { numeric: '0.5' },
          price: 150,
          value: 75,
          sender: me.address,
          recipient: friend.address,
        },
      ],
    })
    expect(funded).toMatchObject({ metadata: { operationType: 'receive', sentTo: me.address }, transfers: [{ direction: 'in', quantity: { numeric: '3' }, recipient: me.address }] })
    expect(Date.parse(sent!.metadata.minedAt)).toBeGreaterThanOrEqual(Date.parse(funded!.metadata.minedAt))

    const theirs = await history(get, friend.address)
    expect(theirs.body.data).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ operationType: 'receive', hash: signature, sentFrom: me.address }),
        transfers: [expect.objectContaining({ direction: 'in', quantity: { numeric: '0.5' }, sender: me.address, recipient: friend.address })],
      }),
    ])
  })

  test('behavior: DUSD in and out, by the token balances before and after', async () => {
    const me = Solana.account()
    const friend = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '1', dusd: '10' })
    await SolanaTokens.fund(chain, friend.address, { dusd: '1' })
    const signature = await Solana.sendToken(chain.url, me, friend.address, { mint: dusd.mint, decimals: dusd.decimals, amount: 4_000_000n })
    const { get } = setup()
    const [sent, minted] = (await history(get, me.address)).body.data
    const token = { fungible_info: { name: 'Doorway USD', symbol: 'DUSD', icon: { url: 'http://api.test/public/getTokenImage/DUSD' } }, price: 1 }
    expect(sent).toMatchObject({
      metadata: { operationType: 'send', hash: signature, sentFrom: me.address, sentTo: friend.address, status: 'confirmed' },
      transfers: [{ ...token, direction: 'out', quantity: { numeric: '4' }, value: 4, sender: me.address, recipient: friend.address }],
    })
    // The fee is left out of the payer's SOL change, so a token send shows no SOL moving.
    expect(sent!.transfers).toHaveLength(1)
    // Minted by the mint authority: tokens from nobody, in a transaction the account did not send.
    expect(minted).toMatchObject({ metadata: { operationType: 'receive' }, transfers: [{ ...token, direction: 'in', quantity: { numeric: '10' } }] })
    expect(minted!.transfers[0]).not.toHaveProperty('sender')

    const [received] = (await history(get, friend.address)).body.data
    expect(received).toMatchObject({
      metadata: { operationType: 'receive', hash: signature },
      transfers: [{ ...token, direction: 'in', quantity: { numeric: '4' }, sender: me.address, recipient: friend.address }],
    })
  })

  test('behavior: a send that failed on chain is failed, a send, and moved nothing (its fee left out)', async () => {
    const me = Solana.account()
    await SolanaTokens.fund(chain, me.address, { sol: '1' })
    const signature = await Solana.sendSol(chain.url, me, Solana.account().address, sol('5'), { skipPreflight: true })
    const { get } = setup()
    const [failed] = (await history(get, me.address)).body.data
    expect(failed).toMatchObject({ metadata: { hash: signature, status: 'failed', operationType: 'send', sentFrom: me.address }, transfers: [] })
  })

  test('behavior: 20 a page by cursor, each entry once; a transaction’s details are read once', async () => {
    const me = Solana.account()
    const signatures: string[] = []
    for (let i = 0; i < 25; i++) signatures.push(await chain.airdrop(me.address, 1_000_000_000n + BigInt(i)))
    const { get, calls } = setup()
    const first = await history(get, me.address)
    expect(first.body.data).toHaveLength(20)
    expect(first.body.next).toEqual(expect.any(String))
    const second = await history(get, me.address, { cursor: first.body.next! })
    expect(second.body).toEqual({ data: expect.any(Array), next: null })
    const hashes = [...first.body.data, ...second.body.data].map((t) => t.metadata.hash)
    expect(hashes).toEqual([...signatures].reverse())
    expect(calls.filter((c) => c.method === 'getTransaction')).toHaveLength(25)
    // The first page again: its signatures are asked for, its details come from the cache.
    await history(get, me.address)
    expect(calls.filter((c) => c.method === 'getTransaction')).toHaveLength(25)
    expect(calls.filter((c) => c.method === 'getSignaturesForAddress')).toHaveLength(3)
  })

  test('behavior: an account with no activity has an empty history', async () => {
    const { get } = setup()
    expect((await history(get, Solana.account().address)).body).toEqual({ data: [], next: null })
  })

  test.each([
    ['a Solana account without chainId', () => Solana.account().address, {}, /^Missing chainId: the history of a Solana or Bitcoin account/],
    ['an EVM account on a Solana network', () => '0x000000000000000000000000000000000000dEaD', null, /^Invalid account: expected a Solana address/],
    ['a cursor that is not base64 JSON', () => Solana.account().address, null, /^Invalid cursor/],
    ['an EVM history cursor', () => Solana.account().address, null, /^Invalid cursor/],
  ])('error: %s is a 400 with no node call', async (name, account, only, message) => {
    const { get, calls } = setup()
    const query: Record<string, string> =
      only ?? { chainId: chain.chainId, cursor: name.includes('EVM history') ? Buffer.from(`[1,"${evm}",2,0]`).toString('base64url') : '!!!' }
    const { status, body } = await get(historyPath(account()), name.includes('EVM account') ? { chainId: chain.chainId } : query)
    expectError({ status, body }, 400, message)
    expect(calls).toEqual([])
  })

  test('error: a node that does not answer is a 502; a busy one a 503', async () => {
    const down = setup({ config: withNode('http://127.0.0.1:1') })
    expectError(await down.get(historyPath(Solana.account().address), { chainId: chain.chainId }), 502, `The node for ${chain.chainId} did not answer`)
    const busy = await Upstream.start(Upstream.answering(503, 'Service Unavailable'))
    try {
      const { get } = setup({ config: withNode(busy.url) })
      expectError(await get(historyPath(Solana.account().address), { chainId: chain.chainId }), 503, /is busy \(HTTP 503\)/)
    } finally {
      await busy.stop()
    }
  })

  test('error: a node whose signature list is malformed is a 502', async () => {
    const odd = await Upstream.start(Upstream.answering(200, { jsonrpc: '2.0', id: 1, result: [{ signature: 'not base58!', slot: -1 }] }))
    try {
      const { get } = setup({ config: withNode(odd.url) })
      expectError(await get(historyPath(Solana.account().address), { chainId: chain.chainId }), 502, /^The node gave no answer for the signatures of/)
    } finally {
      await odd.stop()
    }
  })
})
