/**
 * The swap endpoints of spec §7 (/v1/convert/*) over the Uniswap V2 deployment a network configures
 * (`Network.exchange`; the devnet's is devnet/src/exchange.ts), in the shapes of Reown's blockchain API
 * that AppKit's swap code reads, with our additions beside them. Quotes are the router's own
 * `getAmountsOut` over the better of the direct pool and the route through WETH (which stands for the
 * native currency). Unsupported networks get the spec's empty results without a node call (spec §7); a
 * configured network without an exchange refuses quotes and builds with the spec §8 message.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Api from '@doorway/shared/contracts/api'
import type { Quote, SwapToken } from '@doorway/shared/contracts/api/convert'
import { Hono } from 'hono'
import { type Address, type Hex, decodeFunctionResult, encodeFunctionData, maxUint256, parseAbi, zeroAddress } from 'viem'
import * as Assets from '../assets.js'
import type { Config, Exchange, Network } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import { RpcError } from '../rpc.js'

/** Uniswap V2's liquidity-provider fee, taken by each pool a swap goes through. */
export const feePercent = 0.3

/** How long a built swap stays valid: the router refuses it after this deadline. */
export const deadlineSeconds = 20 * 60

/**
 * An estimate made in the same second as a pool's last trade skips the pool's price accumulators, which
 * the mined swap in a later second writes (up to ~45,000 gas more per pool): so much is added per pool.
 */
export const accumulatorGas = 50_000n

/** Gas for a swap of `hops` pools when it cannot be estimated (a quote, or an allowance still short). */
export const fallbackSwapGas = (hops: number) => 120_000n + 100_000n * BigInt(hops)

/** Gas for an approval when it cannot be estimated. */
export const fallbackApproveGas = 80_000n

const notSupported = 'Network not supported for Swaps'

export function routes(deps: Deps) {
  const { config } = deps
  const exchange = reader(deps)
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.swapTokens, async ({ query: { chainId } }) => {
    // spec §7: an unsupported network is an empty list; a network without an exchange has no pools
    const network = supported(config, chainId)
    if (!network?.exchange) return { tokens: [] }
    return { tokens: await pooledTokens(config, exchange, chainId, network as Swappable) }
  })

  on(Api.table.swapQuotes, async ({ query }) => {
    const amountIn = BigInt(query.amount)
    const { from, to, chainId } = pair(query.from, query.to)
    const network = swappable(config, chainId)
    if (!network) return { quotes: [] }
    const best = await bestRoute(exchange, chainId, network.exchange, from, to, amountIn)
    const gas = fallbackSwapGas(best.pools.length)
    const gasPrice = query.gasPrice !== undefined ? BigInt(query.gasPrice) : await nodeGasPrice(deps, chainId)
    const fee = fees(amountIn, best.pools.length)
    const quote: Quote = {
      id: null,
      fromAccount: from.id,
      toAccount: to.id,
      fromAmount: amountIn.toString(),
      toAmount: best.amountOut.toString(),
      route: best.path.map((address, i) => (i === 0 ? from.id : i === best.path.length - 1 ? to.id : (`${chainId}:${address}` as const))),
      priceImpact: priceImpact(best, amountIn),
      fee: { percent: fee.percent, amount: fee.amount.toString(), token: from.id },
      // An estimate needs the approval a quote comes before: the fallback gas, an upper bound for such a swap.
      networkFee: { gas: gas.toString(), gasPrice: gasPrice.toString(), amount: (gas * gasPrice).toString() },
    }
    return { quotes: [quote] }
  })

  on(Api.table.swapAllowance, async ({ query }) => {
    const token = asset(query.tokenAddress)
    // spec §7: allowance '0' for an unsupported network; nothing is approved where there is no router
    const network = supported(config, token.chainId)
    if (!network?.exchange) return { allowance: '0' }
    // The native currency goes as the transaction's value, never through transferFrom: nothing to approve.
    if (token.native) return { allowance: maxUint256.toString() }
    const allowance = await exchange.allowance(token.chainId, token.address, userAddress(query.userAddress), network.exchange.router as Address)
    return { allowance: allowance.toString() }
  })

  on(Api.table.gasPrice, async ({ query: { chainId } }) => {
    // spec §8 names this error; a gas price has no empty value to answer with instead
    if (!config.networks[chainId] || !Assets.isEvm(chainId)) throw Http.badRequest('Network not supported for Gas Price')
    const price = await nodeGasPrice(deps, chainId)
    // A node gives one price; the faster tiers bid 10% and 25% above it.
    return { standard: price.toString(), fast: ((price * 110n) / 100n).toString(), instant: ((price * 125n) / 100n).toString() }
  })

  on(Api.table.buildSwap, ({ body }) => buildSwap(deps, exchange, body))

  on(Api.table.buildApprove, async ({ query }) => {
    const user = userAddress(query.userAddress)
    const { from, chainId } = pair(query.from, query.to)
    if (from.native) throw Http.badRequest('Invalid from: the native currency needs no approval')
    const network = swappable(config, chainId)
    if (!network) return { tx: null }
    // Exactly the amount to swap; without one, unlimited, as the 1inch approve API that Reown's mirrors.
    const value = query.amount !== undefined ? BigInt(query.amount) : maxUint256
    const data = encodeFunctionData({ abi, functionName: 'approve', args: [network.exchange.router as Address, value] })
    const [gas, gasPrice] = await Promise.all([
      estimate(deps, chainId, { from: user, to: from.address, data, value: 0n }, fallbackApproveGas, 0n),
      nodeGasPrice(deps, chainId),
    ])
    return { tx: { from: user, to: from.address, data, value: '0', eip155: { gas: gas.toString(), gasPrice: gasPrice.toString() } } }
  })

  return app
}

