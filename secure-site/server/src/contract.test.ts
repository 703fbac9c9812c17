/**
 * The server and its route table (shared/src/contracts/secureSite.ts) agree: every route is served at
 * its method and path, and API.md, the contract people read, names every one.
 */
import { readFileSync } from 'node:fs'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { describe, expect, test } from 'vitest'
import * as App from './app.js'
import type { Storage } from './storage/Storage.js'
import * as Vault from './Vault.js'

const routes = Object.values(SecureSite.table)
// Unsigned requests are refused before anything is stored, mailed or opened.
const app = App.app({ storage: {} as Storage, secrets: {} as App.Deps['secrets'], vault: Vault.client('http://vault.test'), mailer: { send: async () => {} }, now: Date.now, log: () => {} })
const request = (method: string, path: string) => app.request(path, { method, ...(method === 'POST' && { body: '{}', headers: { 'content-type': 'application/json' } }) })

describe('table', () => {
  test.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('behavior: %s is served', async (_, route) => {
    const response = await request(route.method, route.path)
    const expected = route === SecureSite.table.healthz ? 200 : route === SecureSite.table.enrol ? 400 : 401
    expect(response.status).toBe(expected)
    // At the same path another method is no route, unless the table has one there too.
    const other = route.method === 'GET' ? 'POST' : 'GET'
    if (!routes.some((r) => r.method === other && r.path === route.path)) expect((await request(other, route.path)).status).toBe(404)
  })

  test('behavior: API.md names every route', () => {
    const doc = readFileSync(new URL('../API.md', import.meta.url), 'utf8')
    for (const route of routes) expect(doc).toContain(`\`${route.method} ${route.path}`)
  })
})
