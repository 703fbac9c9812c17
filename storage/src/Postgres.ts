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
  // pool.end() resolves once its clients are told to end, before their connections have closed; close waits
  // for each, so a caller that drops the database or stops the server next ends no live connection.
  const open = new Set<Promise<void>>()
  // pg-pool re-emits an idle client's error on the pool, where it would throw unheard; the client's own
  // listener has logged it once already.
  pool.on('error', () => {})
  pool.on('connect', (connection) => {
    connection.on('error', logError)
    const ended = new Promise<void>((resolve) => connection.once('end', () => (open.delete(ended), resolve())))
    open.add(ended)
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
  const close = async () => {
    closing = true
    await pool.end()
    await Promise.all(open)
  }
  return { client, close }
}

function queryable(db: pg.Pool | pg.PoolClient): Sql.Queryable {
  return {
    query: async <T>(text: string, params?: unknown[]) => ({ rows: (await db.query(text, params)).rows as T[] }),
    exec: (script) => db.query(script),
  }
}
