/**
 * The one client of the api (spec §7): every call carries projectId, st (sdkType) and sv (sdkVersion);
 * every call times out; every answer is checked before use; a non-OK answer throws an error carrying
 * the HTTP status. Onramp calls fall back as spec §8 says.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import { errors, format } from '@doorway/shared/Texts'
import * as Name from '@doorway/shared/Name'
import * as S from '@doorway/shared/Schema'
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

const quantity = S.object({ decimals: S.string({ max: 4 }), numeric: S.string({ max: 96 }) })
const balance = S.object({
  name: S.string({ max: 128 }),
  symbol: S.string({ max: 32 }),
  chainId: S.string({ max: 80 }),
  address: S.optional(S.string({ max: 200 })),
  value: S.optional(S.number),
  price: S.number,
  quantity,
  iconUrl: S.string({ max: 2048 }),
})
export type Balance = S.Infer<typeof balance>
const balances = S.object({ balances: S.array(balance, 512) })
const wei = S.string({ min: 1, max: 78, pattern: /^\d+$/ })
// GET /v1/convert/gas-price: the node's price and two faster tiers, in wei per gas.
const gasPrice = S.object({ standard: wei, fast: wei, instant: wei })
// GET /v1/profile/account/{name}: addresses by coin type (SLIP-44, or ENSIP-11 for EVM chains).
const profile = S.object({
  name: S.string({ max: 256 }),
  addresses: S.record(S.string({ pattern: /^\d{1,10}$/ }), S.object({ address: S.string({ max: 128 }) }), 64),
  attributes: S.record(S.string({ max: 64 }), S.string({ max: 512 }), 16),
})
export type Profile = S.Infer<typeof profile>
// GET /v1/identity/{address}: the name the address goes by and its avatar, null when it has none.
const identity = S.object({ name: S.union(S.string({ max: 256 }), S.literal(null)), avatar: S.union(S.string({ max: 512 }), S.literal(null)) })
export type Identity = S.Infer<typeof identity>
// GET /v1/profile/reverse/{address}: the names registered to the address (the api keeps at most one).
const reverse = S.array(profile, 16)
// GET /v1/profile/suggestions/{name}: the free names among the name and its numbered variants.
const suggestions = S.object({ suggestions: S.array(S.object({ name: S.string({ max: 256 }), registered: S.boolean }), 32) })
const registered = S.object({ success: S.boolean })
/** spec §7 POST /v1/profile/account: the signed registration message of a name, for the address. */
export type NameRegistration = { coin_type: number; address: string; message: string; signature: string }
const analyticsConfig = S.object({ isAnalyticsEnabled: S.boolean })
const link = S.union(S.string({ max: 512 }), S.literal(null))
// spec §3 wallet listing (plus the image url and rank the catalogue adds).
const walletListing = S.object({
  id: S.string({ min: 1, max: 128 }),
  name: S.string({ min: 1, max: 128 }),
  image_id: S.string({ max: 128 }),
  image_url: S.string({ max: 2048 }),
  rdns: S.union(S.string({ max: 128 }), S.literal(null)),
  chains: S.array(S.string({ max: 80 }), 64),
  mobile_link: link,
  desktop_link: link,
  webapp_link: link,
  homepage: link,
  app_store: link,
  play_store: link,
  chrome_store: link,
  badge_type: S.string({ max: 32 }),
  order: S.number,
})
export type WalletListing = S.Infer<typeof walletListing>
const walletPage = S.object({ data: S.array(walletListing, 100), count: S.number })

// The history and NFT answers are checked by schemas of their own chunk, loaded with the tabs that ask.
export type { HistoryPage, Nft, NftPage, OperationType, Transaction, Transfer } from './accountPages.js'
const accountPages = () => import('./accountPages.js')
// The swap answers' schemas likewise load with the Swap chunk.
export type { ApproveTransaction, Quote, SwapToken, SwapTransaction } from './swapCalls.js'
const swapCalls = () => import('./swapCalls.js')
// The onramp's schemas and spec §8 fallbacks likewise load with the OnRamp chunk.
export type { OnrampNetwork, OnrampOptions, OnrampQuote, PaymentMethod, PurchaseCurrency, QuoteRequest as OnrampQuoteRequest, UrlRequest as OnrampUrlRequest } from './fallbacks.js'
const onrampCalls = () => import('./fallbacks.js')

export type AnalyticsEvent = { eventId: string; url: string; domain: string; timestamp: number; props: Record<string, unknown> }

export type Client = ReturnType<typeof create>

