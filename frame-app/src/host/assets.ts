/**
 * `wallet_getAssets` (spec §7 Wallet RPC, ERC-7811 asset discovery) for the connected account, answered
 * by the modal from the api's balances whatever the connector: the modal already knows them, and an
 * extension or WalletConnect wallet may not implement the method. A lazy chunk (it brings viem's
 * parseUnits): only a dapp that asks pays for it.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import { type Hex, getAddress, isAddress, parseUnits, toHex } from 'viem'
import type { Balance } from '../api/client.js'

export type AssetType = 'native' | 'erc20'

/** One asset as ERC-7811 lists it; `metadata` as wallets that implement it give (name, symbol, decimals). */
export type Asset = {
  address: Hex | 'native'
  balance: Hex
  type: AssetType
  metadata: { name: string; symbol: string; decimals: number }
}

/** ERC-7811: assets by EIP-155 hex chain id, each list by value, highest first. */
export type Assets = Record<Hex, Asset[]>

/** The request's one parameter, checked: which chains and which assets the dapp asks about. */
export type Request = {
  account: string
  /** Hex chain ids; undefined: every chain the dapp configured. */
  chainFilter?: Hex[]
  assetTypeFilter?: string[]
  /** By hex chain id, the asset addresses (lowercase, or 'native') the dapp cares about. */
  assetFilter?: Record<Hex, string[]>
}

const maxFilter = 256
const hexChain = /^0x[0-9a-f]{1,13}$/

/** The request's params, or an invalid-params error (EIP-1474 -32602) saying what is wrong. */
export function parse(params: unknown): Request {
  const [request] = (Array.isArray(params) && params.length === 1 ? params : []) as unknown[]
  if (!request || typeof request !== 'object') throw invalid('expected [{ account, chainFilter?, assetTypeFilter?, assetFilter? }]')
  const { account, chainFilter, assetTypeFilter, assetFilter } = request as Record<string, unknown>
  if (typeof account !== 'string' || !isAddress(account, { strict: false })) throw invalid('`account` must be an address')
  return {
    account,
    ...(chainFilter !== undefined && { chainFilter: hexList(chainFilter, 'chainFilter') }),
    ...(assetTypeFilter !== undefined && { assetTypeFilter: stringList(assetTypeFilter, 'assetTypeFilter').map((t) => t.toLowerCase()) }),
    ...(assetFilter !== undefined && { assetFilter: assets(assetFilter) }),
  }
}

/**
 * The account's assets on the chains the request names (among the dapp's eip155 networks). An
 * `assetFilter` names exactly what to return and overrides the other filters (ERC-7811).
 */
export async function get(request: Request, context: get.Context): Promise<Assets> {
  const { address, networks, balances } = context
  // The dapp learns assets only of the account it is connected to.
  if (request.account.toLowerCase() !== address.toLowerCase()) throw Errors.unauthorized(`wallet_getAssets: ${request.account} is not the connected account`)
  const { assetFilter, chainFilter, assetTypeFilter } = request
  const configured = networks.filter((n) => n.startsWith('eip155:')).map((chainId) => ({ chainId, hex: Caip.eip155Hex(chainId) }))
  const wanted = assetFilter ? Object.keys(assetFilter) : chainFilter
  const chains = wanted ? configured.filter((c) => wanted.includes(c.hex)) : configured
  const lists = await Promise.all(chains.map(async ({ chainId }) => byValue(await balances(chainId)).map(toAsset)))
  const result: Assets = {}
  chains.forEach(({ hex }, i) => {
    const picked = assetFilter?.[hex]
    result[hex] = lists[i]!.filter((asset) =>
      assetFilter
        ? !picked!.length || picked!.includes(asset.address.toLowerCase())
        : !assetTypeFilter || assetTypeFilter.includes(asset.type),
    )
  })
  return result
}
export declare namespace get {
  type Context = {
    /** The connected account. */
    address: string
    /** The dapp's networks, CAIP-2. */
    networks: readonly Caip.ChainId[]
    /** The api's balances of the connected account on one network. */
    balances(chainId: Caip.ChainId): Promise<Balance[]>
  }
}

// ERC-7811 recommends the highest estimated value first.
const byValue = (balances: Balance[]) => [...balances].sort((a, b) => (b.value ?? 0) - (a.value ?? 0))

function toAsset(balance: Balance): Asset {
  const decimals = Number(balance.quantity.decimals)
  const metadata = { name: balance.name, symbol: balance.symbol, decimals }
  const amount = toHex(parseUnits(balance.quantity.numeric, decimals))
  if (!balance.address) return { address: 'native', balance: amount, type: 'native', metadata }
  return { address: getAddress(Caip.parseAccountId(balance.address).address) as Hex, balance: amount, type: 'erc20', metadata }
}

const invalid = (reason: string) => new Errors.ProviderRpcError(`Invalid wallet_getAssets params: ${reason}`, { code: -32602 })

function stringList(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.length > maxFilter || !value.every((v) => typeof v === 'string' && v.length <= 66))
    throw invalid(`\`${name}\` must be a list of strings`)
  return value as string[]
}

function hexList(value: unknown, name: string): Hex[] {
  const list = stringList(value, name).map((v) => v.toLowerCase())
  if (!list.every((v) => hexChain.test(v))) throw invalid(`\`${name}\` must list hex chain ids such as 0x1`)
  return list as Hex[]
}

// ERC-7811 has had two shapes for the filter's entries: addresses ('0x…' | 'native'), and { address, type }.
function assets(value: unknown): Record<Hex, string[]> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('`assetFilter` must map hex chain ids to lists of assets')
  const entries = Object.entries(value)
  if (entries.length > maxFilter) throw invalid('`assetFilter` names too many chains')
  return Object.fromEntries(
    entries.map(([chain, list]) => {
      if (!hexChain.test(chain.toLowerCase()) || !Array.isArray(list) || list.length > maxFilter) throw invalid('`assetFilter` must map hex chain ids to lists of assets')
      const addresses = list.map((entry: unknown) => {
        const address = typeof entry === 'object' && entry ? (entry as { address?: unknown }).address : entry
        if (address !== 'native' && (typeof address !== 'string' || !isAddress(address, { strict: false }))) throw invalid('an `assetFilter` asset must be an address or "native"')
        return address.toLowerCase()
      })
      return [chain.toLowerCase(), addresses]
    }),
  )
}
