/**
 * The sandbox onramp provider (docs/architecture.md §3, port 8793; §9 "Onramp"): a stand-in for a hosted card and
 * bank provider behind the HTTP contract of Coinbase Onramp's public API, so that production is a change
 * of the api's `onramp.providerUrl`. It sells the devnet chains' ETH and the manifest's priced tokens,
 * serves the buy page the modal opens (test cards, a bank transfer that settles a few seconds later),
 * and delivers by sending the funds on the devnet from anvil account 6. Dev only, never shipped.
 * `import * as OnrampSandbox from './onrampSandbox.js'` → `await OnrampSandbox.start({ … })`.
 *
 * The provider's API, which the api calls, is its contract (shared/src/contracts/onramp.ts): GET
 * /onramp/v1/buy/options, POST /onramp/v1/buy/quote, GET /onramp/v1/buy/user/{partnerUserId}/transactions.
 * The page's own: GET /buy/select-asset, its script and style, POST /api/orders (checkout), POST
 * /api/orders/{id}/settle (the bank's callback) and GET /api/orders/{id}. Orders are kept in memory: a
 * devnet stand-in loses them on restart.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ChainId } from '@doorway/shared/Caip'
import * as Contract from '@doorway/shared/Contract'
import * as Provider from '@doorway/shared/contracts/onramp'
import { type Address, type Hex, createPublicClient, createWalletClient, erc20Abi, getAddress, http, isAddress, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import * as Anvil from './anvil.js'
import { type Body, HttpError, isLoopbackHost, listenLoopback, readJson, securityHeaders, sendJson } from './httpServer.js'
import * as Page from './onramp/page.js'
import * as Tokens from './tokens.js'

export const limits = {
  /** Largest request body; an order is a few hundred bytes. */
  bodyBytes: 8 * 1024,
  /** Orders a transactions page lists when page_size is absent, and at most. */
  pageSize: 20,
  maxPageSize: Provider.limits.maxPageSize,
  /** Coinbase's limit on partnerUserId: under 50 characters. */
  partnerUserIdLength: Provider.limits.partnerUserIdLength,
}

/** USD per unit of each payment currency: the api's local rates (a stand-in for an FX feed). */
export const paymentCurrencies: Readonly<Record<string, number>> = { USD: 1, EUR: 1.08 }

/** Each method's limits, the same in every payment currency (spec §5 payment limits). */
export const paymentMethods = {
  CARD: { min: '10', max: '7500', label: 'Card' },
  ACH_BANK_ACCOUNT: { min: '10', max: '25000', label: 'Bank account (ACH)' },
} as const
export type PaymentMethod = keyof typeof paymentMethods

/** The fees: 1 % of the payment (rounded half up to the cent) plus a flat network fee of 0.50. */
export const feePercent = 1n
export const networkFeeCents = 50n

/** USD prices of what is sold: the api's local prices (ETH 3000, DUSD 1, DWT 0.25). A token without one is not sold. */
export const defaultPrices: Readonly<Record<string, number>> = { ETH: 3000, DUSD: 1, DWT: 0.25 }

/** The test cards, as the page documents them: one is accepted, one declined; any other is refused. */
export const testCards = { success: '4242424242424242', decline: '4000000000000002' } as const
export const declineReason = 'Your card was declined'

/**
 * Account 6 delivers: nothing else on the devnet uses it, so its nonces are the sandbox's own. It holds
 * anvil's 10,000 ETH but no tokens (tokens.ts mints to accounts 0–4): before a token delivery it cannot
 * cover, it takes `restock` whole tokens (or what the order needs, if more) from account 4, which keeps
 * 175,000 DUSD and 100,000 DWT after the exchange's pools (exchange.ts). Accounts 0–3 keep their supply.
 */
export const deliveryAccount = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 6 })
export const stockAccount = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 4 })
export const restock = 10_000n

export const statuses = {
  inProgress: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS',
  success: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
  failed: 'ONRAMP_TRANSACTION_STATUS_FAILED',
} as const
export type Status = (typeof statuses)[keyof typeof statuses]

