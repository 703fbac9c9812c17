import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { ChainId } from '@doorway/shared/Caip'
import * as TestPostgres from '@doorway/storage/TestPostgres'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Embedded from './embedded.js'
import * as Postgres from './postgres.js'
import {
  type AnalyticsEvent,
  type IndexEntry,
  type IndexWindow,
  AddressHasName,
  keptBlocks,
  type NameRecord,
  NameTaken,
  NonceUsed,
  type NftMove,
  type SessionRecord,
  type Storage,
} from './Storage.js'

/**
 * A fresh, empty place for a store, a way to (re)open it, raw SQL on it (to set up an older schema) and,
 * where several connections exist, a transaction left open on another connection (to race the store).
 */
type Place = {
  open: () => Promise<Storage>
  exec: (script: string) => Promise<void>
  begin?: (script: string) => Promise<{ commit: () => Promise<void> }>
  dispose: () => Promise<void>
}

/** Where places are made: the store's contract runs on one; a migration test makes its own. */
type Ground = { place: () => Promise<Place>; dispose: () => Promise<void> }

contract('embedded (PGlite)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'doorway-storage-'))
  let n = 0
  return {
    async place() {
      // A directory that does not exist yet: open creates it.
      const db = join(dir, `db-${++n}`)
      const exec = async (script: string) => {
        await mkdir(db, { recursive: true })
        const raw = await PGlite.create(db)
        await raw.exec(script).finally(() => raw.close())
      }
      return { open: () => Embedded.open(db), exec, dispose: () => rm(db, { recursive: true, force: true }) }
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  }
})

// Real PostgreSQL, never skipped: DOORWAY_TEST_POSTGRES_URL, else a throwaway server from Debian's binaries.
contract('postgres', async () => {
  const server = await TestPostgres.server()
  return {
    async place() {
      const database = await TestPostgres.database(server.url, 'doorway_test')
      return {
        open: () => Postgres.open(database.url),
        exec: (script) => TestPostgres.admin(database.url, script),
        async begin(script) {
          const client = new pg.Client({ connectionString: database.url })
          await client.connect()
          await client.query(`BEGIN; ${script}`)
          return { commit: () => client.query('COMMIT').then(() => client.end()) }
        },
        dispose: () => database.drop(),
      }
    },
    dispose: () => server.stop(),
  }
})

