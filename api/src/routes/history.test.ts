import * as Anvil from '@doorway/devnet/anvil'
import * as OnrampSandbox from '@doorway/devnet/onrampSandbox'
import { type Address, formatUnits, getAddress, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from '../app.js'
import type { Transaction } from '../indexer.js'
import type { OnrampTransaction } from './onramp.js'
import type { Storage } from '../storage/Storage.js'
import { projectId, testChain, testConfig, testDeps, testStorage } from '../testing.js'

const chains = [
  { id: 31337, port: 18701, rpcUrl: 'http://127.0.0.1:18701' },
  { id: 31338, port: 18702, rpcUrl: 'http://127.0.0.1:18702' },
]
const rpcUrls = { 'eip155:31337': chains[0]!.rpcUrl, 'eip155:31338': chains[1]!.rpcUrl } as const

let stop: () => Promise<void>
// One index for every test: each app's indexer continues it, as a restarted api would.
let storage: Storage
const one = testChain(chains[0]!)
const two = testChain(chains[1]!)
// Addresses the tests make; the configured tokens are known only after they are deployed.
const made = {} as Record<'me' | 'friend' | 'pager' | 'dusd' | 'dwt' | 'other' | 'swap' | 'deployed', Address>

// The onramp provider the api reads onramp=coinbase from: the devnet's sandbox, delivering on chain one.
let sandbox: OnrampSandbox.start.ReturnType

/** The api; `providerUrl` null configures no onramp provider. */
function app(providerUrl: string | null = sandbox.url) {
  const config = testConfig(rpcUrls, {
    'eip155:31337': [
      { address: made.dusd, name: 'Doorway USD', symbol: 'DUSD', decimals: 6 },
      { address: made.dwt, name: 'Doorway Token', symbol: 'DWT', decimals: 18, iconUrl: 'https://icons.test/dwt.png' },
    ],
  })
  const { deps, calls } = testDeps({ ...config, ...(providerUrl && { onramp: { providerUrl } }) }, { storage })
  const api = App.create(deps)
  const history = async (account: string, query: Record<string, string> = {}) => {
    const res = await api.request(`/v1/account/${account}/history?${new URLSearchParams({ projectId, st: 'appkit', sv: 'html-doorway-0.1.0', ...query })}`)
    return { status: res.status, body: (await res.json()) as { data: Transaction[]; next: string | null; message?: string } }
  }
  return { history, calls }
}

beforeAll(async () => {
  storage = await testStorage()
  stop = (await Anvil.start({ chains })).stop
  sandbox = await OnrampSandbox.start({ port: 0, chains: [chains[0]!], tokens: {} })
  const [me, friend, minter, pager] = await Promise.all([one.account(), one.account(), one.account(), one.account()])
  await two.test.setBalance({ address: me.address, value: 10n ** 20n })
  Object.assign(made, { me: me.address, friend: friend.address, pager: pager.address })
  // oldest first; the expectations below read newest first
  await one.send(me, { to: friend.address, value: 1_500_000_000_000_000_000n })
  await one.send(friend, { to: me.address, value: 250_000_000_000_000_000n })
  made.dusd = await one.deploy(minter, 'TestToken')
  made.dwt = await one.deploy(minter, 'TestToken')
  made.other = await one.deploy(minter, 'TestToken')
  made.swap = await one.deploy(minter, 'TestSwap')
  await one.call(minter, made.dusd, 'mint', [me.address, 1_000_000_000n])
  await one.call(minter, made.dwt, 'mint', [made.swap, 10n ** 21n])
  await one.call(me, made.dusd, 'transfer', [friend.address, 12_345_678n])
  await one.call(me, made.dusd, 'approve', [made.swap, 100_000_000n])
  await one.call(me, made.swap, 'swap', [made.dusd, made.dwt, 100_000_000n, 400n * 10n ** 18n])
  await one.call(me, made.swap, 'ping')
  await one.call(me, made.swap, 'fail', [], 100_000n)
  made.deployed = await one.deploy(me, 'TestToken')
  await one.call(minter, made.other, 'mint', [me.address, 42n])
  await two.send(me, { to: friend.address, value: 2n * 10n ** 18n })
  // 25 sends of 1..25 wei for paging
  for (let i = 1n; i <= 25n; i++) await one.send(pager, { to: friend.address, value: i })
}, 60_000)

afterAll(async () => {
  await sandbox?.stop()
  await storage?.close()
  await stop?.()
})

describe('GET /v1/account/:account/history', () => {
  test('behavior: every kind of transaction on one chain, newest first, with exact quantities', async () => {
    const { history } = app()
    const { status, body } = await history(made.me, { chainId: 'eip155:31337' })
    expect(status).toBe(200)
    expect(body.next).toBeNull()
    const rows = body.data.map((t) => [t.metadata.operationType, t.metadata.status, t.transfers.map((x) => `${x.direction} ${x.quantity.numeric} ${x.fungible_info?.symbol}`)])
    expect(rows).toEqual([
      ['receive', 'confirmed', [`in 42 ${made.other}`]],
      ['deploy', 'confirmed', []],
      ['execute', 'failed', []],
      ['execute', 'confirmed', []],
      ['trade', 'confirmed', ['out 100 DUSD', 'in 400 DWT']],
      ['approve', 'confirmed', []],
      ['send', 'confirmed', ['out 12.345678 DUSD']],
      ['receive', 'confirmed', ['in 1000 DUSD']],
      ['receive', 'confirmed', ['in 0.25 ETH']],
      ['send', 'confirmed', ['out 1.5 ETH']],
    ])
    for (const t of body.data) {
      expect(t.metadata.chain).toBe('eip155:31337')
      expect(t.id).toBe(`eip155:31337:${t.metadata.hash}`)
      expect(new Date(t.metadata.minedAt).toISOString()).toBe(t.metadata.minedAt)
    }
    const times = body.data.map((t) => t.metadata.minedAt)
    expect([...times].sort().reverse()).toEqual(times)
  })

  test('behavior: transfer fields: names, icons, prices and values from the config; unknown tokens by address', async () => {
    const { history } = app()
    const { body } = await history(made.me.toLowerCase(), { chainId: 'eip155:31337' })
    const [unknown, deploy, failed, , trade, , , , , sent] = body.data
    expect(sent!.metadata).toMatchObject({ sentFrom: made.me, sentTo: made.friend, nonce: 0 })
    expect(sent!.transfers).toEqual([
      { fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'http://api.test/public/getTokenImage/ETH' } }, direction: 'out', quantity: { numeric: '1.5' }, price: 3000, value: 4500, sender: made.me, recipient: made.friend },
    ])
    expect(trade!.transfers).toEqual([
      { fungible_info: { name: 'Doorway USD', symbol: 'DUSD', icon: { url: 'http://api.test/public/getTokenImage/DUSD' } }, direction: 'out', quantity: { numeric: '100' }, price: 1, value: 100, sender: made.me, recipient: made.swap },
      { fungible_info: { name: 'Doorway Token', symbol: 'DWT', icon: { url: 'https://icons.test/dwt.png' } }, direction: 'in', quantity: { numeric: '400' }, price: 0.25, value: 100, sender: made.swap, recipient: made.me },
    ])
    expect(trade!.metadata.sentTo).toBe(made.swap)
    expect(unknown!.transfers).toEqual([
      { fungible_info: { name: 'Unknown token', symbol: getAddress(made.other) }, direction: 'in', quantity: { numeric: '42' }, sender: zeroAddress, recipient: made.me },
    ])
    expect(unknown!.metadata.sentFrom).not.toBe(made.me)
    expect(deploy!.metadata.sentTo).toBe(made.deployed)
    expect(failed!.metadata.status).toBe('failed')
  })

  test('behavior: without chainId, every configured network merged by time', async () => {
    const { history } = app()
    const { body } = await history(made.me)
    expect(body.data).toHaveLength(11)
    expect(body.data[0]!.metadata).toMatchObject({ chain: 'eip155:31338', operationType: 'send' })
    expect(body.data[0]!.transfers[0]!.quantity.numeric).toBe('2')
    const { body: other } = await history(made.me, { chainId: 'eip155:31338' })
    expect(other.data.map((t) => t.metadata.hash)).toEqual([body.data[0]!.metadata.hash])
  })

  test('behavior: 20 a page; the cursor continues where the page ended', async () => {
    const { history } = app()
    const first = await history(made.pager, { chainId: 'eip155:31337' })
    expect(first.body.data.map((t) => t.transfers[0]!.quantity.numeric)).toEqual(Array.from({ length: 20 }, (_, i) => formatUnits(BigInt(25 - i), 18)))
    expect(first.body.next).toEqual(expect.any(String))
    const second = await history(made.pager, { chainId: 'eip155:31337', cursor: first.body.next! })
    expect(second.body.data.map((t) => t.transfers[0]!.quantity.numeric)).toEqual(['0.000000000000000005', '0.000000000000000004', '0.000000000000000003', '0.000000000000000002', '0.000000000000000001'])
    expect(second.body.next).toBeNull()
    // the friend received all of them, and more: its pages chain the same way
    const all: string[] = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof history>> = await history(made.friend, cursor ? { cursor } : {})
      all.push(...page.body.data.map((t) => t.metadata.hash))
      cursor = page.body.next
    } while (cursor)
    expect(new Set(all).size).toBe(all.length)
    expect(all).toHaveLength(25 + 1 + 1 + 1 + 1) // pager's 25, me's ETH on both chains, friend's own send, the DUSD transfer
  })

  test('behavior: a valid but unconfigured chainId is empty, with no node call', async () => {
    const { history, calls } = app()
    expect(await history(made.me, { chainId: 'eip155:1' })).toEqual({ status: 200, body: { data: [], next: null } })
    expect(await history(made.me, { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({ status: 200, body: { data: [], next: null } })
    expect(calls).toEqual([])
  })


  test('behavior: an address with no activity has an empty history', async () => {
    const { history } = app()
    expect((await history('0x000000000000000000000000000000000000dEaD')).body).toEqual({ data: [], next: null })
  })

  test.each([
    ['an account that is not an EVM address', 'alice', {}, 'Invalid account'],
    ['an account without 0x', 'f39Fd6e51aad88F6F4ce6aB8827279cffFb92266', {}, 'Invalid account'],
    ['a malformed chainId', null, { chainId: '31337' }, 'Invalid chainId'],
    ['a cursor that is not base64 JSON', null, { cursor: '!!!' }, 'Invalid cursor'],
    ['a cursor of the wrong shape', null, { cursor: Buffer.from('[1,2]').toString('base64url') }, 'Invalid cursor'],
    ['a cursor with a negative block', null, { cursor: Buffer.from('[1,"eip155:31337",-1,0]').toString('base64url') }, 'Invalid cursor'],
    ['an unknown onramp', null, { onramp: 'moonpay' }, 'Invalid onramp'],
    ['no projectId', null, { projectId: '' }, 'Missing projectId'],
  ])('param: %s is 400 with a message and no stack', async (_, account, query, message) => {
    const { history, calls } = app()
    const res = await history(account ?? made.me, query)
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['message'])
    expect(res.body.message).toContain(message)
    expect(calls).toEqual([])
  })
})

