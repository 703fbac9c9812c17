import { type Hex, encodeAbiParameters, getAddress, pad } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import type { EvmNetwork } from './config.js'
import { HttpError } from './http.js'
import * as Indexer from './indexer.js'
import * as Rpc from './rpc.js'
import type { Storage } from './storage/Storage.js'
import { testChain, testConfig, testStorage } from './testing.js'

const chain = { id: 31337, port: 18703, rpcUrl: 'http://127.0.0.1:18703' }
const chainId = 'eip155:31337'
const config = testConfig({ [chainId]: chain.rpcUrl })
const anvil = testChain(chain)
let stop: () => Promise<void>

beforeAll(async () => {
  stop = (await Anvil.start({ chains: [chain] })).stop
}, 30_000)
afterAll(() => stop?.())

function counting(rpc: Rpc.Rpc = Rpc.create(config)) {
  const calls: string[] = []
  return { calls, rpc: ((id, method, params) => (calls.push(method), rpc(id, method, params))) as Rpc.Rpc }
}

// viem caches the block number for 4 s per client; a rewound chain must be read fresh.
const head = async () => Number(await anvil.client.getBlockNumber({ cacheTime: 0 }))
const cursor = async (storage: Storage) => (await storage.index.head(chainId)).next
const history = (storage: Storage, address: string) => storage.index.history(address, [chainId], { limit: 100 })

async function indexed(options: { rpc?: Rpc.Rpc; maxBlocks?: number; storage?: Storage } = {}) {
  const storage = options.storage ?? (await testStorage())
  const indexer = Indexer.create({ rpc: options.rpc ?? Rpc.create(config), storage, ...(options.maxBlocks ? { maxBlocks: options.maxBlocks } : {}) })
  return { storage, indexer }
}

