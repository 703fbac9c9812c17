/**
 * The two stores the server's tests run on, each with raw SQL for what only a thief does (dump every
 * table, rewrite a row): PGlite in memory, and a throwaway PostgreSQL (DOORWAY_TEST_POSTGRES_URL, else
 * Debian's binaries through the api's startPostgres). Never skipped.
 */
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { startPostgres } from '../../../../api/src/storage/testPostgres.js'
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
      const given = process.env.DOORWAY_TEST_POSTGRES_URL
      const server = given ? { url: given, stop: async () => {} } : await startPostgres()
      const database = `doorway_secure_${process.pid}_${Date.now()}`
      await admin(server.url, `CREATE DATABASE ${pg.escapeIdentifier(database)}`)
      const url = new URL(server.url)
      url.pathname = `/${database}`
      const storage = await Postgres.open(url.href)
      const pool = new pg.Pool({ connectionString: url.href, max: 1 })
      return {
        storage,
        raw: async (text, params) => (await pool.query(text, params)).rows,
        another: () => Postgres.open(url.href),
        dispose: async () => {
          await pool.end()
          await storage.close()
          await admin(server.url, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`)
          await server.stop()
        },
      }
    },
  ],
]

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