/** Money as Coinbase writes it: a decimal string and its currency. */
export type Money = Provider.Money

export type Quote = Provider.Quote

/** An order, in the shape of Coinbase's transaction status. */
export type Order = {
  transaction_id: string
  status: Status
  partner_user_id: string
  wallet_address: string
  purchase_currency: string
  purchase_network: string
  purchase_amount: Money
  payment_total: Money
  payment_subtotal: Money
  coinbase_fee: Money
  network_fee: Money
  payment_method: PaymentMethod
  created_at: string
  /** The delivery's transaction, once sent. */
  tx_hash: string
  failure_reason?: string
}

/** One thing sold: a currency on one network. */
export type Asset = {
  symbol: string
  name: string
  decimals: number
  /** USD per unit. */
  price: number
  /** CAIP-2, as the purchase_network. */
  network: ChainId
  chain: { id: number; rpcUrl: string }
  displayName: string
  /** '' for the native currency. */
  address: Address | ''
}

export function start(options: start.Options): Promise<start.ReturnType> {
  const app = createApp(options)
  // A delivery under way finishes on stop: its chain must not be left with a half-told order.
  return listenLoopback({ name: 'sandbox onramp', port: options.port, host: options.host, handle: (req, res) => void handle(app, req, res), finish: app.idle })
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `url` says which. */
    port: number
    /** The devnet chains it sells and delivers on. */
    chains: readonly { id: number; rpcUrl: string }[]
    /** The devnet manifest's tokens by CAIP-2 network; those without a price are not sold. */
    tokens: Partial<Record<ChainId, readonly Tokens.Token[]>>
    /** USD prices by symbol. Default `defaultPrices`. */
    prices?: Readonly<Record<string, number>>
    /** How long the page waits before the bank's callback settles an order. Default 3000 ms. */
    bankSettleMs?: number
    /** A loopback address. Default 127.0.0.1. */
    host?: string
  }
  /** `url` has no trailing slash: the api appends its paths. */
  type ReturnType = { url: string; stop(): Promise<void> }
}

const badRequest = (message: string) => new HttpError(400, message)

/** Everything sold, one entry per currency and network, in the order the options list them. */
export function catalogue(options: Pick<start.Options, 'chains' | 'tokens' | 'prices'>): Asset[] {
  const prices = options.prices ?? defaultPrices
  return options.chains.flatMap((chain) => {
    const network: ChainId = `eip155:${chain.id}`
    const listed = [{ name: 'Ether', symbol: 'ETH', decimals: 18, address: '' as const }, ...(options.tokens[network] ?? [])]
    return listed.flatMap((token): Asset[] => {
      const price = Object.hasOwn(prices, token.symbol) ? prices[token.symbol] : undefined
      if (price === undefined) return []
      return [{ ...token, price, network, chain, displayName: `Anvil ${chain.id}` }]
    })
  })
}

/** GET /onramp/v1/buy/options: what can be paid with and bought, in Coinbase's shape. */
export function buyOptions(assets: readonly Asset[]): Provider.Options {
  const bySymbol = new Map<string, { id: string; name: string; symbol: string; networks: { name: string; display_name: string; chain_id: string; contract_address: string }[] }>()
  for (const asset of assets) {
    const currency = bySymbol.get(asset.symbol) ?? { id: asset.symbol, name: asset.name, symbol: asset.symbol, networks: [] }
    currency.networks.push({ name: asset.network, display_name: asset.displayName, chain_id: String(asset.chain.id), contract_address: asset.address })
    bySymbol.set(asset.symbol, currency)
  }
  const methodLimits = (Object.entries(paymentMethods) as [PaymentMethod, (typeof paymentMethods)[PaymentMethod]][]).map(([id, { min, max }]) => ({ id, min, max }))
  return {
    payment_currencies: Object.keys(paymentCurrencies).map((id) => ({ id, limits: methodLimits })),
    purchase_currencies: [...bySymbol.values()],
  }
}

export type QuoteRequest = { asset: Asset; currency: string; method: PaymentMethod; cents: bigint }

