/** The default store: PGlite (PostgreSQL in WebAssembly) persisted to a directory, no server to run. */
import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export async function open(dir: string): Promise<Storage> {
  await mkdir(dir, { recursive: true })
  // A plain path selects PGlite's Node filesystem (nodefs).
  return fromPGlite(await PGlite.create(dir))
}

/** The store over an open PGlite (an in-memory one in tests); closing the store closes it. */
export async function fromPGlite(db: PGlite): Promise<Storage> {
  try {
    return await Sql.create(db, () => db.close())
  } catch (error) {
    await db.close()
    throw error
  }
}
