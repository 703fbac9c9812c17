/**
 * Account history and NFT holdings from the configured chains' own blocks (spec §7
 * /v1/account/{account}/history, issue 10), kept in the api's storage so it survives a restart.
 *
 * Each `sync(chainId)` reads the blocks after the chain's cursor up to the latest, at most `maxBlocks`
 * (2,000) per call, 10 at a time in parallel (`eth_getBlockByNumber` with full transactions, then
 * `eth_getBlockReceipts`, or a receipt per transaction where the node lacks it), and writes each window
 * in one SQL transaction. The server's follower (`follow`) syncs every EVM network on a timer; requests
 * still sync first, so a block mined a moment ago is seen.
 *
 * A rewind (anvil restarted, `evm_revert`): a head below the cursor, the same height with another
 * hash, or a block whose parent is not the stored hash. The index then goes back to the newest block
 * whose stored hash the node still has (the last 64 are kept; beyond them it starts over) and deletes
 * what it indexed above it, in one transaction.
 *
 * What is recorded per transaction: native transfers of its own value (internal transfers by contracts
 * are not traced), ERC-20 `Transfer`, ERC-721 `Transfer` (4 topics), ERC-1155 `TransferSingle` and
 * `TransferBatch`, WETH9 `Deposit` / `Withdrawal` (as the wrapped token in or out and, for an unwrap,
 * the native coin back), approvals, Aave V3 `Borrow` / `Repay` by the sender, and contract creation.
 */
import type { ChainId } from '@doorway/shared/Caip'
import { formatUnits } from '@doorway/shared/Format'
import { type Hex, decodeAbiParameters, getAddress, toEventSelector } from 'viem'
import * as Assets from './assets.js'
import type { Config, Network } from './config.js'
import * as Nfts from './nfts.js'
import * as Operations from './operations.js'
import { type Rpc, RpcError } from './rpc.js'
import type { IndexEntry, IndexEvent, IndexTransfer, IndexWindow, NftKey, NftMetadata, NftMove, Storage } from './storage/Storage.js'

/** A transaction as one address sees it (the shape of Reown's blockchain API; spec §3 Transaction). */
export type Transaction = {
  id: string
  metadata: {
    operationType: Operations.OperationType
    hash: string
    /** ISO 8601 time of the block. */
    minedAt: string
    sentFrom: string
    sentTo: string
    /** 'pending' is reserved for transactions not mined yet; the index holds mined ones only. */
    status: 'confirmed' | 'failed' | 'pending'
    nonce: number
    /** CAIP-2 network id. */
    chain: ChainId
  }
  transfers: Transfer[]
}

export type { OperationType } from './operations.js'

/** spec §3: fungible_info or nft_info; nft_info's collection, contract, token_id and standard are ours, beside the spec's. */
export type Transfer = {
  fungible_info?: { name: string; symbol: string; icon?: { url: string } }
  nft_info?: NftInfo
  direction: 'in' | 'out' | 'self'
  /** Who sent and who received this transfer (checksummed): a token's are not the transaction's from and to. */
  sender: string
  recipient: string
  /** An exact decimal string in whole units; for an NFT its count (1 for ERC-721). */
  quantity: { numeric: string }
  /** USD, from config.prices, when the token has a price. */
  value?: number
  price?: number
}

export type NftInfo = Nfts.Display & {
  /** Checksummed. */
  contract: string
  /** Decimal. */
  token_id: string
  standard: Nfts.Standard
}

export type Entry = IndexEntry

export type Indexer = {
  /** Indexes the chain's new blocks, at most `maxBlocks`; concurrent calls queue behind one another. */
  sync(chainId: ChainId): Promise<void>
}

export const maxBlocksPerSync = 2_000

export const topics = {
  transfer: toEventSelector('Transfer(address,address,uint256)'),
  approval: toEventSelector('Approval(address,address,uint256)'),
  approvalForAll: toEventSelector('ApprovalForAll(address,address,bool)'),
  transferSingle: toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
  transferBatch: toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])'),
  deposit: toEventSelector('Deposit(address,uint256)'),
  withdrawal: toEventSelector('Withdrawal(address,uint256)'),
  borrow: toEventSelector('Borrow(address,address,address,uint256,uint8,uint256,uint16)'),
  repay: toEventSelector('Repay(address,address,address,uint256,bool)'),
} as const

