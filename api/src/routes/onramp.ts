/**
 * The onramp endpoints of spec §7 over a hosted onramp provider's HTTP API: Coinbase Onramp's contract,
 * which devnet/src/onrampSandbox.ts plays locally, so production is a change of `config.onramp.providerUrl`.
 * Options and quotes come from the provider, reshaped to spec §3; the purchase link is the provider's
 * buy page; the account's orders feed history's onramp=coinbase (`history`, called by history.ts). A
 * provider that fails is 502, and the modal falls back (spec §8).
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import { Hono } from 'hono'
import { getAddress } from 'viem'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Cache from '../cache.js'
import * as Http from '../http.js'

/** How long the provider may take to answer. */
export const providerTimeoutMs = 10_000

/** The methods the modal offers (spec §5 limits), and the provider's id of each. */
const methods = { card: 'CARD', ACH_BANK_ACCOUNT: 'ACH_BANK_ACCOUNT' } as const
type Method = keyof typeof methods

/** How long the provider's options are reused: every quote checks against them, and they rarely change. */
export const optionsCacheMs = 60_000

export function routes(deps: Deps) {
  const { config } = deps
  const app = new Hono()
  const cached = Cache.create<Options>(deps.now, optionsCacheMs, 1)
  const offers = async () => {
    const known = cached.get('options')
    if (known) return known
    const fresh = await options(config)
    cached.set('options', fresh)
    return fresh
  }

  app.get('/v1/onramp/options', async (c) => {
    Http.project(c, config.projects)
    return c.json(await offers())
  })

  app.post('/v1/onramp/quote', async (c) => {
    Http.project(c, config.projects)
    const body = await Http.json(c)
    // What can be checked without the provider first: a bad request is 400 even while it is down.
    const cents = fiatCents(body.amount)
    const method = body.paymentMethod ?? 'card'
    if (!Object.hasOwn(methods, method as string)) throw Http.badRequest(`Invalid paymentMethod: expected ${Object.keys(methods).join(' or ')}`)
    const offered = await offers()
    const currency = offered.purchaseCurrencies.find((p) => p.id === body.purchaseCurrency)
    if (!currency) throw Http.badRequest('Invalid purchaseCurrency: expected the id of one of the onramp options')
    const payment = offered.paymentCurrencies.find((p) => p.id === body.paymentCurrency)
    if (!payment) throw Http.badRequest(`Invalid paymentCurrency: expected one of ${offered.paymentCurrencies.map((p) => p.id).join(', ')}`)
    const network = body.network === undefined ? currency.networks[0] : currency.networks.find((n) => n.name === body.network)
    if (!network) throw Http.badRequest(`Invalid network: ${currency.symbol} is offered on ${currency.networks.map((n) => n.name).join(', ')}`)
    const limit = payment.payment_method_limits.find((l) => l.id === method)
    if (!limit) throw Http.badRequest(`Invalid paymentMethod: ${method as string} is not offered in ${payment.id}`)
    // spec §5: each method's own limits, beside the widest one above
    if (cents < centsOf(limit.min) || cents > centsOf(limit.max))
      throw Http.badRequest(`Invalid amount: ${method === 'card' ? 'card' : 'bank account'} payments are ${limit.min} to ${limit.max} ${payment.id}`)
    const quote = await provider(config, '/onramp/v1/buy/quote', {
      purchase_currency: currency.id,
      purchase_network: network.name,
      payment_amount: decimal(cents, 2),
      payment_currency: payment.id,
      payment_method: methods[method as Method],
      country: 'US',
    })
    return c.json(fromQuote(quote))
  })

  app.post('/v1/generators/onrampurl', async (c) => {
    const projectId = Http.project(c, config.projects)
    const body = await Http.json(c)
    const wallets = destinationWallets(body.destinationWallets)
    const partnerUserId = body.partnerUserId
    if (typeof partnerUserId !== 'string' || partnerUserId.length === 0 || partnerUserId.length > 49)
      throw Http.badRequest('Invalid partnerUserId: expected 1 to 49 characters')
    const experience = body.defaultExperience ?? Constants.onrampDefaultExperience
    if (experience !== 'buy' && experience !== 'send') throw Http.badRequest('Invalid defaultExperience: expected buy or send')
    const defaultNetwork = body.defaultNetwork
    if (defaultNetwork !== undefined && !Caip.isChainId(defaultNetwork)) throw Http.badRequest('Invalid defaultNetwork: Invalid CAIP-2 network id')
    for (const key of ['presetCryptoAmount', 'presetFiatAmount'] as const) {
      const value = body[key]
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw Http.badRequest(`Invalid ${key}: expected a positive number`)
    }
    const { defaultAsset, defaultPaymentMethod, fiatCurrency } = body
    if (defaultAsset !== undefined && !(typeof defaultAsset === 'string' && /^[A-Za-z0-9.]{1,16}$/.test(defaultAsset))) throw Http.badRequest('Invalid defaultAsset: expected a currency id')
    if (defaultPaymentMethod !== undefined && !Object.hasOwn(methods, defaultPaymentMethod as string))
      throw Http.badRequest(`Invalid defaultPaymentMethod: expected ${Object.keys(methods).join(' or ')}`)
    if (fiatCurrency !== undefined && !(typeof fiatCurrency === 'string' && /^[A-Z]{3}$/.test(fiatCurrency))) throw Http.badRequest('Invalid fiatCurrency: expected a currency code like USD')
    // spec §7: an unsupported network gets an empty url
    if (defaultNetwork !== undefined && !config.networks[defaultNetwork as Caip.ChainId]) return c.json({ url: '' })
    const query = new URLSearchParams({ appId: projectId, destinationWallets: JSON.stringify(wallets), partnerUserId: userId(partnerUserId), defaultExperience: experience })
    if (defaultNetwork !== undefined) query.set('defaultNetwork', defaultNetwork as string)
    if (body.presetCryptoAmount !== undefined) query.set('presetCryptoAmount', String(body.presetCryptoAmount))
    if (body.presetFiatAmount !== undefined) query.set('presetFiatAmount', String(body.presetFiatAmount))
    if (defaultAsset !== undefined) query.set('defaultAsset', defaultAsset as string)
    if (defaultPaymentMethod !== undefined) query.set('defaultPaymentMethod', methods[defaultPaymentMethod as Method])
    if (fiatCurrency !== undefined) query.set('fiatCurrency', fiatCurrency as string)
    return c.json({ url: `${providerUrl(config)}/buy/select-asset?${query}` })
  })

  return app
}

