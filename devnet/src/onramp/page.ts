/**
 * The sandbox onramp's buy page (onrampSandbox.ts): the order a buy link describes, rendered on the
 * server, and a small script served as a file (buy.js) that re-quotes, pays and follows the order. The
 * page runs under a CSP that allows only its own script, style and API: no inline script or style.
 */
import { readFileSync } from 'node:fs'
import type * as OnrampSandbox from '../onrampSandbox.js'

/** Coinbase's buy page path, so the api builds the same URL for the sandbox as for the hosted provider. */
export const path = '/buy/select-asset'

const file = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')

/** The page's script and style, by the path the page links them from. */
export const assets: Record<string, { type: string; body: string }> = {
  '/buy/buy.js': { type: 'text/javascript; charset=utf-8', body: file('buy.js') },
  '/buy/buy.css': { type: 'text/css; charset=utf-8', body: file('buy.css') },
}

export const csp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** A buy link the page cannot show: answered 400 with a page saying why. */
export class PageError extends Error {
  readonly html: string
  constructor(message: string) {
    super(message)
    this.html = layout('Buy link not valid', `<h1>This buy link is not valid</h1>\n<p role="alert">${escape(message)}</p>`)
  }
}

type Asset = OnrampSandbox.Asset
type Method = OnrampSandbox.PaymentMethod

export function render(options: render.Options): string {
  return layout('Buy crypto · Doorway sandbox onramp', body(options, order(options)))
}
export declare namespace render {
  type Options = {
    /** What the sandbox sells. */
    assets: readonly Asset[]
    /** The buy link's query (Coinbase's buy page parameters). */
    query: URLSearchParams
    /** How long the page waits for the bank's callback. */
    settleMs: number
    methods: Readonly<Record<Method, { label: string }>>
    currencies: readonly string[]
    testCards: { success: string; decline: string }
    /** The sandbox's quote (throws with the reason an amount cannot be quoted). */
    quote(request: Record<string, unknown>): OnrampSandbox.Quote
    /** What an amount of crypto costs with the fees, in cents. */
    fiatFor(asset: Asset, currency: string, method: Method, crypto: number): bigint
  }
}

/** What the page shows: the link's order, with the asset, amount and quote it starts from. */
type Order = {
  link: Link
  /** What the sandbox sells that the link's wallet can receive. */
  offered: Asset[]
  asset: Asset
  amount: string
  quote: OnrampSandbox.Quote | undefined
  /** Why the amount has no quote, or ''. */
  error: string
}

function order(options: render.Options): Order {
  const { assets: sold, query, currencies } = options
  const link = parse(query, currencies)
  const offered = sold.filter(
    (a) =>
      (!link.wallet.blockchains || link.wallet.blockchains.some((b) => b === a.network || b === String(a.chain.id))) &&
      (!link.wallet.assets || link.wallet.assets.includes(a.symbol)),
  )
  if (!offered.length) throw new PageError('Nothing this provider sells can be delivered to this wallet on the networks and assets the link names.')
  const network = link.defaultNetwork
  const onNetwork = (a: Asset) => network === undefined || a.network === network || String(a.chain.id) === network
  const asset =
    offered.find((a) => a.symbol === link.defaultAsset && onNetwork(a)) ??
    offered.find((a) => onNetwork(a) && (link.defaultAsset === undefined || a.symbol === link.defaultAsset)) ??
    offered.find(onNetwork) ??
    offered[0]!
  const { method, currency } = link
  const amount =
    link.presetFiatAmount !== undefined
      ? link.presetFiatAmount.toFixed(2)
      : link.presetCryptoAmount !== undefined
        ? centsText(options.fiatFor(asset, currency, method, link.presetCryptoAmount))
        : '100.00'
  let quote: OnrampSandbox.Quote | undefined
  let error = ''
  try {
    quote = options.quote({ purchase_currency: asset.symbol, purchase_network: asset.network, payment_currency: currency, payment_method: method, payment_amount: amount })
  } catch (e) {
    error = (e as Error).message
  }
  return { link, offered, asset, amount, quote, error }
}