const zeroAddress = `0x${'0'.repeat(40)}`
// Blocks read in parallel, then written together.
const window = 10

type ChainState = {
  running: Promise<void> | undefined
  queued: Promise<void> | undefined
  /** Whether the node answers eth_getBlockReceipts; undefined until asked. */
  blockReceipts: boolean | undefined
}

export function create(options: create.Options): Indexer {
  const { rpc, storage, maxBlocks = maxBlocksPerSync } = options
  const chains = new Map<ChainId, ChainState>()
  const state = (chainId: ChainId) => {
    let chain = chains.get(chainId)
    if (!chain) chains.set(chainId, (chain = { running: undefined, queued: undefined, blockReceipts: undefined }))
    return chain
  }

  return {
    sync(chainId) {
      const chain = state(chainId)
      // A queued run starts after this call, so it sees every block mined before it: join it.
      if (chain.queued) return chain.queued
      // The previous run's error already went to its own caller.
      const queued = (chain.running ?? Promise.resolve()).catch(() => {}).then(() => {
        chain.queued = undefined
        chain.running = run({ rpc, storage, chainId, chain, maxBlocks })
        return chain.running
      })
      chain.queued = queued
      return queued
    },
  }
}
export declare namespace create {
  type Options = { rpc: Rpc; storage: Storage; maxBlocks?: number }
}

/**
 * Syncs the chains every `pollMs` until stopped. A failing chain is logged once per failure streak
 * (and once when it recovers), never thrown.
 */
export function follow(indexer: Indexer, chainIds: ChainId[], options: follow.Options): { stop(): Promise<void> } {
  const { pollMs, log = (message, error) => console.error(`[doorway:api] ${message}`, error ?? '') } = options
  let stopped = false
  // One waiting loop per chain: stop() wakes them all.
  const sleepers = new Set<() => void>()
  const loops = chainIds.map(async (chainId) => {
    let failing = false
    while (!stopped) {
      try {
        await indexer.sync(chainId)
        if (failing) log(`indexer: ${chainId} recovered`)
        failing = false
      } catch (error) {
        if (!failing) log(`indexer: ${chainId} failed; retrying every ${pollMs} ms`, error)
        failing = true
      }
      if (!stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(wake, pollMs)
          function wake() {
            clearTimeout(timer)
            sleepers.delete(wake)
            resolve()
          }
          sleepers.add(wake)
        })
    }
  })
  return {
    async stop() {
      stopped = true
      for (const wake of [...sleepers]) wake()
      await Promise.all(loops)
    },
  }
}
export declare namespace follow {
  type Options = { pollMs: number; log?: (message: string, error?: unknown) => void }
}

type RpcTransaction = { hash: Hex; from: Hex; to: Hex | null; value: Hex; nonce: Hex; input: Hex; transactionIndex: Hex }
type RpcBlock = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex; transactions: RpcTransaction[] }
type RpcLog = { address: Hex; topics: Hex[]; data: Hex }
type RpcReceipt = { transactionHash: Hex; status: Hex; contractAddress: Hex | null; logs: RpcLog[] }
type Read = { block: RpcBlock; receipts: Map<string, RpcReceipt> }

async function run(context: { rpc: Rpc; storage: Storage; chainId: ChainId; chain: ChainState; maxBlocks: number }): Promise<void> {
  const { rpc, storage, chainId, maxBlocks } = context
  let { next, blocks } = await storage.index.head(chainId)
  let last = blocks[0]?.number === next - 1 ? blocks[0].hash : undefined
  const latest = Number(await rpc(chainId, 'eth_blockNumber'))
  let rewound = false
  const rewind = async () => {
    rewound = true
    next = await ancestor(rpc, chainId, blocks, latest)
    await storage.index.rewind(chainId, next)
    ;({ next, blocks } = await storage.index.head(chainId))
    last = blocks[0]?.hash
  }
  if (next > 0 && latest < next - 1) await rewind()
  else if (next > 0 && latest === next - 1) {
    // Nothing new, unless the chain was replaced by one of the same height.
    const head = (await rpc(chainId, 'eth_getBlockByNumber', [hex(latest), false])) as RpcBlock | null
    if (head?.hash !== last) await rewind()
  }
  let budget = maxBlocks
  while (budget > 0 && next <= latest) {
    const numbers = range(next, Math.min(next + window, latest + 1, next + budget))
    const reads = await Promise.all(numbers.map((n) => readBlock(context, n)))
    // Each block must extend the one before it; a missing block means the chain shrank while read.
    const good: Read[] = []
    for (const read of reads) {
      if (!read || (last !== undefined && read.block.parentHash !== (good.at(-1)?.block.hash ?? last))) break
      good.push(read)
    }
    if (good.length === 0) {
      // One rewind per run: a node that keeps changing is read again on the next sync.
      if (rewound) return
      await rewind()
      continue
    }
    // Another api instance sharing the database moved the cursor: it indexes this chain now.
    if (!(await storage.index.append(chainId, next, windowOf(chainId, good)))) return
    next += good.length
    last = good.at(-1)!.block.hash
    blocks = [...good.map(({ block }) => ({ number: Number(block.number), hash: block.hash })).reverse(), ...blocks]
    budget -= good.length
  }
}

