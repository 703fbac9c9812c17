/**
 * The sandbox onramp against a real anvil with the devnet tokens: its Coinbase-shaped API, the checkout
 * with the test cards and the bank, deliveries read back from the chain, and the buy page.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { type Address, createPublicClient, erc20Abi, http, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Provider from '@doorway/shared/contracts/onramp'
import * as Anvil from './anvil.js'
import * as OnrampSandbox from './onrampSandbox.js'
import * as Tokens from './tokens.js'

// jsdom ships no types (and @types/jsdom is not installed): the little the page tests use, typed here.
type Jsdom = { JSDOM: new (html: string, options: { url: string; runScripts: 'outside-only' }) => { window: Window & typeof globalThis & { eval(code: string): void } } }
const { JSDOM } = (await import('jsdom' as string)) as Jsdom

// Ports apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chains = [{ id: 31337, port: 18931, rpcUrl: 'http://127.0.0.1:18931' }]
const [chain] = chains as [Anvil.Chain]
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-onramp-'))
const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })

let anvil: Anvil.start.ReturnType
let sandbox: OnrampSandbox.start.ReturnType
let tokens: Tokens.Manifest['tokens']
const token = (symbol: string) => tokens['eip155:31337']!.find((t) => t.symbol === symbol)!.address

beforeAll(async () => {
  anvil = await Anvil.start({ chains })
  ;({ tokens } = await Tokens.deploy({ chains, manifest: join(dir, 'devnet.json'), artifact: join(dir, 'contracts.json') }))
  // The bank settles at once: the tests wait on the order, not the clock.
  sandbox = await OnrampSandbox.start({ port: 0, chains, tokens, bankSettleMs: 50 })
}, 120_000)
afterAll(async () => {
  await sandbox?.stop()
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const get = async (path: string) => {
  const res = await fetch(`${sandbox.url}${path}`)
  return { status: res.status, body: (await res.json()) as any }
}
const post = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

/** A wallet nobody has used: its balance is exactly what the sandbox delivered. */
const freshWallet = () => privateKeyToAccount(generatePrivateKey()).address
const ethBalance = (address: Address) => client.getBalance({ address })
const tokenBalance = (symbol: string, address: Address) => client.readContract({ address: token(symbol), abi: erc20Abi, functionName: 'balanceOf', args: [address] })

const card = { card_number: '4242 4242 4242 4242', card_expiry: '12/99', card_cvc: '123' }
const order = (wallet: Address, change: Record<string, unknown> = {}) => ({
  partner_user_id: wallet,
  wallet_address: wallet,
  purchase_currency: 'ETH',
  purchase_network: 'eip155:31337',
  payment_amount: '100',
  payment_currency: 'USD',
  payment_method: 'CARD',
  ...card,
  ...change,
})

describe('GET /onramp/v1/buy/options', () => {
  test('behavior: USD and EUR with each method’s limits; ETH and the priced devnet tokens (not DUSDT)', async () => {
    const { status, body } = await get('/onramp/v1/buy/options?country=US')
    expect(status).toBe(200)
    expect(body.payment_currencies).toEqual(
      ['USD', 'EUR'].map((id) => ({ id, limits: [{ id: 'CARD', min: '10', max: '7500' }, { id: 'ACH_BANK_ACCOUNT', min: '10', max: '25000' }] })),
    )
    const network = (contract_address: string) => ({ name: 'eip155:31337', display_name: 'Anvil 31337', chain_id: '31337', contract_address })
    expect(body.purchase_currencies).toEqual([
      { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [network('')] },
      { id: 'DUSD', name: 'Doorway USD', symbol: 'DUSD', networks: [network(token('DUSD'))] },
      { id: 'DWT', name: 'Doorway Token', symbol: 'DWT', networks: [network(token('DWT'))] },
    ])
  })
})

