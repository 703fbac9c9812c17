/**
 * A server's schema as an ordered list of migrations, each applied once per database. What was applied
 * is kept per scope (`api`, `secure`) in `doorway.migrations`, outside the application's own schema so
 * that a listing of its tables shows only its data. A run is one transaction under the scope's advisory
 * lock, so several instances can start at once: the first applies, the others wait and find nothing to
 * do; a migration that fails leaves the database as it was. A released migration is never edited: a
 * change is a new migration at the end. `import * as Migrations from '@doorway/storage/Migrations'`.
 */
import type * as Sql from './Sql.js'

export type Migration = { name: string; sql: string }

/** Serialises creating the record table when two scopes share a database. */
const recordLock = 4242000

// to_regnamespace first: CREATE SCHEMA IF NOT EXISTS needs the right to create schemas even when it exists.
const records = `
DO $$
BEGIN
  IF to_regnamespace('doorway') IS NULL THEN
    CREATE SCHEMA doorway;
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS doorway.migrations (
  scope text NOT NULL,
  name text NOT NULL,
  applied_at bigint NOT NULL,
  PRIMARY KEY (scope, name)
);
`

/** Applies the migrations of `scope` not applied yet, in order; answers their names. */
export async function run(client: Sql.Client, options: run.Options): Promise<string[]> {
  const { scope, lock, migrations } = options
  const names = migrations.map((m) => m.name)
  if (new Set(names).size !== names.length) throw new Error(`Migrations of ${scope} must have distinct names`)
  return client.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${Math.trunc(lock)})`)
    await tx.query(`SELECT pg_advisory_xact_lock(${recordLock})`)
    await tx.exec(records)
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM doorway.migrations WHERE scope = $1', [scope])).rows.map((r) => r.name))
    const applied: string[] = []
    for (const migration of migrations) {
      if (done.has(migration.name)) continue
      await tx.exec(migration.sql)
      await tx.query('INSERT INTO doorway.migrations (scope, name, applied_at) VALUES ($1, $2, $3)', [scope, migration.name, Date.now()])
      applied.push(migration.name)
    }
    return applied
  })
}

export declare namespace run {
  type Options = {
    /** Whose migrations these are; scopes sharing a database keep separate records. */
    scope: string
    /** The scope's advisory lock id (the one its schema script took before there were migrations). */
    lock: number
    migrations: readonly Migration[]
  }
}
