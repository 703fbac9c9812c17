/**
 * One Solana transaction as an account sees it (spec §3 Transaction, the shape the EVM index answers):
 * its SOL change and its change of each token (from the balances before and after, which also catch an
 * SPL transfer into a token account the owner never signed for), each a transfer in or out. The SOL
 * change leaves out the fee the account paid, so a send of 1 SOL reads as 1 SOL out, as on EVM.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { Transaction } from '@doorway/shared/contracts/api/history'
import { formatUnits } from '@doorway/shared/Format'
import * as Assets from '../assets.js'
import type { Config, SolanaNetwork } from '../config.js'
import * as Operations from '../operations.js'
import * as Activity from './Activity.js'
import type * as Solana from './Solana.js'

/** One change of one account: SOL when `mint` is absent. */
type Change = { account: string; mint?: string; amount: bigint; decimals: number }

// Operations reads a transfer from or to the EVM zero address as a mint or a burn: a token change with
// no opposite change (mintTo, burn) is one.
const nobody = `0x${'0'.repeat(40)}`

// Instructions that only move SOL or tokens (and their setup): a failed one is a failed send, not a failed call.
const plain: Readonly<Record<string, readonly string[]>> = {
  system: ['transfer', 'transferWithSeed', 'createAccount'],
  'spl-token': ['transfer', 'transferChecked'],
  'spl-associated-token-account': ['create', 'createIdempotent'],
}
const computeBudget = 'ComputeBudget111111111111111111111111111111'

export declare namespace describe {
  type Input = {
    chainId: ChainId
    network: SolanaNetwork
    address: string
    entry: Solana.SignatureEntry
    /** null while the node has no details yet: the entry then shows without transfers. */
    transaction: Solana.ParsedTransaction | null
    now: number
  } & Pick<Config, 'prices' | 'publicUrl'>
}

export function describe(input: describe.Input): Transaction {
  const { chainId, address, entry, transaction } = input
  const keys = transaction?.transaction.message.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey)) ?? []
  const payer = keys[0] ?? address
  const meta = transaction?.meta ?? null
  const sol = meta ? solChanges(keys, meta, input.network.nativeCurrency.decimals) : []
  const tokens = meta ? tokenChanges(meta) : []
  // Tokens first: an SPL send that opens the receiver's token account is a token send, its rent a detail.
  const moves = [...tokens, ...sol].filter((c) => c.account === address && c.amount !== 0n).map((c) => moveOf(c, [...tokens, ...sol], input))
  const failed = (meta ? meta.err : entry.err) !== null
  const facts: Operations.Facts = {
    sent: payer === address,
    deployed: false,
    success: !failed,
    called: !(transaction?.transaction.message.instructions ?? []).every(isPlain),
    insFrom: moves.filter((m) => m.direction === 'in').map((m) => m.sender ?? nobody),
    outsTo: moves.filter((m) => m.direction === 'out').map((m) => m.recipient ?? nobody),
    selfTransfers: 0,
    events: [],
  }
  const blockTime = transaction?.blockTime ?? entry.blockTime ?? null
  return {
    id: `${chainId}:${entry.signature}`,
    metadata: {
      operationType: Operations.operationType(facts),
      hash: entry.signature,
      // A node that keeps no block time for it: the time it was read.
      minedAt: new Date(blockTime === null ? input.now : blockTime * 1000).toISOString(),
      sentFrom: payer,
      sentTo: moves.find((m) => m.direction === 'out')?.recipient ?? address,
      status: failed ? 'failed' : 'confirmed',
      // Solana accounts have no nonce (the frame's pending entries say so the same way).
      nonce: -1,
      chain: chainId,
    },
    transfers: moves.map((move) => Activity.transfer(move, input.prices)),
  }
}

/** Each account's SOL change; the payer's (account 0) without the fee it paid. */
function solChanges(keys: readonly string[], meta: NonNullable<Solana.ParsedTransaction['meta']>, decimals: number): Change[] {
  return keys.map((account, i) => {
    const change = BigInt(meta.postBalances[i] ?? 0) - BigInt(meta.preBalances[i] ?? 0)
    return { account, amount: i === 0 ? change + BigInt(meta.fee) : change, decimals }
  })
}

/** Each owner's change per mint, from the token balances before and after. */
function tokenChanges(meta: NonNullable<Solana.ParsedTransaction['meta']>): Change[] {
  const changes = new Map<string, Change>()
  const add = (entries: readonly Solana.TokenBalance[] | null | undefined, sign: bigint) => {
    for (const entry of entries ?? []) {
      if (!entry.owner) continue
      const key = `${entry.owner} ${entry.mint}`
      const change = changes.get(key) ?? { account: entry.owner, mint: entry.mint, amount: 0n, decimals: entry.uiTokenAmount.decimals }
      change.amount += sign * BigInt(entry.uiTokenAmount.amount)
      changes.set(key, change)
    }
  }
  add(meta.preTokenBalances, -1n)
  add(meta.postTokenBalances, 1n)
  return [...changes.values()].filter((c) => c.amount !== 0n)
}

/** The account's change as a move; its other side is the account whose change of that asset is largest the other way. */
function moveOf(change: Change, all: readonly Change[], input: describe.Input): Activity.Move {
  const abs = (n: bigint) => (n < 0n ? -n : n)
  const other = all
    .filter((c) => c.mint === change.mint && c.account !== change.account && c.amount > 0n !== change.amount > 0n)
    .sort((a, b) => (abs(b.amount) > abs(a.amount) ? 1 : abs(b.amount) < abs(a.amount) ? -1 : 0))[0]
  const out = change.amount < 0n
  return {
    asset: change.mint === undefined ? Activity.native(input.network, input.publicUrl) : tokenAsset(change.mint, input),
    numeric: formatUnits(abs(change.amount), change.decimals),
    direction: out ? 'out' : 'in',
    ...(out ? { sender: change.account, recipient: other?.account } : { sender: other?.account, recipient: change.account }),
  }
}

// A mint the network does not configure could call itself anything: it goes by its address, with no icon and no price.
function tokenAsset(mint: string, input: describe.Input): Activity.Asset {
  const token = input.network.tokens.find((t) => t.address === mint)
  return token ? { name: token.name, symbol: token.symbol, iconUrl: Assets.iconUrl(input.publicUrl, token) } : { name: 'Unknown token', symbol: mint }
}

function isPlain(instruction: Record<string, unknown>): boolean {
  if (instruction.programId === computeBudget || instruction.program === 'spl-memo') return true
  const type = (instruction.parsed as { type?: unknown } | undefined)?.type
  return typeof instruction.program === 'string' && typeof type === 'string' && (plain[instruction.program]?.includes(type) ?? false)
}
