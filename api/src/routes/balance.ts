/**
 * Balances, prices and identity (spec §7): GET /v1/account/{address}/balance, POST /v1/fungible/price,
 * GET /v1/identity/{address} and GET /v1/supported-chains, in the response shapes of Reown's blockchain
 * API. Balances come from the configured nodes, prices from `config.prices`, names from storage.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import { formatUnits } from '@doorway/shared/Format'
import { Hono } from 'hono'
import * as Assets from '../assets.js'
import * as Cache from '../cache.js'
import type { Config, Network } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

/** spec §3 Token balance. */
export type Balance = {
  name: string
  symbol: string
  /** CAIP-2 */
  chainId: Caip.ChainId
  /** CAIP-10 of the token contract; absent for the network's native coin. */
  address?: string
  /** quantity × price; absent when there is no price. */
  value?: number
  price: number
  /** Exact decimal string in whole units, e.g. '0.5'. */
  quantity: { decimals: string; numeric: string }
  iconUrl: string
}

export type Fungible = { name: string; symbol: string; iconUrl: string; price: number; address: string }

export type Identity = { name: string | null; avatar: string | null }

/** The largest `addresses` list POST /v1/fungible/price takes. */
export const maxPriceAddresses = 100

type Asset = { name: string; symbol: string; decimals: number; iconUrl?: string; address?: string }

export function routes(deps: Deps) {
  const { config, storage } = deps
  // spec §9 cache expiry: portfolio and native balance 30 s; name and identity 5 min
  const balances = Cache.create<Balance[]>(deps.now, Constants.portfolioCacheMs)
  const identities = Cache.create<Identity>(deps.now, Constants.identityCacheMs)
  const app = new Hono()

  app.get('/v1/supported-chains', (c) => {
    Http.project(c, config.projects)
    return c.json({ http: Object.keys(config.networks) as Caip.ChainId[], ws: [] as Caip.ChainId[] })
  })

  app.get('/v1/account/:address/balance', async (c) => {
    Http.project(c, config.projects)
    const address = Http.address(c.req.param('address'))
    const currency = currencyParam(c.req.query('currency'))
    const forceUpdate = Http.boolean(c.req.query('forceUpdate'))
    const requested = c.req.query('chainId')
    const chainIds = requested === undefined ? (Object.keys(config.networks) as Caip.ChainId[]) : [Http.chainId(requested)]
    const lists = await Promise.all(
      chainIds.map(async (chainId) => {
        // spec §7: an unsupported network answers empty without calling anything
        const network = config.networks[chainId]
        if (!network || !Assets.isEvm(chainId)) return []
        const key = `${address.toLowerCase()} ${chainId} ${currency}`
        const cached = forceUpdate ? undefined : balances.get(key)
        if (cached) return cached
        const fresh = await balancesOn(deps, chainId, network, address)
        balances.set(key, fresh)
        return fresh
      }),
    )
    return c.json({ balances: lists.flat() })
  })

  app.post('/v1/fungible/price', async (c) => {
    const body = await Http.json(c)
    Http.project(c, config.projects, body)
    currencyParam(body.currency)
    const ids = priceAddresses(body.addresses)
    const fungibles = ids.flatMap((id) => {
      const found = fungible(config, id)
      return found ? [found] : []
    })
    return c.json({ fungibles })
  })

  app.get('/v1/identity/:address', async (c) => {
    Http.project(c, config.projects)
    const address = Http.address(c.req.param('address'))
    const key = address.toLowerCase()
    const cached = identities.get(key)
    if (cached) return c.json(cached)
    // storage answers the newest registration first
    const [record] = await storage.names.byAddress(address)
    const identity: Identity = { name: record?.name ?? null, avatar: record?.attributes.avatar ?? null }
    identities.set(key, identity)
    return c.json(identity)
  })

  return app
}

