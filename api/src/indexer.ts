/**
 * Account history from the configured chains' own blocks (spec §7 /v1/account/{account}/history).
 *
 * On demand and incrementally: each `sync(chainId)` reads the blocks after the chain's cursor up to the
 * latest, at most `maxBlocks` (2,000) per call so one request does bounded work; a chain further behind
 * catches up over the next requests, and until then its newest blocks are missing from history. Per
 * block: `eth_getBlockByNumber` with full transactions and `eth_getTransactionReceipt` per transaction
 * (status and logs). The index is in memory, per chain, and rebuilt from block 0 after a restart or
 * when the chain rewinds (anvil restart, `evm_revert`): a new block whose parent is not the last indexed
 * block, or a head below the cursor, starts the chain over.
 *
 * What is recorded per address: native transfers of the transaction's own value (internal transfers by
 * contracts are not traced), ERC-20 `Transfer` logs (3 topics, so ERC-721 transfers are left out), ERC-20
 * `Approval` logs by the sender, contract creation, and every transaction the address sent.
 */
import type { ChainId } from '@doorway/shared/Caip'
import { formatUnits } from '@doorway/shared/Format'
import { type Hex, getAddress, toEventSelector } from 'viem'
import * as Assets from './assets.js'
import type { Config, Network } from './config.js'
import { HttpError } from './http.js'
import type { Rpc } from './rpc.js'

/** A transaction as one address sees it (the shape of Reown's blockchain API). */
export type Transaction = {
  id: string
  metadata: {
    operationType: OperationType
    hash: string
    /** ISO 8601 time of the block. */
    minedAt: string
    sentFrom: string
    sentTo: string
    status: 'confirmed' | 'failed'
    nonce: number
    /** CAIP-2 network id. */
    chain: ChainId
  }
  transfers: Transfer[]
}

export type OperationType = 'send' | 'receive' | 'trade' | 'execute' | 'approve' | 'deploy'

export type Transfer = {
  fungible_info?: { name: string; symbol: string; icon?: { url: string } }
  nft_info?: { name: string; content?: { preview?: { url: string } }; flags: { is_spam: boolean } }
  direction: 'in' | 'out' | 'self'
  /** An exact decimal string in whole units. */
  quantity: { numeric: string }
  /** USD, from config.prices, when the token has a price. */
  value?: number
  price?: number
}

/** One mined transaction, reduced to what any party's history needs. Addresses are lowercase. */
export type Entry = {
  chainId: ChainId
  hash: Hex
  block: number
  index: number
  /** Block time, Unix seconds. */
  timestamp: number
  from: string
  to: string | null
  created: string | null
  nonce: number
  value: bigint
  hasInput: boolean
  success: boolean
  transfers: { token: string; from: string; to: string; amount: bigint }[]
  /** An ERC-20 Approval log whose owner is the sender. */
  approves: boolean
}

export type Indexer = {
  /** Indexes the chain's new blocks, at most `maxBlocks`; concurrent calls queue behind one another. */
  sync(chainId: ChainId): Promise<void>
  /** The address's entries on the chain, oldest first. */
  entries(chainId: ChainId, address: string): readonly Entry[]
  /** The next block the chain's index will read. */
  cursor(chainId: ChainId): number
}

export const maxBlocksPerSync = 2_000

export const transferTopic = toEventSelector('Transfer(address,address,uint256)')
export const approvalTopic = toEventSelector('Approval(address,address,uint256)')

const zeroAddress = `0x${'0'.repeat(40)}`
// Blocks read in parallel; each is applied in order once its window is complete.
const window = 10

type ChainIndex = {
  next: number
  lastHash: Hex | undefined
  byAddress: Map<string, Entry[]>
  running: Promise<void> | undefined
  queued: Promise<void> | undefined
}

