/**
 * The package rules (.dependency-cruiser.cjs, docs/architecture.md §11) can fail: cruising
 * scripts/fixtures/layering, a tree of deliberately wrong imports, reports each rule where it is broken.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, test } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fixture = join(root, 'scripts/fixtures/layering')

type Violation = { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }

let violations: Violation[] = []
beforeAll(() => {
  const run = spawnSync(join(root, 'node_modules/.bin/depcruise'), ['.', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd: fixture, encoding: 'utf8' })
  violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations
}, 60_000)

const reported = (rule: string) => violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`)

describe('dependency rules', () => {
  test.each([
    ['by-package-name', 'api/src/main.ts → devnet/src/stack.ts'],
    ['servers-not-devnet', 'api/src/main.ts → devnet/src/stack.ts'],
    ['secure-site-alone', 'secure-site/server/src/app.ts → api/src/main.ts'],
    ['secure-site-halves', 'secure-site/src/wallet/Server.ts → secure-site/server/src/Stamp.ts'],
    ['frame-core-not-features', 'frame-app/src/core/connection.ts → frame-app/src/features/siwx/siwx.ts'],
  ])('error: %s is reported for %s', (rule, edge) => {
    expect(reported(rule)).toContain(edge)
  })

  test('error: a cycle of value imports is reported', () => {
    expect(reported('no-circular').some((edge) => /shared\/src\/[ab]\.ts → shared\/src\/[ab]\.ts/.test(edge))).toBe(true)
  })

  test('behavior: a cycle through type-only imports is allowed', () => {
    expect(violations.filter((v) => /shared\/src\/[cd]\.ts/.test(v.from))).toEqual([])
  })
})
