/**
 * What a server's store needs from a database driver, so one SQL runs on PGlite and on PostgreSQL and
 * the two cannot drift apart: parameterised queries, a multi-statement script, and a transaction on one
 * connection. PGlite satisfies it as it is; Postgres.ts adapts a `pg` Pool.
 * `import type * as Sql from '@doorway/storage/Sql'`.
 */

/** Parameterised queries and a multi-statement script without parameters. */
export type Queryable = {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>
  exec(script: string): Promise<unknown>
}

/** Queries, and a transaction whose queries commit together or not at all (any throw rolls it back). */
export type Client = Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }
