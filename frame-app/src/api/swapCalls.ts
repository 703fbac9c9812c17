/**
 * The swap calls (spec §7 /v1/convert/*, POST /v1/fungible/price) and the gas price Send asks too: a
 * module of its own, with their answers' schemas (the api's contract, shared/src/contracts/api/convert.ts),
 * so that they load with the Swap or Send chunk, not with the frame (as accountPages.ts).
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Convert from '@doorway/shared/contracts/api/convert'
import { call, type Context } from './client.js'

export type { ApproveTransaction, Quote, SwapToken, SwapTransaction } from '@doorway/shared/contracts/api/convert'

/** spec §7 GET /v1/convert/gas-price: the node's price and two faster tiers, in wei per gas. */
export function gasPrice(context: Context, chainId: ChainId, signal?: AbortSignal) {
  return call<'GET /v1/convert/gas-price'>(context, 'GET', '/v1/convert/gas-price', Convert.gasPrice, { query: { chainId }, signal })
}

/** spec §7 GET /v1/convert/tokens: the tokens that have a pool on `chainId`. */
export function swapTokens(context: Context, chainId: ChainId, signal?: AbortSignal) {
  return call<'GET /v1/convert/tokens'>(context, 'GET', '/v1/convert/tokens', Convert.swapTokens, { query: { chainId }, signal }).then((r) => r.tokens)
}

/** spec §7 GET /v1/convert/quotes: `amount` in base units of `from`; `gasPrice` in wei prices the network fee. */
export function swapQuotes(context: Context, params: { amount: bigint; userAddress: string; from: string; to: string; gasPrice?: bigint | undefined }, signal?: AbortSignal) {
  const query = { amount: params.amount.toString(), userAddress: params.userAddress, from: params.from, to: params.to, gasPrice: params.gasPrice?.toString() }
  return call<'GET /v1/convert/quotes'>(context, 'GET', '/v1/convert/quotes', Convert.quotes, { query, signal }).then((r) => r.quotes)
}

/** spec §7 GET /v1/convert/allowance: what the exchange may take of `tokenAddress` (CAIP-10), in base units. */
export function swapAllowance(context: Context, params: { tokenAddress: string; userAddress: string }, signal?: AbortSignal) {
  return call<'GET /v1/convert/allowance'>(context, 'GET', '/v1/convert/allowance', Convert.allowance, { query: params, signal }).then((r) => BigInt(r.allowance))
}

/** spec §7 GET /v1/convert/build-approve: the approval of `amount` of `from` to the exchange; null where the api swaps nothing. */
export function buildApprove(context: Context, params: { userAddress: string; from: string; to: string; amount: bigint }, signal?: AbortSignal) {
  const query = { userAddress: params.userAddress, from: params.from, to: params.to, amount: params.amount.toString() }
  return call<'GET /v1/convert/build-approve'>(context, 'GET', '/v1/convert/build-approve', Convert.approveTransaction, { query, signal }).then((r) => r.tx)
}

/**
 * spec §7 POST /v1/convert/build-transaction: the swap, with `slippage` in percent (spec §9); null where
 * the api swaps nothing. `toAmount` is the quote the person accepted: the bound is taken from it, and a
 * pool that moved beyond it since is a 409.
 */
export function buildSwap(
  context: Context,
  params: { amount: bigint; slippage: number; from: string; to: string; userAddress: string; toAmount?: string; disableEstimate?: boolean },
  signal?: AbortSignal,
) {
  const { amount, slippage, ...rest } = params
  const body = { amount: amount.toString(), eip155: { slippage }, projectId: context.projectId, ...rest }
  return call<'POST /v1/convert/build-transaction'>(context, 'POST', '/v1/convert/build-transaction', Convert.swapTransaction, { body, signal }).then((r) => r.tx)
}

/** spec §7 POST /v1/fungible/price: US dollar prices of tokens by CAIP-10 id (at most 100). */
export function prices(context: Context, addresses: readonly string[], signal?: AbortSignal) {
  const body = { currency: Constants.priceCurrency, addresses: addresses.slice(0, 100), projectId: context.projectId }
  return call<'POST /v1/fungible/price'>(context, 'POST', '/v1/fungible/price', Convert.prices, { body, signal }).then((r) => r.fungibles)
}