describe('POST /onramp/v1/buy/quote', () => {
  const request = { purchase_currency: 'ETH', purchase_network: 'eip155:31337', payment_amount: '100.00', payment_currency: 'USD', payment_method: 'CARD', country: 'US' }

  test('behavior: 1 % fee (to the cent) and 0.50 network fee; the rest buys at the price, in Coinbase’s money shape', async () => {
    const { status, body } = await post('/onramp/v1/buy/quote', request)
    expect(status).toBe(200)
    expect(body.quote_id).toMatch(/^[0-9a-f-]{36}$/)
    expect({ ...body, quote_id: undefined }).toEqual({
      payment_total: { value: '100.00', currency: 'USD' },
      payment_subtotal: { value: '98.50', currency: 'USD' },
      // 98.50 / 3000, rounded down at 8 decimals
      purchase_amount: { value: '0.03283333', currency: 'ETH' },
      coinbase_fee: { value: '1.00', currency: 'USD' },
      network_fee: { value: '0.50', currency: 'USD' },
    })
  })

  test('behavior: EUR converts at 1.08; a token shows its own decimals', async () => {
    const { body } = await post('/onramp/v1/buy/quote', { ...request, purchase_currency: 'DUSD', payment_currency: 'EUR', payment_amount: 20.55 })
    expect(body.coinbase_fee).toEqual({ value: '0.21', currency: 'EUR' })
    expect(body.purchase_amount).toEqual({ value: '21.427200', currency: 'DUSD' })
  })

  test('behavior: the bank allows more than a card', async () => {
    expect((await post('/onramp/v1/buy/quote', { ...request, payment_amount: '7500.01' })).status).toBe(400)
    expect((await post('/onramp/v1/buy/quote', { ...request, payment_amount: '7500.01', payment_method: 'ACH_BANK_ACCOUNT' })).status).toBe(200)
  })

  test.each([
    ['a card payment above 7500', { payment_amount: '7500.01' }, 'Card payments must be from 10 to 7500 USD'],
    ['a bank payment above 25000', { payment_amount: '25000.01', payment_method: 'ACH_BANK_ACCOUNT' }, 'Bank account (ACH) payments must be from 10 to 25000 USD'],
    ['a payment below 10', { payment_amount: '9.99' }, 'from 10 to'],
    ['3 decimals', { payment_amount: '10.001' }, 'at most 2 decimals'],
    ['an unknown currency', { purchase_currency: 'DUSDT' }, 'purchase_currency must be one of ETH, DUSD, DWT'],
    ['a network it is not sold on', { purchase_network: 'eip155:1' }, 'purchase_network'],
    ['an unknown payment currency', { payment_currency: 'GBP' }, 'payment_currency'],
    ['an unknown method', { payment_method: 'APPLE_PAY' }, 'payment_method'],
  ])('param: %s is 400 with a message', async (_, change, message) => {
    const res = await post('/onramp/v1/buy/quote', { ...request, ...change })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })
})

