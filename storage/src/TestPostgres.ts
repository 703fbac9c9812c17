/**
 * PostgreSQL for tests, never skipped: DOORWAY_TEST_POSTGRES_URL when set, else a throwaway server from
 * Debian's binaries: its own data directory, unix socket and free TCP port on 127.0.0.1, fsync off.
 * Root cannot run postgres, so as root the server runs as the `postgres` user. `npm test` installs the
 * binaries (scripts/test.ts ensurePostgres). Each test file takes databases of its own on it.
 * `import * as TestPostgres from '@doorway/storage/TestPostgres'`.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

export const installCommand = 'apt-get install -y postgresql'

export type Server = { url: string; stop(): Promise<void> }

/** The server the tests may use: DOORWAY_TEST_POSTGRES_URL (stop leaves it running), else a throwaway one. */
export async function server(env: NodeJS.ProcessEnv = process.env): Promise<Server> {
  const given = env.DOORWAY_TEST_POSTGRES_URL
  return given ? { url: given, stop: async () => {} } : start()
}

/** A throwaway server; stop kills it and deletes its directory. */
export async function start(): Promise<Server> {
  const bin = findBin()
  const dir = mkdtempSync(join(tmpdir(), 'doorway-pg-'))
  const root = process.getuid?.() === 0
  if (root) execFileSync('chown', ['postgres:postgres', dir])
  const data = join(dir, 'data')
  const run = (command: string, args: string[]) => {
    const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args]
    const result = spawnSync(file, argv, { cwd: dir, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} failed: ${result.error?.message ?? ''}${result.stderr}${log(dir)}`)
  }
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'])
    const port = await freePort()
    const settings = `-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', settings, 'start'])
    const stop = async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

export type Database = { url: string; drop(): Promise<void> }

/** A new empty database on the server, named `<prefix>_<pid>_<time>_<n>`; drop ends its connections. */
export async function database(serverUrl: string, prefix: string): Promise<Database> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${++databases}`
  await admin(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.href, drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`) }
}
let databases = 0

/** Runs SQL on a connection of its own (CREATE DATABASE cannot run in a pool's transaction). */
export async function admin(url: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(script)
  } finally {
    await client.end()
  }
}

/** The newest installed version's bin directory, or an error that says what to install. */
export function findBin(base = '/usr/lib/postgresql'): string {
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) throw new Error(`PostgreSQL server binaries not found under ${base}/*/bin. Install them:\n  ${installCommand}\nor set DOORWAY_TEST_POSTGRES_URL to a server the tests may use.`)
  return join(base, newest, 'bin')
}

/** A TCP port nothing listens on now, on 127.0.0.1 (for a throwaway server; the bench's too). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port'))))
    })
  })
}

function log(dir: string): string {
  const file = join(dir, 'log')
  return existsSync(file) ? `\n${readFileSync(file, 'utf8')}` : ''
}
