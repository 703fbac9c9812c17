/**
 * A throwaway PostgreSQL server for tests, from Debian's binaries: its own data directory, unix socket
 * and free TCP port on 127.0.0.1, fsync off. Root cannot run postgres, so as root the server runs as
 * the `postgres` user. `npm test` installs the binaries (scripts/test.ts ensurePostgres).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const installCommand = 'apt-get install -y postgresql'

export async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
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

/** The newest installed version's bin directory, or an error that says what to install. */
export function findBin(base = '/usr/lib/postgresql'): string {
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) throw new Error(`PostgreSQL server binaries not found under ${base}/*/bin. Install them:\n  ${installCommand}\nor set DOORWAY_TEST_POSTGRES_URL to a server the tests may use.`)
  return join(base, newest, 'bin')
}

function freePort(): Promise<number> {
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