function contract(name: string, create: () => Promise<Ground>) {
  describe(name, () => {
    let ground: Ground
    let place: Place
    let store: Storage
    let n = 0
    const unique = (prefix: string) => `${prefix}-${++n}`

    beforeAll(async () => {
      ground = await create()
      place = await ground.place()
      store = await place.open()
    }, 120_000)
    afterAll(async () => {
      await store?.close()
      await place?.dispose()
      await ground?.dispose()
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
    // An address no other test uses: one name per address.
    let nextAddress = 0xfeed0000
    const fresh = () => `0x${(nextAddress++).toString(16).padStart(40, '0')}`
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
      delegation: { delegate: address('1'), delegator: owner, caveats: [{ enforcer: address('2'), terms: '0x', args: '0x' }], salt: '0x1', signature: '0xab' },
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

      test('error: AddressHasName when the address holds another name, which it keeps', async () => {
        const owner = fresh()
        const held = nameRecord(unique('erin'), owner)
        await store.names.put(held)
        const second = unique('erin')
        const error = await store.names.put(nameRecord(second, owner.toUpperCase().replace('0X', '0x'))).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(AddressHasName)
        expect(error).toMatchObject({ held: held.name, message: `Address ${owner.toUpperCase().replace('0X', '0x')} already has the name ${held.name}` })
        expect(await store.names.get(second)).toBeUndefined()
        expect(await store.names.byAddress(owner)).toEqual([held])
      })

      test('error: AddressHasName wins over NameTaken when both apply', async () => {
        const [mine, theirs] = [nameRecord(unique('fay'), fresh()), nameRecord(unique('gus'), fresh())]
        await store.names.put(mine)
        await store.names.put(theirs)
        await expect(store.names.put(nameRecord(theirs.name, mine.address))).rejects.toBeInstanceOf(AddressHasName)
      })

      // PGlite has one connection, so only a server can race two first registrations of one address:
      // the test exists for PostgreSQL only (registered, not skipped, elsewhere).
      if (name === 'postgres')
        test('behavior: a first registration racing another of the same address is AddressHasName', async () => {
          const owner = fresh()
          const first = unique('hal')
          const racing = await place.begin!(`INSERT INTO names VALUES ('${first}', '${owner}', '${owner}', 60, '{}', 1)`)
          // The store's insert waits on the open one's row in the unique index, then fails on it.
          const second = store.names.put(nameRecord(unique('ida'), owner)).catch((e: unknown) => e)
          await new Promise((resolve) => setTimeout(resolve, 200))
          await racing.commit()
          expect(await second).toMatchObject({ held: first })
          expect(await second).toBeInstanceOf(AddressHasName)
          expect((await store.names.byAddress(owner)).map((r) => r.name)).toEqual([first])
        })

      test('behavior: an EVM chain coin type (ENSIP-11, past the 32-bit signed range) round-trips', async () => {
        const record = { ...nameRecord(unique('jan'), fresh()), coinType: 0x80000000 + 31337 }
        await store.names.put(record)
        expect(await store.names.get(record.name)).toEqual(record)
      })
    })

    describe('names.register', () => {
      const at = 1_750_000_000_000
      const nonce = (keepUntil = at + 660_000) => ({ value: unique('nonce').padEnd(32, '0'), keepUntil })

      test('behavior: registers the name and spends the nonce; the same nonce again is NonceUsed and writes nothing', async () => {
        const record = { ...nameRecord(unique('kim'), fresh(), { bio: 'first' }), registeredAt: at }
        const spent = nonce()
        await store.names.register(record, spent)
        expect(await store.names.get(record.name)).toEqual(record)
        const replay = { ...record, attributes: { bio: 'replayed' }, registeredAt: at + 1_000 }
        await expect(store.names.register(replay, spent)).rejects.toBeInstanceOf(NonceUsed)
        expect(await store.names.get(record.name)).toEqual(record)
      })

      test('behavior: a nonce is spent per address, in any case; another address may use the same one', async () => {
        const owner = fresh()
        const spent = nonce()
        await store.names.register({ ...nameRecord(unique('lea'), owner), registeredAt: at }, spent)
        const again = { ...nameRecord(unique('lea'), owner.toUpperCase().replace('0X', '0x')), registeredAt: at }
        await expect(store.names.register(again, spent)).rejects.toBeInstanceOf(NonceUsed)
        await store.names.register({ ...nameRecord(unique('max'), fresh()), registeredAt: at }, spent)
      })

      test('behavior: a refused registration does not spend its nonce', async () => {
        const [owner, other] = [fresh(), fresh()]
        const taken = nameRecord(unique('ned'), other)
        await store.names.put(taken)
        const spent = nonce()
        await expect(store.names.register({ ...nameRecord(taken.name, owner), registeredAt: at }, spent)).rejects.toBeInstanceOf(NameTaken)
        const record = { ...nameRecord(unique('ned'), owner), registeredAt: at }
        await store.names.register(record, spent)
        expect(await store.names.byAddress(owner)).toEqual([record])
      })

      test('behavior: a nonce is kept until keepUntil, then forgotten', async () => {
        const record = { ...nameRecord(unique('ola'), fresh()), registeredAt: at }
        const spent = nonce(at + 10_000)
        await store.names.register(record, spent)
        await expect(store.names.register({ ...record, registeredAt: at + 10_000 }, spent)).rejects.toBeInstanceOf(NonceUsed)
        await store.names.register({ ...record, registeredAt: at + 10_001 }, spent)
        expect(await store.names.get(record.name)).toEqual({ ...record, registeredAt: at + 10_001 })
      })
    })

    describe('migration', () => {
      // The names table before issue 13: integer coin types, several names per address.
      const before13 = `
        CREATE TABLE names (name text PRIMARY KEY, address text NOT NULL, address_key text NOT NULL, coin_type integer NOT NULL,
          attributes jsonb NOT NULL, registered_at bigint NOT NULL);
        CREATE INDEX names_by_address ON names (address_key);
        INSERT INTO names VALUES
          ('old.doorway.id', '0xAa${'a'.repeat(38)}', '0x${'a'.repeat(40)}', 60, '{}', 1000),
          ('new.doorway.id', '0xAa${'a'.repeat(38)}', '0x${'a'.repeat(40)}', 60, '{"bio":"newest"}', 2000),
          ('tie-b.doorway.id', '0x${'b'.repeat(40)}', '0x${'b'.repeat(40)}', 60, '{}', 3000),
          ('tie-a.doorway.id', '0x${'b'.repeat(40)}', '0x${'b'.repeat(40)}', 60, '{}', 3000),
          ('solo.doorway.id', '0x${'c'.repeat(40)}', '0x${'c'.repeat(40)}', 60, '{}', 1000);`

      test('behavior: an address with several names keeps its newest (ties: first by name); coin types widen to bigint', async () => {
        const old = await ground.place()
        try {
          await old.exec(before13)
          const migrated = await old.open()
          try {
            const names = async (digit: string) => (await migrated.names.byAddress(address(digit))).map((r) => r.name)
            expect(await names('a')).toEqual(['new.doorway.id'])
            expect(await names('b')).toEqual(['tie-a.doorway.id'])
            expect(await names('c')).toEqual(['solo.doorway.id'])
            expect(await migrated.names.get('old.doorway.id')).toBeUndefined()
            await expect(migrated.names.put(nameRecord('another.doorway.id', address('c')))).rejects.toBeInstanceOf(AddressHasName)
            const evm = { ...nameRecord('evm.doorway.id', address('d')), coinType: 0x80000000 + 31337 }
            await migrated.names.put(evm)
            expect(await migrated.names.get(evm.name)).toEqual(evm)
          } finally {
            await migrated.close()
          }
          // Opening again migrates nothing twice.
          const reopened = await old.open()
          expect((await reopened.names.byAddress(address('a'))).map((r) => r.name)).toEqual(['new.doorway.id'])
          await reopened.close()
        } finally {
          await old.dispose()
        }
      }, 60_000)
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

      test('behavior: get finds the address’s session by pci, in any address case, with its delegation', async () => {
        const owner = fresh()
        const s = session(owner, unique('pci'), 1000)
        await store.sessions.put(s)
        expect(await store.sessions.get(owner.toUpperCase().replace('0X', '0x'), s.pci)).toEqual(s)
        expect(await store.sessions.get(owner, unique('pci'))).toBeUndefined()
        expect(await store.sessions.get(fresh(), s.pci)).toBeUndefined()
      })

      test('behavior: a session without a delegation keeps none', async () => {
        const s = { ...session(fresh(), unique('pci'), 1000), delegation: null }
        await store.sessions.put(s)
        expect(await store.sessions.list(s.address)).toEqual([s])
      })

      test('behavior: add records a session once; the same pci again is false and changes nothing, a revoked one stays revoked', async () => {
        const s = session(fresh(), unique('pci'), 1000)
        expect(await store.sessions.add(s)).toBe(true)
        expect(await store.sessions.add({ ...s, createdAt: 2000, chainId: 'eip155:31338' })).toBe(false)
        expect(await store.sessions.list(s.address)).toEqual([s])
        await store.sessions.revoke(s.address, s.pci)
        expect(await store.sessions.add(s)).toBe(false)
        expect(await store.sessions.get(s.address, s.pci)).toEqual({ ...s, revoked: true })
      })

      test('behavior: two adds of one session at once record it once', async () => {
        const s = session(fresh(), unique('pci'), 1000)
        const added = await Promise.all([store.sessions.add(s), store.sessions.add({ ...s, createdAt: 2000 })])
        expect(added.filter(Boolean)).toHaveLength(1)
        expect(await store.sessions.list(s.address)).toHaveLength(1)
      })
    })

    describe('migration of sessions', () => {
      // The sessions table before issue 25: no delegation.
      const before25 = `
        CREATE TABLE sessions (address text NOT NULL, address_key text NOT NULL, pci text NOT NULL, chain_id text NOT NULL,
          permissions jsonb NOT NULL, expiry bigint NOT NULL, revoked boolean NOT NULL DEFAULT false, created_at bigint NOT NULL,
          PRIMARY KEY (address_key, pci));
        INSERT INTO sessions VALUES ('0xAa${'a'.repeat(38)}', '0x${'a'.repeat(40)}', 'old-pci', 'eip155:31337', '[]', 1800000000, true, 1000);`

      test('behavior: a session recorded before delegations were kept is listed with none; new ones keep theirs', async () => {
        const old = await ground.place()
        try {
          await old.exec(before25)
          const migrated = await old.open()
          try {
            const owner = `0xAa${'a'.repeat(38)}`
            const kept: SessionRecord = { address: owner, pci: 'old-pci', chainId: 'eip155:31337', permissions: [], expiry: 1_800_000_000, revoked: true, createdAt: 1000, delegation: null }
            expect(await migrated.sessions.list(owner)).toEqual([kept])
            const added = session(owner, 'new-pci', 2000)
            expect(await migrated.sessions.add(added)).toBe(true)
            expect(await migrated.sessions.list(owner)).toEqual([added, kept])
          } finally {
            await migrated.close()
          }
        } finally {
          await old.dispose()
        }
      }, 60_000)
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
