/**
 * The one client of the api (spec §7): every call carries projectId, st (sdkType) and sv (sdkVersion);
 * every call times out; every answer is checked before use; a non-OK answer throws an error carrying
 * the HTTP status. Onramp calls fall back as spec §8 says.
 *
 * Each call is a free function over an explicit `Context`, typed from the api's route table
 * (shared/src/contracts/api.ts, imported as a type only: its code never loads in the frame) and checked
 * by the result schema the table holds, imported from the contract's module for that group of routes.
 * `create` binds them to one context, as the frame's state holds one client per project.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import type * as Contract from '@doorway/shared/Contract'
import type * as Api from '@doorway/shared/contracts/api'
import * as Analytics from '@doorway/shared/contracts/api/analytics'
import * as Balances from '@doorway/shared/contracts/api/balances'
import * as Catalogue from '@doorway/shared/contracts/api/catalogue'
import * as Names from '@doorway/shared/contracts/api/names'
import * as Name from '@doorway/shared/Name'
import type * as S from '@doorway/shared/Schema'
import { errors, format } from '@doorway/shared/Texts'
import type { QuoteRequest, UrlRequest } from './fallbacks.js'

export const timeoutMs = 10_000

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The api's own words (its body's message), when it gave some: spec §8 prefers them. */
    readonly reason?: string,
  ) {
    super(message)
  }
}

export type { Balance } from '@doorway/shared/contracts/api/balances'
export type { WalletListing } from '@doorway/shared/contracts/api/catalogue'
export type { Identity, NameRegistration, Profile } from '@doorway/shared/contracts/api/names'
export type { AnalyticsEvent } from '@doorway/shared/contracts/api/analytics'
// The history and NFT answers are checked by schemas of their own chunk, loaded with the tabs that ask.
export type { HistoryPage, Nft, NftPage, OperationType, Transaction, Transfer } from './accountPages.js'
const accountPages = () => import('./accountPages.js')
// The swap answers' schemas likewise load with the Swap chunk.
export type { ApproveTransaction, Quote, SwapToken, SwapTransaction } from './swapCalls.js'
const swapCalls = () => import('./swapCalls.js')
// The onramp's schemas and spec §8 fallbacks likewise load with the OnRamp chunk.
export type { OnrampNetwork, OnrampOptions, OnrampQuote, PaymentMethod, PurchaseCurrency, QuoteRequest as OnrampQuoteRequest, UrlRequest as OnrampUrlRequest } from './fallbacks.js'
const onrampCalls = () => import('./fallbacks.js')

/** What every call needs: where the api is, and who asks (spec §7's common query). */
export type Context = { baseUrl: string; projectId: string; sdkType: string; sdkVersion: string; fetch: typeof fetch }

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
type Request = { query?: Record<string, string | number | boolean | undefined>; body?: unknown; signal?: AbortSignal | undefined; clientId?: string }

/** The generic HTTP client of spec §7: GET, POST, PUT, DELETE with JSON bodies, optional clientId. */
export async function http<T>(context: Context, method: Method, path: string, check: S.Schema<T>, init: Request = {}): Promise<T> {
  // A call cancelled before it starts (e.g. while a schema chunk loaded) asks nothing.
  init.signal?.throwIfAborted()
  const url = new URL(path, context.baseUrl)
  const query = { projectId: context.projectId, st: context.sdkType, sv: context.sdkVersion, ...init.query, clientId: init.clientId }
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value))
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('The api did not answer in time', 'TimeoutError')), timeoutMs)
  init.signal?.addEventListener('abort', () => controller.abort(init.signal!.reason))
  // Called on its own, never as context.fetch: a browser's fetch refuses any `this` but the window.
  const { fetch } = context
  const response = await fetch(url, {
    method,
    signal: controller.signal,
    ...(init.body !== undefined && { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }),
  }).finally(() => clearTimeout(timer))
  const body: unknown = await response.json().catch(() => undefined)
  const reason = (body as { message?: unknown } | undefined)?.message
  const said = typeof reason === 'string' && reason ? reason : undefined
  if (!response.ok) throw new ApiError(response.status, said ?? response.statusText, said)
  if (!check(body)) throw new ApiError(response.status, `Unexpected answer from ${path}`)
  return body
}