describe('POST /api/orders', () => {
  test('behavior: a card payment delivers the ETH at once, on chain', async () => {
    const wallet = freshWallet()
    const { status, body } = await post('/api/orders', order(wallet))
    expect(status).toBe(201)
    expect(body).toMatchObject({
      status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
      partner_user_id: wallet,
      wallet_address: wallet,
      purchase_currency: 'ETH',
      purchase_network: 'eip155:31337',
      purchase_amount: { value: '0.03283333', currency: 'ETH' },
      payment_total: { value: '100.00', currency: 'USD' },
      payment_method: 'CARD',
      tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    expect(body.failure_reason).toBeUndefined()
    expect(await ethBalance(wallet)).toBe(parseUnits('0.03283333', 18))
    const receipt = await client.getTransactionReceipt({ hash: body.tx_hash })
    expect(receipt.from.toLowerCase()).toBe(OnrampSandbox.deliveryAccount.address.toLowerCase())
  })

  test('behavior: a token is delivered from account 6, which takes its stock from account 4 when short', async () => {
    const wallet = freshWallet()
    const { body } = await post('/api/orders', order(wallet, { purchase_currency: 'DUSD', payment_amount: '50' }))
    expect(body).toMatchObject({ status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS', purchase_amount: { value: '49.000000', currency: 'DUSD' } })
    expect(await tokenBalance('DUSD', wallet)).toBe(parseUnits('49', 6))
  })

  test('behavior: the decline card fails the order with the provider’s reason and sends nothing', async () => {
    const wallet = freshWallet()
    const { status, body } = await post('/api/orders', order(wallet, { card_number: '4000000000000002' }))
    expect(status).toBe(201)
    expect(body).toMatchObject({ status: 'ONRAMP_TRANSACTION_STATUS_FAILED', failure_reason: 'Your card was declined', tx_hash: '' })
    expect((await post(`/api/orders/${body.transaction_id}/settle`)).body.status).toBe('ONRAMP_TRANSACTION_STATUS_FAILED')
    expect(await ethBalance(wallet)).toBe(0n)
  })

  test('behavior: a bank payment waits for the bank; settled twice at once, it delivers once', async () => {
    const wallet = freshWallet()
    const placed = await post('/api/orders', order(wallet, { purchase_currency: 'DWT', payment_method: 'ACH_BANK_ACCOUNT', payment_amount: '10000', card_number: undefined }))
    expect(placed.body).toMatchObject({ status: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', tx_hash: '', payment_method: 'ACH_BANK_ACCOUNT', purchase_amount: { value: '39598.00000000' } })
    expect(await tokenBalance('DWT', wallet)).toBe(0n)
    const id = placed.body.transaction_id
    const [one, two] = await Promise.all([post(`/api/orders/${id}/settle`), post(`/api/orders/${id}/settle`)])
    expect(one.body.status).toBe('ONRAMP_TRANSACTION_STATUS_SUCCESS')
    expect(two.body).toEqual(one.body)
    const again = await post(`/api/orders/${id}/settle`)
    expect(again.body).toEqual(one.body)
    expect(await tokenBalance('DWT', wallet)).toBe(parseUnits('39598', 18))
    expect((await get(`/api/orders/${id}`)).body).toEqual(one.body)
  })

  test('behavior: a delivery that cannot be sent fails the order with the reason', async () => {
    const down = await OnrampSandbox.start({ port: 0, chains: [{ id: 31337, rpcUrl: 'http://127.0.0.1:9' }], tokens: {} })
    try {
      const res = await fetch(`${down.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order(freshWallet())) })
      const body = (await res.json()) as OnrampSandbox.Order
      expect(body.status).toBe('ONRAMP_TRANSACTION_STATUS_FAILED')
      expect(body.failure_reason).toMatch(/^The provider could not deliver: /)
    } finally {
      await down.stop()
    }
  })

  test.each([
    ['no wallet', { wallet_address: undefined }, 'wallet_address'],
    ['a wallet without 0x', { wallet_address: 'f39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, 'wallet_address'],
    ['no partner user', { partner_user_id: '' }, 'partner_user_id'],
    ['a card that is not a test card', { card_number: '4111 1111 1111 1111' }, 'card_number must be a test card'],
    ['an expired card', { card_expiry: '01/20' }, 'card_expiry'],
    ['a bad expiry', { card_expiry: '13/30' }, 'card_expiry'],
    ['no CVC', { card_cvc: undefined }, 'card_cvc'],
    ['a card payment above its limit', { payment_amount: '8000' }, 'Card payments'],
    ['an amount that is not one', { payment_amount: 'lots' }, 'payment_amount'],
  ])('param: %s is 400 and no order', async (_, change, message) => {
    const wallet = freshWallet()
    const res = await post('/api/orders', order(wallet, { partner_user_id: 'bad-input', ...change }))
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })

  test('error: not JSON is 415; an unknown order is 404', async () => {
    const res = await fetch(`${sandbox.url}/api/orders`, { method: 'POST', body: 'x' })
    expect(res.status).toBe(415)
    expect((await post('/api/orders/nope/settle')).status).toBe(404)
    expect((await post('/api/orders', '[1]' as never)).status).toBe(400)
  })
})

describe('GET /onramp/v1/buy/user/{partnerUserId}/transactions', () => {
  test('behavior: the user’s orders newest first, paged by next_page_key', async () => {
    const wallet = freshWallet()
    const ids: string[] = []
    for (const amount of ['10', '11', '12']) ids.push((await post('/api/orders', order(wallet, { payment_amount: amount, card_number: '4000000000000002' }))).body.transaction_id)
    const first = await get(`/onramp/v1/buy/user/${wallet}/transactions?page_size=2`)
    expect(first.status).toBe(200)
    expect(first.body.transactions.map((t: OnrampSandbox.Order) => t.transaction_id)).toEqual([ids[2], ids[1]])
    expect(first.body.total_count).toBe(3)
    const second = await get(`/onramp/v1/buy/user/${wallet}/transactions?page_size=2&page_key=${first.body.next_page_key}`)
    expect(second.body).toMatchObject({ next_page_key: '', total_count: 3 })
    expect(second.body.transactions.map((t: OnrampSandbox.Order) => t.transaction_id)).toEqual([ids[0]])
    expect((await get(`/onramp/v1/buy/user/${freshWallet()}/transactions`)).body).toEqual({ transactions: [], next_page_key: '', total_count: 0 })
  })

  test.each([['page_size=0'], ['page_size=101'], ['page_size=x'], ['page_key=unknown']])('param: %s is 400', async (query) => {
    expect((await get(`/onramp/v1/buy/user/someone/transactions?${query}`)).status).toBe(400)
  })
})

describe('the provider contract (shared/src/contracts/onramp.ts)', () => {
  test('behavior: each route the api calls answers in the contract’s result shape', async () => {
    const wallet = freshWallet()
    await post('/api/orders', order(wallet, { card_number: '4000000000000002' }))
    const options = await get(Provider.table.options.path)
    const quote = await post(Provider.table.quote.path, { purchase_currency: 'ETH', payment_amount: '100', payment_currency: 'USD' })
    const transactions = await get(`/onramp/v1/buy/user/${wallet}/transactions`)
    expect([options.status, quote.status, transactions.status]).toEqual([200, 200, 200])
    expect([Provider.table.options.result(options.body), Provider.table.quote.result(quote.body), Provider.table.transactions.result(transactions.body)]).toEqual([true, true, true])
    expect(transactions.body.transactions).toHaveLength(1)
  })

  test.each([
    ['a partnerUserId over 49 characters', `/onramp/v1/buy/user/${'a'.repeat(50)}/transactions`, 'partner_user_id must be 1 to 49 characters'],
    ['a page_size over 100', '/onramp/v1/buy/user/someone/transactions?page_size=101', 'page_size must be an integer from 1 to 100'],
  ])('error: %s is the contract’s 400', async (_, path, message) => {
    expect(await get(path)).toEqual({ status: 400, body: { message } })
  })

  test('error: a method the route does not take is 405, naming the one it takes', async () => {
    const res = await fetch(`${sandbox.url}${Provider.table.options.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect([res.status, res.headers.get('allow'), await res.json()]).toEqual([405, 'GET', { message: `${Provider.table.options.path} takes GET` }])
  })
})

describe('GET /buy/select-asset', () => {
  const wallet = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  // An empty value leaves the parameter out.
  const link = (change: Record<string, string> = {}) => {
    const query = {
      appId: 'doorway-demo',
      destinationWallets: JSON.stringify([{ address: wallet, blockchains: ['eip155:31337'], assets: ['ETH', 'DUSD'] }]),
      partnerUserId: wallet,
      defaultNetwork: 'eip155:31337',
      defaultExperience: 'buy',
      presetFiatAmount: '100',
      ...change,
    }
    return `${sandbox.url}/buy/select-asset?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== ''))}`
  }

  test('behavior: the order, the test cards and the fields, under a CSP with no inline script or style', async () => {
    const res = await fetch(link())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    const html = await res.text()
    for (const text of [
      '<dd id="pay">100.00 USD</dd>',
      '<dd id="fee">1.00 USD</dd>',
      '<dd id="network-fee">0.50 USD</dd>',
      '<dd id="receive">0.03283333 ETH</dd>',
      '<dd id="network">Anvil 31337 (eip155:31337)</dd>',
      `<dd id="wallet">${wallet}</dd>`,
      '4242 4242 4242 4242 is accepted; 4000 0000 0000 0002 is declined',
      '<label for="card-number">Card number</label>',
      '<label for="card-expiry">Expiry date (MM/YY)</label>',
      '<label for="card-cvc">CVC</label>',
      'value="CARD" checked /> Card</label>',
      'value="ACH_BANK_ACCOUNT" /> Bank account (ACH)</label>',
      '<button type="submit" id="pay-button">Pay</button>',
      '<p id="status" role="status" aria-live="polite"></p>',
      '<script src="/buy/buy.js" defer></script>',
    ])
      expect(html).toContain(text)
    // only what the wallet takes: DWT is sold but not listed for it
    expect(html).toContain('DUSD (Doorway USD) on Anvil 31337')
    expect(html).not.toContain('DWT (')
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/)
    expect(html).not.toMatch(/<style|\sstyle=/)
  })

  test('behavior: the asset, method, currency and a crypto amount from the link', async () => {
    const html = await (await fetch(link({ presetFiatAmount: '', presetCryptoAmount: '20', defaultAsset: 'DUSD', defaultPaymentMethod: 'ACH_BANK_ACCOUNT', fiatCurrency: 'EUR' }))).text()
    expect(html).toContain('value="DUSD|eip155:31337" selected')
    expect(html).toContain('value="ACH_BANK_ACCOUNT" checked')
    expect(html).toContain('<option value="EUR" selected>')
    // about 20 DUSD with the fees: never less
    expect(html).toContain('<dd id="receive">20.012400 DUSD</dd>')
  })

  test('behavior: the script and style are served as files', async () => {
    const script = await fetch(`${sandbox.url}/buy/buy.js`)
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(await script.text()).toContain("'/api/orders'")
    expect((await fetch(`${sandbox.url}/buy/buy.css`)).headers.get('content-type')).toMatch(/^text\/css/)
  })

  test.each([
    ['no destination wallet', { destinationWallets: '[]' }],
    ['a wallet that is not EVM', { destinationWallets: JSON.stringify([{ address: 'alice' }]) }],
    ['nothing sold for the wallet', { destinationWallets: JSON.stringify([{ address: wallet, assets: ['BTC'] }]) }],
    ['a negative amount', { presetFiatAmount: '-5' }],
    ['an unknown method', { defaultPaymentMethod: 'CASH' }],
    ['an unknown currency', { fiatCurrency: 'GBP' }],
    ['no partner user', { partnerUserId: '' }],
  ])('param: %s is a 400 page under the same CSP', async (_, change) => {
    const res = await fetch(link(change))
    expect(res.status).toBe(400)
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await res.text()).toContain('This buy link is not valid')
  })
})

describe('the buy page’s script', () => {
  /** The page as a browser runs it: its own script, its fetches to the sandbox. */
  async function open(query: Record<string, string>) {
    const url = `${sandbox.url}/buy/select-asset?${new URLSearchParams({ partnerUserId: 'page-user', presetFiatAmount: '100', ...query })}`
    const dom = new JSDOM(await (await fetch(url)).text(), { url, runScripts: 'outside-only' })
    const window = dom.window
    window.fetch = (path, init) => fetch(new URL(String(path), url), init)
    window.eval(readFileSync(new URL('./onramp/buy.js', import.meta.url), 'utf8'))
    const field = (id: string) => window.document.getElementById(id) as HTMLInputElement
    const status = () => field('status').textContent ?? ''
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const pay = () => field('order-form').dispatchEvent(new window.Event('submit', { bubbles: true, cancelable: true }))
    return { window, field, status, until, pay }
  }

  test('behavior: re-quotes as the amount changes, explains a limit, pays by card and shows the hash', async () => {
    const wallet = freshWallet()
    const page = await open({ destinationWallets: JSON.stringify([{ address: wallet }]) })
    const type = (value: string) => {
      page.field('amount').value = value
      page.field('amount').dispatchEvent(new page.window.Event('input', { bubbles: true }))
    }
    type('9000')
    await page.until(() => page.field('amount-error').textContent !== '')
    expect(page.field('amount-error').textContent).toBe('Card payments must be from 10 to 7500 USD')
    expect(page.field('pay-button').disabled).toBe(true)
    type('200')
    await page.until(() => page.field('pay').textContent === '200.00 USD')
    expect(page.field('receive').textContent).toBe('0.06583333 ETH')
    Object.assign(page.field('card-number'), { value: '4242 4242 4242 4242' })
    Object.assign(page.field('card-expiry'), { value: '12/99' })
    Object.assign(page.field('card-cvc'), { value: '123' })
    page.pay()
    expect(page.status()).toBe('Payment in progress…')
    await page.until(() => page.status() !== 'Payment in progress…')
    const hash = page.field('order-hash').textContent!
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(page.status()).toBe(`Success: 0.06583333 ETH sent to ${wallet} in transaction ${hash}.`)
    expect(page.field('order-status').textContent).toBe('Success')
    expect(await ethBalance(wallet)).toBe(parseUnits('0.06583333', 18))
  })

  test('behavior: the decline card says the provider’s reason', async () => {
    const page = await open({ destinationWallets: JSON.stringify([{ address: freshWallet() }]) })
    Object.assign(page.field('card-number'), { value: '4000 0000 0000 0002' })
    Object.assign(page.field('card-expiry'), { value: '12/99' })
    Object.assign(page.field('card-cvc'), { value: '123' })
    page.pay()
    await page.until(() => page.status().startsWith('Failed'))
    expect(page.status()).toBe('Failed: Your card was declined')
    expect(page.field('order-status').textContent).toBe('Failed')
  })

  test('behavior: the bank waits for its callback, then delivers', async () => {
    const wallet = freshWallet()
    const page = await open({ destinationWallets: JSON.stringify([{ address: wallet }]), defaultPaymentMethod: 'ACH_BANK_ACCOUNT' })
    expect(page.field('card').hidden).toBe(true)
    page.pay()
    await page.until(() => page.field('order-status').textContent === 'In progress')
    expect(page.status()).toBe('Payment in progress: waiting for your bank to settle…')
    await page.until(() => page.field('order-status').textContent === 'Success')
    expect(page.status()).toMatch(/^Success: 0\.03283333 ETH sent to /)
    expect(await ethBalance(wallet)).toBe(parseUnits('0.03283333', 18))
  })
})
