import { describe, expect, test } from 'vitest'
import * as App from '../app.js'
import type { Listing } from '../catalogue/catalogue.js'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import type { Storage } from '../storage/Storage.js'

// The catalogue reads only the config: the RPC and storage fail loudly if anything reaches them.
const config: Config = {
  host: '127.0.0.1',
  port: 0,
  publicUrl: 'https://api.test',
  networks: {},
  projects: { demo: { origins: ['https://dapp.test'] } },
  prices: {},
  storage: { kind: 'embedded', dir: '/nonexistent' },
}
const unused = new Proxy({}, { get: () => { throw new Error('storage is not for the catalogue') } }) as Storage
const deps: Deps = { config, rpc: async () => { throw new Error('rpc is not for the catalogue') }, storage: unused, now: () => 0, indexer: { sync: () => Promise.reject(new Error('no indexer for the catalogue')) } }
const app = App.create(deps)

async function get(path: string) {
  const response = await app.request(path)
  const text = await response.text()
  return { status: response.status, headers: response.headers, text }
}

async function wallets(query = '') {
  const { status, text } = await get(`/getWallets?projectId=demo&st=appkit&sv=html-1.0.0${query}`)
  expect(status).toBe(200)
  return JSON.parse(text) as { data: Listing[]; count: number }
}

