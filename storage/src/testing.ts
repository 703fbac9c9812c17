/**
 * The two databases the storage package's tests run on, each handing out fresh empty databases: PGlite
 * in memory, and PostgreSQL (TestPostgres: DOORWAY_TEST_POSTGRES_URL, else a throwaway server).
 */
import { PGlite } from '@electric-sql/pglite'
import * as Pool from './Pool.js'
import * as Postgres from './Postgres.js'
import * as TestPostgres from './TestPostgres.js'

/** An empty database: pools over it (each its own connections on PostgreSQL), and dropping it. */
export type Database = { pool(): Pool.Pool; dispose(): Promise<void> }

/** Where databases are made; dispose stops what the ground started. */
export type Ground = { database(): Promise<Database>; dispose(): Promise<void> }

export const grounds: [string, () => Promise<Ground>][] = [
  [
    'PGlite',
    async () => ({
      async database() {
        const db = new PGlite()
        // Pools share the one in-memory instance; only dispose closes it.
        return { pool: () => ({ client: db, close: async () => {} }), dispose: () => db.close() }
      },
      dispose: async () => {},
    }),
  ],
  [
    'PostgreSQL',
    async () => {
      const server = await TestPostgres.server()
      return {
        async database() {
          const database = await TestPostgres.database(server.url, 'doorway_storage')
          const pools: Pool.Pool[] = []
          return {
            pool: () => {
              const pool = Postgres.pool(database.url, { logPrefix: '[doorway:test]' })
              pools.push(pool)
              return pool
            },
            dispose: async () => {
              await Promise.all(pools.map((p) => p.close()))
              await database.drop()
            },
          }
        },
        dispose: () => server.stop(),
      }
    },
  ],
]
