import { describe, expect, test } from 'vitest'
import * as App from '../app.js'
import { projectId, testConfig, testDeps } from '../testing.js'

const dusd = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', name: 'Doorway USD', symbol: 'DUSD', decimals: 6 }
const unpriced = { address: '0x0000000000000000000000000000000000000001', name: 'No Price', symbol: 'NOP', decimals: 18 }
const wallet = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

function setup() {
  const config = testConfig({ 'eip155:31337': 'http://127.0.0.1:1', 'eip155:31338': 'http://127.0.0.1:2' }, { 'eip155:31337': [dusd, unpriced] })
  const { deps, calls } = testDeps(config)
  const app = App.create(deps)
  const post = async (path: string, body: unknown, query = `projectId=${projectId}`) => {
    const res = await app.request(`${path}?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  return { app, calls, post }
}

describe('GET /v1/onramp/options', () => {
  test('behavior: USD and EUR with the spec’s limits; each priced asset with its networks', async () => {
    const { app, calls } = setup()
    const res = await app.request(`/v1/onramp/options?projectId=${projectId}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchInlineSnapshot(`
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

  test('param: projectId is required and must be known', async () => {
    const { app } = setup()
    expect((await app.request('/v1/onramp/options')).status).toBe(400)
    expect((await app.request('/v1/onramp/options?projectId=nope')).status).toBe(403)
  })
})

describe('POST /v1/onramp/quote', () => {
  test('behavior: 1% fee (rounded to the cent) plus 0.50 network fee; the rest buys at config.prices', async () => {
    const { post } = setup()
    const { status, body } = await post('/v1/onramp/quote', { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:31338' })
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

  test.each([
    ['an unknown purchaseCurrency', { purchaseCurrency: 'BTC' }, 'Invalid purchaseCurrency'],
    ['an unpriced token', { purchaseCurrency: 'NOP' }, 'Invalid purchaseCurrency'],
    ['an unknown paymentCurrency', { paymentCurrency: 'GBP' }, 'Invalid paymentCurrency'],
    ['a network the currency is not on', { purchaseCurrency: 'DUSD', network: 'eip155:31338' }, 'Invalid network'],
    ['an amount below 10.00', { amount: '9.99' }, '10.00 to 25000.00'],
    ['an amount above 25000.00', { amount: '25000.01' }, '10.00 to 25000.00'],
    ['3 decimals', { amount: '10.001' }, 'at most 2 decimals'],
    ['a non-numeric amount', { amount: 'ten' }, 'at most 2 decimals'],
  ])('param: %s is 400', async (_, change, message) => {
    const { post } = setup()
    const res = await post('/v1/onramp/quote', { purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '100', network: 'eip155:31337', ...change })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })
})

describe('POST /v1/generators/onrampurl', () => {
  const body = { destinationWallets: [{ address: wallet, blockchains: ['eip155:31337'], assets: ['ETH'] }], partnerUserId: 'user-1', defaultNetwork: 'eip155:31337', presetFiatAmount: 50 }

  test('behavior: a sandbox url carrying the request; defaultExperience defaults to buy (spec §9)', async () => {
    const { post } = setup()
    const { status, body: res } = await post('/v1/generators/onrampurl', body)
    expect(status).toBe(200)
    const url = new URL(res.url)
    expect(url.origin + url.pathname).toBe('http://api.test/onramp/sandbox')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId,
      destinationWallets: JSON.stringify(body.destinationWallets),
      partnerUserId: 'user-1',
      defaultExperience: 'buy',
      defaultNetwork: 'eip155:31337',
      presetFiatAmount: '50',
    })
    const send = await post('/v1/generators/onrampurl', { ...body, defaultExperience: 'send', presetCryptoAmount: 0.1 })
    expect(new URL(send.body.url).searchParams.get('defaultExperience')).toBe('send')
    expect(new URL(send.body.url).searchParams.get('presetCryptoAmount')).toBe('0.1')
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
  ])('param: %s is 400', async (_, change) => {
    const { post } = setup()
    expect((await post('/v1/generators/onrampurl', { ...body, ...change })).status).toBe(400)
  })

  test('param: projectId is required', async () => {
    const { post } = setup()
    expect((await post('/v1/generators/onrampurl', body, '')).status).toBe(400)
  })
})
