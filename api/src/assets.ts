/** Token and network pieces the routes and the indexer share: which tokens are listed, icons, prices. */
import type { ChainId } from '@doorway/shared/Caip'
import type { Config, Network, Token } from './config.js'

/** The conventional stand-in address for a chain's native currency in CAIP-10 token ids. */
export const nativeTokenAddress = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

// spec §9: tokens with 0 decimals are filtered out
export function listedTokens(network: Network): Token[] {
  return network.tokens.filter((token) => token.decimals > 0)
}

/** Only eip155 networks are asked eth_* methods; the others get the spec's empty results (spec §7). */
export function isEvm(chainId: ChainId): boolean {
  return chainId.startsWith('eip155:')
}

/**
 * Whether the api reads `network` on `chainId`: its kind (absent: evm) must be its namespace's. Config.parse
 * refuses any other pairing in the operator's file; this keeps a Config built in code from sending eth_*
 * to a Solana node.
 */
export function serves(chainId: ChainId, network: Network): boolean {
  const kind = network.kind ?? 'evm'
  return chainId.startsWith(kind === 'evm' ? 'eip155:' : `${kind}:`)
}

// The catalogue routes serve /public/getTokenImage/{symbol} (spec §7 image blobs).
export function iconUrl(publicUrl: string, asset: { symbol: string; iconUrl?: string | undefined }): string {
  return asset.iconUrl ?? `${publicUrl}/public/getTokenImage/${encodeURIComponent(asset.symbol)}`
}

// Own keys only: a symbol like 'constructor' must not find Object.prototype's.
export function priceOf(prices: Config['prices'], symbol: string): number | undefined {
  return Object.hasOwn(prices, symbol) ? prices[symbol] : undefined
}