export function create(options: create.Options): Indexer {
  const { rpc, maxBlocks = maxBlocksPerSync } = options
  const chains = new Map<ChainId, ChainIndex>()
  const index = (chainId: ChainId) => {
    let chain = chains.get(chainId)
    if (!chain) chains.set(chainId, (chain = { next: 0, lastHash: undefined, byAddress: new Map(), running: undefined, queued: undefined }))
    return chain
  }

  return {
    sync(chainId) {
      const chain = index(chainId)
      // A queued run starts after this call, so it sees every block mined before it: join it.
      if (chain.queued) return chain.queued
      // The previous run's error already went to its own caller.
      const queued = (chain.running ?? Promise.resolve()).catch(() => {}).then(() => {
        chain.queued = undefined
        chain.running = run(rpc, chainId, chain, maxBlocks)
        return chain.running
      })
      chain.queued = queued
      return queued
    },
    entries(chainId, address) {
      return chains.get(chainId)?.byAddress.get(address.toLowerCase()) ?? []
    },
    cursor(chainId) {
      return chains.get(chainId)?.next ?? 0
    },
  }
}
export declare namespace create {
  type Options = { rpc: Rpc; maxBlocks?: number }
}

type RpcTransaction = { hash: Hex; from: Hex; to: Hex | null; value: Hex; nonce: Hex; input: Hex; transactionIndex: Hex }
type RpcBlock = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex; transactions: RpcTransaction[] }
type RpcReceipt = { status: Hex; contractAddress: Hex | null; logs: { address: Hex; topics: Hex[]; data: Hex }[] }

async function run(rpc: Rpc, chainId: ChainId, chain: ChainIndex, maxBlocks: number): Promise<void> {
  const latest = Number(await rpc(chainId, 'eth_blockNumber'))
  if (latest < chain.next - 1) reset(chain)
  else if (latest === chain.next - 1 && chain.lastHash) {
    // Nothing new, unless the chain was replaced by one of the same height.
    const head = (await rpc(chainId, 'eth_getBlockByNumber', [hex(latest), false])) as RpcBlock | null
    if (head?.hash !== chain.lastHash) reset(chain)
  }
  let budget = maxBlocks
  while (budget > 0 && chain.next <= latest) {
    const numbers = range(chain.next, Math.min(chain.next + window, latest + 1, chain.next + budget))
    const blocks = await Promise.all(numbers.map((n) => readBlock(rpc, chainId, n)))
    for (const { block, receipts } of blocks) {
      if (chain.lastHash && block.parentHash !== chain.lastHash) {
        reset(chain)
        break
      }
      apply(chainId, chain, block, receipts)
      budget--
    }
  }
}

function reset(chain: ChainIndex): void {
  chain.next = 0
  chain.lastHash = undefined
  chain.byAddress.clear()
}

async function readBlock(rpc: Rpc, chainId: ChainId, n: number): Promise<{ block: RpcBlock; receipts: RpcReceipt[] }> {
  const block = (await rpc(chainId, 'eth_getBlockByNumber', [hex(n), true])) as RpcBlock | null
  if (!block) throw new HttpError(502, `The node for ${chainId} has no block ${n}`)
  const receipts = await Promise.all(block.transactions.map((tx) => rpc(chainId, 'eth_getTransactionReceipt', [tx.hash]) as Promise<RpcReceipt>))
  return { block, receipts }
}

function apply(chainId: ChainId, chain: ChainIndex, block: RpcBlock, receipts: RpcReceipt[]): void {
  block.transactions.forEach((tx, i) => {
    const entry = toEntry(chainId, block, tx, receipts[i]!)
    for (const party of parties(entry)) {
      const list = chain.byAddress.get(party)
      if (list) list.push(entry)
      else chain.byAddress.set(party, [entry])
    }
  })
  chain.next = Number(block.number) + 1
  chain.lastHash = block.hash
}

function toEntry(chainId: ChainId, block: RpcBlock, tx: RpcTransaction, receipt: RpcReceipt): Entry {
  const from = tx.from.toLowerCase()
  const transfers: Entry['transfers'] = []
  let approves = false
  for (const log of receipt.logs) {
    // 3 topics: the ERC-20 events; ERC-721 indexes the token id as a fourth.
    if (log.topics.length !== 3 || log.data.length !== 66) continue
    const [topic, one, two] = log.topics as [Hex, Hex, Hex]
    if (topic === transferTopic) transfers.push({ token: log.address.toLowerCase(), from: topicAddress(one), to: topicAddress(two), amount: BigInt(log.data) })
    else if (topic === approvalTopic && topicAddress(one) === from) approves = true
  }
  return {
    chainId,
    hash: tx.hash,
    block: Number(block.number),
    index: Number(tx.transactionIndex),
    timestamp: Number(block.timestamp),
    from,
    to: tx.to?.toLowerCase() ?? null,
    created: receipt.contractAddress?.toLowerCase() ?? null,
    nonce: Number(tx.nonce),
    value: BigInt(tx.value),
    hasInput: tx.input !== '0x',
    success: receipt.status === '0x1',
    transfers,
    approves,
  }
}