/** POST /v1/convert/build-transaction: the swap, its minimum from the quote the person accepted. */
async function buildSwap(deps: Deps, exchange: Reader, body: Http.Input<typeof Api.table.buildSwap>['body']) {
  const amountIn = BigInt(body.amount)
  const user = userAddress(body.userAddress)
  const { from, to, chainId } = pair(body.from, body.to)
  const tolerance = Number(body.eip155.slippage)
  // Beside Reown's shape: the output of the quote the person accepted. The bound must come from what
  // they saw, not from the pool at build time, or a price that moved since would pass unnoticed.
  const accepted = body.toAmount === undefined ? undefined : BigInt(body.toAmount)
  const network = swappable(deps.config, chainId)
  // spec §7: the empty result for an unsupported network
  if (!network) return { tx: null }
  const router = network.exchange.router as Address
  const best = await bestRoute(exchange, chainId, network.exchange, from, to, amountIn)
  const amountOutMin = minimum(accepted ?? best.amountOut, tolerance)
  // It would only revert and cost the person gas: they get a fresh quote instead.
  if (best.amountOut < amountOutMin) throw new Http.HttpError(409, 'The price moved beyond the slippage since the quote')
  const deadline = BigInt(Math.floor(deps.now() / 1000) + deadlineSeconds)
  const data = swapData({ from, to, amountIn, amountOutMin, path: best.path, user, deadline })
  const value = from.native ? amountIn : 0n
  const fallback = fallbackSwapGas(best.pools.length)
  const [gas, gasPrice] = await Promise.all([
    body.disableEstimate === true ? fallback : estimate(deps, chainId, { from: user, to: router, data, value }, fallback, accumulatorGas * BigInt(best.pools.length)),
    nodeGasPrice(deps, chainId),
  ])
  return {
    tx: { from: user, to: router, data, amount: value.toString(), eip155: { gas: gas.toString(), gasPrice: gasPrice.toString() } },
    // Beside Reown's shape: what the swap guarantees, for the preview.
    toAmount: best.amountOut.toString(),
    amountOutMin: amountOutMin.toString(),
    deadline: Number(deadline),
  }
}

type Swappable = Network & { exchange: Exchange }