/** The native coin always, so an empty account still shows its network's coin; a token only when held, as Reown's API answers. */
async function balancesOn(deps: Deps, chainId: Caip.ChainId, network: Network, address: string): Promise<Balance[]> {
  const tokens = Assets.listedTokens(network)
  const [native, ...amounts] = await Promise.all([
    nativeAmount(deps, chainId, address),
    ...tokens.map((token) => tokenAmount(deps, chainId, token, address)),
  ])
  const held = tokens.flatMap((token, i) => (amounts[i]! > 0n ? [balance(deps.config, chainId, token, amounts[i]!)] : []))
  return [balance(deps.config, chainId, network.nativeCurrency, native!), ...held]
}

async function nativeAmount(deps: Deps, chainId: Caip.ChainId, address: string): Promise<bigint> {
  const result = await deps.rpc(chainId, 'eth_getBalance', [address, 'latest'])
  return quantity(result, `the balance of ${address} on ${chainId}`)
}

// balanceOf(address): selector 0x70a08231, then the address as one 32-byte word
async function tokenAmount(deps: Deps, chainId: Caip.ChainId, token: Asset, address: string): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`
  const result = await deps.rpc(chainId, 'eth_call', [{ to: token.address, data }, 'latest'])
  return quantity(result, `balanceOf of ${token.symbol} at ${token.address} on ${chainId}`)
}

// A token address without code answers '0x': that is a misconfigured token, not a zero balance.
function quantity(result: unknown, what: string): bigint {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(result)) throw new Http.HttpError(502, `The node gave no answer for ${what}`)
  return BigInt(result)
}

function balance(config: Config, chainId: Caip.ChainId, asset: Asset, amount: bigint): Balance {
  const numeric = formatUnits(amount, asset.decimals)
  const price = Assets.priceOf(config.prices, asset.symbol)
  return {
    name: asset.name,
    symbol: asset.symbol,
    chainId,
    ...(asset.address !== undefined && { address: `${chainId}:${asset.address}` }),
    ...(price !== undefined && { value: Number(numeric) * price }),
    price: price ?? 0,
    quantity: { decimals: String(asset.decimals), numeric },
    iconUrl: Assets.iconUrl(config.publicUrl, asset),
  }
}

// spec §9 price currency: usd is the only one config.prices holds
function currencyParam(value: unknown): 'usd' {
  if (value === undefined || (typeof value === 'string' && value.toLowerCase() === Constants.priceCurrency)) return 'usd'
  throw Http.badRequest('Invalid currency: expected usd')
}

// The native coin's pseudo-addresses: ours, and the 0xeee…e convention swap APIs use.
const nativeAddresses = ['native', Assets.nativeTokenAddress]

function priceAddresses(value: unknown): string[] {
  const expected = `addresses: expected at most ${maxPriceAddresses} CAIP-10 token addresses (or {chainId}:native)`
  if (!Array.isArray(value) || value.length > maxPriceAddresses) throw Http.badRequest(`Invalid ${expected}`)
  for (const id of value) if (!isPriceAddress(id)) throw Http.badRequest(`Invalid ${expected}`)
  return value as string[]
}

function isPriceAddress(id: unknown): boolean {
  if (typeof id !== 'string') return false
  const cut = id.lastIndexOf(':')
  return Caip.isAccountId(id) || (Caip.isChainId(id.slice(0, cut)) && id.slice(cut + 1) === 'native')
}

/** The configured asset a CAIP-10 address names, with its price; undefined when unknown. */
function fungible(config: Config, id: string): Fungible | undefined {
  const cut = id.lastIndexOf(':')
  const chainId = id.slice(0, cut) as Caip.ChainId
  const address = id.slice(cut + 1).toLowerCase()
  const network = config.networks[chainId]
  if (!network) return undefined
  const asset: Asset | undefined = nativeAddresses.includes(address)
    ? network.nativeCurrency
    : Assets.listedTokens(network).find((token) => token.address.toLowerCase() === address)
  if (!asset) return undefined
  return { name: asset.name, symbol: asset.symbol, iconUrl: Assets.iconUrl(config.publicUrl, asset), price: Assets.priceOf(config.prices, asset.symbol) ?? 0, address: id }
}

