/**
 * Bitcoin networks through Esplora: an address's balance (GET /address/:a, confirmed and mempool
 * funded less spent) and its history (GET /address/:a/txs, then /txs/chain/:last_seen_txid), each
 * transaction told as the address sees it (spec §3 Transaction). Esplora answers by address, so no
 * index is kept.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as S from '@doorway/shared/contracts/Described'
import type { HistoryPage, Transaction } from '@doorway/shared/contracts/api/history'
import { formatUnits } from '@doorway/shared/Format'
import type { BitcoinNetwork, Config } from '../config.js'
import * as Http from '../http.js'
import * as Operations from '../operations.js'
import * as Activity from './Activity.js'
import type { Esplora } from './Esplora.js'

export const pageSize = 20

const sats = S.integer({ min: 0 })
const stats = S.open({ funded_txo_sum: sats, spent_txo_sum: sats })
const addressInfo = S.open({ chain_stats: stats, mempool_stats: stats })
const txid = S.string({ pattern: /^[0-9a-f]{64}$/ })
const output = S.open({ scriptpubkey_address: S.optional(S.string({ max: 128 })), value: sats })
const tx = S.open({
  txid,
  // A coinbase input spends nothing: its prevout is null.
  vin: S.array(S.open({ prevout: S.union(output, S.literal(null)) }), 10_000),
  vout: S.array(output, 10_000),
  status: S.open({ confirmed: S.boolean, block_time: S.optional(S.integer({ min: 0 })) }),
})
type Tx = S.Infer<typeof tx>

/** GET `path`, its answer checked with `schema`; a malformed answer is the server's fault: 502. */
async function get<T>(esplora: Esplora, chainId: ChainId, path: string, schema: S.Schema<T>, signal?: AbortSignal): Promise<T> {
  const answer = await esplora(chainId, path, signal)
  if (!schema(answer)) throw new Http.HttpError(502, `The Esplora server for ${chainId} gave no answer for ${path}`)
  return answer
}

/** Sats, confirmed and in the mempool: what a wallet shows as its balance. */
export async function balance(esplora: Esplora, chainId: ChainId, address: string, signal?: AbortSignal): Promise<bigint> {
  const info = await get(esplora, chainId, `/address/${encodeURIComponent(address)}`, addressInfo, signal)
  const net = (s: S.Infer<typeof stats>) => BigInt(s.funded_txo_sum) - BigInt(s.spent_txo_sum)
  const total = net(info.chain_stats) + net(info.mempool_stats)
  if (total < 0n) throw new Http.HttpError(502, `The Esplora server for ${chainId} answered a negative balance for ${address}`)
  return total
}

/** A page position: the last confirmed transaction shown, which Esplora pages after. */
export type Key = ['bip122', string]

export function isKey(key: unknown[]): key is Key {
  return key.length === 2 && key[0] === 'bip122' && txid(key[1])
}

export declare namespace history {
  type Context = { esplora: Esplora; now: number; signal?: AbortSignal | undefined } & Pick<Config, 'prices' | 'publicUrl'>
}

/**
 * One page: the first holds the mempool's transactions (Esplora lists at most 50) above 20 confirmed
 * ones; the next pages 20 confirmed each. Esplora pages by 25, so more than 20 means another page.
 */
export async function history(context: history.Context, chainId: ChainId, network: BitcoinNetwork, address: string, after: Key | undefined): Promise<HistoryPage> {
  const base = `/address/${encodeURIComponent(address)}/txs`
  const txs = await get(context.esplora, chainId, after ? `${base}/chain/${after[1]}` : base, S.array(tx, 100), context.signal)
  const pending = after ? [] : txs.filter((t) => !t.status.confirmed)
  const confirmed = txs.filter((t) => t.status.confirmed)
  const shown = confirmed.slice(0, pageSize)
  const last = shown.at(-1)
  return {
    data: [...pending, ...shown].map((t) => describe(t, { ...context, chainId, network, address })),
    next: confirmed.length > pageSize && last ? Http.encodeCursor(['bip122', last.txid] satisfies Key) : null,
  }
}

type Seen = history.Context & { chainId: ChainId; network: BitcoinNetwork; address: string }

/** The transaction as `address` sees it: what it received, or what it paid to others (its change and the fee left out). */
export function describe(t: Tx, seen: Seen): Transaction {
  const move = moveOf(t, seen)
  const facts: Operations.Facts = {
    sent: t.vin.some((i) => i.prevout?.scriptpubkey_address === seen.address),
    deployed: false,
    success: true,
    called: false,
    insFrom: move?.direction === 'in' ? [move.sender ?? ''] : [],
    outsTo: move?.direction === 'out' ? [move.recipient ?? ''] : [],
    selfTransfers: move?.direction === 'self' ? 1 : 0,
    events: [],
  }
  return {
    id: `${seen.chainId}:${t.txid}`,
    metadata: {
      operationType: Operations.operationType(facts),
      hash: t.txid,
      // An unconfirmed transaction has no block time: the time it was read.
      minedAt: new Date(t.status.block_time === undefined ? seen.now : t.status.block_time * 1000).toISOString(),
      sentFrom: (move?.direction === 'in' ? move.sender : seen.address) ?? '',
      sentTo: (move?.direction === 'out' ? move.recipient : seen.address) ?? '',
      status: t.status.confirmed ? 'confirmed' : 'pending',
      // Bitcoin has no account nonce.
      nonce: -1,
      chain: seen.chainId,
    },
    transfers: move ? [Activity.transfer(move, seen.prices)] : [],
  }
}

function moveOf(t: Tx, seen: Seen): Activity.Move | undefined {
  const { address, network } = seen
  const sum = (list: readonly { value: number }[]) => list.reduce((total, o) => total + BigInt(o.value), 0n)
  const mine = (o: { scriptpubkey_address?: string | undefined } | null) => o?.scriptpubkey_address === address
  const received = sum(t.vout.filter(mine))
  const spent = sum(t.vin.flatMap((i) => (mine(i.prevout) ? [i.prevout!] : [])))
  const others = t.vout.filter((o) => !mine(o))
  const asset = Activity.native(network, seen.publicUrl)
  const amount = (n: bigint) => formatUnits(n, network.nativeCurrency.decimals)
  if (spent === 0n) {
    if (received === 0n) return undefined
    const sender = t.vin.find((i) => i.prevout?.scriptpubkey_address)?.prevout?.scriptpubkey_address
    return { asset, numeric: amount(received), direction: 'in', sender, recipient: address }
  }
  const recipient = others.find((o) => o.scriptpubkey_address)?.scriptpubkey_address
  // Every input the address's own: it paid what went to others; nothing to others is a move to itself.
  if (t.vin.every((i) => mine(i.prevout))) {
    if (!others.some((o) => o.value > 0)) return { asset, numeric: amount(received), direction: 'self', sender: address, recipient: address }
    return { asset, numeric: amount(sum(others)), direction: 'out', sender: address, recipient }
  }
  // Inputs of several owners (a coinjoin, a payjoin): the address's net change, fee share included.
  const net = received - spent
  if (net === 0n) return undefined
  return net < 0n ? { asset, numeric: amount(-net), direction: 'out', sender: address, recipient } : { asset, numeric: amount(net), direction: 'in', recipient: address }
}
