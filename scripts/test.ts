/**
 * `npm test`: type-check, unit tests, then end-to-end tests in Debian's Chromium. When Chromium is
 * missing it installs it with apt if it can, else prints exactly what to run.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const results = '.test-results'
rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

step('Type-check', 'npx', ['tsc', '-p', 'tsconfig.json'])
step('Unit tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${results}/unit.json`])
ensureChromium()
step('End-to-end tests (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: `${results}/e2e.json`,
})
summary()

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
  const root = process.getuid?.() === 0
  if (root && existsSync('/usr/bin/apt-get')) {
    console.log('\n── Chromium is missing: installing Debian chromium with apt-get')
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
      const { status } = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      if (status !== 0) break
    }
    if (existsSync(chromium)) return
  }
  console.error(`
Chromium was not found at ${chromium} and could not be installed here.
Install Debian's Chromium, then run npm test again:
  sudo apt-get update && sudo apt-get install -y chromium
or point CHROMIUM_PATH at an existing Chromium binary.`)
  process.exit(1)
}

/** One closing line for the whole run, counted from both runners' JSON reports. */
function summary() {
  const read = (file: string) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined)
  const unit = read(`${results}/unit.json`)
  const e2e = read(`${results}/e2e.json`)
  const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0)
  const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0)
  console.log(`\nunit and e2e: ${passed} passed, ${failed} failed`)
}