describe('GET /getWallets', () => {
  test('behavior: first page of 40, recommended first, count of all wallets', async () => {
    const { data, count } = await wallets()
    expect(count).toBeGreaterThanOrEqual(70)
    expect(data).toHaveLength(40)
    expect(data.slice(0, 4).map((w) => w.id)).toEqual(['metamask', 'trust', 'coinbase', 'rainbow'])
    expect(data.map((w) => w.order)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
  })

  test('behavior: a listing has the spec §3 fields and an image on this server', async () => {
    const { data } = await wallets('&include=metamask')
    expect(data).toEqual([
      expect.objectContaining({
        id: 'metamask',
        name: 'MetaMask',
        image_id: 'metamask',
        image_url: 'https://api.test/getWalletImage/metamask',
        rdns: 'io.metamask',
        chains: expect.arrayContaining(['eip155:1']),
        mobile_link: 'metamask://',
        desktop_link: null,
        webapp_link: null,
        badge_type: 'certified',
        order: 1,
      }),
    ])
    expect(Object.keys(data[0]!).sort()).toMatchInlineSnapshot(`
      [
        "app_store",
        "badge_type",
        "chains",
        "chrome_store",
        "desktop_link",
        "homepage",
        "id",
        "image_id",
        "image_url",
        "mobile_link",
        "name",
        "order",
        "play_store",
        "rdns",
        "webapp_link",
      ]
    `)
  })

  test('behavior: pages follow on from each other and cover every wallet once', async () => {
    const first = await wallets('&entries=30&page=1')
    const pages = [first]
    for (let page = 2; (page - 1) * 30 < first.count; page++) pages.push(await wallets(`&entries=30&page=${page}`))
    const ids = pages.flatMap((p) => p.data.map((w) => w.id))
    expect(ids).toHaveLength(first.count)
    expect(new Set(ids).size).toBe(first.count)
    expect(pages.flatMap((p) => p.data.map((w) => w.order))).toEqual(ids.map((_, i) => i + 1))
  })

  test('behavior: search 100 entries, case-insensitive on the name', async () => {
    const { data, count } = await wallets('&entries=100&search=WALLET')
    expect(count).toBe(data.length)
    expect(data.length).toBeGreaterThan(10)
    for (const w of data) expect(w.name.toLowerCase()).toContain('wallet')
  })

  test('behavior: chains filter keeps wallets with any of the networks', async () => {
    const polkadot = 'polkadot:91b171bb158e2d3848fa23a9f1c25182'
    const { data } = await wallets(`&entries=100&chains=${polkadot}`)
    expect(data.map((w) => w.id)).toEqual(expect.arrayContaining(['polkadot-js', 'talisman', 'subwallet', 'nova']))
    for (const w of data) expect(w.chains).toContain(polkadot)
  })

  test('behavior: include, exclude and badge_type', async () => {
    expect((await wallets('&include=rabby,phantom,frame')).data.map((w) => w.id)).toEqual(['rabby', 'phantom', 'frame'])
    const { data } = await wallets('&entries=100&exclude=metamask,trust')
    expect(data.map((w) => w.id)).not.toContain('metamask')
    expect(data[0]!.id).toBe('coinbase')
    const certified = await wallets('&entries=100&badge_type=certified')
    for (const w of certified.data) expect(w.badge_type).toBe('certified')
  })

  test('behavior: an empty search or chains filter is no filter', async () => {
    const everything = await wallets()
    expect((await wallets('&search=&chains=')).count).toBe(everything.count)
  })

  test('behavior: a page past the end is empty', async () => {
    expect((await wallets('&page=50')).data).toEqual([])
  })

  test.each([
    ['page 0', '&page=0', 'Invalid page'],
    ['page not a number', '&page=two', 'Invalid page'],
    ['page fractional', '&page=1.5', 'Invalid page'],
    ['entries 0', '&entries=0', 'Invalid entries'],
    ['entries over 100', '&entries=101', 'Invalid entries'],
    ['malformed chain', '&chains=eip155:1,ethereum', 'Invalid chains'],
    ['unknown namespace', '&chains=cosmos:cosmoshub-4', 'Invalid chains'],
    ['empty chain in the list', '&chains=eip155:1,', 'Invalid chains'],
    ['include with capitals', '&include=MetaMask', 'Invalid include'],
    ['exclude with markup', `&exclude=${encodeURIComponent('<script>')}`, 'Invalid exclude'],
    ['search over 64 characters', `&search=${'a'.repeat(65)}`, 'Invalid search'],
    ['unknown badge', '&badge_type=gold', 'Invalid badge_type'],
    ['sv too long', `&sv=${'1'.repeat(65)}`, 'Invalid sv'],
  ])('error: %s → 400', async (_, query, message) => {
    const { status, text } = await get(`/getWallets?projectId=demo${query}`)
    expect(status).toBe(400)
    expect(JSON.parse(text).message).toContain(message)
    expect(text).not.toMatch(/at .*\.ts|stack/i)
  })

  test('error: missing projectId → 400, unknown → 403', async () => {
    expect((await get('/getWallets')).status).toBe(400)
    expect((await get('/getWallets?projectId=other')).status).toBe(403)
  })
})

describe('image blobs', () => {
  test.each([
    ['/getWalletImage/metamask', 'MM'],
    ['/public/getTokenImage/ETH', 'ETH'],
    ['/public/getTokenImage/DUSD', 'DUSD'],
    ['/public/getTokenImage/DWT', 'DWT'],
    ['/public/getCurrencyImage/USD', 'USD'],
    ['/public/getCurrencyImage/eur', 'EUR'],
    ['/public/getAssetImage/anything', 'AN'],
  ])('behavior: %s is an inert, cacheable SVG reading %s', async (path, letters) => {
    const { status, headers, text } = await get(path)
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('image/svg+xml')
    expect(headers.get('cache-control')).toBe('public, max-age=86400')
    expect(headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'")
    expect(headers.get('x-content-type-options')).toBe('nosniff')
    expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 96 96"/)
    expect(text).toContain(`>${letters}</text>`)
  })

  test('behavior: the wallet tile is its colour', async () => {
    expect((await get('/getWalletImage/metamask')).text).toContain('fill="#F6851B"')
  })

  test.each([
    ['/public/getTokenImage/', '<s>'],
    ['/public/getCurrencyImage/', '"&\''],
    ['/public/getAssetImage/', '<svg onload=alert(1)>'],
    ['/public/getTokenImage/', '</text><script>alert(1)</script>'],
  ])('behavior: %s escapes a hostile id %s', async (path, id) => {
    const { status, text } = await get(path + encodeURIComponent(id))
    expect(status).toBe(200)
    expect(text).not.toMatch(/<script|<s>|onload|<svg[^>]*<svg/i)
    // One element of text, and the document is still one svg.
    expect(text.match(/<text/g)).toHaveLength(1)
    expect(text.match(/<svg/g)).toHaveLength(1)
  })

  test('behavior: control characters never reach the SVG', async () => {
    const { text } = await get(`/public/getTokenImage/${encodeURIComponent('\u0000\u0007E\u001bTH')}`)
    expect(text).toContain('>ETH</text>')
    // eslint-disable-next-line no-control-regex -- control characters are what this test looks for
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/)
  })

  test.each(['/getWalletImage/unknown', '/getWalletImage/MetaMask', `/getWalletImage/${encodeURIComponent('<x>')}`])('error: %s → 404', async (path) => {
    const { status, headers, text } = await get(path)
    expect(status).toBe(404)
    expect(headers.get('content-type')).toContain('application/json')
    expect(JSON.parse(text)).toEqual({ message: 'Unknown wallet' })
  })

  test('error: an image id over 128 characters → 400', async () => {
    const { status, text } = await get(`/public/getTokenImage/${'A'.repeat(129)}`)
    expect(status).toBe(400)
    expect(JSON.parse(text).message).toContain('Invalid image id')
  })
})
