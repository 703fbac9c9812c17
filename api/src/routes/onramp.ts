/**
 * The onramp endpoints of spec §7 over a hosted onramp provider's HTTP API: Coinbase Onramp's contract
 * (shared/src/contracts/onramp.ts), which devnet/src/onrampSandbox.ts plays locally, so production is a
 * change of `config.onramp.providerUrl`. Options and quotes come from the provider, reshaped to spec §3;
 * the purchase link is the provider's buy page; the account's orders feed history's onramp=coinbase
 * (`history`, called by history.ts). A provider that fails is 502, and the modal falls back (spec §8).
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Contract from '@doorway/shared/Contract'
import * as Api from '@doorway/shared/contracts/api'
import type { Transaction } from '@doorway/shared/contracts/api/history'
import type { OnrampOptions as Options, OnrampQuote, PaymentMethod } from '@doorway/shared/contracts/api/onramp'
import * as Provider from '@doorway/shared/contracts/onramp'
import { Hono } from 'hono'
import { getAddress } from 'viem'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Cache from '../cache.js'
import * as Http from '../http.js'

export type { Options }
/** An onramp order as a history entry (spec §3 Transaction): a 'buy' with the provider's status beside it. */
export type OnrampTransaction = Transaction

/** How long the provider may take to answer. */
export const providerTimeoutMs = 10_000

/** The methods the modal offers (spec §5 limits), and the provider's id of each. */
const methods = { card: 'CARD', ACH_BANK_ACCOUNT: 'ACH_BANK_ACCOUNT' } as const satisfies Record<PaymentMethod, (typeof Provider.paymentMethods)[number]>

/** How long the provider's options are reused: every quote checks against them, and they rarely change. */
export const optionsCacheMs = 60_000

export function routes(deps: Deps) {
  const { config } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)
  const cached = Cache.create<Options>(deps.now, optionsCacheMs, 1)
  const offers = async () => {
    const known = cached.get('options')
    if (known) return known
    const fresh = await options(config)
    cached.set('options', fresh)
    return fresh
  }

  on(Api.table.onrampOptions, () => offers())
  // The body's own checks come first (the table's): a bad request is 400 even while the provider is down.
  on(Api.table.onrampQuote, async ({ body }) => quote(config, await offers(), body))
  on(Api.table.onrampUrl, ({ projectId, body }) => ({ url: buyUrl(config, projectId, body) }))

  return app
}

/** POST /v1/onramp/quote: the request checked against the provider's options, then the provider's quote. */
async function quote(config: Config, offered: Options, body: Http.Input<typeof Api.table.onrampQuote>['body']): Promise<OnrampQuote> {
  const cents = BigInt(Api.fiatCents(body.amount)!)
  const method: PaymentMethod = body.paymentMethod ?? 'card'
  const currency = offered.purchaseCurrencies.find((p) => p.id === body.purchaseCurrency)
  if (!currency) throw Http.badRequest('Invalid purchaseCurrency: expected the id of one of the onramp options')
  const payment = offered.paymentCurrencies.find((p) => p.id === body.paymentCurrency)
  if (!payment) throw Http.badRequest(`Invalid paymentCurrency: expected one of ${offered.paymentCurrencies.map((p) => p.id).join(', ')}`)
  const network = body.network === undefined ? currency.networks[0] : currency.networks.find((n) => n.name === body.network)
  if (!network) throw Http.badRequest(`Invalid network: ${currency.symbol} is offered on ${currency.networks.map((n) => n.name).join(', ')}`)
  const limit = payment.payment_method_limits.find((l) => l.id === method)
  if (!limit) throw Http.badRequest(`Invalid paymentMethod: ${method} is not offered in ${payment.id}`)
  // spec §5: each method's own limits, beside the widest one the table checks
  if (cents < centsOf(limit.min) || cents > centsOf(limit.max))
    throw Http.badRequest(`Invalid amount: ${method === 'card' ? 'card' : 'bank account'} payments are ${limit.min} to ${limit.max} ${payment.id}`)
  const raw = await provider(config, Provider.table.quote, 'quote', {
    body: {
      purchase_currency: currency.id,
      purchase_network: network.name,
      payment_amount: decimal(cents, 2),
      payment_currency: payment.id,
      payment_method: methods[method],
      country: 'US',
    },
  })
  const [coinbaseFee, networkFee, paymentSubtotal, paymentTotal, purchaseAmount] = [raw.coinbase_fee, raw.network_fee, raw.payment_subtotal, raw.payment_total, raw.purchase_amount].map(
    (m) => ({ amount: m.value, currency: m.currency }),
  ) as [Money, Money, Money, Money, Money]
  return { coinbaseFee, networkFee, paymentSubtotal, paymentTotal, purchaseAmount, quoteId: raw.quote_id }
}