/** The block to index from after a rewind: above the newest stored block the node still has, else 0. */
async function ancestor(rpc: Rpc, chainId: ChainId, blocks: { number: number; hash: string }[], latest: number): Promise<number> {
  for (const stored of blocks) {
    if (stored.number > latest) continue
    const block = (await rpc(chainId, 'eth_getBlockByNumber', [hex(stored.number), false])) as RpcBlock | null
    if (block?.hash === stored.hash) return stored.number + 1
  }
  return 0
}

async function readBlock(context: { rpc: Rpc; chainId: ChainId; chain: ChainState }, n: number): Promise<Read | undefined> {
  const { rpc, chainId } = context
  const block = (await rpc(chainId, 'eth_getBlockByNumber', [hex(n), true])) as RpcBlock | null
  if (!block) return undefined
  const list = block.transactions.length === 0 ? [] : await receiptsOf(context, block)
  return { block, receipts: new Map(list.map((receipt) => [receipt.transactionHash, receipt])) }
}

async function receiptsOf(context: { rpc: Rpc; chainId: ChainId; chain: ChainState }, block: RpcBlock): Promise<RpcReceipt[]> {
  const { rpc, chainId, chain } = context
  if (chain.blockReceipts !== false) {
    try {
      const receipts = (await rpc(chainId, 'eth_getBlockReceipts', [block.number])) as RpcReceipt[] | null
      if (receipts) return (chain.blockReceipts = true), receipts
    } catch (error) {
      // A node that answered it before fails for another reason; one that never did lacks the method.
      if (!(error instanceof RpcError) || chain.blockReceipts) throw error
    }
    chain.blockReceipts = false
  }
  return Promise.all(block.transactions.map((tx) => rpc(chainId, 'eth_getTransactionReceipt', [tx.hash]) as Promise<RpcReceipt>))
}

function windowOf(chainId: ChainId, reads: Read[]): IndexWindow {
  const entries = reads.flatMap(({ block, receipts }) =>
    block.transactions.map((tx) => {
      const entry = toEntry(chainId, block, tx, receipts.get(tx.hash))
      return { entry, parties: [...parties(entry)] }
    }),
  )
  const moves = entries.flatMap(({ entry }) => movesOf(entry))
  return { blocks: reads.map(({ block }) => ({ number: Number(block.number), hash: block.hash })), entries, moves }
}

function toEntry(chainId: ChainId, block: RpcBlock, tx: RpcTransaction, receipt: RpcReceipt | undefined): Entry {
  const from = tx.from.toLowerCase()
  const success = receipt?.status === '0x1'
  const { transfers, events } = success ? decodeLogs(receipt.logs, from) : { transfers: [], events: [] }
  return {
    chainId,
    hash: tx.hash,
    block: Number(block.number),
    index: Number(tx.transactionIndex),
    timestamp: Number(block.timestamp),
    from,
    to: tx.to?.toLowerCase() ?? null,
    created: receipt?.contractAddress?.toLowerCase() ?? null,
    nonce: Number(tx.nonce),
    value: BigInt(tx.value),
    hasInput: tx.input !== '0x',
    success,
    transfers,
    events: [...new Set(events)],
  }
}