/**
 * The partner's user id as the provider files orders under it: an EVM address in its checksummed form,
 * so the purchase link and the history name the same user whatever case the modal wrote.
 */
export function userId(id: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(id) ? getAddress(id) : id
}

function providerUrl(config: Config): string {
  const url = config.onramp?.providerUrl
  if (!url) throw new Http.HttpError(502, 'No onramp provider is configured (onramp.providerUrl)')
  return url.replace(/\/+$/, '')
}

/** A call to the provider: its JSON, 400 with its words when it refuses the request, else 502 for any failure. */
async function provider(config: Config, path: string, body?: Record<string, unknown>): Promise<unknown> {
  const url = `${providerUrl(config)}${path}`
  let res: Response
  try {
    const init = body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) })
  } catch (error) {
    throw new Http.HttpError(502, `The onramp provider did not answer: ${(error as Error).message}`)
  }
  const json: unknown = await res.json().catch(() => undefined)
  // The provider's own rules (e.g. its limits) refusing what the api let through: the request was bad.
  if (res.status === 400) throw Http.badRequest(`The onramp provider refused the request: ${reason(json)}`)
  if (!res.ok) throw new Http.HttpError(502, `The onramp provider answered ${res.status}`)
  if (json === undefined) throw new Http.HttpError(502, 'The onramp provider answered without JSON')
  return json
}