describe('create', () => {
  test('behavior: a sync reads at most maxBlocks blocks; later syncs continue from the cursor', async () => {
    await anvil.test.mine({ blocks: 7 })
    const latest = await head()
    const { storage, indexer } = await indexed({ maxBlocks: 3 })
    await indexer.sync(chainId)
    expect(await cursor(storage)).toBe(3)
    await indexer.sync(chainId)
    expect(await cursor(storage)).toBe(6)
    while ((await cursor(storage)) <= latest) await indexer.sync(chainId)
    expect(await cursor(storage)).toBe(latest + 1)
  })

  test('behavior: incremental: caught up costs two calls; a new transaction its block and the block’s receipts', async () => {
    const { rpc, calls } = counting()
    const { storage, indexer } = await indexed({ rpc })
    await indexer.sync(chainId)
    calls.length = 0
    await indexer.sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber'])
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 7n })
    calls.length = 0
    await indexer.sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getBlockReceipts'])
    expect(await history(storage, to.address.toUpperCase().replace('0X', '0x'))).toMatchObject([{ from: from.address.toLowerCase(), value: 7n, success: true }])
  })

  test('behavior: a node without eth_getBlockReceipts is asked for each receipt, and not asked again', async () => {
    const real = Rpc.create(config)
    const { rpc, calls } = counting((id, method, params) => (method === 'eth_getBlockReceipts' ? Promise.reject(new Rpc.RpcError('Method not found')) : real(id, method, params)))
    const { storage, indexer } = await indexed({ rpc })
    await indexer.sync(chainId)
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 3n })
    calls.length = 0
    await indexer.sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getTransactionReceipt'])
    expect(await history(storage, to.address)).toMatchObject([{ value: 3n }])
  })

  test('behavior: concurrent syncs share one run', async () => {
    const { rpc, calls } = counting()
    const { indexer } = await indexed({ rpc })
    await Promise.all([indexer.sync(chainId), indexer.sync(chainId), indexer.sync(chainId)])
    expect(calls.filter((m) => m === 'eth_blockNumber').length).toBeLessThanOrEqual(2)
  })

  test('behavior: a restarted indexer over the same storage continues from its cursor without reading old blocks', async () => {
    const { storage, indexer } = await indexed()
    await indexer.sync(chainId)
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 9n })
    const { rpc, calls } = counting()
    await Indexer.create({ rpc, storage }).sync(chainId)
    expect(calls).toEqual(['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getBlockReceipts'])
    expect(await history(storage, to.address)).toMatchObject([{ value: 9n }])
  })

  test.each([
    ['a longer chain', 2],
    ['a chain of the same height', 0],
  ])('behavior: a rewound chain (%s) loses the reverted entries, keeps the older ones and indexes the new', async (_, extra) => {
    const { storage, indexer } = await indexed()
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 1n })
    const snapshot = await anvil.test.snapshot()
    await anvil.send(from, { to: to.address, value: 2n })
    await indexer.sync(chainId)
    expect((await history(storage, to.address)).map((e) => e.value)).toEqual([2n, 1n])
    await anvil.test.revert({ id: snapshot })
    await anvil.send(from, { to: to.address, value: 3n })
    if (extra) await anvil.test.mine({ blocks: extra })
    const { rpc, calls } = counting()
    await Indexer.create({ rpc, storage }).sync(chainId)
    expect((await history(storage, to.address)).map((e) => e.value)).toEqual([3n, 1n])
    expect(await cursor(storage)).toBe((await head()) + 1)
    // back to the common ancestor, not block 0
    expect(calls.filter((m) => m === 'eth_getBlockByNumber').length).toBeLessThan(10)
  })

  test('behavior: a rewind deeper than the kept block hashes starts the chain over', async () => {
    const { storage, indexer } = await indexed()
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    const snapshot = await anvil.test.snapshot()
    await anvil.send(from, { to: to.address, value: 4n })
    await anvil.test.mine({ blocks: 70 })
    await indexer.sync(chainId)
    expect(await history(storage, to.address)).toHaveLength(1)
    await anvil.test.revert({ id: snapshot })
    await anvil.test.mine({ blocks: 1 })
    await indexer.sync(chainId)
    expect(await history(storage, to.address)).toEqual([])
    expect(await cursor(storage)).toBe((await head()) + 1)
  })

  test('behavior: a reverted transaction is failed with no transfers', async () => {
    const { storage, indexer } = await indexed()
    const [me, minter] = await Promise.all([anvil.account(), anvil.account()])
    const swap = await anvil.deploy(minter, 'TestSwap')
    await anvil.call(me, swap, 'fail', [], 100_000n)
    await indexer.sync(chainId)
    expect(await history(storage, me.address)).toMatchObject([{ success: false, transfers: [], events: [] }])
  })

  test('behavior: ERC-721 and ERC-1155 transfers are recorded and held per owner, contract and id', async () => {
    const { storage, indexer } = await indexed()
    const [me, friend, maker] = await Promise.all([anvil.account(), anvil.account(), anvil.account()])
    const doors = await anvil.deploy(maker, 'TestNft', ['Doors', 'ipfs://doors'])
    const items = await anvil.deploy(maker, 'TestItems', ['Items', 'ipfs://items/{id}'])
    await anvil.call(me, doors, 'mint', [me.address, 7n])
    await anvil.call(me, doors, 'mint', [me.address, 8n])
    await anvil.call(me, doors, 'transferFrom', [me.address, friend.address, 7n])
    await anvil.call(me, items, 'mintBatch', [me.address, [1n, 2n], [10n, 20n]])
    await anvil.call(me, items, 'safeTransferFrom', [me.address, friend.address, 2n, 5n, '0x'])
    await indexer.sync(chainId)
    const [single, batch, transfer] = await history(storage, me.address)
    const [contractDoors, contractItems] = [doors.toLowerCase(), items.toLowerCase()]
    expect(transfer!.transfers).toEqual([{ standard: 'erc721', token: contractDoors, from: me.address.toLowerCase(), to: friend.address.toLowerCase(), amount: 1n, tokenId: 7n }])
    expect(batch!.transfers.map((t) => `${t.standard} ${t.tokenId} ${t.amount}`)).toEqual(['erc1155 1 10', 'erc1155 2 20'])
    expect(single!.transfers).toMatchObject([{ standard: 'erc1155', token: contractItems, tokenId: 2n, amount: 5n }])
    const held = async (owner: string) => (await storage.index.holdings(owner, [chainId], { limit: 10 })).map((h) => `${h.contract === contractDoors ? 'doors' : 'items'} ${h.tokenId} ${h.amount}`)
    expect((await held(me.address)).sort()).toEqual(['doors 8 1', 'items 1 10', 'items 2 15'])
    expect((await held(friend.address)).sort()).toEqual(['doors 7 1', 'items 2 5'])
  })

  test('error: a node that does not answer is a 502', async () => {
    const dead = testConfig({ [chainId]: 'http://127.0.0.1:1' })
    const { indexer } = await indexed({ rpc: Rpc.create(dead) })
    const error = await indexer.sync(chainId).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 502 })
  })
})

