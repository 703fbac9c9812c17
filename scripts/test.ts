/**
 * `npm test`: type-check, lint, the package rules, unit tests, then end-to-end tests in Debian's Chromium. When Chromium or
 * PostgreSQL (the storage tests start a throwaway server) is missing it installs it with apt if it
 * can, else prints exactly what to run.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const results = '.test-results'
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

step('Type-check', 'npx', ['tsc', '-p', 'tsconfig.json'])
step('Lint (ESLint, type-aware)', 'npx', ['eslint', '.'])
step('Package rules (dependency-cruiser)', 'npx', ['depcruise', '--config', '.dependency-cruiser.cjs', ...workspaceFolders()])
ensurePostgres()
step('Unit tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${results}/unit.json`])
ensureChromium()
step('End-to-end tests (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: `${results}/e2e.json`,
})
summary()

/** Every workspace and the root's own code folders: what the package rules cover. */
function workspaceFolders(): string[] {
  const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces: string[] }
  return [...workspaces, 'e2e', 'bench', 'scripts']
}

function step(title: string, command: string, args: string[], env: Record<string, string> = {}) {
  console.log(`\n── ${title}`)
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (status !== 0) {
    console.error(`\n${title} failed.`)
    summary()
    process.exit(status ?? 1)
  }
}

function ensureChromium() {
  if (existsSync(chromium)) return
  aptInstall('chromium')
  if (existsSync(chromium)) return
  console.error(`
Chromium was not found at ${chromium} and could not be installed here.
Install Debian's Chromium, then run npm test again:
  sudo apt-get update && sudo apt-get install -y chromium
or point CHROMIUM_PATH at an existing Chromium binary.`)
  process.exit(1)
}

/** The storage tests run a throwaway server from /usr/lib/postgresql/<version>/bin (storage/src/TestPostgres.ts). */
function ensurePostgres() {
  if (process.env.DOORWAY_TEST_POSTGRES_URL || hasInitdb()) return
  aptInstall('postgresql')
  if (hasInitdb()) return
  console.error(`
PostgreSQL's server binaries were not found under /usr/lib/postgresql/*/bin and could not be installed here.
Install Debian's PostgreSQL, then run npm test again:
  sudo apt-get update && sudo apt-get install -y postgresql
or set DOORWAY_TEST_POSTGRES_URL to a server the tests may create databases on.`)
  process.exit(1)
}

function hasInitdb(): boolean {
  const base = '/usr/lib/postgresql'
  return existsSync(base) && readdirSync(base).some((version) => existsSync(`${base}/${version}/bin/initdb`))
}

/** As root with apt, installs a Debian package; otherwise does nothing and the caller explains. */
function aptInstall(name: string) {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return
  console.log(`\n── ${name} is missing: installing Debian ${name} with apt-get`)
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', name]]) {
    const { status } = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    if (status !== 0) break
  }
}

/** One closing line for the whole run, counted from both runners' JSON reports. */
function summary() {
  type Report = { numPassedTests?: number; numFailedTests?: number; stats?: { expected?: number; unexpected?: number; flaky?: number } }
  const read = (file: string) => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined)
  const unit = read(`${results}/unit.json`)
  const e2e = read(`${results}/e2e.json`)
  const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0)
  const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0)
  console.log(`\nunit and e2e: ${passed} passed, ${failed} failed`)
}