/** A quote request's fields checked against what is sold (the messages name Coinbase's fields). */
export function quoteRequest(assets: readonly Asset[], body: Record<string, unknown>): QuoteRequest {
  const symbol = body.purchase_currency
  const networks = assets.filter((a) => a.symbol === symbol)
  if (!networks.length) throw badRequest(`purchase_currency must be one of ${[...new Set(assets.map((a) => a.symbol))].join(', ')}`)
  const network = body.purchase_network
  const asset = network === undefined ? networks[0]! : networks.find((a) => a.network === network)
  if (!asset) throw badRequest(`purchase_network: ${String(symbol)} is sold on ${networks.map((a) => a.network).join(', ')}`)
  const currency = body.payment_currency
  if (typeof currency !== 'string' || !Object.hasOwn(paymentCurrencies, currency))
    throw badRequest(`payment_currency must be one of ${Object.keys(paymentCurrencies).join(', ')}`)
  const method = body.payment_method ?? 'CARD'
  if (typeof method !== 'string' || !Object.hasOwn(paymentMethods, method)) throw badRequest(`payment_method must be one of ${Object.keys(paymentMethods).join(', ')}`)
  const cents = fiatCents(body.payment_amount)
  if (cents === undefined) throw badRequest('payment_amount must be an amount with at most 2 decimals')
  const { min, max, label } = paymentMethods[method as PaymentMethod]
  // The page shows this beside the amount: the method as the person knows it.
  if (cents < fiatCents(min)! || cents > fiatCents(max)!) throw badRequest(`${label} payments must be from ${min} to ${max} ${currency}`)
  return { asset, currency, method: method as PaymentMethod, cents }
}

/** The fees in whole cents; the rest buys at the asset's price, rounded down at min(decimals, 8) digits. */
export function quote(request: QuoteRequest): Quote {
  const { asset, currency, cents } = request
  const fee = (cents * feePercent + 50n) / 100n
  const subtotal = cents - fee - networkFeeCents
  if (subtotal <= 0n) throw badRequest('payment_amount does not cover the fees')
  // prices as integers scaled by 1e8, so the division is exact to the last digit shown
  const rate = BigInt(Math.round(paymentCurrencies[currency]! * 1e8))
  const price = BigInt(Math.round(asset.price * 1e8))
  const shown = Math.min(asset.decimals, 8)
  const units = (subtotal * rate * 10n ** BigInt(shown)) / (100n * price)
  const money = (n: bigint): Money => ({ value: decimal(n, 2), currency })
  return {
    payment_total: money(cents),
    payment_subtotal: money(subtotal),
    purchase_amount: { value: decimal(units, shown), currency: asset.symbol },
    coinbase_fee: money(fee),
    network_fee: money(networkFeeCents),
    quote_id: randomUUID(),
  }
}

/** About what `crypto` units cost with the fees, in cents (for presetCryptoAmount), within the method's limits. */
export function fiatFor(asset: Asset, currency: string, method: PaymentMethod, crypto: number): bigint {
  const subtotal = (crypto * asset.price) / paymentCurrencies[currency]!
  const cents = BigInt(Math.ceil(((subtotal * 100 + Number(networkFeeCents)) * 100) / (100 - Number(feePercent))))
  const { min, max } = paymentMethods[method]
  return cents < fiatCents(min)! ? fiatCents(min)! : cents > fiatCents(max)! ? fiatCents(max)! : cents
}

/** A fiat amount in cents: at most 9 integer digits and 2 decimals, as a string or a number. */
export function fiatCents(value: unknown): bigint | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value
  const match = typeof text === 'string' ? /^([0-9]{1,9})(?:\.([0-9]{1,2}))?$/.exec(text) : null
  return match ? BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')) : undefined
}

