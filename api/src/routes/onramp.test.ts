/**
 * The onramp routes over the devnet's sandbox provider, started in-process as a hosted one would answer
 * (its chains are not needed: nothing here is delivered), and over providers that fail.
 */
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as OnrampSandbox from '@doorway/devnet/onrampSandbox'
import * as App from '../app.js'
import type { Config } from '../config.js'
import { projectId, testConfig, testDeps } from '../testing.js'
import { optionsCacheMs } from './onramp.js'

const dusd = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', name: 'Doorway USD', symbol: 'DUSD', decimals: 6 } as const
const unpriced = { address: '0x0000000000000000000000000000000000000001', name: 'No Price', symbol: 'NOP', decimals: 18 } as const
const wallet = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const rpcUrls = { 'eip155:31337': 'http://127.0.0.1:1', 'eip155:31338': 'http://127.0.0.1:2' } as const

let sandbox: OnrampSandbox.start.ReturnType
// A provider that answers each path as `answer` says (else 500): refusals, or JSON that is not Coinbase's.
let broken: { server: Server; url: string }
const answers = new Map<string, { status: number; body: unknown }>()
const answer = (path: string, status: number, body: unknown) => answers.set(path, { status, body })
beforeEach(() => answers.clear())
const options = '/onramp/v1/buy/options'

