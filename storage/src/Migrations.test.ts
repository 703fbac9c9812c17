import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Migrations from './Migrations.js'
import { type Database, type Ground, grounds } from './testing.js'

const lock = 4242901
const create = { name: '1-notes', sql: 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)' }
// Not idempotent: applied twice, it would leave two rows.
const seed = { name: '2-seed', sql: `INSERT INTO notes (text) VALUES ('seeded')` }
const rename = { name: '3-rename', sql: 'ALTER TABLE notes RENAME COLUMN text TO body' }

describe.each(grounds)('%s', (_, make) => {
  let ground: Ground
  const databases: Database[] = []
  beforeAll(async () => {
    ground = await make()
  }, 120_000)
  afterAll(async () => {
    await Promise.all(databases.map((d) => d.dispose()))
    await ground?.dispose()
  }, 60_000)

  // Each test takes a fresh database, and a fresh PGlite starts slowly on a loaded machine: 60 s per test.
  const fresh = async () => {
    const database = await ground.database()
    databases.push(database)
    return database
  }

  test('behavior: applies the migrations in order, once; a later run applies only the new ones', async () => {
    const { client } = (await fresh()).pool()
    expect(await Migrations.run(client, { scope: 'app', lock, migrations: [create, seed] })).toEqual(['1-notes', '2-seed'])
    expect(await Migrations.run(client, { scope: 'app', lock, migrations: [create, seed] })).toEqual([])
    expect(await Migrations.run(client, { scope: 'app', lock, migrations: [create, seed, rename] })).toEqual(['3-rename'])
    expect((await client.query('SELECT body FROM notes')).rows).toEqual([{ body: 'seeded' }])
  }, 60_000)

  test('behavior: runs racing from several pools apply each migration once', async () => {
    const database = await fresh()
    const runs = await Promise.all(Array.from({ length: 4 }, () => Migrations.run(database.pool().client, { scope: 'app', lock, migrations: [create, seed] })))
    expect(runs.flat().sort()).toEqual(['1-notes', '2-seed'])
    expect((await database.pool().client.query('SELECT text FROM notes')).rows).toEqual([{ text: 'seeded' }])
  }, 60_000)

  test('error: a failing migration leaves the database as it was, and the run can be tried again', async () => {
    const { client } = (await fresh()).pool()
    const broken = { name: '2-broken', sql: 'INSERT INTO missing VALUES (1)' }
    await expect(Migrations.run(client, { scope: 'app', lock, migrations: [create, broken] })).rejects.toMatchObject({ code: '42P01' })
    expect((await client.query(`SELECT to_regclass('notes') AS notes`)).rows).toEqual([{ notes: null }])
    expect(await Migrations.run(client, { scope: 'app', lock, migrations: [create, seed] })).toEqual(['1-notes', '2-seed'])
  }, 60_000)

  test('behavior: scopes sharing a database keep separate records, and the records stay out of the public schema', async () => {
    const { client } = (await fresh()).pool()
    const other = { name: '1-notes', sql: 'CREATE TABLE other_notes (id int)' }
    await Migrations.run(client, { scope: 'app', lock, migrations: [create] })
    expect(await Migrations.run(client, { scope: 'other', lock: lock + 1, migrations: [other] })).toEqual(['1-notes'])
    const tables = await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)
    expect(tables.rows.map((t) => t.table_name)).toEqual(['notes', 'other_notes'])
  }, 60_000)

  test('error: two migrations of one name are refused before anything runs', async () => {
    const { client } = (await fresh()).pool()
    await expect(Migrations.run(client, { scope: 'app', lock, migrations: [create, { ...seed, name: create.name }] })).rejects.toThrow('distinct names')
    expect((await client.query(`SELECT to_regclass('notes') AS notes`)).rows).toEqual([{ notes: null }])
  }, 60_000)
})
