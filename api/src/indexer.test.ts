import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '../../devnet/src/anvil.js'
import type { Network } from './config.js'
import { HttpError } from './http.js'
import * as Indexer from './indexer.js'
import * as Rpc from './rpc.js'
import { testChain, testConfig } from './testing.js'

const chain = { id: 31337, port: 18703, rpcUrl: 'http://127.0.0.1:18703' }
const chainId = 'eip155:31337'
const config = testConfig({ [chainId]: chain.rpcUrl })
const anvil = testChain(chain)
let stop: () => Promise<void>

beforeAll(async () => {
  stop = (await Anvil.start({ chains: [chain] })).stop
}, 30_000)
afterAll(() => stop?.())

function counting() {
  const calls: string[] = []
  const rpc = Rpc.create(config)
  return { calls, rpc: ((id, method, params) => (calls.push(method), rpc(id, method, params))) as Rpc.Rpc }
}

// viem caches the block number for 4 s per client; a rewound chain must be read fresh.
const head = async () => Number(await anvil.client.getBlockNumber({ cacheTime: 0 }))

describe('create', () => {
  test('behavior: a sync reads at most maxBlocks blocks; later syncs continue from the cursor', async () => {
    await anvil.test.mine({ blocks: 7 })
    const latest = await head()
    const { rpc } = counting()
    const indexer = Indexer.create({ rpc, maxBlocks: 3 })
    await indexer.sync(chainId)
    expect(indexer.cursor(chainId)).toBe(3)
    await indexer.sync(chainId)
    expect(indexer.cursor(chainId)).toBe(6)
    while (indexer.cursor(chainId) <= latest) await indexer.sync(chainId)
    expect(indexer.cursor(chainId)).toBe(latest + 1)
  })

  test('behavior: incremental: caught up costs two calls; a new transaction its block and receipt', async () => {
    const { rpc, calls } = counting()
    const indexer = Indexer.create({ rpc })
    await indexer.sync(chainId)
    calls.length = 0
    await indexer.sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber'])
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 7n })
    calls.length = 0
    await indexer.sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getTransactionReceipt'])
    expect(indexer.entries(chainId, to.address.toUpperCase().replace('0X', '0x'))).toMatchObject([{ from: from.address.toLowerCase(), value: 7n, success: true }])
  })

  test('behavior: concurrent syncs share one run', async () => {
    const { rpc, calls } = counting()
    const indexer = Indexer.create({ rpc })
    await Promise.all([indexer.sync(chainId), indexer.sync(chainId), indexer.sync(chainId)])
    expect(calls.filter((m) => m === 'eth_blockNumber').length).toBeLessThanOrEqual(2)
  })

  test.each([
    ['a longer chain', 2],
    ['a chain of the same height', 0],
  ])('behavior: a rewound chain is indexed again from block 0 (%s)', async (_, extra) => {
    const indexer = Indexer.create({ rpc: Rpc.create(config) })
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    const snapshot = await anvil.test.snapshot()
    await anvil.send(from, { to: to.address, value: 1n })
    await indexer.sync(chainId)
    expect(indexer.entries(chainId, to.address)).toHaveLength(1)
    await anvil.test.revert({ id: snapshot })
    await anvil.test.setBalance({ address: from.address, value: 10n ** 20n })
    await anvil.test.mine({ blocks: 1 + extra })
    await indexer.sync(chainId)
    expect(indexer.entries(chainId, to.address)).toEqual([])
    expect(indexer.cursor(chainId)).toBe((await head()) + 1)
  })

  test('error: a node that does not answer is a 502', async () => {
    const dead = testConfig({ [chainId]: 'http://127.0.0.1:1' })
    const indexer = Indexer.create({ rpc: Rpc.create(dead) })
    const error = await indexer.sync(chainId).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 502 })
  })
})

describe('describe', () => {
  const network = config.networks[chainId] as Network
  const me = '0x00000000000000000000000000000000000000aa'
  const other = '0x00000000000000000000000000000000000000bb'
  const token = '0x00000000000000000000000000000000000000cc'
  const base: Indexer.Entry = {
    chainId,
    hash: `0x${'1'.repeat(64)}`,
    block: 5,
    index: 0,
    timestamp: 1_750_000_000,
    from: me,
    to: other,
    created: null,
    nonce: 3,
    value: 0n,
    hasInput: true,
    success: true,
    transfers: [],
    approves: false,
  }
  const context = { network, prices: config.prices, publicUrl: config.publicUrl }
  const op = (entry: Partial<Indexer.Entry>, address = me) => Indexer.describe({ ...base, ...entry }, address, context)

  test.each([
    ['a failed plain send', { success: false, value: 5n, hasInput: false }, 'send', []],
    ['a failed call', { success: false, value: 5n }, 'execute', []],
    ['a send to oneself', { value: 10n ** 18n, to: me, hasInput: false }, 'send', ['self 1']],
    ['a call with an Approval by the sender', { approves: true }, 'approve', []],
    ['a call without value or transfers', {}, 'execute', []],
    ['a swap of ETH for a token', { value: 10n ** 18n, transfers: [{ token, from: other, to: me, amount: 5n }] }, 'trade', ['out 1', 'in 5']],
    ['a deployment that mints to the deployer', { to: null, created: token, transfers: [{ token, from: '0x0000000000000000000000000000000000000000', to: me, amount: 5n }] }, 'deploy', ['in 5']],
  ])('behavior: %s', (_, entry, type, transfers) => {
    const tx = op(entry)
    expect(tx.metadata.operationType).toBe(type)
    expect(tx.transfers.map((t) => `${t.direction} ${t.quantity.numeric}`)).toEqual(transfers)
  })

  test('behavior: as the receiver of someone else’s call', () => {
    expect(op({ from: other, to: me, value: 2n * 10n ** 18n }).metadata).toMatchObject({ operationType: 'receive', status: 'confirmed', nonce: 3, minedAt: '2025-06-15T15:06:40.000Z' })
    expect(op({ from: other, to: token, transfers: [{ token, from: other, to: me, amount: 5n }] }).metadata.operationType).toBe('receive')
  })

  test('behavior: a deployment is sent to the created contract', () => {
    expect(op({ to: null, created: token }).metadata.sentTo).toBe(getAddress(token))
  })
})