/** The transfers and the sender's events in a successful transaction's logs; malformed logs are skipped. */
export function decodeLogs(logs: readonly RpcLog[], sender: string): { transfers: IndexTransfer[]; events: IndexEvent[] } {
  const transfers: IndexTransfer[] = []
  const events: IndexEvent[] = []
  for (const log of logs) {
    const token = log.address.toLowerCase()
    const [topic, one, two, three] = log.topics
    const words = log.data.length > 2 ? (log.data.length - 2) / 64 : 0
    const n = log.topics.length
    if (topic === topics.transfer && n === 3 && words === 1) transfers.push({ standard: 'erc20', token, from: address(one!), to: address(two!), amount: BigInt(log.data) })
    else if (topic === topics.transfer && n === 4 && words === 0)
      transfers.push({ standard: 'erc721', token, from: address(one!), to: address(two!), amount: 1n, tokenId: BigInt(three!) })
    else if (topic === topics.transferSingle && n === 4 && words === 2) {
      const [id, amount] = [BigInt(word(log.data, 0)), BigInt(word(log.data, 1))]
      transfers.push({ standard: 'erc1155', token, from: address(two!), to: address(three!), amount, tokenId: id })
    } else if (topic === topics.transferBatch && n === 4) {
      const batch = decodeBatch(log.data)
      batch.forEach(([id, amount]) => transfers.push({ standard: 'erc1155', token, from: address(two!), to: address(three!), amount, tokenId: id }))
    } else if ((topic === topics.approval && (n === 3 || n === 4)) || (topic === topics.approvalForAll && n === 3)) {
      if (address(one!) === sender) events.push('approval')
    } else if (topic === topics.deposit && n === 2 && words === 1) {
      // WETH9: the wrapped coin arrives from the contract (the coin went out as the transaction's value).
      const dst = address(one!)
      transfers.push({ standard: 'erc20', token, from: token, to: dst, amount: BigInt(log.data) })
      if (dst === sender) events.push('deposit')
    } else if (topic === topics.withdrawal && n === 2 && words === 1) {
      const src = address(one!)
      const amount = BigInt(log.data)
      transfers.push({ standard: 'erc20', token, from: src, to: token, amount }, { standard: 'native', token: Assets.nativeTokenAddress, from: token, to: src, amount })
      if (src === sender) events.push('withdrawal')
    } else if (topic === topics.borrow && n === 4 && words >= 1) {
      // Borrow(reserve, user, onBehalfOf indexed, …): user is the first data word.
      if (address(two!) === sender || address(word(log.data, 0)) === sender) events.push('borrow')
    } else if (topic === topics.repay && n === 4) {
      if (address(two!) === sender || address(three!) === sender) events.push('repay')
    }
  }
  return { transfers, events }
}

