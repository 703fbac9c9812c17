import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { resolveFile, serve } from './static.js'

describe('resolveFile', () => {
  const mount = { prefix: '/', dir: '/srv/site' }
  test.each([
    ['/', '/srv/site/index.html'],
    ['/assets/app.js', '/srv/site/assets/app.js'],
    ['//assets/app.js', '/srv/site/assets/app.js'],
  ])('behavior: %s → %s', (path, file) => {
    expect(resolveFile(mount, path)).toBe(file)
  })
  test.each(['/../etc/passwd', '/assets/../../etc/passwd', '/..'])('error: %s climbs out and is refused', (path) => {
    expect(resolveFile(mount, path)).toBeUndefined()
  })
})

describe('serve', () => {
  test('param: handlers answer their own requests, any method, before the mounts; the rest are files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doorway-static-'))
    writeFileSync(join(dir, 'index.html'), '<p>page</p>')
    const [server] = await serve({
      port: 0,
      hosts: ['127.0.0.1'],
      mounts: [{ prefix: '/', dir }],
      headers: {},
      handlers: [(req, res) => req.url === '/api/hello' && (res.writeHead(201).end(`hello ${req.method}`), true)],
    })
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
    try {
      const api = await fetch(`${base}/api/hello`, { method: 'POST' })
      expect([api.status, await api.text()]).toEqual([201, 'hello POST'])
      const page = await fetch(`${base}/`)
      expect([page.status, await page.text()]).toEqual([200, '<p>page</p>'])
    } finally {
      server!.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
