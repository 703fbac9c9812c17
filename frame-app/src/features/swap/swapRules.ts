/**
 * The Swap flow's rules as pure functions (issue 11; spec §7 /v1/convert/*, §8, §9 slippage and
 * decimals): which tokens the picker lists, what a typed amount or slippage means, the minimum received,
 * the price-impact warning, the api's refusals as messages, and the wallet's transactions.
 * swap.ts runs them against the wallet and the api.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import { core, errors, format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import { type Hex, parseUnits, toHex } from 'viem'
import { ApiError, type Balance, type Quote, type SwapToken } from '../../api/client.js'
import * as SendRules from '../send/sendRules.js'
import { nativeAddress, type TokenRef } from './swapArguments.js'

/** How long typing must pause before a quote is asked for. */
export const quoteDebounceMs = 400
/** A quote older than this is asked for again before the swap. */
export const quoteMaxAgeMs = 30_000
/** Above this price impact (percent) the form warns. */
export const highImpactPercent = 5
/** The slippage presets, in percent; spec §9 / docs/architecture.md §10: 1 % unless changed. */
export const slippagePresets = ['0.1', '0.5', '1'] as const
export const defaultSlippage = String(Constants.slippagePercent)
/** Slippage in basis points: 0.01 % to 50 %. */
const slippageBps = { min: 1, max: 5_000 }
/**
 * Gas a Uniswap V2 swap stays under, for Max's fee reserve when the quote gives no estimate (a swap
 * through two pools uses about 150k).
 */
export const swapGasReserve = 250_000n

export { nativeAddress }

export const isNative = (token: SwapToken) => Caip.parseAccountId(token.address).address.toLowerCase() === nativeAddress
export const sameToken = (a: SwapToken | undefined, b: SwapToken | undefined) => !!a && !!b && a.address.toLowerCase() === b.address.toLowerCase()

/** The person's balance row of the token, when they hold some. */
export function balanceFor(token: SwapToken, balances: readonly Balance[]): Balance | undefined {
  const { chainId } = Caip.parseAccountId(token.address)
  if (isNative(token)) return balances.find((b) => SendRules.isNative(b) && b.chainId === chainId)
  return balances.find((b) => b.address?.toLowerCase() === token.address.toLowerCase())
}

/** The person's balance of the token in base units (0 when they hold none). */
export function heldOf(token: SwapToken, balances: readonly Balance[]): bigint {
  const balance = balanceFor(token, balances)
  return balance ? parseUnits(balance.quantity.numeric, token.decimals) : 0n
}

/**
 * The picker's lists: the person's tokens with a balance first (by value, as Send lists them), then the
 * rest of the api's list in its order; both filtered by a name, symbol or address search.
 */
export function pickerTokens(tokens: readonly SwapToken[], balances: readonly Balance[], query: string) {
  const q = query.trim().toLowerCase()
  const matches = (t: SwapToken) => !q || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q) || t.address.toLowerCase().endsWith(q)
  const shown = tokens.filter(matches)
  const held = shown
    .flatMap((token) => {
      const balance = balanceFor(token, balances)
      return balance && Number(balance.quantity.numeric) > 0 ? [{ token, balance }] : []
    })
    .sort((a, b) => (b.balance.value ?? -1) - (a.balance.value ?? -1))
  const rest = shown.filter((t) => !held.some((h) => h.token === t))
  return { held, rest }
}

/** The token of the list the dapp named (open() arguments), if there is one. */
export function findToken(tokens: readonly SwapToken[], ref: TokenRef): SwapToken | undefined {
  if (ref.kind === 'native') return tokens.find(isNative)
  if (ref.kind === 'address') return tokens.find((t) => Caip.parseAccountId(t.address).address.toLowerCase() === ref.address.toLowerCase())
  const symbol = ref.symbol.toLowerCase()
  return tokens.find((t) => t.symbol.toLowerCase() === symbol)
}

export type AmountError = 'amountRequired' | 'amountDecimals'

/** A typed amount of the token in base units, or why it is none. */
export function parseAmount(text: string, token: SwapToken): { value: bigint; amount: string } | { error: AmountError } {
  const amount = text.trim()
  if (!/^(\d+\.?\d*|\.\d+)$/.test(amount)) return { error: 'amountRequired' }
  if ((amount.split('.')[1] ?? '').length > token.decimals) return { error: 'amountDecimals' }
  const value = parseUnits(amount, token.decimals)
  if (value === 0n) return { error: 'amountRequired' }
  return { value, amount: amount.replace(/^\./, '0.').replace(/\.$/, '') }
}

/** A typed slippage in percent: 0.01 to 50, at most two decimals. */
export function parseSlippage(text: string): { percent: number; bps: number } | { error: 'slippage' } {
  const value = text.trim().replace(/\s*%$/, '')
  if (!/^(\d{1,2}(\.\d{0,2})?|\.\d{1,2})$/.test(value)) return { error: 'slippage' }
  const bps = Math.round(Number(value) * 100)
  if (bps < slippageBps.min || bps > slippageBps.max) return { error: 'slippage' }
  return { percent: bps / 100, bps }
}

/** The least the swap may give (Uniswap's amountOutMin): the quote less the slippage, rounded down. */
export function amountOutMin(toAmount: bigint, bps: number): bigint {
  return (toAmount * BigInt(10_000 - bps)) / 10_000n
}

export const isHighImpact = (priceImpact: number) => priceImpact > highImpactPercent

