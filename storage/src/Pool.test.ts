import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import * as Pool from './Pool.js'
import { type Database, type Ground, grounds } from './testing.js'

describe.each(grounds)('%s', (_, make) => {
  let ground: Ground
  let database: Database
  let pool: Pool.Pool
  beforeAll(async () => {
    ground = await make()
    database = await ground.database()
    pool = database.pool()
    await pool.client.exec('CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL); CREATE TABLE log (line text)')
  }, 120_000)
  afterAll(async () => {
    await database?.dispose()
    await ground?.dispose()
  }, 60_000)

  const names = async () => (await pool.client.query<{ name: string }>('SELECT name FROM items ORDER BY id')).rows.map((r) => r.name)

  test('behavior: query takes parameters and answers rows; exec runs a script of several statements', async () => {
    await pool.client.exec(`INSERT INTO log VALUES ('a'); INSERT INTO log VALUES ('b')`)
    const { rows } = await pool.client.query<{ line: string }>('SELECT line FROM log WHERE line = ANY($1) ORDER BY line', [['a', 'b', 'c']])
    expect(rows).toEqual([{ line: 'a' }, { line: 'b' }])
  })

  test('behavior: a transaction sees its own writes, and commits them together with its answer', async () => {
    const answer = await pool.client.transaction(async (tx) => {
      await tx.query('INSERT INTO items VALUES ($1, $2)', [1, 'one'])
      await tx.exec(`INSERT INTO items VALUES (2, 'two')`)
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM items')).rows[0]!.n
    })
    expect(answer).toBe(2)
    expect(await names()).toEqual(['one', 'two'])
  })

  test('error: a throw inside a transaction rolls back every write in it and is thrown as it was', async () => {
    const refusal = new Error('refused')
    const outcome = pool.client.transaction(async (tx) => {
      await tx.query('INSERT INTO items VALUES ($1, $2)', [3, 'three'])
      await tx.exec(`INSERT INTO log VALUES ('rolled back')`)
      throw refusal
    })
    await expect(outcome).rejects.toBe(refusal)
    expect(await names()).toEqual(['one', 'two'])
    expect((await pool.client.query('SELECT line FROM log WHERE line = $1', ['rolled back'])).rows).toEqual([])
  })

  test('error: a failing statement inside a transaction rolls it back; the pool goes on working', async () => {
    const outcome = pool.client.transaction(async (tx) => {
      await tx.query('INSERT INTO items VALUES ($1, $2)', [4, 'four'])
      await tx.query('INSERT INTO items VALUES ($1, $2)', [1, 'duplicate'])
    })
    await expect(outcome).rejects.toMatchObject({ code: '23505' })
    expect(await names()).toEqual(['one', 'two'])
  })

  test('behavior: another pool on the same database sees what was committed', async () => {
    const other = database.pool()
    expect((await other.client.query<{ name: string }>('SELECT name FROM items ORDER BY id')).rows.map((r) => r.name)).toEqual(['one', 'two'])
  })
})

describe('fromString', () => {
  test.each([
    ['postgres://u@db.example/doorway', { kind: 'postgres', url: 'postgres://u@db.example/doorway' }],
    ['postgresql://u@db.example/doorway', { kind: 'postgres', url: 'postgresql://u@db.example/doorway' }],
    ['.doorway/secure-db', { kind: 'embedded', dir: '.doorway/secure-db' }],
  ])('param: %s', (value, config) => {
    expect(Pool.fromString(value)).toEqual(config)
  })
})

describe('open', () => {
  test('behavior: an embedded database is created in a directory that does not exist yet, and kept there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'doorway-pool-'))
    try {
      const config = { kind: 'embedded', dir: join(dir, 'db') } as const
      const first = await Pool.open(config, { logPrefix: '[doorway:test]' })
      await first.client.exec(`CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)`)
      await first.close()
      const again = await Pool.open(config, { logPrefix: '[doorway:test]' })
      expect((await again.client.query('SELECT x FROM kept')).rows).toEqual([{ x: 7 }])
      await again.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('build', () => {
  const fake = () => ({ client: {} as Pool.Pool['client'], close: vi.fn(async () => {}) })

  test('behavior: hands the pool and its close to create and answers what it made', async () => {
    const pool = fake()
    expect(await Pool.build(pool, async (client, close) => ({ client, close }))).toEqual({ client: pool.client, close: pool.close })
    expect(pool.close).not.toHaveBeenCalled()
  })

  test('error: when create fails, the pool is closed and the error thrown', async () => {
    const pool = fake()
    const failure = new Error('migration failed')
    await expect(Pool.build(pool, async () => Promise.reject(failure))).rejects.toBe(failure)
    expect(pool.close).toHaveBeenCalledOnce()
  })
})