describe('follow', () => {
  test('behavior: keeps syncing; a failure streak is logged once, and its end once; stop ends the loop', async () => {
    let syncs = 0
    let failing = true
    const indexer: Indexer.Indexer = { sync: async () => (syncs++, failing ? Promise.reject(new Error('down')) : undefined) }
    const logs: string[] = []
    const follower = Indexer.follow(indexer, [chainId], { pollMs: 1, log: (message) => logs.push(message) })
    await until(() => syncs >= 5)
    failing = false
    const at = syncs
    await until(() => syncs >= at + 3)
    await follower.stop()
    const stopped = syncs
    expect(logs).toEqual([`indexer: ${chainId} failed; retrying every 1 ms`, `indexer: ${chainId} recovered`])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(syncs).toBe(stopped)
  })

  test('behavior: stop wakes every chain\'s loop from its wait (it would otherwise hang for a minute)', async () => {
    const synced = new Set<string>()
    const indexer: Indexer.Indexer = { sync: async (id) => void synced.add(id) }
    const follower = Indexer.follow(indexer, ['eip155:1', 'eip155:2', 'eip155:3'], { pollMs: 60_000 })
    await until(() => synced.size === 3)
    await follower.stop()
  })

  test('behavior: a followed chain is indexed without any request', async () => {
    const { storage, indexer } = await indexed()
    const follower = Indexer.follow(indexer, [chainId], { pollMs: 5 })
    const [from, to] = await Promise.all([anvil.account(), anvil.account()])
    await anvil.send(from, { to: to.address, value: 11n })
    await until(async () => (await history(storage, to.address)).length === 1)
    await follower.stop()
  })
})

