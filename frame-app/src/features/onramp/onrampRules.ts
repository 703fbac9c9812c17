/**
 * The onramp's rules as pure functions (issue 12; spec §3 Onramp options and quote, §5 payment limits,
 * §7, §8 fallbacks): what can be bought on the dapp's networks, the limits of a currency and payment
 * method, what a typed amount means, what a quote shows and whether it can be bought on, the buy page's
 * request, and what the history says of an order. onramp.ts runs them against the api.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { onrampText } from '@doorway/shared/texts/onramp'
import type * as Protocol from '@doorway/shared/Protocol'
import type { ChainId } from '@doorway/shared/Caip'
import type { OnrampNetwork, OnrampOptions, OnrampQuote, OnrampQuoteRequest, OnrampUrlRequest, PaymentMethod, PurchaseCurrency, Transaction } from '../../api/client.js'
import { mockedQuoteId } from '../../api/fallbacks.js'

/** How long typing must pause before a quote is asked for (as Swap). */
export const quoteDebounceMs = 400
/** How often the history is read while an order is followed. */
export const orderPollMs = 3_000
/** The amounts offered in one click, in the payment currency. */
export const presets = ['50', '100', '250'] as const
/** The payment methods, in the order they are offered: a card, or a bank account (ACH). */
export const methods: readonly PaymentMethod[] = ['card', 'ACH_BANK_ACCOUNT']
/** The message key of a method. */
export const methodKey = (method: PaymentMethod) => (method === 'card' ? 'card' : 'bank')

/** One thing to buy: a purchase currency on one of the dapp's networks. */
export type Asset = { key: string; currency: PurchaseCurrency; network: OnrampNetwork; chainId: ChainId; networkName: string }

/** The provider's network as one of the dapp's: by its CAIP-2 name, or by its EVM chain id. */
function dappNetwork(network: OnrampNetwork, networks: readonly Protocol.Network[]) {
  return networks.find((n) => n.caipNetworkId === network.name || n.caipNetworkId === `eip155:${network.chain_id}`)
}

/** What can be bought: each purchase currency on each of its networks that the dapp has. */
export function assets(options: OnrampOptions, networks: readonly Protocol.Network[]): Asset[] {
  return options.purchaseCurrencies.flatMap((currency) =>
    currency.networks.flatMap((network) => {
      const dapp = dappNetwork(network, networks)
      return dapp ? [{ key: `${currency.id}|${network.name}`, currency, network, chainId: dapp.caipNetworkId, networkName: dapp.name }] : []
    }),
  )
}

/** The native currency of the active chain, else something on it, else the first thing listed. */
export function defaultAsset(list: readonly Asset[], active: Protocol.Network | undefined): Asset | undefined {
  const here = list.filter((a) => a.chainId === active?.caipNetworkId)
  const native = here.find((a) => !a.network.contract_address && a.currency.symbol === active?.nativeCurrency.symbol)
  return native ?? here.find((a) => !a.network.contract_address) ?? here[0] ?? list[0]
}

export type Limits = { min: string; max: string }

/** spec §5: the limits of `method` in `currency`, when the options offer it (ids compared without case). */
export function limitsOf(options: OnrampOptions, currency: string, method: PaymentMethod): Limits | undefined {
  const payment = options.paymentCurrencies.find((c) => c.id === currency)
  const limit = payment?.payment_method_limits.find((l) => l.id.toLowerCase() === method.toLowerCase())
  return limit && cents(limit.min) !== undefined && cents(limit.max) !== undefined ? { min: limit.min, max: limit.max } : undefined
}

/** The methods the options offer in `currency`. */
export const methodsOf = (options: OnrampOptions, currency: string) => methods.filter((m) => limitsOf(options, currency, m))

/** A fiat amount in cents: digits with at most 2 decimals ('100', '99.5', '100.'), else undefined. */
export function cents(text: string): bigint | undefined {
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(text.trim())
  return match ? BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0')) : undefined
}

/** Cents as the api reads an amount: '100.00'. */
export const fromCents = (value: bigint) => `${value / 100n}.${String(value % 100n).padStart(2, '0')}`

/** Money through Intl (spec §9: 2 decimals); a code Intl does not know still reads. */
export function money(amount: string | number, currency: string): string {
  try {
    return Format.formatMoney(amount, currency)
  } catch {
    return `${Format.formatNumber(amount)} ${currency}`
  }
}

/** spec §5, beside the field: e.g. 'Card payments are from $10.00 to $7,500.00'. */
export const limitsMessage = (method: PaymentMethod, currency: string, limits: Limits) =>
  format(onrampText.limits[methodKey(method)], { min: money(limits.min, currency), max: money(limits.max, currency) })