function decodeBatch(data: Hex): [bigint, bigint][] {
  try {
    const [ids, amounts] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], data)
    return ids.length === amounts.length ? ids.map((id, i) => [id, amounts[i]!]) : []
  } catch {
    return []
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

function movesOf(entry: Entry): NftMove[] {
  return entry.transfers.flatMap(({ standard, token, from, to, amount, tokenId }) => {
    if ((standard !== 'erc721' && standard !== 'erc1155') || tokenId === undefined || amount === 0n) return []
    const move = { block: entry.block, contract: token, tokenId, standard }
    return [...(from === zeroAddress ? [] : [{ ...move, owner: from, delta: -amount }]), ...(to === zeroAddress ? [] : [{ ...move, owner: to, delta: amount }])]
  })
}

/** The NFTs `address` moved in the entries, for loading their metadata before `describe`. */
export function nftKeys(entries: readonly Entry[], address: string): (NftKey & { standard: Nfts.Standard })[] {
  const self = address.toLowerCase()
  return entries.flatMap((entry) =>
    entry.transfers.flatMap(({ standard, token, from, to, tokenId }) =>
      (standard === 'erc721' || standard === 'erc1155') && tokenId !== undefined && (from === self || to === self)
        ? [{ chainId: entry.chainId, contract: token, tokenId: String(tokenId), standard }]
        : [],
    ),
  )
}

/** The most transfers one history entry lists. */
export const maxTransfersShown = 64

/** The entry as `address` sees it, with token names, decimals and prices from the config and NFT metadata from `nfts`. */
export function describe(entry: Entry, address: string, context: describe.Context): Transaction {
  const { network, prices, publicUrl } = context
  const self = address.toLowerCase()
  const transfers: Transfer[] = []
  const facts: Operations.Facts = {
    sent: entry.from === self,
    deployed: entry.to === null,
    success: entry.success,
    called: entry.hasInput,
    insFrom: [],
    outsTo: [],
    selfTransfers: 0,
    events: entry.events,
  }
  const add = (from: string, to: string, make: (direction: Transfer['direction']) => Unrouted) => {
    const direction = directionOf(from, to, self)
    if (!direction) return
    transfers.push({ ...make(direction), sender: getAddress(from), recipient: getAddress(to) })
    if (direction === 'in') facts.insFrom.push(from)
    else if (direction === 'out') facts.outsTo.push(to)
    else facts.selfTransfers++
  }
  if (entry.success && entry.value > 0n && entry.to) add(entry.from, entry.to, (d) => fungible(nativeInfo(network, publicUrl), entry.value, d, prices))
  for (const t of entry.transfers) {
    if (t.standard === 'native') add(t.from, t.to, (d) => fungible(nativeInfo(network, publicUrl), t.amount, d, prices))
    else if (t.standard === 'erc20') add(t.from, t.to, (d) => fungible(tokenInfo(t.token, network, publicUrl), t.amount, d, prices))
    else add(t.from, t.to, (d) => nft(entry.chainId, t, d, context))
  }
  return {
    id: `${entry.chainId}:${entry.hash}`,
    metadata: {
      operationType: Operations.operationType(facts),
      hash: entry.hash,
      minedAt: new Date(entry.timestamp * 1000).toISOString(),
      sentFrom: getAddress(entry.from),
      sentTo: getAddress(entry.to ?? entry.created ?? zeroAddress),
      status: entry.success ? 'confirmed' : 'failed',
      nonce: entry.nonce,
      chain: entry.chainId,
    },
    // A batch of hundreds of tokens is one entry; its first transfers say what it was (the modal shows two).
    transfers: transfers.slice(0, maxTransfersShown),
  }
}
export declare namespace describe {
  type Context = { network: Network; nfts: ReadonlyMap<string, NftMetadata> } & Pick<Config, 'prices' | 'publicUrl'>
}

function directionOf(from: string, to: string, self: string): Transfer['direction'] | undefined {
  if (from === self && to === self) return 'self'
  if (from === self) return 'out'
  if (to === self) return 'in'
  return undefined
}

type TokenInfo = { name: string; symbol: string; decimals: number; iconUrl?: string | undefined }

function nativeInfo(network: Network, publicUrl: string): TokenInfo {
  const { name, symbol, decimals } = network.nativeCurrency
  return { name, symbol, decimals, iconUrl: Assets.iconUrl(publicUrl, { symbol }) }
}

/** A transfer before its sender and recipient are added. */
type Unrouted = Omit<Transfer, 'sender' | 'recipient'>

// A token the network does not configure could call itself anything: it is shown by its contract
// address, in base units (0 decimals), with no icon and no price.
function tokenInfo(address: string, network: Network, publicUrl: string): TokenInfo {
  const token = network.tokens.find((t) => t.address.toLowerCase() === address)
  if (!token) return { name: 'Unknown token', symbol: getAddress(address), decimals: 0 }
  return { ...token, iconUrl: Assets.iconUrl(publicUrl, token) }
}

function fungible(token: TokenInfo, amount: bigint, direction: Transfer['direction'], prices: Config['prices']): Unrouted {
  const numeric = formatUnits(amount, token.decimals)
  const price = Assets.priceOf(prices, token.symbol)
  return {
    fungible_info: { name: token.name, symbol: token.symbol, ...(token.iconUrl ? { icon: { url: token.iconUrl } } : {}) },
    direction,
    quantity: { numeric },
    ...(price === undefined ? {} : { price, value: Math.round(Number(numeric) * price * 1e6) / 1e6 }),
  }
}

function nft(chainId: ChainId, t: IndexTransfer, direction: Transfer['direction'], context: describe.Context): Unrouted {
  const key = { chainId, contract: t.token, tokenId: String(t.tokenId) }
  const display = Nfts.display(key, context.nfts.get(Nfts.keyOf(key)), { publicUrl: context.publicUrl, network: context.network })
  const standard = t.standard as Nfts.Standard
  return { nft_info: { ...display, contract: getAddress(t.token), token_id: key.tokenId, standard }, direction, quantity: { numeric: String(t.amount) } }
}

const address = (topic: Hex) => `0x${topic.slice(-40)}`.toLowerCase()
const word = (data: Hex, i: number) => `0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}` as Hex
const hex = (n: number) => `0x${n.toString(16)}`
const range = (from: number, to: number) => Array.from({ length: Math.max(to - from, 0) }, (_, i) => from + i)
