import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as App from '../app.js'
import type { Transaction } from '../indexer.js'
import type { Storage } from '../storage/Storage.js'
import { projectId, testChain, testConfig, testDeps, testStorage } from '../testing.js'
import type { Nft } from './nfts.js'
import * as Nfts from '../nfts.js'

const chain = { id: 31337, port: 18704, rpcUrl: 'http://127.0.0.1:18704' }
const chainId = 'eip155:31337'
const anvil = testChain(chain)
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>'
const json = (value: unknown) => JSON.stringify(value)

let stop: () => Promise<void>
let storage: Storage
let server: Server
let origin: string
const made = {} as Record<'me' | 'friend' | 'maker' | 'pager' | 'doors' | 'spam' | 'items' | 'ipfs', Address>

// Metadata and images over http, as a collection hosted off-chain would serve them.
function metadataServer(): Promise<Server> {
  const s = createServer((req, res) => {
    const id = /^\/meta\/([0-9a-f]{64})\.json$/.exec(req.url ?? '')?.[1]
    if (id) return res.writeHead(200, { 'content-type': 'application/json' }).end(json({ name: `Item ${BigInt(`0x${id}`)}`, image: `${origin}/${BigInt(`0x${id}`) === 2n ? 'big' : 'item'}.png` }))
    if (req.url === '/redirect') return res.writeHead(302, { location: '/item.png' }).end()
    if (req.url === '/item.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png)
    if (req.url === '/big.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300 * 1024))
    res.writeHead(404).end()
  })
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)))
}

function app(options: { privateHosts?: boolean } = {}) {
  const config = testConfig({ [chainId]: chain.rpcUrl })
  // The metadata server here is on loopback, which the api refuses unless the operator allows it.
  config.indexer = { metadataPrivateHosts: options.privateHosts ?? true }
  config.networks[chainId]!.spamNfts = [made.spam.toUpperCase().replace('0X', '0x')]
  const { deps, calls } = testDeps(config, { storage })
  const api = App.create(deps)
  const get = async <T>(path: string, query: Record<string, string> = {}) => {
    const res = await api.request(`${path}?${new URLSearchParams({ projectId, st: 'appkit', sv: 'html-doorway-0.1.0', ...query })}`)
    return { status: res.status, body: (await res.json()) as T & { message?: string } }
  }
  const nfts = (address: string, query: Record<string, string> = {}) => get<{ data: Nft[]; next: string | null }>(`/v1/account/${address}/nfts`, query)
  const history = (address: string) => get<{ data: Transaction[]; next: string | null }>(`/v1/account/${address}/history`, { chainId })
  const image = (path: string) => api.request(`/public/getNftImage/${path}`)
  return { nfts, history, image, calls }
}

