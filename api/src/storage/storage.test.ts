import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Embedded from './embedded.js'
import * as Postgres from './postgres.js'
import type { ChainId } from '@doorway/shared/Caip'
import {
  type AnalyticsEvent,
  type IndexEntry,
  type IndexWindow,
  keptBlocks,
  type NameRecord,
  NameTaken,
  type NftMove,
  type SessionRecord,
  type Storage,
} from './Storage.js'
import { findBin, installCommand, startPostgres } from './testPostgres.js'

/** A fresh, empty place for a store, and a way to (re)open it. */
type Place = { open: () => Promise<Storage>; dispose: () => Promise<void> }

contract('embedded (PGlite)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'doorway-storage-'))
  // A directory that does not exist yet: open creates it.
  return { open: () => Embedded.open(join(dir, 'db')), dispose: () => rm(dir, { recursive: true, force: true }) }
})

// Real PostgreSQL, never skipped: DOORWAY_TEST_POSTGRES_URL, else a throwaway server from Debian's binaries.
contract('postgres', async () => {
  const given = process.env.DOORWAY_TEST_POSTGRES_URL
  const server = given ? { url: given, stop: async () => {} } : await startPostgres()
  const database = `doorway_test_${process.pid}_${Date.now()}`
  await admin(server.url, `CREATE DATABASE ${pg.escapeIdentifier(database)}`)
  const url = new URL(server.url)
  url.pathname = `/${database}`
  return {
    open: () => Postgres.open(url.href),
    dispose: async () => {
      await admin(server.url, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`)
      await server.stop()
    },
  }
})

describe('findBin', () => {
  test('error: names the exact install command when the server binaries are missing', () => {
    expect(installCommand).toBe('apt-get install -y postgresql')
    expect(() => findBin('/nonexistent/postgresql')).toThrow(installCommand)
  })
})

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

function contract(name: string, create: () => Promise<Place>) {
  describe(name, () => {
    let place: Place
    let store: Storage
    let n = 0
    const unique = (prefix: string) => `${prefix}-${++n}`

    beforeAll(async () => {
      place = await create()
      store = await place.open()
    }, 120_000)
    afterAll(async () => {
      await store?.close()
      await place?.dispose()
    }, 60_000)

    const event = (projectId: string, timestamp: number, props: Record<string, unknown> = {}): AnalyticsEvent => ({
      projectId,
      eventId: unique('evt'),
      url: 'http://localhost:5173/app?x=1',
      domain: 'http://localhost:5173',
      timestamp,
      props,
    })
    const address = (digit: string) => `0x${digit.repeat(40)}`
    const nameRecord = (name: string, owner: string, attributes: Record<string, string> = {}): NameRecord => ({
      name,
      address: owner,
      coinType: 60,
      attributes,
      registeredAt: 1_700_000_000_000,
    })
    const session = (owner: string, pci: string, createdAt: number): SessionRecord => ({
      address: owner,
      pci,
      chainId: 'eip155:31337',
      permissions: [{ type: 'native-token-recurring-allowance', data: { allowance: '0x1' } }],
      expiry: 1_800_000_000,
      revoked: false,
      createdAt,
    })

    describe('analytics', () => {
      test('behavior: list returns the project events newest first, ties newest-added first', async () => {
        const project = unique('project')
        const [a, b, c, d] = [event(project, 1000), event(project, 3000), event(project, 2000), event(project, 3000)]
        for (const e of [a, b, c, d]) await store.analytics.add(e)
        expect(await store.analytics.list(project)).toEqual([d, b, c, a])
      })

      test('behavior: events of another project are not listed', async () => {
        const [mine, theirs] = [unique('project'), unique('project')]
        const e = event(mine, 1)
        await store.analytics.add(e)
        await store.analytics.add(event(theirs, 2))
        expect(await store.analytics.list(mine)).toEqual([e])
        expect(await store.analytics.list(unique('project'))).toEqual([])
      })

      test.each([
        [0, 0],
        [2, 2],
        [10, 5],
      ])('param: limit %i lists the %i newest', async (limit, count) => {
        const project = unique('project')
        for (let t = 1; t <= 5; t++) await store.analytics.add(event(project, t * 1000))
        const listed = await store.analytics.list(project, limit)
        expect(listed.map((e) => e.timestamp)).toEqual([5000, 4000, 3000, 2000, 1000].slice(0, count))
      })

      test('behavior: an event sent twice (same eventId) is stored once', async () => {
        const project = unique('project')
        const e = event(project, 1)
        await store.analytics.add(e)
        await store.analytics.add({ ...e, props: { retried: true } })
        expect(await store.analytics.list(project)).toEqual([e])
      })

      test('behavior: props round-trip as JSON, millisecond timestamps stay numbers', async () => {
        const project = unique('project')
        const props = { event: 'CONNECT_SUCCESS', address: address('a'), nested: { list: [1, 'two', null, true] }, text: "é ✓ 'quoted' \"double\"" }
        const e = event(project, 1_760_000_000_123, props)
        await store.analytics.add(e)
        expect(await store.analytics.list(project)).toEqual([e])
      })
    })

    describe('names', () => {
      test('behavior: get is undefined for an unregistered name', async () => {
        expect(await store.names.get(unique('nobody'))).toBeUndefined()
      })

      test('behavior: put then get and byAddress return the record', async () => {
        const record = nameRecord(unique('alice'), address('1'), { bio: 'hi' })
        await store.names.put(record)
        expect(await store.names.get(record.name)).toEqual(record)
        expect(await store.names.byAddress(address('1'))).toEqual([record])
      })

      test('behavior: byAddress matches an EVM address whatever its case', async () => {
        const owner = `0x${'aB'.repeat(20)}`
        const record = nameRecord(unique('carol'), owner)
        await store.names.put(record)
        expect(await store.names.byAddress(owner.toLowerCase())).toEqual([record])
        expect(await store.names.byAddress(`0x${'AB'.repeat(20)}`)).toEqual([record])
      })

      // The identity endpoint shows the first record as the address's name (routes/balance.ts).
      test('behavior: byAddress lists the newest registration first, ties by name', async () => {
        const owner = address('5')
        const at = (name: string, registeredAt: number) => ({ ...nameRecord(name, owner), registeredAt })
        const [middle, newest, tieB, tieA] = [at(unique('m'), 2_000), at(unique('n'), 3_000), at(`b-${unique('t')}`, 1_000), at(`a-${unique('t')}`, 1_000)]
        for (const record of [middle, newest, tieB, tieA]) await store.names.put(record)
        expect(await store.names.byAddress(owner)).toEqual([newest, middle, tieA, tieB])
      })

      test('error: NameTaken when the name belongs to another address, which keeps it', async () => {
        const record = nameRecord(unique('bob'), address('2'))
        await store.names.put(record)
        await expect(store.names.put(nameRecord(record.name, address('3')))).rejects.toBeInstanceOf(NameTaken)
        expect(await store.names.get(record.name)).toEqual(record)
        expect(await store.names.byAddress(address('3'))).toEqual([])
      })

      test('behavior: the same address re-registering updates the record', async () => {
        const name = unique('dave')
        await store.names.put(nameRecord(name, address('4'), { bio: 'old' }))
        const updated = { ...nameRecord(name, address('4'), { bio: 'new', avatar: 'https://x.example/a.png' }), registeredAt: 1_700_000_100_000 }
        await store.names.put(updated)
        expect(await store.names.get(name)).toEqual(updated)
        expect(await store.names.byAddress(address('4'))).toEqual([updated])
      })
    })

    describe('sessions', () => {
      test('behavior: list is empty for an address without sessions', async () => {
        expect(await store.sessions.list(address('5'))).toEqual([])
      })

      test('behavior: list returns the address sessions newest first, and only its own', async () => {
        const [older, newer] = [session(address('6'), unique('pci'), 1000), session(address('6'), unique('pci'), 2000)]
        await store.sessions.put(older)
        await store.sessions.put(newer)
        await store.sessions.put(session(address('7'), unique('pci'), 3000))
        expect(await store.sessions.list(address('6'))).toEqual([newer, older])
      })

      test('behavior: put with a known pci replaces the session', async () => {
        const first = session(address('8'), unique('pci'), 1000)
        await store.sessions.put(first)
        const replaced = { ...first, chainId: 'eip155:31338', permissions: { scope: 'all' }, expiry: 1_900_000_000 }
        await store.sessions.put(replaced)
        expect(await store.sessions.list(address('8'))).toEqual([replaced])
      })

      test('behavior: revoke is true once, then false; the session stays listed as revoked', async () => {
        const s = session(address('9'), unique('pci'), 1000)
        await store.sessions.put(s)
        expect(await store.sessions.revoke(address('9'), s.pci)).toBe(true)
        expect(await store.sessions.revoke(address('9'), s.pci)).toBe(false)
        expect(await store.sessions.list(address('9'))).toEqual([{ ...s, revoked: true }])
      })

      test('behavior: revoke is false for an unknown session or another address', async () => {
        const s = session(address('c'), unique('pci'), 1000)
        await store.sessions.put(s)
        expect(await store.sessions.revoke(address('c'), unique('pci'))).toBe(false)
        expect(await store.sessions.revoke(address('d'), s.pci)).toBe(false)
        expect(await store.sessions.list(address('c'))).toEqual([s])
      })
    })

    describe('index', () => {
      let chains = 900
      const newChain = (): ChainId => `eip155:${++chains}`
      const [me, you, nft] = [address('a'), address('b'), address('f')]
      const entry = (chainId: ChainId, block: number, index = 0, timestamp = 1_000 + block): IndexEntry => ({
        chainId,
        hash: `0x${block.toString(16).padStart(64, '0')}`,
        block,
        index,
        timestamp,
        from: me,
        to: you,
        created: null,
        nonce: block,
        value: 10n ** 30n + BigInt(block),
        hasInput: false,
        success: true,
        transfers: [{ standard: 'erc1155', token: nft, from: me, to: you, amount: 2n ** 255n, tokenId: 2n ** 256n - 1n }],
        events: ['approval'],
      })
      const move = (block: number, owner: string, tokenId: bigint, delta: bigint): NftMove => ({ block, owner, contract: nft, tokenId, standard: 'erc721', delta })
      // Blocks from..to (inclusive), each with one entry for me and you.
      const window = (chainId: ChainId, from: number, to: number, moves: NftMove[] = []): IndexWindow => {
        const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i)
        return { blocks: numbers.map((number) => ({ number, hash: `0xh${number}` })), entries: numbers.map((n) => ({ entry: entry(chainId, n), parties: [me, you] })), moves }
      }
      const blocksOf = (entries: IndexEntry[]) => entries.map((e) => e.block)

      test('behavior: a new chain starts at block 0 with no blocks', async () => {
        expect(await store.index.head(newChain())).toEqual({ next: 0, blocks: [] })
      })

      test('behavior: append moves the cursor; entries round-trip with their bigints; history is newest first', async () => {
        const chainId = newChain()
        expect(await store.index.append(chainId, 0, window(chainId, 0, 2))).toBe(true)
        expect(await store.index.head(chainId)).toEqual({ next: 3, blocks: [2, 1, 0].map((number) => ({ number, hash: `0xh${number}` })) })
        const history = await store.index.history(me.toUpperCase().replace('0X', '0x'), [chainId], { limit: 10 })
        expect(history).toEqual([entry(chainId, 2), entry(chainId, 1), entry(chainId, 0)])
      })

      test('error: append from a block that is not the cursor writes nothing', async () => {
        const chainId = newChain()
        await store.index.append(chainId, 0, window(chainId, 0, 1))
        expect(await store.index.append(chainId, 1, window(chainId, 1, 2))).toBe(false)
        expect((await store.index.head(chainId)).next).toBe(2)
        expect(blocksOf(await store.index.history(me, [chainId], { limit: 10 }))).toEqual([1, 0])
      })

      test('behavior: history pages by key and merges chains by time, then chain, block and index', async () => {
        const [a, b] = [newChain(), newChain()]
        await store.index.append(a, 0, { blocks: [{ number: 0, hash: '0x0' }], entries: [0, 1].map((i) => ({ entry: entry(a, 0, i, 50), parties: [me] })), moves: [] })
        await store.index.append(b, 0, { blocks: [{ number: 0, hash: '0x0' }], entries: [{ entry: entry(b, 0, 0, 50), parties: [me] }], moves: [] })
        const all = await store.index.history(me, [a, b], { limit: 10 })
        expect(all.map((e) => `${e.chainId} ${e.index}`)).toEqual([`${b} 0`, `${a} 1`, `${a} 0`])
        const after = await store.index.history(me, [a, b], { before: [50, b, 0, 0], limit: 1 })
        expect(after.map((e) => `${e.chainId} ${e.index}`)).toEqual([`${a} 1`])
        expect(await store.index.history(me, [newChain()], { limit: 10 })).toEqual([])
        expect(await store.index.history(address('9'), [a, b], { limit: 10 })).toEqual([])
      })

      test(`behavior: only the newest ${keptBlocks} block hashes are kept`, async () => {
        const chainId = newChain()
        await store.index.append(chainId, 0, window(chainId, 0, keptBlocks + 9))
        const { blocks } = await store.index.head(chainId)
        expect(blocks).toHaveLength(keptBlocks)
        expect(blocks[0]!.number).toBe(keptBlocks + 9)
      })

      test('behavior: holdings sum the moves, list positive amounts by contract and id, and page after a key', async () => {
        const chainId = newChain()
        const big = 2n ** 256n - 1n
        await store.index.append(chainId, 0, window(chainId, 0, 0, [move(0, me, 2n, 1n), move(0, me, 10n, 1n), move(0, me, big, 5n)]))
        await store.index.append(chainId, 1, window(chainId, 1, 1, [move(1, me, 2n, -1n), move(1, you, 2n, 1n), move(1, me, big, -2n)]))
        const mine = await store.index.holdings(me, [chainId], { limit: 10 })
        expect(mine).toEqual([
          { chainId, owner: me, contract: nft, tokenId: '10', standard: 'erc721', amount: '1' },
          { chainId, owner: me, contract: nft, tokenId: big.toString(), standard: 'erc721', amount: '3' },
        ])
        expect(await store.index.holdings(me, [chainId], { after: [chainId, nft, '10'], limit: 10 })).toEqual([mine[1]])
        expect((await store.index.holdings(you, [chainId], { limit: 10 })).map((h) => h.tokenId)).toEqual(['2'])
      })

      test('behavior: rewind deletes what was indexed at and above the block and undoes its holdings, in one go', async () => {
        const chainId = newChain()
        await store.index.append(chainId, 0, window(chainId, 0, 1, [move(1, me, 1n, 1n)]))
        await store.index.append(chainId, 2, window(chainId, 2, 3, [move(2, me, 1n, -1n), move(2, you, 1n, 1n), move(3, me, 7n, 1n)]))
        const metadata = { chainId, contract: nft, tokenId: '1', name: 'Door #1', collection: 'Doors', image: null }
        await store.nfts.put(metadata)
        await store.index.rewind(chainId, 2)
        expect(await store.index.head(chainId)).toEqual({ next: 2, blocks: [1, 0].map((number) => ({ number, hash: `0xh${number}` })) })
        expect(blocksOf(await store.index.history(you, [chainId], { limit: 10 }))).toEqual([1, 0])
        expect((await store.index.holdings(me, [chainId], { limit: 10 })).map((h) => `${h.tokenId} ${h.amount}`)).toEqual(['1 1'])
        expect(await store.index.holdings(you, [chainId], { limit: 10 })).toEqual([])
        expect(await store.nfts.get([metadata])).toEqual([])
        // the chain continues from the rewound cursor
        expect(await store.index.append(chainId, 2, window(chainId, 2, 2, [move(2, you, 1n, 1n)]))).toBe(true)
        expect((await store.index.holdings(you, [chainId], { limit: 10 })).map((h) => h.tokenId)).toEqual(['1'])
      })

      test('behavior: rewind to 0 starts the chain over, holdings included', async () => {
        const chainId = newChain()
        await store.index.append(chainId, 0, window(chainId, 0, keptBlocks + 5, [move(1, me, 1n, 1n)]))
        await store.index.rewind(chainId, 0)
        expect(await store.index.head(chainId)).toEqual({ next: 0, blocks: [] })
        expect(await store.index.history(me, [chainId], { limit: 10 })).toEqual([])
        expect(await store.index.holdings(me, [chainId], { limit: 10 })).toEqual([])
      })
    })

    describe('nfts', () => {
      test('behavior: metadata is found by chain, contract in any case and token id; put replaces it', async () => {
        const contract = `0x${'Cd'.repeat(20)}`
        const metadata = { chainId: 'eip155:31337' as const, contract: contract.toLowerCase(), tokenId: (2n ** 256n - 1n).toString(), name: 'Door', collection: 'Doors', image: 'data:image/svg+xml;base64,PHN2Zy8+' }
        await store.nfts.put(metadata)
        expect(await store.nfts.get([{ ...metadata, contract }, { ...metadata, tokenId: '5' }])).toEqual([metadata])
        await store.nfts.put({ ...metadata, name: null, image: null })
        expect(await store.nfts.get([metadata])).toEqual([{ ...metadata, name: null, image: null }])
        expect(await store.nfts.get([])).toEqual([])
      })
    })

    describe('durability', () => {
      test('behavior: data is still there after close and reopen (migrations run again)', async () => {
        const project = unique('project')
        const e = event(project, 42)
        const record = nameRecord(unique('erin'), address('e'))
        const s = session(address('e'), unique('pci'), 1000)
        await store.analytics.add(e)
        await store.names.put(record)
        await store.sessions.put(s)
        await store.sessions.revoke(s.address, s.pci)
        await store.index.append('eip155:999', 0, { blocks: [{ number: 0, hash: '0xh0' }], entries: [], moves: [] })
        await store.close()
        store = await place.open()
        expect(await store.analytics.list(project)).toEqual([e])
        expect(await store.names.get(record.name)).toEqual(record)
        expect(await store.sessions.list(address('e'))).toEqual([{ ...s, revoked: true }])
        expect(await store.index.head('eip155:999')).toEqual({ next: 1, blocks: [{ number: 0, hash: '0xh0' }] })
      }, 60_000)
    })
  })
}