type At<E extends Api.Endpoint> = Contract.At<Api.Table, E>
type Call<E extends Api.Endpoint> = (
  context: Context,
  method: At<E>['method'],
  path: Contract.Path<At<E>['path']>,
  check: S.Schema<Contract.Result<At<E>>>,
  request?: { query?: Contract.Query<At<E>>; body?: Contract.Body<At<E>>; signal?: AbortSignal | undefined },
) => Promise<Contract.Result<At<E>>>

/**
 * A route of the api's table, named by its endpoint (`call<'GET /v1/…'>`): the method, the path, the
 * query, the body and the answer's schema are checked against the table when the frame compiles, and
 * at runtime it is `http` itself: no table, no path template in the frame.
 */
const call = http as <E extends Api.Endpoint>(...args: Parameters<Call<E>>) => ReturnType<Call<E>>

/**
 * Every call of the api, each a free function of the context and its arguments (the client's methods,
 * once `create` binds them). One object of them rather than one export each: the names are written once
 * in the frame's first script.
 */
export const calls = {
  // ---- balances, history, NFTs ------------------------------------------------------------------------

  balances(context: Context, address: string, params: { chainId?: ChainId; forceUpdate?: boolean }, signal?: AbortSignal) {
    const query = { currency: Constants.priceCurrency, chainId: params.chainId, forceUpdate: params.forceUpdate || undefined }
    return call<'GET /v1/account/:address/balance'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/balance`, Balances.balances, { query, signal }).then((r) => r.balances)
  },

  /**
   * spec §7 GET /v1/account/{account}/history: one page, newest first; `cursor` is the previous page's
   * `next`. With `onramp: 'coinbase'`, the account's onramp orders ('buy').
   */
  async history(context: Context, address: string, params: { chainId: ChainId; cursor?: string | undefined; onramp?: 'coinbase' | undefined }, signal?: AbortSignal) {
    const { historyPage } = await accountPages()
    const query = { chainId: params.chainId, cursor: params.cursor || undefined, onramp: params.onramp }
    return call<'GET /v1/account/:account/history'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/history`, historyPage, { query, signal })
  },

  /** GET /v1/account/{address}/nfts: one page of the NFTs the account holds on `chainId`. */
  async nfts(context: Context, address: string, params: { chainId: ChainId; cursor?: string | undefined }, signal?: AbortSignal) {
    const { nftPage, fromNftPage } = await accountPages()
    const query = { chainId: params.chainId, cursor: params.cursor || undefined }
    return fromNftPage(await call<'GET /v1/account/:address/nfts'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/nfts`, nftPage, { query, signal }))
  },

  // ---- swaps (spec §7 /v1/convert/*) -------------------------------------------------------------------

  /** spec §7 GET /v1/convert/gas-price. */
  gasPrice(context: Context, chainId: ChainId, signal?: AbortSignal) {
    return call<'GET /v1/convert/gas-price'>(context, 'GET', '/v1/convert/gas-price', Balances.gasPrice, { query: { chainId }, signal })
  },

  /** spec §7 GET /v1/convert/tokens: the tokens that have a pool on `chainId`. */
  async swapTokens(context: Context, chainId: ChainId, signal?: AbortSignal) {
    const { swapTokens } = await swapCalls()
    return call<'GET /v1/convert/tokens'>(context, 'GET', '/v1/convert/tokens', swapTokens, { query: { chainId }, signal }).then((r) => r.tokens)
  },

  /** spec §7 GET /v1/convert/quotes: `amount` in base units of `from`; `gasPrice` in wei prices the network fee. */
  async swapQuotes(context: Context, params: { amount: bigint; userAddress: string; from: string; to: string; gasPrice?: bigint | undefined }, signal?: AbortSignal) {
    const { quotes } = await swapCalls()
    const query = { amount: params.amount.toString(), userAddress: params.userAddress, from: params.from, to: params.to, gasPrice: params.gasPrice?.toString() }
    return call<'GET /v1/convert/quotes'>(context, 'GET', '/v1/convert/quotes', quotes, { query, signal }).then((r) => r.quotes)
  },

  /** spec §7 GET /v1/convert/allowance: what the exchange may take of `tokenAddress` (CAIP-10), in base units. */
  async swapAllowance(context: Context, params: { tokenAddress: string; userAddress: string }, signal?: AbortSignal) {
    const { allowance } = await swapCalls()
    return call<'GET /v1/convert/allowance'>(context, 'GET', '/v1/convert/allowance', allowance, { query: params, signal }).then((r) => BigInt(r.allowance))
  },

  /** spec §7 GET /v1/convert/build-approve: the approval of `amount` of `from` to the exchange; null where the api swaps nothing. */
  async buildApprove(context: Context, params: { userAddress: string; from: string; to: string; amount: bigint }, signal?: AbortSignal) {
    const { approveTransaction } = await swapCalls()
    const query = { userAddress: params.userAddress, from: params.from, to: params.to, amount: params.amount.toString() }
    return call<'GET /v1/convert/build-approve'>(context, 'GET', '/v1/convert/build-approve', approveTransaction, { query, signal }).then((r) => r.tx)
  },

  /**
   * spec §7 POST /v1/convert/build-transaction: the swap, with `slippage` in percent (spec §9); null where
   * the api swaps nothing. `toAmount` is the quote the person accepted: the bound is taken from it, and a
   * pool that moved beyond it since is a 409.
   */
  async buildSwap(
    context: Context,
    params: { amount: bigint; slippage: number; from: string; to: string; userAddress: string; toAmount?: string; disableEstimate?: boolean },
    signal?: AbortSignal,
  ) {
    const { swapTransaction } = await swapCalls()
    const { amount, slippage, ...rest } = params
    const body = { amount: amount.toString(), eip155: { slippage }, projectId: context.projectId, ...rest }
    return call<'POST /v1/convert/build-transaction'>(context, 'POST', '/v1/convert/build-transaction', swapTransaction, { body, signal }).then((r) => r.tx)
  },

  /** spec §7 POST /v1/fungible/price: US dollar prices of tokens by CAIP-10 id (at most 100). */
  async prices(context: Context, addresses: readonly string[], signal?: AbortSignal) {
    const { prices } = await swapCalls()
    const body = { currency: Constants.priceCurrency, addresses: addresses.slice(0, 100), projectId: context.projectId }
    return call<'POST /v1/fungible/price'>(context, 'POST', '/v1/fungible/price', prices, { body, signal }).then((r) => r.fungibles)
  },

  // ---- names (spec §7 /v1/profile/*, /v1/identity) -----------------------------------------------------

  /** spec §7 GET /v1/profile/account/{name}: the name's addresses and attributes (avatar). */
  profile(context: Context, name: string, signal?: AbortSignal) {
    return call<'GET /v1/profile/account/:name'>(context, 'GET', `/v1/profile/account/${encodeURIComponent(name)}`, Names.profile, { query: { apiVersion: 2 }, signal })
  },

  /** spec §7 GET /v1/identity/{address}: the name and avatar `address` goes by, as `sender` sees it (cached 5 min by the api). */
  identity(context: Context, address: string, sender: string | undefined, signal?: AbortSignal) {
    return call<'GET /v1/identity/:address'>(context, 'GET', `/v1/identity/${encodeURIComponent(address)}`, Names.identity, { query: { sender }, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
  },

  /** spec §7 GET /v1/profile/reverse/{address}: the profiles registered to `address`, read fresh, as `sender` asks. */
  reverse(context: Context, address: string, sender: string | undefined, signal?: AbortSignal) {
    const query = { sender, apiVersion: 2 }
    return call<'GET /v1/profile/reverse/:address'>(context, 'GET', `/v1/profile/reverse/${encodeURIComponent(address)}`, Names.reverse, { query, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
  },

  /** spec §7 GET /v1/profile/suggestions/{name}: free names like `name` in the zone (spec §9). */
  suggestions(context: Context, name: string, signal?: AbortSignal) {
    return call<'GET /v1/profile/suggestions/:name'>(context, 'GET', `/v1/profile/suggestions/${encodeURIComponent(name)}`, Names.suggestions, { query: { zone: Name.defaultZone }, signal })
      .then((r) => r.suggestions)
      .catch(nameError(errors.fetchNameSuggestionsFailed, signal))
  },

  /** spec §7 POST /v1/profile/account: registers `name`, which the signed message holds (it names the failure, spec §8). */
  registerName(context: Context, name: string, body: Names.NameRegistration, signal?: AbortSignal) {
    const fallback = format(errors.registerNameFailed, { name })
    return call<'POST /v1/profile/account'>(context, 'POST', '/v1/profile/account', Names.success, { body, signal }).then(
      (r) => {
        if (!r.success) throw new ApiError(200, fallback)
      },
      nameError(fallback, signal),
    )
  },

  // ---- the wallet catalogue and analytics --------------------------------------------------------------

  /** spec §7 GET /getWallets: page, entries, chains, include, exclude, search. */
  wallets(
    context: Context,
    params: { page: number; entries: number; chains?: string[]; include?: string[]; exclude?: string[]; search?: string },
    signal?: AbortSignal,
  ) {
    const list = (ids?: string[]) => (ids?.length ? ids.join(',') : undefined)
    const query = {
      page: params.page,
      entries: params.entries,
      chains: list(params.chains),
      include: list(params.include),
      exclude: list(params.exclude),
      search: params.search || undefined,
    }
    return call<'GET /getWallets'>(context, 'GET', '/getWallets', Catalogue.walletPage, { query, signal })
  },

  analyticsConfig(context: Context) {
    return call<'GET /getAnalyticsConfig'>(context, 'GET', '/getAnalyticsConfig', Analytics.analyticsConfig)
  },

  sendEvent(context: Context, event: Analytics.AnalyticsEvent): Promise<unknown> {
    return call<'POST /e'>(context, 'POST', '/e', Names.success, { body: event })
  },

  // ---- onramp (spec §7 /v1/onramp/*, fallbacks spec §8) -----------------------------------------------

  /**
   * spec §7 GET /v1/onramp/options; spec §8: on failure, the built-in sample options, and `fallback`
   * says so (the view shows it, and offers no Buy on them). A cancelled call is not a failure.
   */
  async onrampOptions(context: Context, signal?: AbortSignal) {
    const { isOnrampOptions, onrampOptions } = await onrampCalls()
    return call<'GET /v1/onramp/options'>(context, 'GET', '/v1/onramp/options', isOnrampOptions, { signal }).then(
      (options) => ({ options, fallback: false }),
      (error: unknown) => {
        if (signal?.aborted) throw error
        return { options: onrampOptions, fallback: true }
      },
    )
  },

  /** spec §7 POST /v1/onramp/quote; spec §8: on failure, the mocked quote with id mocked-quote-id. A cancelled call rejects. */
  async onrampQuote(context: Context, body: QuoteRequest, signal?: AbortSignal) {
    const { isOnrampQuote, mockedQuote } = await onrampCalls()
    return call<'POST /v1/onramp/quote'>(context, 'POST', '/v1/onramp/quote', isOnrampQuote, { body, signal }).catch((error: unknown) => {
      if (signal?.aborted) throw error
      return mockedQuote(body)
    })
  },

  /** spec §7 POST /v1/generators/onrampurl: the provider's buy page ('' where the network is unsupported). */
  async onrampUrl(context: Context, body: UrlRequest, signal?: AbortSignal) {
    const { isOnrampUrl } = await onrampCalls()
    return call<'POST /v1/generators/onrampurl'>(context, 'POST', '/v1/generators/onrampurl', isOnrampUrl, { body, signal }).then((r) => r.url)
  },
}

/**
 * spec §8 name calls: the api's own reason for a refusal (a 4xx), else the call's fallback text, as
 * an ApiError still carrying the status. A cancelled call rejects as it was cancelled.
 */
function nameError(fallback: string, signal: AbortSignal | undefined) {
  return (error: unknown): never => {
    if (signal?.aborted) throw error
    const status = error instanceof ApiError ? error.status : 0
    const reason = error instanceof ApiError && status < 500 ? error.reason : undefined
    throw new ApiError(status, reason ?? fallback, reason)
  }
}

// ---- one client per context --------------------------------------------------------------------------

type Bound<F> = { [K in keyof F]: F[K] extends (context: Context, ...args: infer A) => infer R ? (...args: A) => R : never }
export type Client = Bound<typeof calls> & { http<T>(method: Method, path: string, check: S.Schema<T>, init?: Request): Promise<T> }

/** Every call bound to one context (own properties, so tests may spy on one). */
export function create(options: create.Options): Client {
  const context: Context = { ...options, projectId: options.projectId ?? '', fetch: options.fetch ?? fetch }
  const bound = Object.entries({ ...calls, http }).map(([name, f]) => [name, (...args: unknown[]) => (f as (c: Context, ...a: unknown[]) => unknown)(context, ...args)])
  return Object.fromEntries(bound) as Client
}

export declare namespace create {
  type Options = { baseUrl: string; projectId?: string | undefined; sdkType: string; sdkVersion: string; fetch?: typeof fetch }
}