describe('GET /v1/account/:account/history?onramp=coinbase', () => {
  const buyer = () => privateKeyToAccount(generatePrivateKey()).address
  /** An order at the sandbox, as its buy page places one. */
  async function buy(wallet: Address, change: Record<string, unknown> = {}) {
    const body = {
      partner_user_id: wallet,
      wallet_address: wallet,
      purchase_currency: 'ETH',
      purchase_network: 'eip155:31337',
      payment_amount: '100',
      payment_currency: 'USD',
      payment_method: 'CARD',
      card_number: '4242 4242 4242 4242',
      card_expiry: '12/99',
      card_cvc: '123',
      ...change,
    }
    const res = await fetch(`${sandbox.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return (await res.json()) as OnrampSandbox.Order
  }
  const onramp = (body: { data: unknown[] }) => body.data as OnrampTransaction[]

  test('behavior: the account’s orders at the provider as buys, newest first: success, failure and in progress', async () => {
    const me = buyer()
    const paid = await buy(me)
    const declined = await buy(me, { card_number: '4000 0000 0000 0002', payment_amount: '20' })
    const bank = await buy(me, { payment_method: 'ACH_BANK_ACCOUNT', payment_amount: '50' })
    // the modal may write the address in any case: the provider knows the user by its checksummed form
    const { status, body } = await app().history(me.toLowerCase(), { onramp: 'coinbase' })
    expect(status).toBe(200)
    expect(body.next).toBeNull()
    const sender = new URL(sandbox.url).host
    const transfer = (numeric: string) => ({
      fungible_info: { name: 'Ether', symbol: 'ETH', icon: { url: 'http://api.test/public/getTokenImage/ETH' } },
      direction: 'in',
      quantity: { numeric },
      sender,
      recipient: me,
    })
    const common = { operationType: 'buy', sentFrom: sender, sentTo: me, nonce: 0, chain: 'eip155:31337' }
    expect(onramp(body)).toEqual([
      {
        id: `onramp:${bank.transaction_id}`,
        metadata: { ...common, hash: bank.transaction_id, minedAt: bank.created_at, status: 'pending', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS' },
        transfers: [transfer('0.01633333')],
      },
      {
        id: `onramp:${declined.transaction_id}`,
        metadata: { ...common, hash: declined.transaction_id, minedAt: declined.created_at, status: 'failed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_FAILED', failureReason: 'Your card was declined' },
        transfers: [transfer('0.00643333')],
      },
      {
        id: `onramp:${paid.transaction_id}`,
        metadata: { ...common, hash: paid.tx_hash, minedAt: paid.created_at, status: 'confirmed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS' },
        transfers: [transfer('0.03283333')],
      },
    ])
    expect(paid.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    // once the bank settles, the order is confirmed with its delivery's hash
    await fetch(`${sandbox.url}/api/orders/${bank.transaction_id}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    const [settled] = onramp((await app().history(me, { onramp: 'coinbase' })).body)
    expect(settled!.metadata).toMatchObject({ status: 'confirmed', onrampStatus: 'ONRAMP_TRANSACTION_STATUS_SUCCESS', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
  })

  test('behavior: chainId keeps the orders of that network; an unconfigured one is empty without asking', async () => {
    const me = buyer()
    await buy(me, { card_number: '4000000000000002' })
    const { history } = app()
    expect(onramp((await history(me, { onramp: 'coinbase', chainId: 'eip155:31337' })).body)).toHaveLength(1)
    expect((await history(me, { onramp: 'coinbase', chainId: 'eip155:31338' })).body).toEqual({ data: [], next: null })
    expect((await app('http://127.0.0.1:9').history(me, { onramp: 'coinbase', chainId: 'eip155:1' })).body).toEqual({ data: [], next: null })
  })

  test('behavior: 20 a page; the cursor carries the provider’s page key', async () => {
    const me = buyer()
    for (let i = 0; i < 21; i++) await buy(me, { card_number: '4000000000000002', payment_amount: String(10 + i) })
    const { history } = app()
    const first = await history(me, { onramp: 'coinbase' })
    expect(first.body.data).toHaveLength(20)
    expect(onramp(first.body)[0]!.transfers[0]!.quantity.numeric).toBe('0.00973333') // 30 USD
    const second = await history(me, { onramp: 'coinbase', cursor: first.body.next! })
    expect(onramp(second.body).map((t) => t.transfers[0]!.quantity.numeric)).toEqual(['0.00313333']) // 10 USD
    expect(second.body.next).toBeNull()
  })

  test('behavior: no provider configured: no orders', async () => {
    const { history, calls } = app(null)
    expect(await history(made.me, { onramp: 'coinbase' })).toEqual({ status: 200, body: { data: [], next: null } })
    expect(calls).toEqual([])
  })

  test('error: a provider that fails is 502', async () => {
    const res = await app('http://127.0.0.1:9').history(made.me, { onramp: 'coinbase' })
    expect(res.status).toBe(502)
    expect(res.body.message).toContain('The onramp provider did not answer')
  })

  test.each([
    ['a history cursor', () => Buffer.from(JSON.stringify([1, 'eip155:31337', 1, 0])).toString('base64url')],
    ['junk', () => '!!!'],
  ])('param: %s as the onramp cursor is 400', async (_, cursor) => {
    const res = await app().history(made.me, { onramp: 'coinbase', cursor: cursor() })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Invalid cursor')
  })
})