/** POST /v1/generators/onrampurl: the provider's buy page for the wallets; '' for an unsupported network (spec §7). */
function buyUrl(config: Config, projectId: string, body: Http.Input<typeof Api.table.onrampUrl>['body']): string {
  const { defaultAsset, defaultPaymentMethod, fiatCurrency } = body
  const defaultNetwork = body.defaultNetwork as Caip.ChainId | undefined
  if (defaultNetwork !== undefined && !config.networks[defaultNetwork]) return ''
  // Only the fields the provider knows go on: an address and, when given, its blockchains and assets.
  const wallets = body.destinationWallets.map(({ address, blockchains, assets }) => ({ address, ...(blockchains ? { blockchains } : {}), ...(assets ? { assets } : {}) }))
  const experience = body.defaultExperience ?? Constants.onrampDefaultExperience
  const query = new URLSearchParams({ appId: projectId, destinationWallets: JSON.stringify(wallets), partnerUserId: userId(body.partnerUserId), defaultExperience: experience })
  if (defaultNetwork !== undefined) query.set('defaultNetwork', defaultNetwork)
  if (body.presetCryptoAmount !== undefined) query.set('presetCryptoAmount', String(body.presetCryptoAmount))
  if (body.presetFiatAmount !== undefined) query.set('presetFiatAmount', String(body.presetFiatAmount))
  if (defaultAsset !== undefined) query.set('defaultAsset', defaultAsset)
  if (defaultPaymentMethod !== undefined) query.set('defaultPaymentMethod', methods[defaultPaymentMethod])
  if (fiatCurrency !== undefined) query.set('fiatCurrency', fiatCurrency)
  return `${providerUrl(config)}/buy/select-asset?${query}`
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

/**
 * A call to the provider by its contract: the answer checked by the route's result schema (502 naming
 * `what` when it is not), 400 with its words when it refuses the request, else 502 for any failure.
 */
async function provider<R extends Contract.Route>(
  config: Config,
  route: R,
  what: string,
  request: { params?: Contract.Params<R>; query?: Contract.Query<R>; body?: Contract.Body<R> } = {},
): Promise<Contract.Result<R>> {
  const url = new URL(`${providerUrl(config)}${Contract.path(route.path, request.params as Record<string, string> | undefined)}`)
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value))
  let res: Response
  try {
    const init = request.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(request.body) } : {}
    res = await fetch(url, { method: route.method, ...init, signal: AbortSignal.timeout(providerTimeoutMs) })
  } catch (error) {
    throw new Http.HttpError(502, `The onramp provider did not answer: ${(error as Error).message}`)
  }
  const json: unknown = await res.json().catch(() => undefined)
  // The provider's own rules (e.g. its limits) refusing what the api let through: the request was bad.
  if (res.status === 400) throw Http.badRequest(`The onramp provider refused the request: ${reason(json)}`)
  if (!res.ok) throw new Http.HttpError(502, `The onramp provider answered ${res.status}`)
  if (json === undefined) throw new Http.HttpError(502, 'The onramp provider answered without JSON')
  if (!route.result?.(json)) throw new Http.HttpError(502, `The onramp provider's ${what} were not understood`)
  return json as Contract.Result<R>
}

// Coinbase says `message` (or `errorMessage`); a long one is cut.
function reason(json: unknown): string {
  const record = (json ?? {}) as Record<string, unknown>
  const text = [record.message, record.errorMessage].find((m) => typeof m === 'string')
  return typeof text === 'string' ? text.slice(0, 200) : 'no reason given'
}

type Money = { amount: string; currency: string }
type Limit = Options['paymentCurrencies'][number]['payment_method_limits'][number]

/** spec §3 Onramp options from the provider's buy options: the methods the modal offers, limits to the cent. */
export async function options(config: Config): Promise<Options> {
  const raw = await provider(config, Provider.table.options, 'options', { query: { country: 'US' } })
  const limit = (l: Provider.Options['payment_currencies'][number]['limits'][number]): Limit[] => {
    const id = (Object.keys(methods) as PaymentMethod[]).find((m) => methods[m] === l.id)
    // A method the modal does not offer (Apple Pay, a crypto account) is left out.
    return id ? [{ id, min: Number(l.min).toFixed(2), max: Number(l.max).toFixed(2) }] : []
  }
  return {
    paymentCurrencies: raw.payment_currencies.map((p) => ({ id: p.id, payment_method_limits: p.limits.flatMap(limit) })),
    purchaseCurrencies: raw.purchase_currencies.map((p) => ({
      id: p.id,
      name: p.name,
      symbol: p.symbol,
      networks: p.networks.map((n) => ({ name: n.name, display_name: n.display_name, chain_id: n.chain_id, contract_address: n.contract_address })),
    })),
  }
}

/** The provider's order statuses, and what each is as a transaction (spec §3). */
const statuses = {
  ONRAMP_TRANSACTION_STATUS_SUCCESS: 'confirmed',
  ONRAMP_TRANSACTION_STATUS_FAILED: 'failed',
  ONRAMP_TRANSACTION_STATUS_IN_PROGRESS: 'pending',
} as const

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
  const raw = await provider(config, Provider.table.transactions, 'transactions', {
    params: { partnerUserId: userId(account) },
    query: { page_size: historyPageSize, page_key: cursor?.[1] },
  })
  const key = raw.next_page_key ?? ''
  const sender = new URL(providerUrl(config)).host
  const data = raw.transactions.filter((o) => !chainId || o.purchase_network === chainId).map((o) => fromOrder(config, o, sender))
  return { data, next: key ? Http.encodeCursor(['onramp', key]) : null }
}

/** The cursor of an onramp page is the provider's page key, wrapped so other cursors are refused. */
function isPageKey(key: unknown[]): key is ['onramp', string] {
  return key.length === 2 && key[0] === 'onramp' && typeof key[1] === 'string' && key[1].length > 0 && key[1].length <= 400
}

function fromOrder(config: Config, o: Provider.Order, sender: string): Transaction {
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
        quantity: { numeric: o.purchase_amount.value.includes('.') ? o.purchase_amount.value.replace(/\.?0+$/, '') : o.purchase_amount.value },
        sender,
        recipient: o.wallet_address,
      },
    ],
  }
}

/** A limit as options() writes it (2 decimals) in cents. */
const centsOf = (text: string) => BigInt(text.replace('.', ''))

function decimal(n: bigint, decimals: number): string {
  if (decimals === 0) return n.toString()
  const text = n.toString().padStart(decimals + 1, '0')
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`
}