export function decimal(n: bigint, decimals: number): string {
  if (decimals === 0) return n.toString()
  const text = n.toString().padStart(decimals + 1, '0')
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`
}

type App = ReturnType<typeof createApp>

function createApp(options: start.Options) {
  const assets = catalogue(options)
  const delivery = createDelivery()
  const settleMs = options.bankSettleMs ?? 3_000
  // In memory, oldest first: a devnet stand-in, lost on restart.
  const orders: Order[] = []
  const byId = new Map<string, Order>()
  // One delivery per order: the second settle of an order (repeated or concurrent) gets the first's.
  const deliveries = new Map<string, Promise<Order>>()

  function settle(order: Order): Promise<Order> {
    if (order.status !== statuses.inProgress) return Promise.resolve(order)
    let running = deliveries.get(order.transaction_id)
    if (!running) {
      const asset = assets.find((a) => a.symbol === order.purchase_currency && a.network === order.purchase_network)!
      running = delivery
        .send(asset, order.wallet_address as Address, order.purchase_amount.value)
        .then(
          (hash) => finish(order, { tx_hash: hash }),
          (error: DeliveryError) => finish(order, { tx_hash: error.hash ?? '', failure_reason: `The provider could not deliver: ${error.message}` }),
        )
        .then(() => order)
      deliveries.set(order.transaction_id, running)
    }
    return running
  }

  async function place(body: Body): Promise<Order> {
    const request = quoteRequest(assets, body)
    const partner = partnerUserId(body.partner_user_id)
    const wallet = body.wallet_address
    if (typeof wallet !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(wallet) || !isAddress(wallet, { strict: false }))
      throw badRequest('wallet_address must be a 0x-prefixed 40-hex-digit address')
    const declined = request.method === 'CARD' && card(body) === 'decline'
    const priced = quote(request)
    const order: Order = {
      transaction_id: randomUUID(),
      status: statuses.inProgress,
      partner_user_id: partner,
      wallet_address: getAddress(wallet),
      purchase_currency: request.asset.symbol,
      purchase_network: request.asset.network,
      purchase_amount: priced.purchase_amount,
      payment_total: priced.payment_total,
      payment_subtotal: priced.payment_subtotal,
      coinbase_fee: priced.coinbase_fee,
      network_fee: priced.network_fee,
      payment_method: request.method,
      created_at: new Date().toISOString(),
      tx_hash: '',
    }
    orders.push(order)
    byId.set(order.transaction_id, order)
    if (declined) finish(order, { failure_reason: declineReason })
    // A card pays at once; a bank transfer waits for the bank's callback (settle).
    else if (request.method === 'CARD') await settle(order)
    return order
  }

  function find(id: string): Order {
    const order = byId.get(id)
    if (!order) throw new HttpError(404, `No order ${id}`)
    return order
  }

  function page(query: URLSearchParams) {
    return Page.render({ assets, query, settleMs, methods: paymentMethods, currencies: Object.keys(paymentCurrencies), testCards, quote: (r) => quote(quoteRequest(assets, r)), fiatFor })
  }

  return {
    options: () => buyOptions(assets),
    quote: (body: Body) => quote(quoteRequest(assets, body)),
    place,
    order: (id: string) => find(id),
    settle: (id: string) => settle(find(id)),
    transactions: (partner: string, query: TransactionsQuery) => transactions(orders, partner, query),
    page,
    idle: () => Promise.all(deliveries.values()).then(() => undefined),
  }
}

/** The order's one transition out of IN_PROGRESS; later ones are ignored. */
function finish(order: Order, outcome: { tx_hash?: string; failure_reason?: string }) {
  if (order.status !== statuses.inProgress) return
  if (outcome.tx_hash) order.tx_hash = outcome.tx_hash
  if (outcome.failure_reason === undefined) order.status = statuses.success
  else Object.assign(order, { status: statuses.failed, failure_reason: outcome.failure_reason })
}

type TransactionsQuery = Contract.Checked<typeof Provider.table.transactions.query>

/** A user's orders, newest first: the table checked partnerUserId and page_size (shared/src/contracts/onramp.ts), the page key is checked here. */
function transactions(orders: readonly Order[], partner: string, query: TransactionsQuery) {
  const pageSize = query.page_size === undefined ? limits.pageSize : Number(query.page_size)
  const mine = orders.filter((o) => o.partner_user_id === partner).reverse()
  // The page key is the last order of the page before: orders are only added, so it stays in place.
  const key = query.page_key as string | undefined
  const from = key ? mine.findIndex((o) => o.transaction_id === key) + 1 : 0
  if (key && from === 0) throw badRequest('page_key is not one this provider gave')
  const page = mine.slice(from, from + pageSize)
  const more = from + pageSize < mine.length
  return { transactions: page, next_page_key: more ? page.at(-1)!.transaction_id : '', total_count: mine.length }
}

function partnerUserId(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > limits.partnerUserIdLength)
    throw badRequest(`partner_user_id must be 1 to ${limits.partnerUserIdLength} characters`)
  return value
}

/** The test card's outcome, or 400 for anything that is not a well-formed test card. */
function card(body: Body): 'success' | 'decline' {
  const number = typeof body.card_number === 'string' ? body.card_number.replace(/[\s-]/g, '') : ''
  const outcome = number === testCards.success ? 'success' : number === testCards.decline ? 'decline' : undefined
  if (!outcome) throw badRequest('card_number must be a test card: 4242 4242 4242 4242 (accepted) or 4000 0000 0000 0002 (declined)')
  const [, month, year] = /^(0[1-9]|1[0-2])\s*\/\s*([0-9]{2})$/.exec(typeof body.card_expiry === 'string' ? body.card_expiry.trim() : '') ?? []
  const now = new Date()
  const expired = year !== undefined && (2000 + Number(year)) * 12 + Number(month) - 1 < now.getUTCFullYear() * 12 + now.getUTCMonth()
  if (!month || expired) throw badRequest('card_expiry must be this month or later, as MM/YY')
  if (typeof body.card_cvc !== 'string' || !/^[0-9]{3,4}$/.test(body.card_cvc)) throw badRequest('card_cvc must be 3 or 4 digits')
  return outcome
}

type DeliveryError = Error & { hash?: Hex }

/**
 * Sends what was bought from the delivery account and waits for the receipt. One transfer at a time per
 * chain, so each takes the nonce after the one before.
 */
function createDelivery() {
  const queues = new Map<number, Promise<unknown>>()

  function serial<T>(chainId: number, run: () => Promise<T>): Promise<T> {
    const next = (queues.get(chainId) ?? Promise.resolve()).then(run)
    queues.set(chainId, next.catch(() => undefined))
    return next
  }

  function clients(chain: Asset['chain'], account = deliveryAccount) {
    const viemChain = Anvil.viemChain(chain)
    // anvil mines each transaction at once; the default 4 s polling would only add waiting
    const client = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl, { retryCount: 0 }), pollingInterval: 50 })
    const wallet = createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl, { retryCount: 0 }), account })
    return { client, wallet }
  }

  async function mined(client: ReturnType<typeof clients>['client'], hash: Hex): Promise<Hex> {
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw Object.assign(new Error(`the transfer ${hash} reverted`), { hash })
    return hash
  }

  async function transfer(asset: Asset, to: Address, amount: bigint, account = deliveryAccount): Promise<Hex> {
    const { client, wallet } = clients(asset.chain, account)
    const hash =
      asset.address === ''
        ? await wallet.sendTransaction({ to, value: amount })
        : await wallet.writeContract({ address: asset.address, abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
    return mined(client, hash)
  }

  // The delivery account holds no tokens until it needs them (see deliveryAccount).
  async function stock(asset: Asset, amount: bigint) {
    if (asset.address === '') return
    const { client } = clients(asset.chain)
    const read = (owner: Address) => client.readContract({ address: asset.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
    const held = await read(deliveryAccount.address)
    if (held >= amount) return
    const wanted = amount - held + restock * 10n ** BigInt(asset.decimals)
    const available = await read(stockAccount.address)
    if (available > 0n) await transfer(asset, deliveryAccount.address, wanted < available ? wanted : available, stockAccount)
  }

  return {
    send(asset: Asset, to: Address, value: string): Promise<Hex> {
      const amount = parseUnits(value, asset.decimals)
      return serial(asset.chain.id, async () => {
        try {
          await stock(asset, amount)
          return await transfer(asset, to, amount)
        } catch (error) {
          const e = error as DeliveryError & { shortMessage?: string }
          throw Object.assign(new Error(e.shortMessage ?? e.message), e.hash ? { hash: e.hash } : {})
        }
      })
    },
  }
}

/** A route and its handler: the provider's API from its contract, the page's own beside it. */
type Route = {
  method: Contract.Method
  path: string
  /** Only the contract's routes have fields to check. */
  route?: Contract.Route
  status?: number
  handle(app: App, request: { params: Record<string, string>; query: Record<string, unknown>; body: Body }): unknown
}

/** A route of the provider's contract, its answer typed by the contract. */
function provider<R extends Contract.Route>(route: R, handle: (app: App, request: { params: Contract.Checked<R['params']>; query: Contract.Checked<R['query']>; body: Body }) => Contract.Result<R>): Route {
  return { method: route.method, path: route.path, route, handle: handle as Route['handle'] }
}

const routes: Route[] = [
  provider(Provider.table.options, (app) => app.options()),
  provider(Provider.table.quote, (app, { body }) => app.quote(body)),
  provider(Provider.table.transactions, (app, { params, query }) => app.transactions(params.partnerUserId, query)),
  { method: 'POST', path: '/api/orders', status: 201, handle: (app, { body }) => app.place(body) },
  { method: 'GET', path: '/api/orders/:id', handle: (app, { params }) => app.order(params.id!) },
  { method: 'POST', path: '/api/orders/:id/settle', handle: (app, { params }) => app.settle(params.id!) },
]

async function handle(app: App, req: IncomingMessage, res: ServerResponse) {
  try {
    // DNS rebinding: a page on another name that resolves to loopback must not place orders.
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Only loopback host names may use the sandbox onramp')
    const url = new URL(req.url ?? '/', 'http://loopback')
    const path = url.pathname
    if (req.method === 'GET' && path === Page.path) return sendPage(res, app.page(url.searchParams))
    const asset = Page.assets[path]
    if (req.method === 'GET' && asset) return sendAsset(res, asset)
    const found = routes.flatMap((route) => {
      const params = Contract.match(route.path, path)
      return params ? [{ route, params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, decode(value)])) }] : []
    })
    const chosen = found.find(({ route }) => route.method === req.method)
    if (chosen) return sendJson(res, chosen.route.status ?? 200, await answer(app, chosen.route, chosen.params, url.searchParams, req))
    if (found.length === 0) throw new HttpError(404, `No such endpoint: ${path}`)
    const allowed = found.map(({ route }) => route.method).join(', ')
    res.setHeader('allow', allowed)
    throw new HttpError(405, `${path} takes ${allowed}`)
  } catch (error) {
    if (res.headersSent) return void res.destroy()
    // A bad buy link is told on a page, as a person opened it.
    if (error instanceof Page.PageError) return sendPage(res, error.html, 400)
    const status = error instanceof HttpError ? error.status : 500
    if (status === 500) console.error('[doorway:onramp]', error)
    if (status === 413) res.setHeader('connection', 'close')
    sendJson(res, status, { message: status === 500 ? 'Internal error' : (error as Error).message })
  }
}

/** The route's answer; a contract route's params and query are checked first (400 with the contract's text). */
async function answer(app: App, route: Route, params: Record<string, string>, search: URLSearchParams, req: IncomingMessage) {
  for (const checked of [Contract.check(route.route?.params, (name) => params[name]), Contract.check(route.route?.query, (name) => search.get(name) ?? undefined)])
    if ('invalid' in checked) throw badRequest(checked.invalid)
  const body = route.method === 'POST' ? await readJson(req, limits.bodyBytes) : {}
  return route.handle(app, { params, query: Object.fromEntries(search), body })
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw badRequest('The path is not valid percent-encoding')
  }
}


function sendPage(res: ServerResponse, body: string, status = 200) {
  res.writeHead(status, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': Page.csp }).end(body)
}

function sendAsset(res: ServerResponse, asset: { type: string; body: string }) {
  res.writeHead(200, { ...securityHeaders, 'content-type': asset.type }).end(asset.body)
}
