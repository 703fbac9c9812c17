import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as App from '../app.js'
import type { Config } from '../config.js'
import * as Embedded from '../storage/embedded.js'
import type { Storage } from '../storage/Storage.js'

const host = 'http://localhost:5173'
const config: Config = {
  host: '127.0.0.1',
  port: 0,
  publicUrl: 'http://127.0.0.1:0',
  networks: {},
  projects: {
    demo: { origins: [host, 'https://app.example/'] },
    quiet: { origins: [host], analytics: false },
    loud: { origins: [host], analytics: true },
  },
  prices: {},
  storage: { kind: 'embedded', dir: '' },
}

let dir: string
let storage: Storage
let app: ReturnType<typeof App.create>
let n = 0
const noIndexer = { sync: () => Promise.reject(new Error('no indexer in these tests')) }

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'doorway-analytics-'))
  storage = await Embedded.open(dir)
  app = App.create({ config, rpc: () => Promise.reject(new Error('no rpc in these tests')), storage, now: () => 0, indexer: noIndexer })
}, 120_000)
afterAll(async () => {
  await storage?.close()
  await rm(dir, { recursive: true, force: true })
})

function event(overrides: Record<string, unknown> = {}) {
  return {
    eventId: `${String(++n).padStart(8, '0')}-1111-4222-8333-444444444444`,
    url: `${host}/swap?from=ETH`,
    domain: host,
    timestamp: 1_760_000_000_000 + n,
    props: { type: 'track', event: 'MODAL_OPEN', address: `0x${'a'.repeat(40)}`, properties: { connected: false } },
    ...overrides,
  }
}

function post(body: unknown, query = 'projectId=demo&st=doorway&sv=0.1.0') {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }
  return app.request(`/e?${query}`, init)
}

async function answer(response: Response) {
  const text = await response.text()
  // Answers say what was wrong; never a stack trace or a file path.
  expect(text).not.toMatch(/\n\s+at |\.ts:\d|node_modules/)
  return { status: response.status, body: JSON.parse(text) as unknown }
}