function body(options: render.Options, { link, offered, asset, amount, quote, error }: Order): string {
  const { settleMs, methods, currencies, testCards } = options
  const { method, currency } = link
  const key = (a: Asset) => `${a.symbol}|${a.network}`
  const option = (value: string, label: string, selected: boolean) => `<option value="${escape(value)}"${selected ? ' selected' : ''}>${escape(label)}</option>`
  const radio = (id: Method) =>
    `<label><input type="radio" name="payment_method" value="${id}"${id === method ? ' checked' : ''} /> ${escape(methods[id].label)}</label>`
  const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ')
  return `<main id="buy" data-settle-ms="${Number(settleMs)}">
<h1>Buy crypto</h1>
<p class="note">Doorway sandbox provider: test payments only. Nothing is charged, and what you buy is sent on the local devnet.</p>
<form id="order-form" novalidate>
<input type="hidden" name="partner_user_id" value="${escape(link.partnerUserId)}" />
<input type="hidden" name="wallet_address" value="${escape(link.wallet.address)}" />
<div class="row">
<div class="field"><label for="amount">Amount</label>
<input id="amount" name="payment_amount" inputmode="decimal" autocomplete="off" value="${escape(amount)}" aria-describedby="amount-error" /></div>
<div class="field"><label for="currency">Currency</label>
<select id="currency" name="payment_currency">${currencies.map((c) => option(c, c, c === currency)).join('')}</select></div>
</div>
<p id="amount-error" class="error" aria-live="polite">${escape(error)}</p>
<div class="field"><label for="asset">Asset</label>
<select id="asset" name="asset">${offered.map((a) => option(key(a), `${a.symbol} (${a.name}) on ${a.displayName}`, a === asset)).join('')}</select></div>
<fieldset id="methods"><legend>Payment method</legend>
${radio('CARD')}
${radio('ACH_BANK_ACCOUNT')}
</fieldset>
<fieldset id="card"${method === 'CARD' ? '' : ' hidden'}><legend>Card</legend>
<p class="note" id="test-cards">Test cards: ${spaced(testCards.success)} is accepted; ${spaced(testCards.decline)} is declined. Use any expiry date from this month on and any 3-digit CVC.</p>
<div class="field"><label for="card-number">Card number</label>
<input id="card-number" name="card_number" inputmode="numeric" autocomplete="off" placeholder="4242 4242 4242 4242" aria-describedby="test-cards" /></div>
<div class="row">
<div class="field"><label for="card-expiry">Expiry date (MM/YY)</label>
<input id="card-expiry" name="card_expiry" autocomplete="off" placeholder="MM/YY" /></div>
<div class="field"><label for="card-cvc">CVC</label>
<input id="card-cvc" name="card_cvc" inputmode="numeric" autocomplete="off" placeholder="123" /></div>
</div>
</fieldset>
<fieldset id="bank"${method === 'ACH_BANK_ACCOUNT' ? '' : ' hidden'}><legend>Bank account</legend>
<p class="note">The sandbox bank settles the transfer about ${Math.round(Number(settleMs) / 1000)} seconds after you pay; then the funds are sent.</p>
</fieldset>
${summary(link, asset, quote)}
<button type="submit" id="pay-button"${quote ? '' : ' disabled'}>Pay</button>
</form>
<section id="progress" aria-labelledby="progress-title" hidden>
<h2 id="progress-title">Order status</h2>
<dl>
<dt>Order</dt><dd id="order-id">—</dd>
<dt>Status</dt><dd id="order-status">—</dd>
<dt>Transaction</dt><dd id="order-hash">—</dd>
</dl>
<button type="button" id="close">Close</button>
</section>
<p id="status" role="status" aria-live="polite"></p>
</main>`
}

