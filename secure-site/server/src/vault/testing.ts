/**
 * The vault's store for tests: PGlite in memory (`memory`, what the app's tests use), and the same on a
 * throwaway PostgreSQL (@doorway/storage/TestPostgres), each with raw SQL for what only someone holding
 * the database does, and a second store over the same database, as a restarted vault would open it.
 */
import { PGlite } from '@electric-sql/pglite'
import * as Pool from '@doorway/storage/Pool'
import * as Postgres from '@doorway/storage/Postgres'
import * as TestPostgres from '@doorway/storage/TestPostgres'
import * as Store from './store.js'

export type Place = {
  store: Store.Store
  /** Runs SQL beside the store, as someone holding the database would. */
  raw<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>
  /** A second store over the same database, as a restarted vault would open it. */
  another(): Promise<Store.Store>
  /** Another pool over the same database, for another schema beside the vault's. */
  pool(): Pool.Pool
  dispose(): Promise<void>
}

/** An in-memory PGlite store; `dispose` closes it. */
export async function memory(): Promise<Place> {
  const db = new PGlite()
  const store = await Pool.build(Pool.fromPGlite(db), Store.create)
  return {
    store,
    raw: async (text, params) => (await db.query<never>(text, params)).rows,
    // The database stays open until the first store closes it.
    another: () => Store.create(db, async () => {}),
    pool: () => ({ client: db, close: async () => {} }),
    dispose: () => store.close(),
  }
}

async function postgres(): Promise<Place> {
  const server = await TestPostgres.server()
  const database = await TestPostgres.database(server.url, 'doorway_vault')
  const config = { kind: 'postgres', url: database.url } as const
  const store = await Store.open(config)
  const pools: Pool.Pool[] = []
  const extra = () => {
    const pool = Postgres.pool(database.url, { logPrefix: '[doorway:test]' })
    pools.push(pool)
    return pool
  }
  // The storage package's pool, not a bare pg.Pool: its close waits for the connection to end, and a
  // connection the server cuts at teardown is logged rather than thrown (storage/src/Postgres.ts).
  const admin = Postgres.pool(database.url, { logPrefix: '[doorway:test]' })
  return {
    store,
    raw: async (text, params) => (await admin.client.query<never>(text, params)).rows,
    another: () => Store.create(extra().client, async () => {}),
    pool: extra,
    dispose: async () => {
      await Promise.all([admin.close(), store.close(), ...pools.map((p) => p.close())])
      await database.drop()
      await server.stop()
    },
  }
}

export const backends: [string, () => Promise<Place>][] = [
  ['PGlite', memory],
  ['PostgreSQL', postgres],
]