describe('POST /e', () => {
  test('behavior: stores the event and answers 202 { success: true }, durably', async () => {
    const e = event()
    expect(await answer(await post(e))).toEqual({ status: 202, body: { success: true } })
    expect(await storage.analytics.list('demo', 1)).toEqual([{ projectId: 'demo', ...e }])
    await storage.close()
    storage = await Embedded.open(dir)
    app = App.create({ config, rpc: () => Promise.reject(new Error('no rpc')), storage, now: () => 0, indexer: noIndexer })
    expect(await storage.analytics.list('demo', 1)).toEqual([{ projectId: 'demo', ...e }])
  }, 60_000)

  test('behavior: an allowlist entry with a trailing slash matches its origin', async () => {
    const e = event({ domain: 'https://app.example', url: 'https://app.example/' })
    expect((await post(e)).status).toBe(202)
    expect(await storage.analytics.list('demo', 1)).toEqual([{ projectId: 'demo', ...e }])
  })

  test('error: 403 with the allowlist message for a foreign origin, nothing stored', async () => {
    const e = event({ domain: 'http://evil.example', url: 'http://evil.example/page' })
    expect(await answer(await post(e))).toEqual({
      status: 403,
      body: { message: 'Origin http://evil.example not found on Allowlist - update configuration' },
    })
    expect((await storage.analytics.list('demo')).map((x) => x.eventId)).not.toContain(e.eventId)
  })

  test.each([
    ['another port', 'http://localhost:5174'],
    ['another scheme', 'https://localhost:5173'],
    ['a subdomain', 'http://sub.localhost:5173'],
  ])('error: 403 for %s of an allowed origin', async (_, domain) => {
    expect(await answer(await post(event({ domain })))).toEqual({
      status: 403,
      body: { message: `Origin ${domain} not found on Allowlist - update configuration` },
    })
  })

  test.each([
    ['missing projectId', 'st=doorway&sv=0.1.0', 400, 'Missing projectId'],
    ['unknown projectId', 'projectId=nope', 403, 'Unknown projectId nope'],
  ])('error: %s', async (_, query, status, message) => {
    expect(await answer(await post(event(), query))).toEqual({ status, body: { message } })
  })

  test.each([
    ['not JSON', '{', 'Expected a JSON object body'],
    ['a JSON array', [], 'Expected a JSON object body'],
    ['eventId missing', event({ eventId: undefined }), 'Invalid eventId'],
    ['eventId not a string', event({ eventId: 12345678 }), 'Invalid eventId'],
    ['eventId too short', event({ eventId: 'abc' }), 'Invalid eventId'],
    ['eventId over 64 characters', event({ eventId: 'a'.repeat(65) }), 'Invalid eventId'],
    ['eventId not uuid-like', event({ eventId: "x'; DROP TABLE analytics_events; --" }), 'Invalid eventId'],
    ['url missing', event({ url: undefined }), 'Invalid url'],
    ['url not a URL', event({ url: 'not a url' }), 'Invalid url'],
    ['url javascript:', event({ url: 'javascript:alert(1)' }), 'Invalid url'],
    ['domain missing', event({ domain: undefined }), 'Invalid domain'],
    ['domain a bare host', event({ domain: 'localhost:5173' }), 'Invalid domain'],
    ['domain with a path', event({ domain: `${host}/app` }), 'Invalid domain'],
    ['domain with a trailing slash', event({ domain: `${host}/` }), 'Invalid domain'],
    ['timestamp missing', event({ timestamp: undefined }), 'Invalid timestamp'],
    ['timestamp a string', event({ timestamp: '1760000000000' }), 'Invalid timestamp'],
    ['timestamp fractional', event({ timestamp: 1.5 }), 'Invalid timestamp'],
    ['timestamp negative', event({ timestamp: -1 }), 'Invalid timestamp'],
    ['props missing', event({ props: undefined }), 'Invalid props'],
    ['props an array', event({ props: [1] }), 'Invalid props'],
    ['props null', event({ props: null }), 'Invalid props'],
    ['props over 16 KB', event({ props: { blob: 'x'.repeat(16 * 1024) } }), 'Invalid props'],
  ])('param: 400 for %s', async (_, body, message) => {
    const { status, body: answered } = await answer(await post(body))
    expect(status).toBe(400)
    expect((answered as { message: string }).message).toMatch(new RegExp(`^${message}`))
  })

  test('param: 400 says what was expected', async () => {
    expect(await answer(await post(event({ props: 'x' })))).toEqual({
      status: 400,
      body: { message: 'Invalid props: expected a JSON object of at most 16384 bytes' },
    })
  })

  test('error: 413 for a body over 32 KB', async () => {
    const { status } = await answer(await post(event({ props: { blob: 'x'.repeat(40 * 1024) } })))
    expect(status).toBe(413)
  })

  test('behavior: a project with analytics off gets 202 and nothing is stored', async () => {
    const e = event()
    expect(await answer(await post(e, 'projectId=quiet'))).toEqual({ status: 202, body: { success: true } })
    expect(await storage.analytics.list('quiet')).toEqual([])
  })
})

describe('GET /getAnalyticsConfig', () => {
  test.each([
    ['demo', true],
    ['loud', true],
    ['quiet', false],
  ])('behavior: %s → isAnalyticsEnabled %s', async (projectId, enabled) => {
    expect(await answer(await app.request(`/getAnalyticsConfig?projectId=${projectId}&st=doorway&sv=0.1.0`))).toEqual({
      status: 200,
      body: { isAnalyticsEnabled: enabled },
    })
  })

  test.each([
    ['missing projectId', '', 400, 'Missing projectId'],
    ['unknown projectId', '?projectId=nope', 403, 'Unknown projectId nope'],
  ])('error: %s', async (_, query, status, message) => {
    expect(await answer(await app.request(`/getAnalyticsConfig${query}`))).toEqual({ status, body: { message } })
  })
})
