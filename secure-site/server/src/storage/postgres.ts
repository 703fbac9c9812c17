/** The store for operators running several instances: a PostgreSQL server through a `pg` Pool. */
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export function open(url: string): Promise<Storage> {
  return Sql.open({ kind: 'postgres', url })
}
