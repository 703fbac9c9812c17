/** The default store: PGlite (PostgreSQL in WebAssembly) persisted to a directory, no server to run. */
import type { PGlite } from '@electric-sql/pglite'
import * as Pool from '@doorway/storage/Pool'
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export function open(dir: string): Promise<Storage> {
  return Sql.open({ kind: 'embedded', dir })
}

/** The store over an open PGlite (an in-memory one in tests); closing the store closes it. */
export function fromPGlite(db: PGlite): Promise<Storage> {
  return Pool.build(Pool.fromPGlite(db), Sql.create)
}
