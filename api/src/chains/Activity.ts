/**
 * Pieces of an Activity entry (spec §3 Transaction) the Solana and Bitcoin histories share with each
 * other: a coin or token moving in or out, valued at config.prices as the EVM index values its own.
 */
import type { Transfer } from '@doorway/shared/contracts/api/history'
import * as Assets from '../assets.js'
import type { Config } from '../config.js'

export type Asset = { name: string; symbol: string; iconUrl?: string | undefined }

/** Who moved what: the account's side is `direction`; the other side may be unknown (a mint, a coinbase). */
export type Move = { asset: Asset; numeric: string; direction: Transfer['direction']; sender?: string | undefined; recipient?: string | undefined }

export function transfer(move: Move, prices: Config['prices']): Transfer {
  const { asset, numeric, direction, sender, recipient } = move
  const price = Assets.priceOf(prices, asset.symbol)
  return {
    fungible_info: { name: asset.name, symbol: asset.symbol, ...(asset.iconUrl ? { icon: { url: asset.iconUrl } } : {}) },
    direction,
    quantity: { numeric },
    ...(price === undefined ? {} : { price, value: Math.round(Number(numeric) * price * 1e6) / 1e6 }),
    ...(sender === undefined ? {} : { sender }),
    ...(recipient === undefined ? {} : { recipient }),
  }
}

/** The native coin of a network as an asset, with the icon the api serves for its symbol. */
export function native(network: { nativeCurrency: { name: string; symbol: string } }, publicUrl: string): Asset {
  const { name, symbol } = network.nativeCurrency
  return { name, symbol, iconUrl: Assets.iconUrl(publicUrl, { symbol }) }
}

/** `fn` over `items`, at most `limit` at a time, in order: a page's lookups without flooding the upstream. */
export async function mapLimited<T, U>(items: readonly T[], limit: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const results = new Array<U>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
