/**
 * Balances, prices and identity (spec §7): GET /v1/account/{address}/balance, POST /v1/fungible/price,
 * GET /v1/identity/{address} and GET /v1/supported-chains, in the response shapes of Reown's blockchain
 * API. Balances come from the configured nodes (EVM and Solana JSON-RPC, Bitcoin's Esplora), prices from
 * `config.prices`, names from storage.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Api from '@doorway/shared/contracts/api'
import type { Balance } from '@doorway/shared/contracts/api/balances'
import type { Fungible } from '@doorway/shared/contracts/api/convert'
import type { Identity } from '@doorway/shared/contracts/api/names'
import { formatUnits } from '@doorway/shared/Format'
import { Hono } from 'hono'
import * as Assets from '../assets.js'
import * as Cache from '../cache.js'
import * as Addresses from '../chains/Addresses.js'
import * as Bitcoin from '../chains/Bitcoin.js'
import * as Esplora from '../chains/Esplora.js'
import * as SolanaBalances from '../chains/SolanaBalances.js'
import type { Config, EvmNetwork, Network } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export type { Balance, Fungible, Identity }

/** The largest `addresses` list POST /v1/fungible/price takes. */
export const maxPriceAddresses = 100

type Asset = { name: string; symbol: string; decimals: number; iconUrl?: string; address?: string }

export function routes(deps: Deps) {
  const { config, storage } = deps
  // spec §9 cache expiry: portfolio and native balance 30 s; name and identity 5 min
  const balances = Cache.create<Balance[]>(deps.now, Constants.portfolioCacheMs)
  const esplora = deps.esplora ?? Esplora.create(config)
  const identities = Cache.create<Identity>(deps.now, Constants.identityCacheMs)
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.supportedChains, () => ({ http: Object.keys(config.networks), ws: [] }))

  on(Api.table.balance, async ({ params, query }, c) => {
    // spec §9 price currency: usd is the only one config.prices holds
    const currency = Constants.priceCurrency
    const forceUpdate = Http.boolean(query.forceUpdate as string | undefined)
    const signal = c.req.raw.signal
    const lists = await Promise.all(
      accountOn(config, params.address, query.chainId).map(async ([chainId, network, address]) => {
        const key = `${Addresses.key(chainId, address)} ${chainId} ${currency}`
        const cached = forceUpdate ? undefined : balances.get(key)
        if (cached) return cached
        const fresh = await balancesOn({ ...deps, esplora }, { chainId, network, address, signal })
        balances.set(key, fresh)
        return fresh
      }),
    )
    return { balances: lists.flat() }
  })

  on(Api.table.prices, ({ body }) => {
    const fungibles = body.addresses.flatMap((id) => {
      const found = fungible(config, id)
      return found ? [found] : []
    })
    return { fungibles }
  })

  on(Api.table.identity, async ({ params: { address } }) => {
    const key = address.toLowerCase()
    const cached = identities.get(key)
    if (cached) return cached
    // storage answers the newest registration first
    const [record] = await storage.names.byAddress(address)
    const identity: Identity = { name: record?.name ?? null, avatar: record?.attributes.avatar ?? null }
    identities.set(key, identity)
    return identity
  })

  return app
}

/**
 * The networks to read `address` on, with the address as each takes it: the one asked for (400 when the
 * address cannot be an account there; none when it is not configured, spec §7), or every configured
 * network whose accounts look like it.
 */
function accountOn(config: Config, address: string, chainId: Caip.ChainId | undefined): [Caip.ChainId, Network, string][] {
  if (chainId !== undefined) {
    const network = config.networks[chainId]
    return network && Assets.serves(chainId, network) ? [[chainId, network, Addresses.check(chainId, address)]] : []
  }
  const all = (Object.entries(config.networks) as [Caip.ChainId, Network][]).filter(([id, network]) => Assets.serves(id, network))
  const fitting = all.filter(([id]) => Addresses.fits(id, address)).map(([id, network]): [Caip.ChainId, Network, string] => [id, network, Addresses.check(id, address)])
  // An address no served network takes is refused as before: what EVM networks take.
  if (fitting.length === 0 && !Addresses.isAny(address)) Http.address(address)
  return fitting
}

type Read = { chainId: Caip.ChainId; network: Network; address: string; signal: AbortSignal }

/** The native coin always, so an empty account still shows its network's coin; a token only when held, as Reown's API answers. */
async function balancesOn(deps: Deps & { esplora: Esplora.Esplora }, read: Read): Promise<Balance[]> {
  const { chainId, network, address, signal } = read
  if (network.kind === 'bip122') return [balance(deps.config, chainId, network.nativeCurrency, await Bitcoin.balance(deps.esplora, chainId, address, signal))]
  if (network.kind === 'solana') {
    const { native, tokens } = await SolanaBalances.amounts(deps, chainId, network, address, signal)
    const held = tokens.map(({ token, amount, decimals }) => balance(deps.config, chainId, { ...token, decimals }, amount))
    return [balance(deps.config, chainId, network.nativeCurrency, native), ...held]
  }
  return evmBalances(deps, chainId, network, address)
}

async function evmBalances(deps: Deps, chainId: Caip.ChainId, network: EvmNetwork, address: string): Promise<Balance[]> {
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

// The native coin's pseudo-addresses: ours, and the 0xeee…e convention swap APIs use.
const nativeAddresses = ['native', Assets.nativeTokenAddress]

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