beforeAll(async () => {
  const chains = [
    { id: 31337, rpcUrl: rpcUrls['eip155:31337'] },
    { id: 31338, rpcUrl: rpcUrls['eip155:31338'] },
  ]
  sandbox = await OnrampSandbox.start({ port: 0, chains, tokens: { 'eip155:31337': [dusd, unpriced] } })
  const server = createServer((req, res) => {
    const { status, body } = answers.get(new URL(req.url ?? '/', 'http://x').pathname) ?? { status: 500, body: {} }
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  broken = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
})
afterAll(async () => {
  await sandbox?.stop()
  await new Promise((resolve) => broken?.server.close(resolve))
})

/** The api over a provider: the sandbox by default; `null` configures none. */
function setup(providerUrl: string | null = sandbox.url, now: () => number = Date.now) {
  const config: Config = { ...testConfig(rpcUrls, { 'eip155:31337': [dusd, unpriced] }), ...(providerUrl && { onramp: { providerUrl } }) }
  const { deps, calls } = testDeps(config, { now })
  const app = App.create(deps)
  const post = async (path: string, body: unknown, query = `projectId=${projectId}`) => {
    const res = await app.request(`${path}?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  const get = async (path: string) => {
    const res = await app.request(`${path}?projectId=${projectId}`)
    return { status: res.status, body: await res.json() }
  }
  return { app, calls, post, get }
}

const down = 'http://127.0.0.1:9'

/** Forwards a request to the sandbox, as a counting proxy in front of it. */
function sandboxRequest(req: IncomingMessage, res: ServerResponse) {
  const target = new URL(req.url ?? '/', sandbox.url)
  return httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
}

describe('GET /v1/onramp/options', () => {
  test('behavior: the provider’s options in spec §3’s shape: USD and EUR with the spec’s limits, each asset with its networks', async () => {
    const { get, calls } = setup()
    const res = await get('/v1/onramp/options')
    expect(res.status).toBe(200)
    expect(res.body).toMatchInlineSnapshot(`
      {
        "paymentCurrencies": [
          {
            "id": "USD",
            "payment_method_limits": [
              {
                "id": "card",
                "max": "7500.00",
                "min": "10.00",
              },
              {
                "id": "ACH_BANK_ACCOUNT",
                "max": "25000.00",
                "min": "10.00",
              },
            ],
          },
          {
            "id": "EUR",
            "payment_method_limits": [
              {
                "id": "card",
                "max": "7500.00",
                "min": "10.00",
              },
              {
                "id": "ACH_BANK_ACCOUNT",
                "max": "25000.00",
                "min": "10.00",
              },
            ],
          },
        ],
        "purchaseCurrencies": [
          {
            "id": "ETH",
            "name": "Ether",
            "networks": [
              {
                "chain_id": "31337",
                "contract_address": "",
                "display_name": "Anvil 31337",
                "name": "eip155:31337",
              },
              {
                "chain_id": "31338",
                "contract_address": "",
                "display_name": "Anvil 31338",
                "name": "eip155:31338",
              },
            ],
            "symbol": "ETH",
          },
          {
            "id": "DUSD",
            "name": "Doorway USD",
            "networks": [
              {
                "chain_id": "31337",
                "contract_address": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
                "display_name": "Anvil 31337",
                "name": "eip155:31337",
              },
            ],
            "symbol": "DUSD",
          },
        ],
      }
    `)
    expect(calls).toEqual([])
  })

  test('behavior: a method the modal does not offer is left out', async () => {
    answer(options, 200, {
      payment_currencies: [{ id: 'USD', limits: [{ id: 'APPLE_PAY', min: '1', max: '500' }, { id: 'CARD', min: '5', max: '500.5' }] }],
      purchase_currencies: [],
    })
    expect((await setup(broken.url).get('/v1/onramp/options')).body).toEqual({
      paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '5.00', max: '500.50' }] }],
      purchaseCurrencies: [],
    })
  })

  test.each([
    ['a provider that does not answer', () => down, 'The onramp provider did not answer'],
    ['a provider that answers 500', () => broken.url, 'The onramp provider answered 500'],
    ['a provider whose answer is not Coinbase’s', () => (answer(options, 200, { payment_currencies: 'x' }), broken.url), 'not understood'],
    ['no provider configured', () => null, 'No onramp provider is configured'],
  ])('error: %s is 502 with a message (the modal falls back, spec §8)', async (_, url, message) => {
    const res = await setup(url()).get('/v1/onramp/options')
    expect(res.status).toBe(502)
    expect(res.body.message).toContain(message)
  })

  test('param: projectId is required and must be known', async () => {
    const { app } = setup()
    expect((await app.request('/v1/onramp/options')).status).toBe(400)
    expect((await app.request('/v1/onramp/options?projectId=nope')).status).toBe(403)
  })
})

describe('POST /v1/onramp/quote', () => {
  test('behavior: quotes reuse the provider\'s options for a minute instead of asking for them each time', async () => {
    let hits = 0
    const counting = createServer((req, res) => {
      if (new URL(req.url ?? '/', 'http://x').pathname === options) hits++
      req.pipe(sandboxRequest(req, res))
    })
    await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve))
    let clock = Date.now()
    try {
      const { post } = setup(`http://127.0.0.1:${(counting.address() as AddressInfo).port}`, () => clock)
      const quote = { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:31337' }
      for (const amount of ['100', '120', '140']) expect((await post('/v1/onramp/quote', { ...quote, amount })).status).toBe(200)
      expect(hits).toBe(1)
      clock += optionsCacheMs + 1
      expect((await post('/v1/onramp/quote', quote)).status).toBe(200)
      expect(hits).toBe(2)
    } finally {
      counting.close()
    }
  })

  const request = { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:31337' }

  test('behavior: the provider’s quote: 1% fee (to the cent) plus 0.50 network fee; the rest buys at its price', async () => {
    const { post } = setup()
    const { status, body } = await post('/v1/onramp/quote', { ...request, network: 'eip155:31338' })
    expect(status).toBe(200)
    expect(body.quoteId).toMatch(/^[0-9a-f-]{36}$/)
    expect({ ...body, quoteId: undefined }).toEqual({
      coinbaseFee: { amount: '1.00', currency: 'USD' },
      networkFee: { amount: '0.50', currency: 'USD' },
      paymentSubtotal: { amount: '98.50', currency: 'USD' },
      paymentTotal: { amount: '100.00', currency: 'USD' },
      // 98.50 / 3000, rounded down at 8 decimals
      purchaseAmount: { amount: '0.03283333', currency: 'ETH' },
    })
  })

  test('behavior: EUR converts at its USD rate; token amounts show the token’s decimals', async () => {
    const { post } = setup()
    const { body } = await post('/v1/onramp/quote', { purchaseCurrency: 'DUSD', paymentCurrency: 'EUR', amount: 20.55, network: 'eip155:31337' })
    expect(body.coinbaseFee).toEqual({ amount: '0.21', currency: 'EUR' })
    expect(body.paymentSubtotal).toEqual({ amount: '19.84', currency: 'EUR' })
    // 19.84 EUR × 1.08 USD/EUR ÷ 1 USD/DUSD
    expect(body.purchaseAmount).toEqual({ amount: '21.427200', currency: 'DUSD' })
  })

  test('behavior: paymentMethod: a bank account allows up to 25000.00, a card (the default) 7500.00', async () => {
    const { post } = setup()
    expect((await post('/v1/onramp/quote', { ...request, amount: '10000', paymentMethod: 'ACH_BANK_ACCOUNT' })).body.paymentTotal).toEqual({ amount: '10000.00', currency: 'USD' })
    const card = await post('/v1/onramp/quote', { ...request, amount: '10000' })
    expect(card).toEqual({ status: 400, body: { message: 'Invalid amount: card payments are 10.00 to 7500.00 USD' } })
    expect((await post('/v1/onramp/quote', { ...request, amount: '7500', paymentMethod: 'card' })).status).toBe(200)
  })

  test('behavior: without a network, the currency’s first', async () => {
    const { post } = setup()
    const { network: _, ...rest } = request
    expect((await post('/v1/onramp/quote', rest)).status).toBe(200)
  })

  test.each([
    ['an unknown purchaseCurrency', { purchaseCurrency: 'BTC' }, 'Invalid purchaseCurrency'],
    ['an unpriced token', { purchaseCurrency: 'NOP' }, 'Invalid purchaseCurrency'],
    ['an unknown paymentCurrency', { paymentCurrency: 'GBP' }, 'Invalid paymentCurrency: expected one of USD, EUR'],
    ['a network the currency is not on', { purchaseCurrency: 'DUSD', network: 'eip155:31338' }, 'Invalid network'],
    ['an amount below 10.00', { amount: '9.99' }, '10.00 to 25000.00'],
    ['an amount above 25000.00', { amount: '25000.01' }, '10.00 to 25000.00'],
    ['3 decimals', { amount: '10.001' }, 'at most 2 decimals'],
    ['a non-numeric amount', { amount: 'ten' }, 'at most 2 decimals'],
    ['an unknown paymentMethod', { paymentMethod: 'APPLE_PAY' }, 'Invalid paymentMethod'],
    ['a provider id for the method', { paymentMethod: 'CARD' }, 'Invalid paymentMethod'],
  ])('param: %s is 400', async (_, change, message) => {
    const { post } = setup()
    const res = await post('/v1/onramp/quote', { ...request, ...change })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })

  test('error: a provider that fails is 502; a bad amount is still 400 without it', async () => {
    const { post } = setup(down)
    const res = await post('/v1/onramp/quote', request)
    expect(res.status).toBe(502)
    expect(res.body.message).toContain('The onramp provider did not answer')
    expect((await post('/v1/onramp/quote', { ...request, amount: 'ten' })).status).toBe(400)
  })

  test('error: a provider that refuses the request is 400 with its reason; a malformed quote is 502', async () => {
    const network = { name: 'eip155:31337', display_name: 'Anvil 31337', chain_id: '31337', contract_address: '' }
    answer(options, 200, { payment_currencies: [{ id: 'USD', limits: [{ id: 'CARD', min: '10', max: '7500' }] }], purchase_currencies: [{ id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [network] }] })
    answer('/onramp/v1/buy/quote', 400, { message: 'ETH is not sold in your region' })
    const { post } = setup(broken.url)
    expect(await post('/v1/onramp/quote', request)).toEqual({ status: 400, body: { message: 'The onramp provider refused the request: ETH is not sold in your region' } })
    answer('/onramp/v1/buy/quote', 200, { quote_id: 'q', payment_total: { value: 'lots', currency: 'USD' } })
    expect((await post('/v1/onramp/quote', request)).status).toBe(502)
  })
})

describe('POST /v1/generators/onrampurl', () => {
  const body = { destinationWallets: [{ address: wallet, blockchains: ['eip155:31337'], assets: ['ETH'] }], partnerUserId: wallet.toLowerCase(), defaultNetwork: 'eip155:31337', presetFiatAmount: 50 }

  test('behavior: the provider’s buy page carrying every parameter; defaultExperience defaults to buy (spec §9)', async () => {
    const { post } = setup()
    const { status, body: res } = await post('/v1/generators/onrampurl', body)
    expect(status).toBe(200)
    const url = new URL(res.url)
    expect(url.origin + url.pathname).toBe(`${sandbox.url}/buy/select-asset`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appId: projectId,
      destinationWallets: JSON.stringify(body.destinationWallets),
      // the checksummed address: the history asks for the same user
      partnerUserId: wallet,
      defaultExperience: 'buy',
      defaultNetwork: 'eip155:31337',
      presetFiatAmount: '50',
    })
    const more = await post('/v1/generators/onrampurl', { ...body, defaultExperience: 'send', presetCryptoAmount: 0.1, defaultAsset: 'DUSD', defaultPaymentMethod: 'ACH_BANK_ACCOUNT', fiatCurrency: 'EUR' })
    expect(Object.fromEntries(new URL(more.body.url).searchParams)).toMatchObject({
      defaultExperience: 'send',
      presetCryptoAmount: '0.1',
      defaultAsset: 'DUSD',
      defaultPaymentMethod: 'ACH_BANK_ACCOUNT',
      fiatCurrency: 'EUR',
    })
    const card = await post('/v1/generators/onrampurl', { ...body, defaultPaymentMethod: 'card' })
    expect(new URL(card.body.url).searchParams.get('defaultPaymentMethod')).toBe('CARD')
  })

  test('behavior: the url opens the provider’s page with the order', async () => {
    const { post } = setup()
    const page = await fetch((await post('/v1/generators/onrampurl', body)).body.url)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<dd id="pay">50.00 USD</dd>')
    expect(html).toContain(`<dd id="wallet">${wallet}</dd>`)
  })

  test('behavior: an unsupported defaultNetwork is an empty url (spec §7)', async () => {
    const { post } = setup()
    expect(await post('/v1/generators/onrampurl', { ...body, defaultNetwork: 'eip155:1' })).toEqual({ status: 200, body: { url: '' } })
  })

  test.each([
    ['no wallets', { destinationWallets: [] }],
    ['a bad wallet address', { destinationWallets: [{ address: '0x12' }] }],
    ['bad blockchains', { destinationWallets: [{ address: wallet, blockchains: 'eth' }] }],
    ['no partnerUserId', { partnerUserId: undefined }],
    ['a long partnerUserId', { partnerUserId: 'x'.repeat(50) }],
    ['an unknown experience', { defaultExperience: 'sell' }],
    ['a non-CAIP-2 network', { defaultNetwork: 'ethereum' }],
    ['a negative fiat amount', { presetFiatAmount: -1 }],
    ['a string crypto amount', { presetCryptoAmount: '1' }],
    ['a bad defaultAsset', { defaultAsset: '<b>' }],
    ['an unknown defaultPaymentMethod', { defaultPaymentMethod: 'cash' }],
    ['a bad fiatCurrency', { fiatCurrency: 'usd' }],
  ])('param: %s is 400', async (_, change) => {
    const { post } = setup()
    expect((await post('/v1/generators/onrampurl', { ...body, ...change })).status).toBe(400)
  })

  test('param: projectId is required', async () => {
    const { post } = setup()
    expect((await post('/v1/generators/onrampurl', body, '')).status).toBe(400)
  })

  test('error: no provider configured is 502', async () => {
    const { post } = setup(null)
    expect((await post('/v1/generators/onrampurl', body)).status).toBe(502)
  })
})
