import { describe, expect, test } from 'vitest'
import * as Catalogue from './catalogue.js'
import data from './wallets.json' with { type: 'json' }

const eth = 'eip155:1'
const base = 'eip155:8453'
const sol = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const btc = 'bip122:000000000019d6689c085ae165831e93'

function wallet(id: string, overrides: Partial<Catalogue.Wallet> = {}): Catalogue.Wallet {
  return {
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    rdns: null,
    chains: [eth],
    mobile_link: null,
    desktop_link: null,
    webapp_link: null,
    homepage: `https://${id}.example`,
    app_store: null,
    play_store: null,
    chrome_store: null,
    badge_type: 'none',
    recommended: false,
    color: '#112233',
    initials: id.slice(0, 2).toUpperCase(),
    ...overrides,
  }
}

// Data-file order: plain, certified, recommended, plain, recommended+certified, certified.
const wallets = [
  wallet('alpha'),
  wallet('bravo', { badge_type: 'certified', chains: [sol] }),
  wallet('charlie', { recommended: true, chains: [eth, base] }),
  wallet('delta', { chains: [btc] }),
  wallet('echo', { recommended: true, badge_type: 'certified', chains: [sol, btc] }),
  wallet('foxtrot', { badge_type: 'certified', name: 'Fox Trot' }),
]

const all: Catalogue.query.Params = { page: 1, entries: 40, chains: [], include: [], exclude: [], search: undefined, badge: undefined }
const options = { publicUrl: 'https://api.test' }
const ids = (params: Partial<Catalogue.query.Params>) => Catalogue.query(wallets, { ...all, ...params }, options).data.map((w) => w.id)

