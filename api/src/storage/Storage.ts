/**
 * Durable data (analytics events, names, sessions, the history index) behind one interface (issue 4): an embedded
 * PGlite database by default (no server), PostgreSQL for operators running several api instances.
 * Both speak the same SQL and pass the same tests.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { Config } from '../config.js'

export type AnalyticsEvent = {
  projectId: string
  eventId: string
  url: string
  domain: string
  timestamp: number
  props: Record<string, unknown>
}

/** A registered name-service name (spec §7 profile endpoints). */
export type NameRecord = {
  name: string
  address: string
  /** CAIP-2 chain, or coin type as the registration sent it. */
  coinType: number
  attributes: Record<string, string>
  registeredAt: number
}

/** A smart session (an ERC-7710 delegation, asked for as an ERC-7715 permission) granted by an address (spec §7 sessions endpoints, issue 25). */
export type SessionRecord = {
  address: string
  /** The permission context id: the delegation's hash. */
  pci: string
  chainId: string
  /** The limits its caveats enforce, as JSON. */
  permissions: unknown
  /** Unix seconds. */
  expiry: number
  revoked: boolean
  /** Unix milliseconds. */
  createdAt: number
  /** The signed delegation as JSON (Permissions.toJson); null for sessions recorded before it was kept. */
  delegation: Record<string, unknown> | null
}

/** A token movement in an indexed transaction. Addresses are lowercase; `native` is the transaction's own value or WETH's. */
export type IndexTransfer = {
  standard: 'native' | 'erc20' | 'erc721' | 'erc1155'
  token: string
  from: string
  to: string
  amount: bigint
  /** ERC-721 and ERC-1155 only. */
  tokenId?: bigint
}

/** Logs that name what a transaction did beyond its transfers (operations.ts). */
export type IndexEvent = 'approval' | 'deposit' | 'withdrawal' | 'borrow' | 'repay'

/** One mined transaction, reduced to what any party's history needs (indexer.ts). Addresses are lowercase. */
export type IndexEntry = {
  chainId: ChainId
  hash: string
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
  /** Empty when the transaction failed. */
  transfers: IndexTransfer[]
  /** Events by or for the sender. */
  events: IndexEvent[]
}

/** A block the index read: its hash finds where a rewound chain forked. */
export type IndexedBlock = { number: number; hash: string }

/** One NFT balance change: `delta` is negative for the sender. */
export type NftMove = { block: number; owner: string; contract: string; tokenId: bigint; standard: 'erc721' | 'erc1155'; delta: bigint }

/** A window of blocks to index, in order: the entries with the addresses whose history they join. */
export type IndexWindow = { blocks: IndexedBlock[]; entries: { entry: IndexEntry; parties: string[] }[]; moves: NftMove[] }

/** A history position: (time, chain, block, index), compared in that order. */
export type HistoryKey = [timestamp: number, chainId: string, block: number, index: number]

/** A holdings position: (chain, contract, token id), compared in that order. */
export type HoldingKey = [chainId: string, contract: string, tokenId: string]

/** An NFT an owner holds; amounts and ids are decimal strings. */
export type NftHolding = { chainId: ChainId; owner: string; contract: string; tokenId: string; standard: 'erc721' | 'erc1155'; amount: string }

/** What an NFT's metadata said, read once (nfts.ts); `image` is the URI as given, null when there was none. */
export type NftMetadata = { chainId: ChainId; contract: string; tokenId: string; name: string | null; collection: string | null; image: string | null }

export type NftKey = Pick<NftMetadata, 'chainId' | 'contract' | 'tokenId'>

/** How many of a chain's newest block hashes the index keeps: a deeper rewind starts the chain over. */
export const keptBlocks = 64

export type Storage = {
  analytics: {
    add(event: AnalyticsEvent): Promise<void>
    list(projectId: string, limit?: number): Promise<AnalyticsEvent[]>
  }
  names: {
    get(name: string): Promise<NameRecord | undefined>
    /** The address's name: a list of at most one (issue 13: one name per address). */
    byAddress(address: string): Promise<NameRecord[]>
    /** Fails with NameTaken when the name belongs to another address, AddressHasName when the address holds another name. */
    put(record: NameRecord): Promise<void>
    /**
     * put, spending the signed registration's nonce in the same transaction: NonceUsed when the address
     * spent it already, and nothing is written when any check fails. The nonce is kept until `keepUntil`
     * (ms); nonces kept until before `record.registeredAt` are forgotten.
     */
    register(record: NameRecord, nonce: { value: string; keepUntil: number }): Promise<void>
  }
  sessions: {
    /** The address's sessions, newest first. */
    list(address: string): Promise<SessionRecord[]>
    get(address: string, pci: string): Promise<SessionRecord | undefined>
    /** Writes the session, replacing the address's session with its pci. */
    put(record: SessionRecord): Promise<void>
    /** Records a new session: false, writing nothing, when the address has a session with its pci already (revoked or not). */
    add(record: SessionRecord): Promise<boolean>
    /** True when a session was revoked now. */
    revoke(address: string, pci: string): Promise<boolean>
  }
  index: {
    /** The next block to read (0 for a new chain) and the newest indexed blocks, newest first. */
    head(chainId: ChainId): Promise<{ next: number; blocks: IndexedBlock[] }>
    /** Adds a window that starts at block `from`, in one transaction; false, writing nothing, when the cursor is not at `from`. */
    append(chainId: ChainId, from: number, window: IndexWindow): Promise<boolean>
    /** Deletes what was indexed at and above `block` (0: the whole chain) in one transaction. */
    rewind(chainId: ChainId, block: number): Promise<void>
    /** The address's entries on the chains, newest first, before `before`. */
    history(address: string, chainIds: ChainId[], options: { before?: HistoryKey | undefined; limit: number }): Promise<IndexEntry[]>
    /** The owner's NFTs on the chains with a positive amount, by chain, contract and token id, after `after`. */
    holdings(owner: string, chainIds: ChainId[], options: { after?: HoldingKey | undefined; limit: number }): Promise<NftHolding[]>
  }
  nfts: {
    get(keys: NftKey[]): Promise<NftMetadata[]>
    put(metadata: NftMetadata): Promise<void>
  }
  close(): Promise<void>
}

export class NameTaken extends Error {}

export class AddressHasName extends Error {
  constructor(
    readonly address: string,
    readonly held: string,
  ) {
    super(`Address ${address} already has the name ${held}`)
  }
}

/** A replayed registration: its nonce was spent by the same address. */
export class NonceUsed extends Error {}

export async function open(config: Config['storage']): Promise<Storage> {
  return (await import('./sql.js')).open(config)
}
