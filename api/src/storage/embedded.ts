/** The default store: PGlite (PostgreSQL in WebAssembly) persisted to a directory, no server to run. */
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export function open(dir: string): Promise<Storage> {
  return Sql.open({ kind: 'embedded', dir })
}
