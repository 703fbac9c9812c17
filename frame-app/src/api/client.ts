/**
 * The one client of the api (spec §7): every call carries projectId, st (sdkType) and sv (sdkVersion);
 * every call times out; every answer is checked before use; a non-OK answer throws an error carrying
 * the HTTP status. Onramp calls fall back as spec §8 says.
 *
 * Each call is a free function over an explicit `Context`, typed from the api's route table
 * (shared/src/contracts/api.ts, imported as a type only: its code never loads in the frame) and checked
 * by the result schema the table holds, imported from the contract's module for that group of routes.
 * `create` binds them to one context, as the frame's state holds one client per project. Only the calls
 * the frame makes from its first script are here (balances, the account's name, the wallet catalogue,
 * analytics); the calls of lazy views (history and NFTs, swaps and gas prices, onramp, name lookup and
 * registration) are in modules of their own, loaded with the first such call: the first script holds
 * their names, not their code.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import type * as Contract from '@doorway/shared/Contract'
import type * as Api from '@doorway/shared/contracts/api'
import * as Analytics from '@doorway/shared/contracts/api/analytics'
import * as Balances from '@doorway/shared/contracts/api/balances'
import * as Catalogue from '@doorway/shared/contracts/api/catalogue'
import * as Names from '@doorway/shared/contracts/api/names'
import type * as S from '@doorway/shared/Schema'
import { errors } from '@doorway/shared/Texts'

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
// The history and NFT calls and their answers' schemas are a chunk of their own, loaded with the tabs that ask.
export type { HistoryPage, Nft, NftPage, OperationType, Transaction, Transfer } from './accountPages.js'
const accountPages = () => import('./accountPages.js')
// The swap calls likewise load with the Swap chunk.
export type { ApproveTransaction, Quote, SwapToken, SwapTransaction } from './swapCalls.js'
const swapCalls = () => import('./swapCalls.js')
// The onramp calls, with the spec §8 fallbacks, likewise load with the OnRamp chunk.
export type { OnrampNetwork, OnrampOptions, OnrampQuote, PaymentMethod, PurchaseCurrency, QuoteRequest as OnrampQuoteRequest, UrlRequest as OnrampUrlRequest } from './fallbacks.js'
const onrampCalls = () => import('./onrampCalls.js')
// The name calls the Send and RegisterAccountName views make likewise load with them.
const nameCalls = () => import('./nameCalls.js')
// The smart account's network likewise loads with a connect that prefers one.
const smartAccountCalls = () => import('./smartAccountCalls.js')
// The smart-session calls likewise load with the first session (features.smartSessions).
export type { Session } from './sessionCalls.js'
const sessionCalls = () => import('./sessionCalls.js')

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
export const call = http as <E extends Api.Endpoint>(...args: Parameters<Call<E>>) => ReturnType<Call<E>>

/**
 * The calls of the frame's first script, each a free function of the context and its arguments (the
 * client's methods, once `create` binds them). One object of them rather than one export each: the names
 * are written once in the frame's first script.
 */
export const calls = {
  balances(context: Context, address: string, params: { chainId?: ChainId; forceUpdate?: boolean }, signal?: AbortSignal) {
    const query = { currency: Constants.priceCurrency, chainId: params.chainId, forceUpdate: params.forceUpdate || undefined }
    return call<'GET /v1/account/:address/balance'>(context, 'GET', `/v1/account/${encodeURIComponent(address)}/balance`, Balances.balances, { query, signal }).then((r) => r.balances)
  },

  // ---- the account's name (spec §7 /v1/profile/reverse, /v1/identity) ----------------------------------

  /** spec §7 GET /v1/identity/{address}: the name and avatar `address` goes by, as `sender` sees it (cached 5 min by the api). */
  identity(context: Context, address: string, sender: string | undefined, signal?: AbortSignal) {
    return call<'GET /v1/identity/:address'>(context, 'GET', `/v1/identity/${encodeURIComponent(address)}`, Names.identity, { query: { sender }, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
  },

  /** spec §7 GET /v1/profile/reverse/{address}: the profiles registered to `address`, read fresh, as `sender` asks. */
  reverse(context: Context, address: string, sender: string | undefined, signal?: AbortSignal) {
    const query = { sender, apiVersion: 2 }
    return call<'GET /v1/profile/reverse/:address'>(context, 'GET', `/v1/profile/reverse/${encodeURIComponent(address)}`, Names.reverse, { query, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
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
}

/** The calls whose code is in a lazy chunk, each by the loader of its module (which exports it by that name). */
const loaded = {
  history: accountPages,
  nfts: accountPages,
  gasPrice: swapCalls,
  swapTokens: swapCalls,
  swapQuotes: swapCalls,
  swapAllowance: swapCalls,
  buildApprove: swapCalls,
  buildSwap: swapCalls,
  prices: swapCalls,
  onrampOptions: onrampCalls,
  onrampQuote: onrampCalls,
  onrampUrl: onrampCalls,
  profile: nameCalls,
  suggestions: nameCalls,
  registerName: nameCalls,
  smartAccounts: smartAccountCalls,
  sessions: sessionCalls,
  createSession: sessionCalls,
  revokeSession: sessionCalls,
}
// Each lazy call's type is its module's export of that name (never, which no caller can call, if it has none).
type Loaded = { [K in keyof typeof loaded]: Export<Awaited<ReturnType<(typeof loaded)[K]>>, K> }
type Export<M, K> = K extends keyof M ? M[K] : never

/**
 * spec §8 name calls: the api's own reason for a refusal (a 4xx), else the call's fallback text, as
 * an ApiError still carrying the status. A cancelled call rejects as it was cancelled.
 */
export function nameError(fallback: string, signal: AbortSignal | undefined) {
  return (error: unknown): never => {
    if (signal?.aborted) throw error
    const status = error instanceof ApiError ? error.status : 0
    const reason = error instanceof ApiError && status < 500 ? error.reason : undefined
    throw new ApiError(status, reason ?? fallback, reason)
  }
}

// ---- one client per context --------------------------------------------------------------------------

type Bound<F> = { [K in keyof F]: F[K] extends (context: Context, ...args: infer A) => infer R ? (...args: A) => R : never }
export type Client = Bound<typeof calls & Loaded> & { http<T>(method: Method, path: string, check: S.Schema<T>, init?: Request): Promise<T> }

type Free = (context: Context, ...args: unknown[]) => unknown

/** Every call bound to one context (own properties, so tests may spy on one); a lazy one loads its module first. */
export function create(options: create.Options): Client {
  const context: Context = { ...options, projectId: options.projectId ?? '', fetch: options.fetch ?? fetch }
  const bound = Object.entries({ ...calls, http }).map(([name, f]) => [name, (...args: unknown[]) => (f as Free)(context, ...args)])
  const lazy = Object.entries(loaded).map(([name, load]) => [name, async (...args: unknown[]) => ((await load()) as unknown as Record<string, Free>)[name]!(context, ...args)])
  return Object.fromEntries([...bound, ...lazy]) as Client
}

export declare namespace create {
  type Options = { baseUrl: string; projectId?: string | undefined; sdkType: string; sdkVersion: string; fetch?: typeof fetch }
}
