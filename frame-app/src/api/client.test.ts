import { describe, expect, test, vi } from 'vitest'
import * as Client from './client.js'

function setup(answer: (url: URL, init: RequestInit) => Response | Promise<Response>) {
  const fetch = vi.fn((input: URL | RequestInfo, init?: RequestInit) => Promise.resolve(answer(input as URL, init ?? {})))
  const client = Client.create({ baseUrl: 'http://api.test', projectId: 'p1', sdkType: 'appkit', sdkVersion: 'html-doorway-0.1.0', fetch: fetch as typeof globalThis.fetch })
  return { client, fetch, url: () => fetch.mock.calls[0]![0] as URL, init: () => fetch.mock.calls[0]![1]! }
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const eth = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', price: 3000, value: 3000, quantity: { decimals: '18', numeric: '1' }, iconUrl: 'http://api.test/i' }

describe('create', () => {
  test('behavior: every call carries projectId, st and sv (spec §7)', async () => {
    const { client, url } = setup(() => json({ balances: [eth] }))
    await client.balances('0xabc', { chainId: 'eip155:31337' })
    expect(url().pathname).toBe('/v1/account/0xabc/balance')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', currency: 'usd', chainId: 'eip155:31337' })
  })

  test('param: forceUpdate and clientId are sent only when given', async () => {
    const { client, fetch } = setup(() => json({ balances: [] }))
    await client.balances('0xabc', { forceUpdate: true })
    await client.http('DELETE', '/x', (_: unknown): _ is unknown => true, { clientId: 'c1' })
    const [first, second] = fetch.mock.calls.map(([u]) => (u as URL).searchParams)
    expect(first!.get('forceUpdate')).toBe('true')
    expect(second!.get('clientId')).toBe('c1')
  })

  test('behavior: JSON bodies for POST', async () => {
    const { client, init } = setup(() => json({ success: true }, 202))
    await client.sendEvent({ eventId: 'e', url: 'http://a', domain: 'http://a', timestamp: 1, props: { event: 'MODAL_OPEN' } })
    expect(init()).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } })
    expect(JSON.parse(init().body as string)).toMatchObject({ props: { event: 'MODAL_OPEN' } })
  })

  test('error: a non-OK answer throws an error carrying the HTTP status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Origin http://x not found on Allowlist - update configuration' }, 403))
    const error = await client.analyticsConfig().catch((e) => e)
    expect(error).toBeInstanceOf(Client.ApiError)
    expect([error.status, error.message]).toEqual([403, 'Origin http://x not found on Allowlist - update configuration'])
  })

  test('error: an answer of the wrong shape is refused', async () => {
    const { client } = setup(() => json({ balances: [{ ...eth, price: 'free' }] }))
    await expect(client.balances('0xabc', {})).rejects.toThrow('Unexpected answer from /v1/account/0xabc/balance')
  })

  test('behavior: onramp options fall back to the built-in sample options (spec §8)', async () => {
    const { client } = setup(() => json({ message: 'down' }, 500))
    const options = await client.onrampOptions()
    expect(options.paymentCurrencies.map((c) => [c.id, c.payment_method_limits])).toEqual([
      ['USD', [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }]],
      ['EUR', [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }]],
    ])
  })

  test('behavior: the onramp quote falls back to the mocked quote (spec §8)', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('network down')))
    const quote = await client.onrampQuote({ purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'ethereum' })
    expect(quote.quoteId).toBe('mocked-quote-id')
    expect(quote.paymentTotal).toEqual({ amount: '100', currency: 'USD' })
  })

  test('error: a call that never answers times out', async () => {
    vi.useFakeTimers()
    const { client } = setup((_, init) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const pending = client.analyticsConfig().catch((e: Error) => e.name)
    await vi.advanceTimersByTimeAsync(Client.timeoutMs)
    await expect(pending).resolves.toBe('TimeoutError')
    vi.useRealTimers()
  })
})