export function create(options: create.Options) {
  const { baseUrl, projectId = '', sdkType, sdkVersion, fetch: fetchFn = fetch } = options

  /** The generic HTTP client of spec §7: GET, POST, PUT, DELETE with JSON bodies, optional clientId. */
  async function http<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, check: S.Schema<T>, init: Request = {}): Promise<T> {
    // A call cancelled before it starts (e.g. while a schema chunk loaded) asks nothing.
    init.signal?.throwIfAborted()
    const url = new URL(path, baseUrl)
    const query = { projectId, st: sdkType, sv: sdkVersion, ...init.query, clientId: init.clientId }
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value))
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DOMException('The api did not answer in time', 'TimeoutError')), timeoutMs)
    init.signal?.addEventListener('abort', () => controller.abort(init.signal!.reason))
    const response = await fetchFn(url, {
      method,
      signal: controller.signal,
      ...(init.body !== undefined && { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }),
    }).finally(() => clearTimeout(timer))
    const body: unknown = await response.json().catch(() => undefined)
    const reason = (body as { message?: unknown } | undefined)?.message
    if (!response.ok) throw new ApiError(response.status, typeof reason === 'string' && reason ? reason : response.statusText, typeof reason === 'string' && reason ? reason : undefined)
    if (!check(body)) throw new ApiError(response.status, `Unexpected answer from ${path}`)
    return body
  }

  return {
    http,
    balances(address: string, params: { chainId?: ChainId; forceUpdate?: boolean }, signal?: AbortSignal) {
      const query = { currency: Constants.priceCurrency, chainId: params.chainId, forceUpdate: params.forceUpdate || undefined }
      return http('GET', `/v1/account/${address}/balance`, balances, { query, signal }).then((r) => r.balances)
    },
    /**
     * spec §7 GET /v1/account/{account}/history: one page, newest first; `cursor` is the previous page's
     * `next`. With `onramp: 'coinbase'`, the account's onramp orders ('buy').
     */
    async history(address: string, params: { chainId: ChainId; cursor?: string | undefined; onramp?: 'coinbase' | undefined }, signal?: AbortSignal) {
      const { historyPage } = await accountPages()
      const query = { chainId: params.chainId, cursor: params.cursor || undefined, onramp: params.onramp }
      return http('GET', `/v1/account/${encodeURIComponent(address)}/history`, historyPage, { query, signal })
    },
    /** GET /v1/account/{address}/nfts: one page of the NFTs the account holds on `chainId`. */
    async nfts(address: string, params: { chainId: ChainId; cursor?: string | undefined }, signal?: AbortSignal) {
      const { nftPage, fromNftPage } = await accountPages()
      const query = { chainId: params.chainId, cursor: params.cursor || undefined }
      return fromNftPage(await http('GET', `/v1/account/${encodeURIComponent(address)}/nfts`, nftPage, { query, signal }))
    },
    /** spec §7 GET /v1/convert/gas-price. */
    gasPrice(chainId: ChainId, signal?: AbortSignal) {
      return http('GET', '/v1/convert/gas-price', gasPrice, { query: { chainId }, signal })
    },
    /** spec §7 GET /v1/convert/tokens: the tokens that have a pool on `chainId`. */
    async swapTokens(chainId: ChainId, signal?: AbortSignal) {
      const { swapTokens } = await swapCalls()
      return http('GET', '/v1/convert/tokens', swapTokens, { query: { chainId }, signal }).then((r) => r.tokens)
    },
    /** spec §7 GET /v1/convert/quotes: `amount` in base units of `from`; `gasPrice` in wei prices the network fee. */
    async swapQuotes(params: { amount: bigint; userAddress: string; from: string; to: string; gasPrice?: bigint | undefined }, signal?: AbortSignal) {
      const { quotes } = await swapCalls()
      const query = { amount: params.amount.toString(), userAddress: params.userAddress, from: params.from, to: params.to, gasPrice: params.gasPrice?.toString() }
      return http('GET', '/v1/convert/quotes', quotes, { query, signal }).then((r) => r.quotes)
    },
    /** spec §7 GET /v1/convert/allowance: what the exchange may take of `tokenAddress` (CAIP-10), in base units. */
    async swapAllowance(params: { tokenAddress: string; userAddress: string }, signal?: AbortSignal) {
      const { allowance } = await swapCalls()
      return http('GET', '/v1/convert/allowance', allowance, { query: params, signal }).then((r) => BigInt(r.allowance))
    },
    /** spec §7 GET /v1/convert/build-approve: the approval of `amount` of `from` to the exchange; null where the api swaps nothing. */
    async buildApprove(params: { userAddress: string; from: string; to: string; amount: bigint }, signal?: AbortSignal) {
      const { approveTransaction } = await swapCalls()
      const query = { userAddress: params.userAddress, from: params.from, to: params.to, amount: params.amount.toString() }
      return http('GET', '/v1/convert/build-approve', approveTransaction, { query, signal }).then((r) => r.tx)
    },
    /**
     * spec §7 POST /v1/convert/build-transaction: the swap, with `slippage` in percent (spec §9); null where
     * the api swaps nothing. `toAmount` is the quote the person accepted: the bound is taken from it, and a
     * pool that moved beyond it since is a 409.
     */
    async buildSwap(params: { amount: bigint; slippage: number; from: string; to: string; userAddress: string; toAmount?: string; disableEstimate?: boolean }, signal?: AbortSignal) {
      const { swapTransaction } = await swapCalls()
      const { amount, slippage, ...rest } = params
      const body = { amount: amount.toString(), eip155: { slippage }, projectId, ...rest }
      return http('POST', '/v1/convert/build-transaction', swapTransaction, { body, signal }).then((r) => r.tx)
    },
    /** spec §7 POST /v1/fungible/price: US dollar prices of tokens by CAIP-10 id (at most 100). */
    async prices(addresses: readonly string[], signal?: AbortSignal) {
      const { prices } = await swapCalls()
      const body = { currency: Constants.priceCurrency, addresses: addresses.slice(0, 100), projectId }
      return http('POST', '/v1/fungible/price', prices, { body, signal }).then((r) => r.fungibles)
    },
    /** spec §7 GET /v1/profile/account/{name}: the name's addresses and attributes (avatar). */
    profile(name: string, signal?: AbortSignal) {
      return http('GET', `/v1/profile/account/${encodeURIComponent(name)}`, profile, { query: { apiVersion: 2 }, signal })
    },
    /** spec §7 GET /v1/identity/{address}: the name and avatar `address` goes by, as `sender` sees it (cached 5 min by the api). */
    identity(address: string, sender: string | undefined, signal?: AbortSignal) {
      const query = { sender }
      return http('GET', `/v1/identity/${encodeURIComponent(address)}`, identity, { query, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
    },
    /** spec §7 GET /v1/profile/reverse/{address}: the profiles registered to `address`, read fresh, as `sender` asks. */
    reverse(address: string, sender: string | undefined, signal?: AbortSignal) {
      const query = { sender, apiVersion: 2 }
      return http('GET', `/v1/profile/reverse/${encodeURIComponent(address)}`, reverse, { query, signal }).catch(nameError(errors.fetchNamesForAddressFailed, signal))
    },
    /** spec §7 GET /v1/profile/suggestions/{name}: free names like `name` in the zone (spec §9). */
    suggestions(name: string, signal?: AbortSignal) {
      const query = { zone: Name.defaultZone }
      return http('GET', `/v1/profile/suggestions/${encodeURIComponent(name)}`, suggestions, { query, signal })
        .then((r) => r.suggestions)
        .catch(nameError(errors.fetchNameSuggestionsFailed, signal))
    },
    /** spec §7 POST /v1/profile/account: registers `name`, which the signed message holds (it names the failure, spec §8). */
    registerName(name: string, body: NameRegistration, signal?: AbortSignal) {
      const fallback = format(errors.registerNameFailed, { name })
      return http('POST', '/v1/profile/account', registered, { body, signal }).then(
        (r) => {
          if (!r.success) throw new ApiError(200, fallback)
        },
        nameError(fallback, signal),
      )
    },
    /** spec §7 GET /getWallets: page, entries, chains, include, exclude, search. */
    wallets(params: { page: number; entries: number; chains?: string[]; include?: string[]; exclude?: string[]; search?: string }, signal?: AbortSignal) {
      const list = (ids?: string[]) => (ids?.length ? ids.join(',') : undefined)
      const query = {
        page: params.page,
        entries: params.entries,
        chains: list(params.chains),
        include: list(params.include),
        exclude: list(params.exclude),
        search: params.search || undefined,
      }
      return http('GET', '/getWallets', walletPage, { query, signal })
    },
    analyticsConfig() {
      return http('GET', '/getAnalyticsConfig', analyticsConfig)
    },
    sendEvent(event: AnalyticsEvent) {
      return http('POST', '/e', S.unknown, { body: event })
    },
    /**
     * spec §7 GET /v1/onramp/options; spec §8: on failure, the built-in sample options, and `fallback`
     * says so (the view shows it, and offers no Buy on them). A cancelled call is not a failure.
     */
    async onrampOptions(signal?: AbortSignal) {
      const { isOnrampOptions, onrampOptions } = await onrampCalls()
      return http('GET', '/v1/onramp/options', isOnrampOptions, { signal }).then(
        (options) => ({ options, fallback: false }),
        (error: unknown) => {
          if (signal?.aborted) throw error
          return { options: onrampOptions, fallback: true }
        },
      )
    },
    /** spec §7 POST /v1/onramp/quote; spec §8: on failure, the mocked quote with id mocked-quote-id. A cancelled call rejects. */
    async onrampQuote(body: QuoteRequest, signal?: AbortSignal) {
      const { isOnrampQuote, mockedQuote } = await onrampCalls()
      return http('POST', '/v1/onramp/quote', isOnrampQuote, { body, signal }).catch((error: unknown) => {
        if (signal?.aborted) throw error
        return mockedQuote(body)
      })
    },
    /** spec §7 POST /v1/generators/onrampurl: the provider's buy page ('' where the network is unsupported). */
    async onrampUrl(body: UrlRequest, signal?: AbortSignal) {
      const { isOnrampUrl } = await onrampCalls()
      return http('POST', '/v1/generators/onrampurl', isOnrampUrl, { body, signal }).then((r) => r.url)
    },
  }
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

export declare namespace create {
  type Options = { baseUrl: string; projectId?: string | undefined; sdkType: string; sdkVersion: string; fetch?: typeof fetch }
}
type Request = { query?: Record<string, string | number | boolean | undefined>; body?: unknown; signal?: AbortSignal | undefined; clientId?: string }