// Coinbase says `message` (or `errorMessage`); a long one is cut.
function reason(json: unknown): string {
  const record = (json ?? {}) as Record<string, unknown>
  const text = [record.message, record.errorMessage].find((m) => typeof m === 'string')
  return typeof text === 'string' ? text.slice(0, 200) : 'no reason given'
}

const malformed = (what: string) => new Http.HttpError(502, `The onramp provider's ${what} were not understood`)

type Json = Record<string, unknown>
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x)
const isText = (x: unknown, max = 256): x is string => typeof x === 'string' && x.length <= max
const isDecimal = (x: unknown): x is string => typeof x === 'string' && /^[0-9]{1,30}(\.[0-9]{1,30})?$/.test(x)
const listOf = <T>(x: unknown, each: (item: unknown) => T | undefined): T[] | undefined => {
  if (!Array.isArray(x) || x.length > 1000) return undefined
  const items = x.map(each)
  return items.every((i) => i !== undefined) ? (items as T[]) : undefined
}

type Network = { name: string; display_name: string; chain_id: string; contract_address: string }
type PurchaseCurrency = { id: string; name: string; symbol: string; networks: Network[] }
type Limit = { id: Method; min: string; max: string }
export type Options = { paymentCurrencies: { id: string; payment_method_limits: Limit[] }[]; purchaseCurrencies: PurchaseCurrency[] }

/** spec §3 Onramp options from the provider's buy options: the methods the modal offers, limits to the cent. */
export async function options(config: Config): Promise<Options> {
  const raw = await provider(config, '/onramp/v1/buy/options?country=US')
  if (!isObject(raw)) throw malformed('options')
  const limit = (l: unknown): Limit | null | undefined => {
    const isLimit = (x: unknown): x is string => typeof x === 'string' && /^[0-9]{1,12}(\.[0-9]{1,8})?$/.test(x)
    if (!isObject(l) || !isText(l.id) || !isLimit(l.min) || !isLimit(l.max)) return undefined
    const id = (Object.keys(methods) as Method[]).find((m) => methods[m] === l.id)
    // A method the modal does not offer (Apple Pay, a crypto account) is left out.
    return id ? { id, min: Number(l.min).toFixed(2), max: Number(l.max).toFixed(2) } : null
  }
  const paymentCurrencies = listOf(raw.payment_currencies, (p) => {
    if (!isObject(p) || !isText(p.id, 16)) return undefined
    const limits = listOf(p.limits, limit)
    return limits && { id: p.id, payment_method_limits: limits.filter((l): l is Limit => l !== null) }
  })
  const network = (n: unknown): Network | undefined =>
    isObject(n) && isText(n.name, 64) && isText(n.display_name, 64) && isText(n.chain_id, 80) && isText(n.contract_address, 128)
      ? { name: n.name, display_name: n.display_name, chain_id: n.chain_id, contract_address: n.contract_address }
      : undefined
  const purchaseCurrencies = listOf(raw.purchase_currencies, (p) => {
    if (!isObject(p) || !isText(p.id, 64) || !isText(p.name, 64) || !isText(p.symbol, 16)) return undefined
    const networks = listOf(p.networks, network)
    return networks && { id: p.id, name: p.name, symbol: p.symbol, networks }
  })
  if (!paymentCurrencies || !purchaseCurrencies) throw malformed('options')
  return { paymentCurrencies, purchaseCurrencies }
}

type Money = { amount: string; currency: string }
const money = (m: unknown): Money | undefined => (isObject(m) && isDecimal(m.value) && isText(m.currency, 16) ? { amount: m.value, currency: m.currency } : undefined)