async function until(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('decodeLogs', () => {
  const sender = `0x${'a'.repeat(40)}`
  const other = `0x${'b'.repeat(40)}`
  const reserve = `0x${'c'.repeat(40)}`
  const topic = (address: string) => pad(address as Hex)
  const log = (topics: Hex[], data: Hex = '0x') => ({ address: reserve as Hex, topics, data })
  const word = (n: bigint) => pad(`0x${n.toString(16)}`)

  test.each<[string, ReturnType<typeof log>, string[]]>([
    ['an Aave V3 Borrow for the sender', log([Indexer.topics.borrow, topic(reserve), topic(sender), word(0n)], encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint8' }, { type: 'uint256' }], [other as Hex, 5n, 2, 1n])), ['borrow']],
    ['an Aave V3 Borrow by the sender for another', log([Indexer.topics.borrow, topic(reserve), topic(other), word(0n)], encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint8' }, { type: 'uint256' }], [sender as Hex, 5n, 2, 1n])), ['borrow']],
    ['someone else’s Borrow', log([Indexer.topics.borrow, topic(reserve), topic(other), word(0n)], encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'uint8' }, { type: 'uint256' }], [other as Hex, 5n, 2, 1n])), []],
    ['an Aave V3 Repay by the sender', log([Indexer.topics.repay, topic(reserve), topic(other), topic(sender)], encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }], [5n, false])), ['repay']],
    ['an ERC-20 Approval by the sender', log([Indexer.topics.approval, topic(sender), topic(other)], word(1n)), ['approval']],
    ['an ERC-721 Approval by the sender', log([Indexer.topics.approval, topic(sender), topic(other), word(3n)]), ['approval']],
    ['an ApprovalForAll by the sender', log([Indexer.topics.approvalForAll, topic(sender), topic(other)], word(1n)), ['approval']],
    ['a WETH9 Deposit', log([Indexer.topics.deposit, topic(sender)], word(5n)), ['deposit']],
    ['a WETH9 Withdrawal', log([Indexer.topics.withdrawal, topic(sender)], word(5n)), ['withdrawal']],
  ])('behavior: %s', (_, entry, events) => {
    expect(Indexer.decodeLogs([entry], sender).events).toEqual(events)
  })

  test('behavior: malformed logs are skipped', () => {
    const logs = [log([Indexer.topics.transfer, topic(sender)], word(1n)), log([Indexer.topics.transferBatch, topic(sender), topic(sender), topic(other)], '0x1234'), log([Indexer.topics.transfer, topic(sender), topic(other)], '0x12')]
    expect(Indexer.decodeLogs(logs, sender)).toEqual({ transfers: [], events: [] })
  })

  test('behavior: a WETH9 Withdrawal is the wrapped token out and the coin back', () => {
    expect(Indexer.decodeLogs([log([Indexer.topics.withdrawal, topic(sender)], word(5n))], sender).transfers).toEqual([
      { standard: 'erc20', token: reserve, from: sender, to: reserve, amount: 5n },
      { standard: 'native', token: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', from: reserve, to: sender, amount: 5n },
    ])
  })
})

