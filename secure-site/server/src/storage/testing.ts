/**
 * The two stores the server's tests run on, each with raw SQL for what only a thief does (dump every
 * table, rewrite a row): PGlite in memory, and PostgreSQL (@doorway/storage/TestPostgres:
 * DOORWAY_TEST_POSTGRES_URL, else a throwaway server from Debian's binaries). Never skipped.
 */
import { PGlite } from '@electric-sql/pglite'
import * as StoragePostgres from '@doorway/storage/Postgres'
import * as TestPostgres from '@doorway/storage/TestPostgres'
import * as Embedded from './embedded.js'
import * as Postgres from './postgres.js'
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export type Place = {
  storage: Storage
  /** Runs SQL beside the store, as someone holding the database would. */
  raw<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
  /** A second store over the same database, as another instance starting would open it. */
  another(): Promise<Storage>
  dispose(): Promise<void>
}

export const backends: [string, () => Promise<Place>][] = [
  [
    'PGlite',
    async () => {
      const db = new PGlite()
      const storage = await Embedded.fromPGlite(db)
      return {
        storage,
        raw: async (text, params) => (await db.query<never>(text, params)).rows,
        another: () => Sql.create(db, async () => {}),
        dispose: () => storage.close(),
      }
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const server = await TestPostgres.server()
      const database = await TestPostgres.database(server.url, 'doorway_secure')
      const storage = await Postgres.open(database.url)
      // The storage package's pool, not a bare pg.Pool: its close waits for the connection to end, and a
      // connection the server cuts is logged rather than thrown (storage/src/Postgres.ts).
      const pool = StoragePostgres.pool(database.url, { logPrefix: '[doorway:test]' })
      return {
        storage,
        raw: async (text, params) => (await pool.client.query<never>(text, params)).rows,
        another: () => Postgres.open(database.url),
        dispose: async () => {
          await pool.close()
          await storage.close()
          await database.drop()
          await server.stop()
        },
      }
    },
  ],
]