/** spec §3 Onramp quote from the provider's: each amount `{ amount, currency }`. */
function fromQuote(raw: unknown) {
  if (!isObject(raw) || !isText(raw.quote_id, 128)) throw malformed('quote')
  const [coinbaseFee, networkFee, paymentSubtotal, paymentTotal, purchaseAmount] = [raw.coinbase_fee, raw.network_fee, raw.payment_subtotal, raw.payment_total, raw.purchase_amount].map(money)
  if (!coinbaseFee || !networkFee || !paymentSubtotal || !paymentTotal || !purchaseAmount) throw malformed('quote')
  return { coinbaseFee, networkFee, paymentSubtotal, paymentTotal, purchaseAmount, quoteId: raw.quote_id }
}

/** The provider's order statuses, and what each is as a transaction (spec §3). */
const statuses = {
  ONRAMP_TRANSACTION_STATUS_SUCCESS: 'confirmed',
  ONRAMP_TRANSACTION_STATUS_FAILED: 'failed',
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'pending',
} as const

type Order = {
  transaction_id: string
  status: string
  wallet_address: string
  purchase_currency: string
  purchase_network: string
  purchase_amount: Money
  created_at: string
  tx_hash: string
  failure_reason?: string | undefined
}

function order(o: unknown): Order | undefined {
  if (!isObject(o)) return undefined
  const { transaction_id, status, wallet_address, purchase_currency, purchase_network, created_at, tx_hash, failure_reason } = o
  const amount = money(o.purchase_amount)
  const valid =
    isText(transaction_id, 128) &&
    transaction_id.length > 0 &&
    isText(status, 64) &&
    isText(wallet_address, 128) &&
    isText(purchase_currency, 64) &&
    isText(purchase_network, 80) &&
    isText(created_at, 40) &&
    !Number.isNaN(Date.parse(created_at)) &&
    isText(tx_hash ?? '', 128) &&
    (failure_reason === undefined || isText(failure_reason, 512)) &&
    amount
  if (!valid) return undefined
  return { transaction_id, status, wallet_address, purchase_currency, purchase_network, purchase_amount: amount, created_at, tx_hash: (tx_hash as string | undefined) ?? '', failure_reason }
}

/** An onramp order as a history entry (spec §3 Transaction): a 'buy' with the provider's status beside it. */
export type OnrampTransaction = {
  id: string
  metadata: {
    operationType: 'buy'
    hash: string
    minedAt: string
    sentFrom: string
    sentTo: string
    status: 'confirmed' | 'failed' | 'pending'
    nonce: number
    chain: string
    onrampStatus?: keyof typeof statuses
    failureReason?: string
  }
  transfers: { fungible_info: { name: string; symbol: string; icon: { url: string } }; direction: 'in'; quantity: { numeric: string }; sender: string; recipient: string }[]
}

export const historyPageSize = 20

/**
 * GET /v1/account/{account}/history?onramp=coinbase: the account's orders at the provider (the modal
 * uses the connected address as partnerUserId, as AppKit does), newest first, 20 a page; `chainId`
 * keeps the orders bought on that network. No provider configured: no orders.
 */
export async function history(config: Config, account: string, query: { chainId?: string | undefined; cursor?: string | undefined }) {
  const cursor = Http.cursor(query.cursor, isPageKey)
  const chainId = query.chainId === undefined ? undefined : Http.chainId(query.chainId)
  // spec §7: an unsupported network is empty without calling
  if ((chainId && !config.networks[chainId]) || !config.onramp) return { data: [], next: null }
  const params = new URLSearchParams({ page_size: String(historyPageSize) })
  if (cursor) params.set('page_key', cursor[1])
  const raw = await provider(config, `/onramp/v1/buy/user/${encodeURIComponent(userId(account))}/transactions?${params}`)
  const orders = isObject(raw) ? listOf(raw.transactions, order) : undefined
  const key = isObject(raw) ? (raw.next_page_key ?? '') : undefined
  if (!orders || !isText(key, 400)) throw malformed('transactions')
  const sender = new URL(providerUrl(config)).host
  const data = orders.filter((o) => !chainId || o.purchase_network === chainId).map((o) => fromOrder(config, o, sender))
  return { data, next: key ? Http.encodeCursor(['onramp', key]) : null }
}