describe('describe', () => {
  const network = { ...(config.networks[chainId] as EvmNetwork), spamNfts: ['0x00000000000000000000000000000000000000DD'] }
  const me = '0x00000000000000000000000000000000000000aa'
  const other = '0x00000000000000000000000000000000000000bb'
  const token = '0x00000000000000000000000000000000000000cc'
  const spam = '0x00000000000000000000000000000000000000dd'
  const zero = '0x0000000000000000000000000000000000000000'
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
    events: [],
  }
  const nfts = new Map([[`${chainId} ${token} 7`, { chainId, contract: token, tokenId: '7', name: 'Door #7', collection: 'Doors', image: 'data:image/svg+xml;base64,PHN2Zy8+' }] as const])
  const context = { network, prices: config.prices, publicUrl: config.publicUrl, nfts }
  const op = (entry: Partial<Indexer.Entry>, address = me) => Indexer.describe({ ...base, ...entry }, address, context)

  test.each<[string, Partial<Indexer.Entry>, string, string[]]>([
    ['a failed plain send', { success: false, value: 5n, hasInput: false }, 'send', []],
    ['a failed call', { success: false, value: 5n }, 'execute', []],
    ['a send to oneself', { value: 10n ** 18n, to: me, hasInput: false }, 'send', ['self 1']],
    ['a call with an Approval by the sender', { events: ['approval'] }, 'approve', []],
    ['a call without value or transfers', {}, 'execute', []],
    ['a swap of ETH for a token', { value: 10n ** 18n, transfers: [{ standard: 'erc20', token, from: other, to: me, amount: 5n }] }, 'trade', ['out 1', 'in 5']],
    ['a deployment that mints to the deployer', { to: null, created: token, transfers: [{ standard: 'erc20', token, from: zero, to: me, amount: 5n }] }, 'deploy', ['in 5']],
    ['a mint of its own', { transfers: [{ standard: 'erc721', token, from: zero, to: me, amount: 1n, tokenId: 7n }] }, 'mint', ['in 1']],
    ['a burn', { transfers: [{ standard: 'erc20', token, from: me, to: zero, amount: 2n }] }, 'burn', ['out 2']],
    ['a claim from a contract', { transfers: [{ standard: 'erc20', token, from: other, to: me, amount: 2n }] }, 'claim', ['in 2']],
    ['a wrap', { value: 3n, events: ['deposit'], transfers: [{ standard: 'erc20', token, from: token, to: me, amount: 3n }] }, 'deposit', ['out 0.000000000000000003', 'in 3']],
  ])('behavior: %s', (_, entry, type, transfers) => {
    const tx = op(entry)
    expect(tx.metadata.operationType).toBe(type)
    expect(tx.transfers.map((t) => `${t.direction} ${t.quantity.numeric}`)).toEqual(transfers)
  })

  test('behavior: as the receiver of someone else’s call', () => {
    expect(op({ from: other, to: me, value: 2n * 10n ** 18n }).metadata).toMatchObject({ operationType: 'receive', status: 'confirmed', nonce: 3, minedAt: '2025-06-15T15:06:40.000Z' })
    expect(op({ from: other, to: token, transfers: [{ standard: 'erc20', token, from: other, to: me, amount: 5n }] }).metadata.operationType).toBe('receive')
    expect(op({ from: other, to: token, transfers: [{ standard: 'erc721', token: spam, from: zero, to: me, amount: 1n, tokenId: 1n }] }).metadata.operationType).toBe('receive')
  })

  test('behavior: a token transfer names its own sender and recipient, not the transaction\'s from and to', () => {
    const tx = op({ to: token, transfers: [{ standard: 'erc20', token, from: me, to: other, amount: 5n }] })
    expect(tx.metadata.sentTo).toBe(getAddress(token))
    expect(tx.transfers[0]).toMatchObject({ direction: 'out', sender: getAddress(me), recipient: getAddress(other) })
  })

  test('behavior: a batch of many tokens lists its first 64 transfers, and its type still counts them all', () => {
    const transfers = Array.from({ length: 100 }, (_, i) => ({ standard: 'erc721' as const, token, from: zero, to: me, amount: 1n, tokenId: BigInt(i) }))
    const tx = op({ transfers })
    expect(tx.transfers).toHaveLength(Indexer.maxTransfersShown)
    expect(tx.metadata.operationType).toBe('mint')
  })

  test('behavior: a deployment is sent to the created contract', () => {
    expect(op({ to: null, created: token }).metadata.sentTo).toBe(getAddress(token))
  })

  test('behavior: NFT transfers carry nft_info with the metadata, the api’s preview URL and the spam flag', () => {
    const tx = op({ from: other, transfers: [{ standard: 'erc721', token, from: other, to: me, amount: 1n, tokenId: 7n }, { standard: 'erc1155', token: spam, from: zero, to: me, amount: 3n, tokenId: 9n }] })
    expect(tx.transfers).toEqual([
      {
        nft_info: {
          name: 'Door #7',
          collection: { name: 'Doors' },
          content: { preview: { url: `http://api.test/public/getNftImage/${chainId}/${getAddress(token)}/7` } },
          flags: { is_spam: false },
          contract: getAddress(token),
          token_id: '7',
          standard: 'erc721',
        },
        direction: 'in',
        quantity: { numeric: '1' },
        sender: getAddress(other),
        recipient: getAddress(me),
      },
      {
        nft_info: { name: `${getAddress(spam)} #9`, collection: { name: getAddress(spam) }, flags: { is_spam: true }, contract: getAddress(spam), token_id: '9', standard: 'erc1155' },
        direction: 'in',
        quantity: { numeric: '3' },
        sender: getAddress(zero),
        recipient: getAddress(me),
      },
    ])
  })
})
