/** The default database: PGlite (PostgreSQL in WebAssembly) persisted to a directory, no server to run. */
import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import * as Pool from './Pool.js'

/** The database in `dir`, created when the directory does not exist yet. */
export async function pool(dir: string): Promise<Pool.Pool> {
  await mkdir(dir, { recursive: true })
  // A plain path selects PGlite's Node filesystem (nodefs).
  return Pool.fromPGlite(await PGlite.create(dir))
}