/** A slippage or impact as people read it: '1 %', '0.5 %', '5.27 %'. */
export function formatPercent(percent: number): string {
  const decimals = Math.min(2, (String(percent).split('.')[1] ?? '').length)
  return format(swapText.percent, { value: Format.formatNumber(percent, decimals) })
}

/** An amount in base units, with spec §9's 3 decimals, and '< 0.001' rather than '0.000'. */
export function formatAmount(value: bigint, decimals: number): string {
  const text = Format.formatQuantity(Format.formatUnits(value, decimals))
  return value > 0n && /^0\.0+$/.test(text) ? `< ${Format.formatQuantity('0.001')}` : text
}

/** Its value in US dollars, when its price is known. */
export function usdOf(value: bigint, decimals: number, price: number | undefined): number | undefined {
  return price === undefined ? undefined : Number(Format.formatUnits(value, decimals)) * price
}

/** '1 ETH = 2,990.12 DUSD': 2 decimals, or 4 significant digits below 1. */
export function formatRate(quote: Pick<Quote, 'fromAmount' | 'toAmount'>, from: SwapToken, to: SwapToken): string {
  const rate = Number(Format.formatUnits(BigInt(quote.toAmount), to.decimals)) / Number(Format.formatUnits(BigInt(quote.fromAmount), from.decimals))
  const decimals = rate >= 1 || rate <= 0 ? 2 : Math.min(12, 3 - Math.floor(Math.log10(rate)))
  return format(swapText.rateValue, { from: from.symbol, rate: Format.formatNumber(rate, decimals), to: to.symbol })
}

export type QuoteError = { kind: 'noLiquidity' | 'aboveReserves' | 'noRoute' | 'unsupported' | 'failed'; message: string }

/**
 * Why there is no quote, as the person should read it: the api's known 400s (issue 11's contract) by
 * their text; any other refusal or failure is 'The quote failed' with its reason (and a Retry).
 */
export function quoteError(error: unknown, pair: { from: SwapToken; to: SwapToken }): QuoteError {
  const names = { from: pair.from.symbol, to: pair.to.symbol }
  const reason = error instanceof ApiError ? (error.reason ?? error.message) : (error as Error | null)?.message
  if (error instanceof ApiError && error.status === 400) {
    if (reason === 'No liquidity for this pair') return { kind: 'noLiquidity', message: format(swapText.errors.noLiquidity, names) }
    if (reason === "Amount exceeds the pool's liquidity") return { kind: 'aboveReserves', message: swapText.errors.aboveReserves }
    // spec §8
    if (reason === errors.swapsNetworkNotSupported) return { kind: 'unsupported', message: errors.swapsNetworkNotSupported }
  }
  return { kind: 'failed', message: format(swapText.errors.quoteFailed, { reason: (typeof reason === 'string' && reason.slice(0, 200)) || core.somethingWentWrong }) }
}

export const noRoute = (pair: { from: SwapToken; to: SwapToken }): QuoteError => ({
  kind: 'noRoute',
  message: format(swapText.errors.noRoute, { from: pair.from.symbol, to: pair.to.symbol }),
})

export const isStale = (fetchedAt: number, now: number) => now - fetchedAt > quoteMaxAgeMs

export type Step = 'approve' | 'swap'

/** Approve first when the exchange may not take the amount yet (ERC-20 only: the native token needs none). */
export function stepsFor(from: SwapToken, allowance: bigint, amount: bigint): Step[] {
  return !isNative(from) && allowance < amount ? ['approve', 'swap'] : ['swap']
}

export type TransactionRequest = { from: string; to: string; data: Hex; value: Hex; gas?: Hex }

/** The eth_sendTransaction parameters of an api-built transaction; the wallet chooses the fees. */
export function walletRequest(tx: { from: string; to: string; data: string; value?: string; amount?: string; eip155: { gas: string } }): TransactionRequest {
  const gas = BigInt(tx.eip155.gas)
  return { from: tx.from, to: tx.to, data: tx.data as Hex, value: toHex(BigInt(tx.value ?? tx.amount ?? '0')), ...(gas > 0n && { gas: toHex(gas) }) }
}

/** The most the person can pay: their balance, less twice the fee for the native token (sendRules' Max). */
export function maxPay(balance: Balance, gas: bigint, gasPrice: bigint): string {
  return SendRules.maxAmount(balance, SendRules.feeReserve(gas, gasPrice))
}

// keccak256 of the event signatures the result reads.
const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const withdrawalTopic = '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65'
type Log = { address?: unknown; topics?: unknown; data?: unknown }

/**
 * What the swap gave the person, from its receipt: the ERC-20 Transfer of the token to them, or for the
 * native token WETH's Withdrawal that the router forwards. Undefined when the logs do not say.
 */
export function receivedFromLogs(logs: unknown, options: { to: SwapToken; user: string }): bigint | undefined {
  if (!Array.isArray(logs)) return undefined
  const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`
  const contract = Caip.parseAccountId(options.to.address).address.toLowerCase()
  for (const log of logs as Log[]) {
    const topics = Array.isArray(log.topics) ? (log.topics as string[]).map((t) => String(t).toLowerCase()) : []
    if (typeof log.data !== 'string' || !/^0x[\da-f]{1,64}$/i.test(log.data)) continue
    if (isNative(options.to) ? topics[0] === withdrawalTopic : topics[0] === transferTopic && topics[2] === word(options.user) && String(log.address).toLowerCase() === contract)
      return BigInt(log.data)
  }
  return undefined
}