beforeAll(async () => {
  storage = await testStorage()
  server = await metadataServer()
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  stop = (await Anvil.start({ chains: [chain] })).stop
  const [me, friend, maker, pager] = await Promise.all([anvil.account(), anvil.account(), anvil.account(), anvil.account()])
  Object.assign(made, { me: me.address, friend: friend.address, maker: maker.address, pager: pager.address })
  const doorsMetadata = json({ name: 'Door', image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` })
  made.doors = await anvil.deploy(maker, 'TestNft', ['Doorway Doors', `data:application/json;base64,${Buffer.from(doorsMetadata).toString('base64')}`])
  made.spam = await anvil.deploy(maker, 'TestNft', ['Claim Your Rewards', `data:application/json,${encodeURIComponent(json({ name: 'Claim now', image: `data:image/png;base64,${png.toString('base64')}` }))}`])
  made.items = await anvil.deploy(maker, 'TestItems', ['Doorway Items', `${origin}/meta/{id}.json`])
  made.ipfs = await anvil.deploy(maker, 'TestNft', ['Elsewhere', 'ipfs://bafy/1.json'])
  await anvil.call(me, made.doors, 'mint', [me.address, 1n])
  await anvil.call(me, made.doors, 'mint', [me.address, 2n])
  await anvil.call(me, made.doors, 'transferFrom', [me.address, friend.address, 2n])
  await anvil.call(maker, made.spam, 'airdrop', [[me.address, friend.address], 100n])
  await anvil.call(me, made.items, 'mintBatch', [me.address, [1n, 2n], [5n, 6n]])
  await anvil.call(me, made.items, 'safeTransferFrom', [me.address, friend.address, 1n, 2n, '0x'])
  await anvil.call(me, made.ipfs, 'mint', [me.address, 3n])
  await anvil.call(maker, made.doors, 'airdrop', [Array.from({ length: 25 }, () => pager.address), 1000n])
}, 60_000)

afterAll(async () => {
  await storage?.close()
  await new Promise((resolve) => server?.close(resolve))
  await stop?.()
})

const preview = (contract: Address, id: number) => ({ preview: { url: `http://api.test/public/getNftImage/${chainId}/${getAddress(contract)}/${id}` } })
const byContract = (a: Nft, b: Nft) => (a.contract.toLowerCase() < b.contract.toLowerCase() ? -1 : a.contract.toLowerCase() > b.contract.toLowerCase() ? 1 : Number(a.tokenId) - Number(b.tokenId))

describe('GET /v1/account/:address/nfts', () => {
  test('behavior: what the account holds after its transfers out, with metadata, the api’s preview URLs and the spam flag', async () => {
    const { nfts } = app()
    const { status, body } = await nfts(made.me, { chainId })
    expect(status).toBe(200)
    expect(body.next).toBeNull()
    const item = (contract: Address, id: number, standard: Nft['standard'], name: string, collection: string, amount: string, image = true, spam = false): Nft => ({
      id: `${chainId}:${getAddress(contract)}:${id}`,
      chain: chainId,
      contract: getAddress(contract),
      tokenId: String(id),
      standard,
      name,
      collection: { name: collection },
      ...(image ? { content: preview(contract, id) } : {}),
      flags: { is_spam: spam },
      amount,
    })
    expect(body.data).toEqual(
      [
        item(made.doors, 1, 'erc721', 'Door', 'Doorway Doors', '1'),
        item(made.spam, 100, 'erc721', 'Claim now', 'Claim Your Rewards', '1', true, true),
        item(made.items, 1, 'erc1155', 'Item 1', 'Doorway Items', '3'),
        item(made.items, 2, 'erc1155', 'Item 2', 'Doorway Items', '6'),
        item(made.ipfs, 3, 'erc721', 'Elsewhere #3', 'Elsewhere', '1', false),
      ].sort(byContract),
    )
    const friend = await nfts(made.friend)
    expect(friend.body.data.map((n) => `${n.name} ${n.amount}`).sort()).toEqual(['Claim now 1', 'Door 1', 'Item 1 2'])
  })

  test('behavior: metadata is read once; later pages and images make no eth_call', async () => {
    const first = app()
    await first.nfts(made.me)
    const again = app()
    await again.nfts(made.me)
    await again.history(made.me)
    await again.image(`${chainId}/${made.doors}/1`)
    expect(again.calls.filter((c) => c.method === 'eth_call')).toEqual([])
  })

  test('behavior: 20 a page; the cursor continues where the page ended', async () => {
    const { nfts } = app()
    const first = await nfts(made.pager, { chainId })
    expect(first.body.data.map((n) => n.tokenId)).toEqual(Array.from({ length: 20 }, (_, i) => String(1000 + i)))
    const second = await nfts(made.pager, { chainId, cursor: first.body.next! })
    expect(second.body.data.map((n) => n.tokenId)).toEqual(['1020', '1021', '1022', '1023', '1024'])
    expect(second.body.next).toBeNull()
  })

  test('behavior: an unconfigured network is empty, with no node call', async () => {
    const { nfts, calls } = app()
    expect(await nfts(made.me, { chainId: 'eip155:1' })).toEqual({ status: 200, body: { data: [], next: null } })
    expect(await nfts(made.me, { chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({ status: 200, body: { data: [], next: null } })
    expect(calls).toEqual([])
  })

  test.each([
    ['an address that is not an EVM address', 'alice', {}, 'Invalid address'],
    ['a malformed chainId', null, { chainId: '31337' }, 'Invalid chainId'],
    ['a cursor that is not base64 JSON', null, { cursor: '!!!' }, 'Invalid cursor'],
    ['a history cursor', null, { cursor: Buffer.from('[1,"eip155:31337",1,0]').toString('base64url') }, 'Invalid cursor'],
    ['a cursor with a bad token id', null, { cursor: Buffer.from(`["eip155:31337","0x${'a'.repeat(40)}","-1"]`).toString('base64url') }, 'Invalid cursor'],
    ['no projectId', null, { projectId: '' }, 'Missing projectId'],
  ])('param: %s is 400 with a message and no node call', async (_, address, query, message) => {
    const { nfts, calls } = app()
    const res = await nfts(address ?? made.me, query)
    expect(res.status).toBe(400)
    expect(Object.keys(res.body)).toEqual(['message'])
    expect(res.body.message).toContain(message)
    expect(calls).toEqual([])
  })
})

describe('GET /v1/account/:account/history with NFTs', () => {
  test('behavior: a mint of its own, a transfer out, a spam airdrop it received and an ERC-1155 batch', async () => {
    const { history } = app()
    const { body } = await history(made.me)
    const rows = body.data.map((t) => [t.metadata.operationType, t.transfers.map((x) => `${x.direction} ${x.quantity.numeric} ${x.nft_info?.name} ${x.nft_info?.flags.is_spam}`)])
    expect(rows).toEqual([
      ['mint', ['in 1 Elsewhere #3 false']],
      ['send', ['out 2 Item 1 false']],
      ['mint', ['in 5 Item 1 false', 'in 6 Item 2 false']],
      ['receive', ['in 1 Claim now true']],
      ['send', ['out 1 Door false']],
      ['mint', ['in 1 Door false']],
      ['mint', ['in 1 Door false']],
    ])
    expect(body.data[4]!.transfers[0]).toEqual({
      nft_info: {
        name: 'Door',
        collection: { name: 'Doorway Doors' },
        content: preview(made.doors, 2),
        flags: { is_spam: false },
        contract: getAddress(made.doors),
        token_id: '2',
        standard: 'erc721',
      },
      direction: 'out',
      quantity: { numeric: '1' },
      sender: made.me,
      recipient: made.friend,
    })
  })
})

describe('fetchLimited', () => {
  test('security: a host on a loopback or private address is not fetched unless the operator allows it (SSRF)', async () => {
    let hits = 0
    const counted = createServer((_req, res) => {
      hits++
      res.writeHead(200, { 'content-type': 'image/png' }).end(png)
    })
    await new Promise<void>((resolve) => counted.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(counted.address() as AddressInfo).port}/x.png`
      expect(await Nfts.fetchLimited(url, { privateHosts: false })).toBeUndefined()
      expect(await Nfts.fetchLimited(url.replace('127.0.0.1', 'localhost'), { privateHosts: false })).toBeUndefined()
      expect(hits).toBe(0)
      expect(await Nfts.fetchLimited(url, { privateHosts: true })).toMatchObject({ type: 'image/png' })
      expect(hits).toBe(1)
    } finally {
      counted.close()
    }
  })

  test('security: a redirect is not followed (it could lead to a refused address)', async () => {
    expect(await Nfts.fetchLimited(`${origin}/redirect`, { privateHosts: true })).toBeUndefined()
  })
})

describe('GET /public/getNftImage/:chain/:contract/:tokenId', () => {
  const headers = {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'cache-control': 'public, max-age=31536000, immutable',
  }

  test.each([
    ['a data: SVG', 'doors', 1, 'image/svg+xml', Buffer.from(svg)],
    ['a data: PNG', 'spam', 100, 'image/png', png],
    ['an http PNG', 'items', 1, 'image/png', png],
  ] as const)('behavior: %s is served with its type, inert and cacheable', async (_, contract, id, type, bytes) => {
    const { nfts, image } = app()
    await nfts(made.me)
    const res = await image(`${chainId}/${made[contract]}/${id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(type)
    for (const [name, value] of Object.entries(headers)) expect(res.headers.get(name)).toBe(value)
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes)
  })

  test.each([
    ['an ipfs:// metadata URI', () => `${chainId}/${made.ipfs}/3`],
    ['an http image over 256 KB', () => `${chainId}/${made.items}/2`],
    ['a token the index has not read', () => `${chainId}/${made.doors}/999`],
    ['an unconfigured network', () => `eip155:1/${made.doors}/1`],
  ])('behavior: %s is 404, with no node call', async (_, path) => {
    const { nfts, image, calls } = app()
    await nfts(made.me)
    calls.length = 0
    const res = await image(path())
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'No image' })
    expect(calls).toEqual([])
  })

  test.each([
    ['a malformed chain', () => `31337/${made.doors}/1`, 'Invalid chain'],
    ['a malformed contract', () => `${chainId}/0x1234/1`, 'Invalid contract'],
    ['a negative token id', () => `${chainId}/${made.doors}/-1`, 'Invalid tokenId'],
    ['a hex token id', () => `${chainId}/${made.doors}/0x1`, 'Invalid tokenId'],
    ['a token id over uint256', () => `${chainId}/${made.doors}/${2n ** 256n}`, 'Invalid tokenId'],
  ])('param: %s is 400', async (_, path, message) => {
    const { image } = app()
    const res = await image(path())
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain(message)
  })
})