export type AmountCheck = { ok: true; amount: string } | { ok: false; error?: string | undefined }

/**
 * A typed amount against the method's limits: `amount` as the api reads it, else why not (nothing to
 * say while the field is empty). Outside the limits, the message names them and nothing is quoted.
 */
export function checkAmount(text: string, method: PaymentMethod, currency: string, limits: Limits | undefined): AmountCheck {
  if (!text.trim()) return { ok: false }
  const value = cents(text)
  if (value === undefined) return { ok: false, error: onrampText.amountFormat }
  if (!limits) return { ok: false }
  if (value < cents(limits.min)! || value > cents(limits.max)!) return { ok: false, error: limitsMessage(method, currency, limits) }
  return { ok: true, amount: fromCents(value) }
}

/** spec §8: the mocked quote stands in for one the api could not give; it is an estimate, never bought on. */
export const isMocked = (quote: OnrampQuote) => quote.quoteId === mockedQuoteId

/** spec §7 POST /v1/onramp/quote's body. */
export function quoteRequest(asset: Asset, currency: string, amount: string, method: PaymentMethod): OnrampQuoteRequest {
  return { purchaseCurrency: asset.currency.id, paymentCurrency: currency, amount, network: asset.network.name, paymentMethod: method }
}
export const quoteKey = (request: OnrampQuoteRequest) => [request.purchaseCurrency, request.network, request.paymentCurrency, request.amount, request.paymentMethod].join('|')

/** The quote as shown: you pay, the fees, you get (3 decimals, spec §9); a mocked quote's zeros read as unknown. */
export function quoteLines(quote: OnrampQuote): { pay: string; fees: string; get: string } {
  const { paymentTotal, coinbaseFee, networkFee, purchaseAmount } = quote
  const pay = money(paymentTotal.amount, paymentTotal.currency)
  if (isMocked(quote)) return { pay, fees: Format.invalid, get: Format.invalid }
  const fee = (cents(coinbaseFee.amount) ?? 0n) + (cents(networkFee.amount) ?? 0n)
  return { pay, fees: money(fromCents(fee), coinbaseFee.currency), get: `${Format.formatQuantity(purchaseAmount.amount)} ${purchaseAmount.currency}` }
}

/**
 * spec §7 POST /v1/generators/onrampurl's body: the connected address receives the asset on its network;
 * partnerUserId is the address, as AppKit does; the page opens on 'buy' (spec §9) with the amount typed.
 */
export function urlRequest(address: string, asset: Asset, amount: string): OnrampUrlRequest {
  return {
    destinationWallets: [{ address, blockchains: [asset.network.name], assets: [asset.currency.symbol] }],
    defaultNetwork: asset.chainId,
    partnerUserId: address,
    defaultExperience: Constants.onrampDefaultExperience,
    presetFiatAmount: Number(amount),
  }
}

/** The newest onramp order created since `startedAt`: orders from before this buy are not it. */
export function orderSince(transactions: readonly Transaction[], startedAt: number): Transaction | undefined {
  return transactions
    .filter((t) => t.metadata.operationType === 'buy' && Date.parse(t.metadata.minedAt) >= startedAt)
    .sort((a, b) => Date.parse(b.metadata.minedAt) - Date.parse(a.metadata.minedAt))[0]
}

export type OrderStatus = 'waiting' | 'sending' | 'success' | 'failed'
export type Outcome = { status: OrderStatus; hash?: string | undefined; received?: string | undefined; failureReason?: string | undefined }

/** What the history says of an order: the provider's status first, else the transaction's. */
export function outcomeOf(transaction: Transaction): Outcome {
  const { onrampStatus, status, hash, failureReason } = transaction.metadata
  const state: OrderStatus =
    onrampStatus === 'ONRAMP_TRANSACTION_STATUS_SUCCESS' || (!onrampStatus && status === 'confirmed')
      ? 'success'
      : onrampStatus === 'ONRAMP_TRANSACTION_STATUS_FAILED' || (!onrampStatus && status === 'failed')
        ? 'failed'
        : 'sending'
  if (state === 'failed') return { status: state, failureReason: failureReason || undefined }
  if (state === 'sending') return { status: state }
  const transfer = transaction.transfers.find((t) => t.fungible_info && t.direction === 'in')
  const received = transfer && `${Format.formatQuantity(transfer.quantity.numeric)} ${transfer.fungible_info!.symbol}`
  return { status: state, hash: hash || undefined, received }
}