/** The cursor of an onramp page is the provider's page key, wrapped so other cursors are refused. */
function isPageKey(key: unknown[]): key is ['onramp', string] {
  return key.length === 2 && key[0] === 'onramp' && typeof key[1] === 'string' && key[1].length > 0 && key[1].length <= 400
}

function fromOrder(config: Config, o: Order, sender: string): OnrampTransaction {
  const known = Object.hasOwn(statuses, o.status) ? (o.status as keyof typeof statuses) : undefined
  const network = config.networks[o.purchase_network as Caip.ChainId]
  const asset = [network?.nativeCurrency, ...(network?.tokens ?? [])].find((a) => a?.symbol === o.purchase_currency)
  return {
    id: `onramp:${o.transaction_id}`,
    metadata: {
      operationType: 'buy',
      hash: o.tx_hash || o.transaction_id,
      minedAt: new Date(o.created_at).toISOString(),
      sentFrom: sender,
      sentTo: o.wallet_address,
      // A status the api does not know yet is an order still under way.
      status: known ? statuses[known] : 'pending',
      nonce: 0,
      chain: o.purchase_network,
      ...(known && { onrampStatus: known }),
      ...(o.failure_reason && { failureReason: o.failure_reason }),
    },
    transfers: [
      {
        fungible_info: { name: asset?.name ?? o.purchase_currency, symbol: o.purchase_currency, icon: { url: Assets.iconUrl(config.publicUrl, { symbol: o.purchase_currency, iconUrl: (asset as { iconUrl?: string } | undefined)?.iconUrl }) } },
        direction: 'in',
        // as the index writes quantities: no trailing zeros
        quantity: { numeric: o.purchase_amount.amount.includes('.') ? o.purchase_amount.amount.replace(/\.?0+$/, '') : o.purchase_amount.amount },
        sender,
        recipient: o.wallet_address,
      },
    ],
  }
}

const maxCents = 2_500_000n

/** A fiat amount with at most 2 decimals, within the widest payment method limit (spec §5). */
function fiatCents(value: unknown): bigint {
  const text = typeof value === 'number' ? String(value) : value
  const match = typeof text === 'string' ? /^([0-9]{1,9})(?:\.([0-9]{1,2}))?$/.exec(text) : null
  if (!match) throw Http.badRequest('Invalid amount: expected a fiat amount with at most 2 decimals')
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'))
  if (cents < 1_000n || cents > maxCents) throw Http.badRequest('Invalid amount: expected 10.00 to 25000.00')
  return cents
}

/** A limit as options() writes it (2 decimals) in cents. */
const centsOf = (text: string) => BigInt(text.replace('.', ''))

function decimal(n: bigint, decimals: number): string {
  if (decimals === 0) return n.toString()
  const text = n.toString().padStart(decimals + 1, '0')
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`
}

type DestinationWallet = { address: string; blockchains?: string[]; assets?: string[] }

function destinationWallets(value: unknown): DestinationWallet[] {
  const strings = (x: unknown) => x === undefined || (Array.isArray(x) && x.length <= 32 && x.every((s) => typeof s === 'string' && s.length > 0 && s.length <= 64))
  const valid =
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= 8 &&
    value.every(
      (w) =>
        typeof w === 'object' &&
        w !== null &&
        (Address.isEvmAddress(w.address) || Address.isSolanaAddress(w.address)) &&
        strings(w.blockchains) &&
        strings(w.assets),
    )
  if (!valid) throw Http.badRequest('Invalid destinationWallets: expected 1 to 8 wallets, each with an address and optional blockchains and assets')
  return (value as DestinationWallet[]).map(({ address, blockchains, assets }) => ({ address, ...(blockchains ? { blockchains } : {}), ...(assets ? { assets } : {}) }))
}
