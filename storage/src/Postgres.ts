/** The database for operators running several instances: a PostgreSQL server through a `pg` Pool. */
import pg from 'pg'
import type * as Pool from './Pool.js'
import type * as Sql from './Sql.js'

export function pool(url: string, options: Pool.open.Options): Pool.Pool {
  const pool = new pg.Pool({ connectionString: url })
  let closing = false
  // A client's error (server restart) must not crash the process; the next query reconnects. Each client
  // keeps its own listener: the pool drops it from a client it is ending, whose connection may still be
  // cut by the server (a dropped database) after pool.end() has resolved.
  const logError = (error: Error) => void (closing || console.error(`${options.logPrefix} postgres client`, error))
  pool.on('error', logError)
  pool.on('connect', (connection) => connection.on('error', logError))
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
  return { client, close: () => ((closing = true), pool.end()) }
}

function queryable(db: pg.Pool | pg.PoolClient): Sql.Queryable {
  return {
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await db.query(text, params)).rows as T[] }),
    exec: (script) => db.query(script),
  }
}
