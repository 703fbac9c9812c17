import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { afterEach, expect, test, vi } from 'vitest'
import { walletConnectOffline } from './walletConnectOffline.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const dist = (pkg: string) => join(root, 'node_modules/@walletconnect', pkg, 'dist/index.js')

function transform(code: string, id: string) {
  const hook = walletConnectOffline().transform as (this: unknown, code: string, id: string) => { code: string } | undefined
  return hook.call({ error: (message: string) => { throw new Error(message) } }, code, id)
}

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

test('behavior: the installed SDKs skip Verify and telemetry in a local build', () => {
  const utils = transform(readFileSync(dist('utils'), 'utf8'), dist('utils'))?.code ?? ''
  expect(utils).not.toContain('process.env.IS_VITEST')
  expect(utils).toMatch(/function \w+\(\)\{return true\}/)
  const sign = transform(readFileSync(dist('sign-client'), 'utf8'), dist('sign-client'))?.code ?? ''
  expect(sign).not.toContain('global?.Linking')
})

test('behavior: other modules pass through untouched', () => {
  expect(transform('const x = process.env.IS_VITEST', join(root, 'node_modules/other/dist/index.js'))).toBeUndefined()
})

test('error: an SDK without the expected switch fails the build instead of calling out', () => {
  expect(() => transform('function isTestRun(){return false}', dist('utils'))).toThrow(/no longer has/)
})

test.each([
  ['a production build', undefined, false],
  ['a local build', '1', true],
])('behavior: %s has the plugin: %s', async (_, env, expected) => {
  if (env) vi.stubEnv('DOORWAY_LOCAL_BUILD', env)
  else vi.stubEnv('DOORWAY_LOCAL_BUILD', '')
  const config = (await import('../vite.config.js')).default as { plugins: (Plugin | Plugin[])[] }
  const names = config.plugins.flat().map((p) => p.name)
  expect(names.includes('doorway:walletconnect-offline')).toBe(expected)
})