describe('query', () => {
  test('behavior: recommended first, then certified, then the rest, each in data-file order', () => {
    expect(ids({})).toEqual(['charlie', 'echo', 'bravo', 'foxtrot', 'alpha', 'delta'])
  })

  test('behavior: order is the 1-based rank across pages and count is every match', () => {
    const page2 = Catalogue.query(wallets, { ...all, page: 2, entries: 4 }, options)
    expect(page2.count).toBe(6)
    expect(page2.data.map((w) => [w.id, w.order])).toEqual([
      ['alpha', 5],
      ['delta', 6],
    ])
  })

  test('behavior: a page past the end is empty with the full count', () => {
    expect(Catalogue.query(wallets, { ...all, page: 3, entries: 4 }, options)).toEqual({ data: [], count: 6 })
  })

  test.each([
    // base is eip155: every EVM wallet matches it (EIP-3085 add-chain), so foxtrot and alpha come in.
    ['chains: any of them', { chains: [sol, base] }, ['charlie', 'echo', 'bravo', 'foxtrot', 'alpha']],
    ['chains: none match', { chains: ['polkadot:91b171bb158e2d3848fa23a9f1c25182'] }, []],
    ['chains: an EVM chain nobody lists matches every EVM wallet', { chains: ['eip155:31337'] }, ['charlie', 'foxtrot', 'alpha']],
    ['chains: a Solana chain nobody lists matches no one', { chains: ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'] }, []],
    ['include: only those, in rank order', { include: ['delta', 'echo', 'nope'] }, ['echo', 'delta']],
    ['exclude: none of those', { exclude: ['charlie', 'alpha'] }, ['echo', 'bravo', 'foxtrot', 'delta']],
    ['include and exclude together', { include: ['alpha', 'bravo'], exclude: ['bravo'] }, ['alpha']],
    ['search: case-insensitive substring of the name', { search: 'T' }, ['foxtrot', 'delta']],
    ['search: across words', { search: 'x t' }, ['foxtrot']],
    ['badge certified', { badge: 'certified' }, ['echo', 'bravo', 'foxtrot']],
    ['badge none filters nothing', { badge: 'none' }, ['charlie', 'echo', 'bravo', 'foxtrot', 'alpha', 'delta']],
    ['filters combine', { chains: [eth], badge: 'certified' }, ['foxtrot']],
  ] as const)('param: %s', (_, params, expected) => {
    const result = Catalogue.query(wallets, { ...all, ...params }, options)
    expect(result.data.map((w) => w.id)).toEqual(expected)
    expect(result.count).toBe(expected.length)
  })

  test('behavior: a listing carries the spec §3 fields and the image url, not the image inputs', () => {
    expect(Catalogue.query(wallets, { ...all, entries: 1 }, options).data[0]).toMatchInlineSnapshot(`
      {
        "app_store": null,
        "badge_type": "none",
        "chains": [
          "eip155:1",
          "eip155:8453",
        ],
        "chrome_store": null,
        "desktop_link": null,
        "homepage": "https://charlie.example",
        "id": "charlie",
        "image_id": "charlie",
        "image_url": "https://api.test/getWalletImage/charlie",
        "mobile_link": null,
        "name": "Charlie",
        "order": 1,
        "play_store": null,
        "rdns": null,
        "webapp_link": null,
      }
    `)
  })

  test('behavior: does not reorder the input', () => {
    const before = wallets.map((w) => w.id)
    Catalogue.query(wallets, all, options)
    expect(wallets.map((w) => w.id)).toEqual(before)
  })
})

describe('problems', () => {
  test('behavior: the fixture is valid', () => {
    expect(Catalogue.problems(wallets)).toEqual([])
  })

  test.each([
    ['id with capitals', { id: 'Bad' }, 'id must be'],
    ['rdns not reverse-DNS', { rdns: 'metamask' }, 'rdns must be'],
    ['rdns with a trailing dot', { rdns: 'io.metamask.' }, 'rdns must be'],
    ['chain not CAIP-2', { chains: ['ethereum'] }, 'is not a CAIP-2 id'],
    ['chain with a leading zero', { chains: ['eip155:01'] }, 'is not a CAIP-2 id'],
    ['no chains', { chains: [] }, 'chains must be a non-empty array'],
    ['repeated chain', { chains: [eth, eth] }, 'chains repeat'],
    ['javascript deep link', { mobile_link: 'javascript://%0aalert(1)' }, 'mobile_link must be'],
    ['data link', { desktop_link: 'data:text/html,x' }, 'desktop_link must be'],
    ['deep link without //', { mobile_link: 'metamask:' }, 'mobile_link must be'],
    ['http webapp', { webapp_link: 'http://app.example' }, 'webapp_link must be'],
    ['homepage missing', { homepage: null }, 'homepage must be'],
    ['store on another host', { app_store: 'https://evil.example/app/id1' }, 'app_store must be'],
    ['unknown badge', { badge_type: 'gold' }, 'badge_type must be'],
    ['recommended as a string', { recommended: 'yes' }, 'recommended must be'],
    ['short colour', { color: '#fff' }, 'color must be'],
    ['three initials', { initials: 'ABC' }, 'initials must be'],
    ['unknown field', { extra: 1 }, 'unknown field extra'],
  ])('error: %s', (_, overrides, message) => {
    const found = Catalogue.problems([{ ...wallet('alpha'), ...overrides }])
    expect(found).toHaveLength(1)
    expect(found[0]).toContain(message)
  })

  test('error: duplicate ids and rdns', () => {
    const found = Catalogue.problems([wallet('alpha', { rdns: 'io.alpha' }), wallet('alpha', { rdns: 'io.alpha', name: 'Other' })])
    expect(found).toEqual(['[1] alpha: duplicate id', '[1] alpha: duplicate rdns'])
  })

  test('error: not an array or not objects', () => {
    expect(Catalogue.problems({})).toEqual(['the catalogue is not an array'])
    expect(Catalogue.problems([null])).toEqual(['[0] is not an object'])
  })

  test('error: parse throws with every problem', () => {
    expect(() => Catalogue.parse([wallet('Bad', { color: 'red' })])).toThrow(/id must be[\s\S]*color must be/)
  })
})

describe('isLink', () => {
  test.each([
    ['metamask://', true],
    ['https://metamask.app.link', true],
    ['bnc://app.binance.com/cedefi/', true],
    ['okex://main', true],
    ['JAVASCRIPT://x', false],
    ['javascript://x', false],
    ['ftp//x', false],
    ['https://', false],
    ['https://user:pw@x.example', false],
    ['trust:// x', false],
  ])('param: %s → %s', (link, valid) => {
    expect(Catalogue.isLink(link)).toBe(valid)
  })
})

describe('wallets.json', () => {
  const catalogue = Catalogue.parse(data)

  test('behavior: is valid and holds at least 70 wallets', () => {
    expect(Catalogue.problems(data)).toEqual([])
    expect(catalogue.length).toBeGreaterThanOrEqual(70)
  })

  test('behavior: recommends a handful, enough for spec §9 recommended 4', () => {
    const recommended = catalogue.filter((w) => w.recommended).length
    expect(recommended).toBeGreaterThanOrEqual(4)
    expect(recommended).toBeLessThanOrEqual(8)
  })

  test('behavior: every namespace of spec §3 has wallets', () => {
    for (const namespace of ['eip155', 'solana', 'bip122', 'polkadot']) {
      expect(catalogue.some((w) => w.chains.some((chain) => chain.startsWith(`${namespace}:`)))).toBe(true)
    }
  })

  test('behavior: the EIP-6963 ids of the wallets the SDK discovers most', () => {
    const rdns = Object.fromEntries(catalogue.map((w) => [w.id, w.rdns]))
    expect(rdns).toMatchObject({ metamask: 'io.metamask', rabby: 'io.rabby', coinbase: 'com.coinbase.wallet', rainbow: 'me.rainbow', phantom: 'app.phantom' })
  })
})