/** The network, if this server serves it and it is EVM (spec §7). */
function supported(config: Config, chainId: Caip.ChainId): Network | undefined {
  const network = config.networks[chainId]
  return network && Assets.isEvm(chainId) ? network : undefined
}

/** undefined for an unsupported network (the caller answers empty); 400 for one without an exchange (spec §8). */
function swappable(config: Config, chainId: Caip.ChainId): Swappable | undefined {
  const network = supported(config, chainId)
  if (!network) return undefined
  if (!network.exchange) throw Http.badRequest(notSupported)
  return network as Swappable
}

/** A token as a CAIP-10 id (`id`), and the address the exchange knows it by: WETH for the native currency. */
type Asset = { id: Caip.AccountId; chainId: Caip.ChainId; address: Address; native: boolean }

const resolve = (token: Asset, exchange: Exchange): Address => (token.native ? (exchange.weth as Address) : token.address)

// ---- the exchange on chain --------------------------------------------------------------------------

const abi = parseAbi([
  'function getPair(address tokenA, address tokenB) view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])

type Read = 'getPair' | 'getReserves' | 'getAmountsOut' | 'allowance'

/** A pool seen from the side a swap enters it. */
type Pool = { pair: Address; reserveIn: bigint; reserveOut: bigint }

/** The exchange's contracts read over the node, with pair addresses cached (a factory never moves a pair). */
function reader(deps: Deps) {
  const pairs = new Map<string, Address>()

  async function read(chainId: Caip.ChainId, to: Address, functionName: Read, args: readonly unknown[]) {
    const data = encodeFunctionData({ abi, functionName, args } as never)
    const result = await deps.rpc(chainId, 'eth_call', [{ to, data }, 'latest'])
    try {
      return decodeFunctionResult({ abi, functionName, data: result as Hex }) as unknown
    } catch {
      // '0x' from an address without code: a misconfigured exchange or token, not the request's fault
      throw new Http.HttpError(502, `The node gave no answer for ${functionName} at ${to} on ${chainId}`)
    }
  }

  async function pairOf(chainId: Caip.ChainId, factory: Address, a: Address, b: Address): Promise<Address> {
    const key = `${chainId} ${factory} ${[a, b].map((x) => x.toLowerCase()).sort().join(' ')}`.toLowerCase()
    const cached = pairs.get(key)
    if (cached) return cached
    const pair = (await read(chainId, factory, 'getPair', [a, b])) as Address
    // Only pairs that exist: one created later must be found then. Bounded, as requests name the tokens.
    if (pair !== zeroAddress) {
      pairs.set(key, pair)
      if (pairs.size > 10_000) pairs.delete(pairs.keys().next().value!)
    }
    return pair
  }

  return {
    /** The pool from `a` to `b` with liquidity on both sides, else undefined. */
    async pool(chainId: Caip.ChainId, exchange: Exchange, a: Address, b: Address): Promise<Pool | undefined> {
      const pair = await pairOf(chainId, exchange.factory as Address, a, b)
      if (pair === zeroAddress) return undefined
      const [reserve0, reserve1] = (await read(chainId, pair, 'getReserves', [])) as [bigint, bigint, number]
      // the pair orders its tokens by address
      const [reserveIn, reserveOut] = a.toLowerCase() < b.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0]
      return reserveIn > 0n && reserveOut > 0n ? { pair, reserveIn, reserveOut } : undefined
    },
    /** The router's own amounts along `path`; undefined when it reverts (an amount the pools cannot take). */
    async amountsOut(chainId: Caip.ChainId, exchange: Exchange, amountIn: bigint, path: readonly Address[]): Promise<readonly bigint[] | undefined> {
      try {
        return (await read(chainId, exchange.router as Address, 'getAmountsOut', [amountIn, path])) as readonly bigint[]
      } catch (error) {
        if (error instanceof RpcError && /revert/i.test(error.message)) return undefined
        throw error
      }
    },
    async allowance(chainId: Caip.ChainId, token: Address, owner: string, spender: Address): Promise<bigint> {
      return (await read(chainId, token, 'allowance', [owner, spender])) as bigint
    },
  }
}
type Reader = ReturnType<typeof reader>

/** The configured tokens (and the native currency) that have a pool with liquidity on this network. */
async function pooledTokens(config: Config, exchange: Reader, chainId: Caip.ChainId, network: Swappable): Promise<SwapToken[]> {
  const { name, symbol, decimals } = network.nativeCurrency
  const native = { name, symbol, decimals, address: Assets.nativeTokenAddress, iconUrl: undefined as string | undefined, onChain: network.exchange.weth }
  const listed = Assets.listedTokens(network).map((t) => ({ ...t, onChain: t.address }))
  const assets = [native, ...listed]
  const pairs = assets.flatMap((a, i) => assets.slice(i + 1).map((b) => [a, b] as const))
  const pooled = new Set<string>()
  await Promise.all(
    pairs.map(async ([a, b]) => {
      if (a.onChain.toLowerCase() === b.onChain.toLowerCase()) return
      if (!(await exchange.pool(chainId, network.exchange, a.onChain as Address, b.onChain as Address))) return
      pooled.add(a.address)
      pooled.add(b.address)
    }),
  )
  return assets
    .filter((a) => pooled.has(a.address))
    .map((a) => ({
      name: a.name,
      symbol: a.symbol,
      address: `${chainId}:${a.address}` as Caip.AccountId,
      decimals: a.decimals,
      logoUri: Assets.iconUrl(config.publicUrl, a),
      eip2612: false,
    }))
}

type Route = { path: Address[]; pools: Pool[]; amounts: readonly bigint[]; amountOut: bigint }

/**
 * The better of the direct pool and the route through WETH, by the router's own getAmountsOut. 400 when
 * no route has pools, or when none can take the amount.
 */
async function bestRoute(exchange: Reader, chainId: Caip.ChainId, deployment: Exchange, from: Asset, to: Asset, amountIn: bigint): Promise<Route> {
  const [a, b, weth] = [resolve(from, deployment), resolve(to, deployment), deployment.weth as Address]
  if (a.toLowerCase() === b.toLowerCase()) throw Http.badRequest('Invalid to: from and to are the same token once the native currency is wrapped')
  const paths: Address[][] = [[a, b]]
  if (![a, b].some((x) => x.toLowerCase() === weth.toLowerCase())) paths.push([a, weth, b])
  const candidates = await Promise.all(
    paths.map(async (path) => {
      const pools = await Promise.all(path.slice(1).map((next, i) => exchange.pool(chainId, deployment, path[i]!, next)))
      return pools.every((pool) => pool !== undefined) ? { path, pools: pools as Pool[] } : undefined
    }),
  )
  const pooled = candidates.filter((route) => route !== undefined)
  if (!pooled.length) throw Http.badRequest('No liquidity for this pair')
  const quoted = await Promise.all(
    pooled.map(async (route) => {
      const amounts = await exchange.amountsOut(chainId, deployment, amountIn, route.path)
      return amounts && fillable(route.pools, amounts) ? { ...route, amounts, amountOut: amounts.at(-1)! } : undefined
    }),
  )
  const best = quoted.reduce<Route | undefined>((best, route) => (route && (!best || route.amountOut > best.amountOut) ? route : best), undefined)
  if (!best) throw Http.badRequest('Amount exceeds the pool\'s liquidity')
  if (best.amountOut === 0n) throw Http.badRequest('Amount too small to swap: it would receive nothing')
  return best
}

/**
 * Whether each pool can take its hop: what goes in is at most what the pool holds of that token (more
 * would give up over half its value to price impact), and what comes out is less than its reserve.
 */
function fillable(pools: readonly Pool[], amounts: readonly bigint[]): boolean {
  return pools.every((pool, i) => amounts[i]! <= pool.reserveIn && amounts[i + 1]! < pool.reserveOut)
}

/**
 * In percent, 2 decimals: how far the execution price falls below the pools' mid price, the 0.3 % fee
 * per pool left out (the quote's `fee` shows it).
 */
function priceImpact(route: Route, amountIn: bigint): number {
  // received / (amountIn × Π reserveOut/reserveIn × 0.997 per pool), in parts per million
  let numerator = route.amountOut * 1_000_000n
  let denominator = amountIn
  for (const pool of route.pools) {
    numerator *= pool.reserveIn * 1000n
    denominator *= pool.reserveOut * 997n
  }
  const impactPpm = 1_000_000n - numerator / denominator
  return Math.max(0, Math.round(Number(impactPpm) / 100) / 100)
}

/** The liquidity providers' fee: 0.3 % of what enters each pool, in the from token's base units. */
function fees(amountIn: bigint, hops: number): { percent: number; amount: bigint } {
  const kept = Array.from({ length: hops }).reduce<bigint>((left) => (left * 997n) / 1000n, amountIn)
  return { percent: Math.round((1 - (1 - feePercent / 100) ** hops) * 10_000) / 100, amount: amountIn - kept }
}

/** toAmount less the slippage tolerance (spec §9), to the millionth of a percent. */
function minimum(amountOut: bigint, slippagePercent: number): bigint {
  const keptPpm = 100_000_000n - BigInt(Math.round(slippagePercent * 1_000_000))
  return (amountOut * keptPpm) / 100_000_000n
}

function swapData(swap: { from: Asset; to: Asset; amountIn: bigint; amountOutMin: bigint; path: Address[]; user: string; deadline: bigint }): Hex {
  const { from, to, amountIn, amountOutMin, path, deadline } = swap
  const user = swap.user as Address
  if (from.native) return encodeFunctionData({ abi, functionName: 'swapExactETHForTokens', args: [amountOutMin, path, user, deadline] })
  const functionName = to.native ? 'swapExactTokensForETH' : 'swapExactTokensForTokens'
  return encodeFunctionData({ abi, functionName, args: [amountIn, amountOutMin, path, user, deadline] })
}

/**
 * eth_estimateGas plus `margin`; `fallback` when the node says the transaction would fail as it stands
 * (e.g. a swap before its approval is mined): the wallet still gets a transaction to show.
 */
async function estimate(deps: Deps, chainId: Caip.ChainId, tx: { from: string; to: Address; data: Hex; value: bigint }, fallback: bigint, margin: bigint): Promise<bigint> {
  try {
    const gas = await deps.rpc(chainId, 'eth_estimateGas', [{ ...tx, value: `0x${tx.value.toString(16)}` }])
    return quantity(gas, 'eth_estimateGas', chainId) + margin
  } catch (error) {
    if (error instanceof RpcError) return fallback
    throw error
  }
}

async function nodeGasPrice(deps: Deps, chainId: Caip.ChainId): Promise<bigint> {
  return quantity(await deps.rpc(chainId, 'eth_gasPrice'), 'eth_gasPrice', chainId)
}

function quantity(result: unknown, what: string, chainId: Caip.ChainId): bigint {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(result)) throw new Http.HttpError(502, `The node gave no answer for ${what} on ${chainId}`)
  return BigInt(result)
}

// ---- parameters (their shapes are checked by the table, shared/src/contracts/api.ts) -------------------

function asset(text: string): Asset {
  const id = text as Caip.AccountId
  const { chainId, address } = Caip.parseAccountId(id)
  return { id, chainId, address: address as Address, native: address.toLowerCase() === Assets.nativeTokenAddress }
}

/** The two tokens of a swap: on one network, and not the same token. */
function pair(from: string, to: string): { from: Asset; to: Asset; chainId: Caip.ChainId } {
  const a = asset(from)
  const b = asset(to)
  if (a.chainId !== b.chainId) throw Http.badRequest('Invalid to: from and to must be on the same network')
  if (a.address.toLowerCase() === b.address.toLowerCase()) throw Http.badRequest('Invalid to: from and to must be different tokens')
  return { from: a, to: b, chainId: a.chainId }
}

/** A plain address or its CAIP-10 id: clients send either. */
function userAddress(value: string): string {
  return Caip.isAccountId(value) ? Caip.parseAccountId(value).address : value
}