/** Whose history the entry belongs to: the sender, and whoever received or sent value in it. */
function parties(entry: Entry): Set<string> {
  const set = new Set([entry.from])
  if (entry.success && entry.value > 0n && entry.to) set.add(entry.to)
  for (const t of entry.transfers) set.add(t.from).add(t.to)
  set.delete(zeroAddress)
  return set
}

/** The entry as `address` sees it, with token names, decimals and prices from the config. */
export function describe(entry: Entry, address: string, context: describe.Context): Transaction {
  const { network, prices, publicUrl } = context
  const self = address.toLowerCase()
  const transfers: Transfer[] = []
  if (entry.success) {
    if (entry.value > 0n && entry.to) {
      const { name, symbol, decimals } = network.nativeCurrency
      const direction = directionOf(entry.from, entry.to, self)
      if (direction) transfers.push(transfer({ name, symbol, decimals, iconUrl: Assets.iconUrl(publicUrl, { symbol }) }, entry.value, direction, prices))
    }
    for (const t of entry.transfers) {
      const direction = directionOf(t.from, t.to, self)
      if (direction) transfers.push(transfer(tokenInfo(t.token, network, publicUrl), t.amount, direction, prices))
    }
  }
  return {
    id: `${entry.chainId}:${entry.hash}`,
    metadata: {
      operationType: operationType(entry, self, transfers),
      hash: entry.hash,
      minedAt: new Date(entry.timestamp * 1000).toISOString(),
      sentFrom: getAddress(entry.from),
      sentTo: getAddress(entry.to ?? entry.created ?? zeroAddress),
      status: entry.success ? 'confirmed' : 'failed',
      nonce: entry.nonce,
      chain: entry.chainId,
    },
    transfers,
  }
}
export declare namespace describe {
  type Context = { network: Network } & Pick<Config, 'prices' | 'publicUrl'>
}

function operationType(entry: Entry, self: string, transfers: Transfer[]): OperationType {
  const sent = entry.from === self
  if (sent && entry.to === null) return 'deploy'
  if (!entry.success) return entry.hasInput ? 'execute' : 'send'
  const out = transfers.some((t) => t.direction === 'out')
  const into = transfers.some((t) => t.direction === 'in')
  if (out && into) return 'trade'
  if (into) return 'receive'
  if (out || transfers.length > 0) return 'send'
  return sent && entry.approves ? 'approve' : 'execute'
}

function directionOf(from: string, to: string, self: string): Transfer['direction'] | undefined {
  if (from === self && to === self) return 'self'
  if (from === self) return 'out'
  if (to === self) return 'in'
  return undefined
}

type TokenInfo = { name: string; symbol: string; decimals: number; iconUrl?: string | undefined }

// A token the network does not configure could call itself anything: it is shown by its contract
// address, in base units (0 decimals), with no icon and no price.
function tokenInfo(address: string, network: Network, publicUrl: string): TokenInfo {
  const token = network.tokens.find((t) => t.address.toLowerCase() === address)
  if (!token) return { name: 'Unknown token', symbol: getAddress(address), decimals: 0 }
  return { ...token, iconUrl: Assets.iconUrl(publicUrl, token) }
}

function transfer(token: TokenInfo, amount: bigint, direction: Transfer['direction'], prices: Config['prices']): Transfer {
  const numeric = formatUnits(amount, token.decimals)
  const price = Assets.priceOf(prices, token.symbol)
  return {
    fungible_info: { name: token.name, symbol: token.symbol, ...(token.iconUrl ? { icon: { url: token.iconUrl } } : {}) },
    direction,
    quantity: { numeric },
    ...(price === undefined ? {} : { price, value: Math.round(Number(numeric) * price * 1e6) / 1e6 }),
  }
}

const topicAddress = (topic: Hex) => `0x${topic.slice(26)}`.toLowerCase()
const hex = (n: number) => `0x${n.toString(16)}`
const range = (from: number, to: number) => Array.from({ length: Math.max(to - from, 0) }, (_, i) => from + i)
