/**
 * The chain's state around litesvm: blocks, recent blockhashes, and every landed transaction with its
 * meta, by signature and by address (litesvm keeps neither in a form the RPC can list).
 * `import * as Ledger from './ledger.js'` → `Ledger.create()`.
 *
 * One transaction per block: each landed transaction ends its slot. litesvm accepts only its latest
 * blockhash, so the ledger turns its check off and keeps a node's rule itself: a new blockhash every
 * block, each valid for 150 blocks. Identical transfers sent in turn thus get different signatures, as
 * on a real cluster.
 */
import { Keypair } from '@solana/web3.js'
import { LiteSVM, type TransactionMetadata } from 'litesvm'
import * as Accounts from './accounts.js'
import type { TransactionError } from './errors.js'
import type * as Wire from './wire.js'

/** Blocks a blockhash stays valid for after the block that made it (agave MAX_PROCESSING_AGE). */
export const blockhashValidity = 150

export type TokenBalance = ReturnType<typeof Accounts.tokenBalances>[number]

export type InnerInstruction = { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }

export type Meta = {
  fee: number
  preBalances: number[]
  postBalances: number[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logMessages: string[]
  innerInstructions: { index: number; instructions: InnerInstruction[] }[]
  computeUnitsConsumed: number
}

/** A landed transaction: what getTransaction, getSignatureStatuses and getSignaturesForAddress read. */
export type Record = {
  signature: string
  slot: number
  blockTime: number
  err: TransactionError | null
  transaction: Wire.Decoded
  /** Static keys, then the writable and readonly keys loaded from lookup tables. */
  accountKeys: string[]
  loadedAddresses: { writable: string[]; readonly: string[] }
  meta: Meta
}

export type Ledger = {
  svm: LiteSVM
  genesisHash: string
  firstSlot: bigint
  /** Recent blockhashes → the last block height each is valid at. */
  blockhashes: Map<string, number>
  records: Map<string, Record>
  /** Address → the signatures of the transactions that named it, oldest first. */
  history: Map<string, string[]>
  listeners: Set<(record: Record) => void>
  /** Pays airdrops: a plain system account holding most of the supply. */
  faucet: Keypair
}

const faucetLamports = 10n ** 18n

export function create(): Ledger {
  const svm = new LiteSVM().withBlockhashCheck(false)
  const faucet = Keypair.generate()
  svm.setAccount({
    address: faucet.publicKey.toBase58() as Accounts.Address,
    lamports: faucetLamports as Parameters<LiteSVM['setAccount']>[0]['lamports'],
    programAddress: '11111111111111111111111111111111' as Accounts.Address,
    data: new Uint8Array(),
    executable: false,
    space: 0n,
  })
  const clock = svm.getClock()
  clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000))
  svm.setClock(clock)
  // litesvm's first blockhash is the same on every start: the genesis hash, so the CAIP-2 id is stable.
  const genesisHash = svm.latestBlockhash()
  const ledger: Ledger = { svm, genesisHash, firstSlot: clock.slot, blockhashes: new Map(), records: new Map(), history: new Map(), listeners: new Set(), faucet }
  ledger.blockhashes.set(genesisHash, blockhashValidity)
  return ledger
}

export const slot = (ledger: Ledger) => Number(ledger.svm.getClock().slot)
export const blockHeight = (ledger: Ledger) => Number(ledger.svm.getClock().slot - ledger.firstSlot)
export const blockTime = (ledger: Ledger) => Number(ledger.svm.getClock().unixTimestamp)

export function latestBlockhash(ledger: Ledger): { blockhash: string; lastValidBlockHeight: number } {
  const blockhash = ledger.svm.latestBlockhash()
  return { blockhash, lastValidBlockHeight: ledger.blockhashes.get(blockhash) ?? blockHeight(ledger) + blockhashValidity }
}

export function isBlockhashValid(ledger: Ledger, blockhash: string): boolean {
  const lastValid = ledger.blockhashes.get(blockhash)
  return lastValid !== undefined && blockHeight(ledger) <= lastValid
}

/** Ends the block: the next slot, a fresh blockhash, and the expired ones forgotten. */
export function nextBlock(ledger: Ledger, blocks = 1): void {
  const { svm } = ledger
  const clock = svm.getClock()
  clock.slot += BigInt(blocks)
  clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000))
  svm.setClock(clock)
  svm.expireBlockhash()
  const height = blockHeight(ledger)
  for (const [hash, lastValid] of ledger.blockhashes) if (lastValid < height) ledger.blockhashes.delete(hash)
  ledger.blockhashes.set(svm.latestBlockhash(), height + blockhashValidity)
}

/** Every blockhash handed out so far stops working, and block height passes each one's lastValidBlockHeight. */
export function expireBlockhash(ledger: Ledger): void {
  nextBlock(ledger, blockhashValidity + 1)
  for (const hash of ledger.blockhashes.keys()) if (hash !== ledger.svm.latestBlockhash()) ledger.blockhashes.delete(hash)
}

/** Lamports and token balances of `keys`, for a transaction's meta. */
export function balances(ledger: Ledger, keys: readonly string[]) {
  return {
    lamports: keys.map((key) => Number(ledger.svm.getBalance(key as Accounts.Address) ?? 0n)),
    tokens: Accounts.tokenBalances(ledger.svm, keys),
  }
}

type Landing = {
  transaction: Wire.Decoded
  accountKeys: string[]
  loadedAddresses: Record['loadedAddresses']
  fee: number
  pre: ReturnType<typeof balances>
  result: TransactionMetadata
  err: TransactionError | null
}

/** Records a transaction litesvm has just executed (its error, if any, included) and ends its block. */
export function land(ledger: Ledger, landing: Landing): Record {
  const { transaction, accountKeys, loadedAddresses, pre, result, err } = landing
  const post = balances(ledger, accountKeys)
  const meta: Meta = {
    fee: landing.fee,
    preBalances: pre.lamports,
    postBalances: post.lamports,
    preTokenBalances: pre.tokens,
    postTokenBalances: post.tokens,
    logMessages: result.logs(),
    innerInstructions: innerInstructions(result),
    computeUnitsConsumed: Number(result.computeUnitsConsumed()),
  }
  const record: Record = { signature: transaction.signature, slot: slot(ledger), blockTime: blockTime(ledger), err, transaction, accountKeys, loadedAddresses, meta }
  ledger.records.set(record.signature, record)
  for (const key of new Set(accountKeys)) {
    const signatures = ledger.history.get(key) ?? []
    signatures.push(record.signature)
    ledger.history.set(key, signatures)
  }
  nextBlock(ledger)
  for (const listener of ledger.listeners) listener(record)
  return record
}

/** Calls `listener` with every transaction that lands from now on; the returned function stops it. */
export function onLanded(ledger: Ledger, listener: (record: Record) => void): () => void {
  ledger.listeners.add(listener)
  return () => ledger.listeners.delete(listener)
}

export function innerInstructions(result: TransactionMetadata): Meta['innerInstructions'] {
  return result.innerInstructions().flatMap((list, index) => {
    if (!list.length) return []
    const instructions = list.map((inner) => {
      const compiled = inner.instruction()
      return { programIdIndex: compiled.programIdIndex(), accounts: [...compiled.accounts()], data: compiled.data(), stackHeight: inner.stackHeight() }
    })
    return [{ index, instructions }]
  })
}