describe('gasPrice', () => {
  const prices = { standard: '1000000000', fast: '1500000000', instant: '2000000000' }

  test('behavior: GET /v1/convert/gas-price with the chainId (spec §7)', async () => {
    const { client, url, init } = setup(() => json(prices))
    await expect(client.gasPrice('eip155:31337')).resolves.toEqual(prices)
    expect(init().method).toBe('GET')
    expect(url().pathname).toBe('/v1/convert/gas-price')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', chainId: 'eip155:31337' })
  })

  test.each<[string, unknown]>([
    ['a tier missing', { standard: '1', fast: '2' }],
    ['a number instead of a decimal string', { ...prices, standard: 1000000000 }],
    ['a decimal fraction', { ...prices, fast: '1.5' }],
    ['a hex string', { ...prices, instant: '0x77359400' }],
    ['a negative price', { ...prices, standard: '-1' }],
    ['an empty string', { ...prices, standard: '' }],
    ['more than 78 digits (above uint256)', { ...prices, standard: '1'.repeat(79) }],
    ['no object', null],
  ])('error: an answer with %s is refused', async (_, body) => {
    const { client } = setup(() => json(body))
    await expect(client.gasPrice('eip155:31337')).rejects.toThrow('Unexpected answer from /v1/convert/gas-price')
  })

  test('error: a non-OK answer carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Network not supported for Gas Price' }, 400))
    await expect(client.gasPrice('eip155:1')).rejects.toMatchObject({ status: 400, message: 'Network not supported for Gas Price' })
  })

  test('param: the signal aborts the call', async () => {
    const { client } = setup((_, init) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))))
    const controller = new AbortController()
    const pending = client.gasPrice('eip155:31337', controller.signal)
    controller.abort(new DOMException('left', 'AbortError'))
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('profile', () => {
  const alice = {
    name: 'alice.doorway.id',
    addresses: { '60': { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }, '2147514985': { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } },
    attributes: { avatar: 'https://images.doorway.id/alice.png' },
  }

  test('behavior: GET /v1/profile/account/{name} with apiVersion=2 (spec §7)', async () => {
    const { client, url, init } = setup(() => json(alice))
    await expect(client.profile('alice.doorway.id')).resolves.toEqual(alice)
    expect(init().method).toBe('GET')
    expect(url().pathname).toBe('/v1/profile/account/alice.doorway.id')
    expect(Object.fromEntries(url().searchParams)).toEqual({ projectId: 'p1', st: 'appkit', sv: 'html-doorway-0.1.0', apiVersion: '2' })
  })

  test.each([
    ['a space', 'alice bob', '/v1/profile/account/alice%20bob'],
    ['a slash (no other path)', '../balance', '/v1/profile/account/..%2Fbalance'],
    ['a question mark (no other query)', 'alice?apiVersion=1', '/v1/profile/account/alice%3FapiVersion%3D1'],
    ['a hash', 'alice#x', '/v1/profile/account/alice%23x'],
  ])('param: the name is URL-encoded: %s', async (_, name, pathname) => {
    const { client, url } = setup(() => json(alice))
    await client.profile(name)
    expect(url().pathname).toBe(pathname)
    expect(url().searchParams.get('apiVersion')).toBe('2')
    expect(url().hash).toBe('')
  })

  test('behavior: no addresses and no attributes is a valid answer', async () => {
    const { client } = setup(() => json({ name: 'bob.doorway.id', addresses: {}, attributes: {} }))
    await expect(client.profile('bob.doorway.id')).resolves.toEqual({ name: 'bob.doorway.id', addresses: {}, attributes: {} })
  })

  test.each<[string, unknown]>([
    ['no name', { addresses: alice.addresses, attributes: {} }],
    ['no addresses', { name: alice.name, attributes: {} }],
    ['no attributes', { name: alice.name, addresses: {} }],
    ['a coin type that is not a number', { ...alice, addresses: { eth: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } } }],
    ['an address that is not a string', { ...alice, addresses: { '60': { address: 42 } } }],
    ['an address entry without address', { ...alice, addresses: { '60': {} } }],
    ['an attribute that is not a string', { ...alice, attributes: { avatar: { url: 'https://x' } } }],
    ['addresses as an array', { ...alice, addresses: [{ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }] }],
  ])('error: an answer with %s is refused', async (_, body) => {
    const { client } = setup(() => json(body))
    await expect(client.profile('alice.doorway.id')).rejects.toThrow('Unexpected answer from /v1/profile/account/alice.doorway.id')
  })

  test('error: an unknown name carries the status and the api message', async () => {
    const { client } = setup(() => json({ message: 'Name not found' }, 404))
    await expect(client.profile('nobody.doorway.id')).rejects.toMatchObject({ status: 404, message: 'Name not found' })
  })
})
