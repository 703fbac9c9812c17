/**
 * A database for a server's store: an embedded PGlite directory by default (no server to run), or a
 * PostgreSQL server for operators running several instances. Either is one Sql.Client and a close.
 * Only the chosen driver is loaded. `import * as Pool from '@doorway/storage/Pool'`.
 */
import type { PGlite } from '@electric-sql/pglite'
import type * as Sql from './Sql.js'

export type Pool = { client: Sql.Client; close(): Promise<void> }

export type Config = { kind: 'embedded'; dir: string } | { kind: 'postgres'; url: string }

/** A postgres:// URL selects PostgreSQL; anything else is the embedded database's directory. */
export function fromString(value: string): Config {
  return /^postgres(ql)?:\/\//.test(value) ? { kind: 'postgres', url: value } : { kind: 'embedded', dir: value }
}

export async function open(config: Config, options: open.Options): Promise<Pool> {
  if (config.kind === 'postgres') return (await import('./Postgres.js')).pool(config.url, options)
  return (await import('./Embedded.js')).pool(config.dir)
}

export declare namespace open {
  type Options = {
    /** Starts the lines logged for a dropped connection, naming the server: `[doorway:api]`. */
    logPrefix: string
  }
}

/** An open PGlite (an in-memory one in tests) as a pool; closing the pool closes it. */
export function fromPGlite(db: PGlite): Pool {
  return { client: db, close: () => db.close() }
}

/**
 * What `create` makes on the pool (a store, after its migrations), handed the pool's close; when making
 * it fails, the pool is closed before the error is thrown, so a failed start leaks no connection.
 */
export async function build<T>(pool: Pool, create: (client: Sql.Client, close: () => Promise<void>) => Promise<T>): Promise<T> {
  try {
    return await create(pool.client, pool.close)
  } catch (error) {
    await pool.close()
    throw error
  }
}
