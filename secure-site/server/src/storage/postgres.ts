/** The store for operators running several instances: a PostgreSQL server through a `pg` Pool. */
import pg from 'pg'
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export async function open(url: string): Promise<Storage> {
  const pool = new pg.Pool({ connectionString: url })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error('[doorway:secure] postgres idle client', error))
  const queryable = (db: pg.Pool | pg.PoolClient): Sql.Queryable => ({
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await db.query(text, params)).rows as T[] }),
    exec: (script) => db.query(script),
  })
  const client: Sql.Client = {
    ...queryable(pool),
    async transaction(fn) {
      const connection = await pool.connect()
      try {
        await connection.query('BEGIN')
        const result = await fn(queryable(connection))
        await connection.query('COMMIT')
        return result
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        connection.release()
      }
    },
  }
  try {
    return await Sql.create(client, () => pool.end())
  } catch (error) {
    await pool.end()
    throw error
  }
}
