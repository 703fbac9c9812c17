/** The store for operators running several api instances: a PostgreSQL server through a `pg` Pool. */
import pg from 'pg'
import * as Sql from './sql.js'
import type { Storage } from './Storage.js'

export async function open(url: string): Promise<Storage> {
  const pool = new pg.Pool({ connectionString: url })
  let closing = false
  // A client's error (server restart) must not crash the process; the next query reconnects. Each client
  // keeps its own listener: the pool drops it from a client it is ending, whose connection may still be
  // cut by the server (a dropped database) after pool.end() has resolved.
  const logError = (error: Error) => void (closing || console.error('[doorway:api] postgres client', error))
  pool.on('error', logError)
  pool.on('connect', (connection) => connection.on('error', logError))
  const client: Sql.Client = {
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await pool.query(text, params)).rows as T[] }),
    exec: (script) => pool.query(script),
    async transaction(fn) {
      const connection = await pool.connect()
      try {
        await connection.query('BEGIN')
        const result = await fn({ query: async <T>(text: string, params?: unknown[]) => ({ rows: (await connection.query(text, params)).rows as T[] }) })
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
    return await Sql.create(client, () => ((closing = true), pool.end()))
  } catch (error) {
    await pool.end()
    throw error
  }
}
