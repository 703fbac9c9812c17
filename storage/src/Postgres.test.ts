/**
 * The PostgreSQL pool's connections at their edges: the server cutting one, and closing the pool right
 * before its database is dropped or its server stopped (what every test teardown does).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import * as Postgres from './Postgres.js'
import * as TestPostgres from './TestPostgres.js'

let server: TestPostgres.Server
let admin: pg.Client
beforeAll(async () => {
  server = await TestPostgres.server()
  // Connected before the pools it watches, so its queries answer at once, without a connection's delay.
  admin = new pg.Client({ connectionString: server.url })
  await admin.connect()
}, 120_000)
afterAll(async () => {
  await admin?.end()
  await server?.stop()
}, 60_000)

const nameOf = (database: TestPostgres.Database) => new URL(database.url).pathname.slice(1)

async function connections(database: TestPostgres.Database): Promise<number> {
  const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [nameOf(database)])
  return rows[0]!.n
}

/** A pool that holds `count` connections at once, then sits idle. */
async function busyPool(database: TestPostgres.Database, count: number) {
  const pool = Postgres.pool(database.url, { logPrefix: '[doorway:test]' })
  await Promise.all(Array.from({ length: count }, () => pool.client.query('SELECT pg_sleep(0.01)')))
  return pool
}

describe('pool', () => {
  // pg-pool's end() resolves before its clients' sockets close; a DROP or a server stop then cut live
  // connections, whose 57P01 "terminating connection due to administrator command" was an unhandled error.
  test('behavior: close resolves once every connection has ended; the database then drops without FORCE', async () => {
    for (let round = 0; round < 5; round++) {
      const database = await TestPostgres.database(server.url, 'doorway_pool')
      try {
        const pool = await busyPool(database, 8)
        expect(await connections(database)).toBe(8)
        await pool.close()
        expect(await connections(database)).toBe(0)
        await admin.query(`DROP DATABASE ${pg.escapeIdentifier(nameOf(database))}`)
      } finally {
        await database.drop()
      }
    }
  })

  test('behavior: a connection the server ends is logged under the prefix, never thrown; the next query reconnects', async () => {
    const database = await TestPostgres.database(server.url, 'doorway_pool')
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const pool = await busyPool(database, 2)
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [nameOf(database)])
      await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(2))
      expect(logged.mock.calls.map(([prefix, error]) => [prefix, (error as { code?: string }).code])).toEqual([
        ['[doorway:test] postgres client', '57P01'],
        ['[doorway:test] postgres client', '57P01'],
      ])
      expect((await pool.client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
    } finally {
      await pool.close()
      await database.drop()
    }
  })
})