function summary(link: Link, asset: Asset, quote: OnrampSandbox.Quote | undefined): string {
  const money = (m: OnrampSandbox.Money | undefined) => (m ? `${m.value} ${m.currency}` : '—')
  return `<section aria-labelledby="summary-title">
<h2 id="summary-title">Your order</h2>
<dl>
<dt>You pay</dt><dd id="pay">${escape(money(quote?.payment_total))}</dd>
<dt>Fee</dt><dd id="fee">${escape(money(quote?.coinbase_fee))}</dd>
<dt>Network fee</dt><dd id="network-fee">${escape(money(quote?.network_fee))}</dd>
<dt>You receive</dt><dd id="receive">${escape(money(quote?.purchase_amount))}</dd>
<dt>Network</dt><dd id="network">${escape(`${asset.displayName} (${asset.network})`)}</dd>
<dt>Delivered to</dt><dd id="wallet">${escape(link.wallet.address)}</dd>
</dl>
</section>`
}

type Link = {
  wallet: { address: string; blockchains?: string[] | undefined; assets?: string[] | undefined }
  partnerUserId: string
  defaultNetwork?: string | undefined
  defaultAsset?: string | undefined
  method: Method
  currency: string
  presetFiatAmount?: number | undefined
  presetCryptoAmount?: number | undefined
}

/** The buy link's parameters, each checked; the first wrong one is the page's message. */
function parse(query: URLSearchParams, currencies: readonly string[]): Link {
  const text = (name: string, max: number) => {
    const value = query.get(name) ?? undefined
    if (value !== undefined && (value.length === 0 || value.length > max)) throw new PageError(`${name} must be 1 to ${max} characters`)
    return value
  }
  const amount = (name: string) => {
    const value = query.get(name)
    if (value === null) return undefined
    const n = Number(value)
    if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !Number.isFinite(n) || n <= 0) throw new PageError(`${name} must be a positive number`)
    return n
  }
  text('appId', 128)
  const experience = query.get('defaultExperience')
  if (experience !== null && experience !== 'buy' && experience !== 'send') throw new PageError('defaultExperience must be buy or send')
  const method = (query.get('defaultPaymentMethod') ?? 'CARD').toUpperCase()
  if (method !== 'CARD' && method !== 'ACH_BANK_ACCOUNT') throw new PageError('defaultPaymentMethod must be CARD or ACH_BANK_ACCOUNT')
  const currency = query.get('fiatCurrency') ?? currencies[0]!
  if (!currencies.includes(currency)) throw new PageError(`fiatCurrency must be one of ${currencies.join(', ')}`)
  const partnerUserId = text('partnerUserId', 49)
  if (partnerUserId === undefined) throw new PageError('partnerUserId is required')
  return {
    wallet: wallet(query.get('destinationWallets')),
    partnerUserId,
    defaultNetwork: text('defaultNetwork', 64),
    defaultAsset: text('defaultAsset', 16),
    method,
    currency,
    presetFiatAmount: amount('presetFiatAmount'),
    presetCryptoAmount: amount('presetCryptoAmount'),
  }
}

/** The first wallet of destinationWallets (JSON) with an EVM address: this sandbox delivers on EVM chains. */
function wallet(json: string | null): Link['wallet'] {
  const wallets = parseJson(json ?? '')
  const found = Array.isArray(wallets) ? wallets.find(isWallet) : undefined
  if (!found) throw new PageError('destinationWallets must be a JSON list with a wallet whose address is a 0x EVM address')
  return { address: found.address, blockchains: found.blockchains, assets: found.assets }
}

// Not JSON reads as no wallets, so the page says what destinationWallets must be.
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isWallet(value: unknown): value is Link['wallet'] {
  if (typeof value !== 'object' || value === null) return false
  const { address, blockchains, assets } = value as Record<string, unknown>
  return typeof address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(address) && isStrings(blockchains) && isStrings(assets)
}

const isStrings = (x: unknown): x is string[] | undefined => x === undefined || (Array.isArray(x) && x.every((s) => typeof s === 'string'))

const centsText = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${escape(title)}</title>
<link rel="stylesheet" href="/buy/buy.css" />
<script src="/buy/buy.js" defer></script>
</head>
<body>
${body}
</body>
</html>
`
}
