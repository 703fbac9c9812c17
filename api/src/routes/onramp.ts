/**
 * The onramp endpoints of spec §7: options from the configured networks and tokens, quotes computed
 * from config.prices, and purchase links to the local onramp sandbox (its page comes with a later issue).
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import { Hono } from 'hono'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Assets from '../assets.js'
import * as Http from '../http.js'

// spec §5 onramp payment limits, for USD and EUR
const paymentMethodLimits = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' },
]
export const paymentCurrencies = ['USD', 'EUR'] as const

/** USD per unit of each payment currency; config.prices may override it (a stand-in for an FX feed). */
const fiatRates: Record<(typeof paymentCurrencies)[number], number> = { USD: 1, EUR: 1.08 }

/** The sandbox's fees: 1% of the payment plus a flat network fee of 0.50 in the payment currency. */
export const feePercent = 1
export const networkFeeCents = 50n

export function routes(deps: Deps) {
  const { config } = deps
  // The config does not change while the server runs.
  const currencies = purchaseCurrencies(config)
  const app = new Hono()

  app.get('/v1/onramp/options', (c) => {
    Http.project(c, config.projects)
    return c.json({
      paymentCurrencies: paymentCurrencies.map((id) => ({ id, payment_method_limits: paymentMethodLimits })),
      purchaseCurrencies: currencies.map(({ decimals: _, ...currency }) => currency),
    })
  })

  app.post('/v1/onramp/quote', async (c) => {
    Http.project(c, config.projects)
    const body = await Http.json(c)
    const currency = currencies.find((p) => p.id === body.purchaseCurrency)
    if (!currency) throw Http.badRequest('Invalid purchaseCurrency: expected the id of one of the onramp options')
    const payment = body.paymentCurrency
    if (!paymentCurrencies.includes(payment as never)) throw Http.badRequest(`Invalid paymentCurrency: expected one of ${paymentCurrencies.join(', ')}`)
    const network = currency.networks.find((n) => n.name === body.network)
    if (body.network !== undefined && !network) throw Http.badRequest(`Invalid network: ${currency.symbol} is offered on ${currency.networks.map((n) => n.name).join(', ')}`)
    const cents = fiatCents(body.amount)
    return c.json(quote(config, { symbol: currency.symbol, decimals: currency.decimals, payment: payment as (typeof paymentCurrencies)[number], cents }))
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
    // spec §7: an unsupported network gets an empty url
    if (defaultNetwork !== undefined && !config.networks[defaultNetwork as Caip.ChainId]) return c.json({ url: '' })
    const query = new URLSearchParams({ projectId, destinationWallets: JSON.stringify(wallets), partnerUserId, defaultExperience: experience })
    if (defaultNetwork !== undefined) query.set('defaultNetwork', defaultNetwork as string)
    if (body.presetCryptoAmount !== undefined) query.set('presetCryptoAmount', String(body.presetCryptoAmount))
    if (body.presetFiatAmount !== undefined) query.set('presetFiatAmount', String(body.presetFiatAmount))
    return c.json({ url: `${config.publicUrl}/onramp/sandbox?${query}` })
  })

  return app
}

type PurchaseCurrency = {
  id: string
  name: string
  symbol: string
  decimals: number
  networks: { name: string; display_name: string; chain_id: string; contract_address: string }[]
}

/** One entry per priced symbol (the native currency and configured tokens), listing the networks it is on. */
function purchaseCurrencies(config: Config): PurchaseCurrency[] {
  const bySymbol = new Map<string, PurchaseCurrency>()
  for (const [chainId, network] of Object.entries(config.networks) as [Caip.ChainId, NonNullable<Config['networks'][Caip.ChainId]>][]) {
    const { reference } = Caip.parseChainId(chainId)
    const assets = [{ ...network.nativeCurrency, address: '' }, ...network.tokens]
    for (const asset of assets) {
      // Without a price there is nothing to quote.
      if (Assets.priceOf(config.prices, asset.symbol) === undefined) continue
      const currency = bySymbol.get(asset.symbol) ?? { id: asset.symbol, name: asset.name, symbol: asset.symbol, decimals: asset.decimals, networks: [] }
      currency.networks.push({ name: chainId, display_name: network.name, chain_id: reference, contract_address: asset.address })
      bySymbol.set(asset.symbol, currency)
    }
  }
  return [...bySymbol.values()]
}

/** Fees in whole cents (1% rounded half up, plus the flat fee); the crypto amount rounded down. */
function quote(config: Config, request: { symbol: string; decimals: number; payment: (typeof paymentCurrencies)[number]; cents: bigint }) {
  const { symbol, decimals, payment, cents } = request
  const fee = (cents * BigInt(feePercent) + 50n) / 100n
  const subtotal = cents - fee - networkFeeCents
  if (subtotal <= 0n) throw Http.badRequest('Invalid amount: it does not cover the fees')
  // prices as integers scaled by 1e8, so the division is exact to the last digit shown
  const rate = BigInt(Math.round((config.prices[payment] ?? fiatRates[payment]) * 1e8))
  const price = BigInt(Math.round(config.prices[symbol]! * 1e8))
  const shown = Math.min(decimals, 8)
  const units = (subtotal * rate * 10n ** BigInt(shown)) / (100n * price)
  const money = (n: bigint) => ({ amount: decimal(n, 2), currency: payment })
  return {
    coinbaseFee: money(fee),
    networkFee: money(networkFeeCents),
    paymentSubtotal: money(subtotal),
    paymentTotal: money(cents),
    purchaseAmount: { amount: decimal(units, shown), currency: symbol },
    quoteId: crypto.randomUUID(),
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
