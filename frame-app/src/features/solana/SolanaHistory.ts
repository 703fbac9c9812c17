/**
 * A Solana account's history, read from its node (the api reads Solana history too (api/src/chains/SolanaHistory.ts); this reader is kept for the frame's own checks): the signatures that
 * touched it (`getSignaturesForAddress`, newest first), then each transaction (`getTransaction`,
 * jsonParsed). Each becomes an entry of the Activity tab's own shape (spec §3 Transaction, as
 * features/activity lists it), seen from the account: its SOL change and its token changes, each a
 * transfer in or out. The SOL change leaves out the fee the account paid, so a send of 1 SOL reads as
 * 1 SOL out; the fee is beside it, in `solana`.
 */
import { isSolanaAddress } from '@doorway/shared/Address'
import type { ChainId } from '@doorway/shared/Caip'
import type { Transaction, Transfer } from '@doorway/shared/contracts/api/history'
import * as Format from '@doorway/shared/Format'
import * as S from '@doorway/shared/Schema'
import { solanaText } from '@doorway/shared/texts/solana'
import type { TokenInfo } from './SolanaBalances.js'
import { HistoryUnavailableError } from './SolanaErrors.js'
import type { Rpc } from './SolanaRpc.js'
import { base58, digits, integer, lamports, loose, nullable } from './internal/shape.js'

/** An Activity entry, with what Solana adds: the slot, the fee and the exact changes in base units. */
export type Activity = Transaction & {
  solana: {
    slot: number
    /** The fee in lamports, whoever paid it. */
    fee: bigint
    /** The account's SOL change without the fee it paid. */
    lamports: bigint
    tokens: { mint: string; amount: bigint; decimals: number }[]
  }
}

export declare namespace read {
  type Options = {
    /** The CAIP-2 id entries carry (metadata.chain). */
    chainId: ChainId
    /** The last signature of the page before: the page after it. */
    before?: string
    /** Entries per page, 1 to 100. */
    limit: number
    /** The dapp's tokens: their symbols and names; other mints show by address. */
    tokens?: readonly TokenInfo[]
    signal?: AbortSignal
  }
}

/** One page, newest first. Any failure is spec §8 'Failed to fetch transactions' (HistoryUnavailableError). */
export async function read(rpc: Rpc, address: string, options: read.Options): Promise<Activity[]> {
  const { limit, before, signal } = options
  // spec §5: fetching transactions needs an account address
  if (!isSolanaAddress(address)) throw new TypeError(`SolanaHistory.read: not a Solana address: ${address}`)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RangeError(`SolanaHistory.read: limit must be 1 to 100, got ${limit}`)
  try {
    const config = { limit, commitment: 'confirmed', ...(before === undefined ? {} : { before }) }
    const entries = await rpc.call('getSignaturesForAddress', [address, config], S.array(signatureEntry, limit), signal)
    const params = { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }
    const transactions = await Promise.all(entries.map((e) => rpc.call('getTransaction', [e.signature, params], nullable(parsedTransaction), signal)))
    return entries.map((entry, i) => activityOf({ address, entry, transaction: transactions[i] ?? null, options }))
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw new HistoryUnavailableError(error)
  }
}

const signatureEntry = loose({ signature: base58, slot: integer, err: (x): x is unknown => x !== undefined, blockTime: S.optional(nullable(integer)) })
const tokenBalance = loose({ accountIndex: integer, mint: base58, owner: S.optional(base58), uiTokenAmount: loose({ amount: digits, decimals: integer }) })
const accountKey = S.union(base58, loose({ pubkey: base58 }))
const parsedTransaction = loose({
  slot: integer,
  blockTime: S.optional(nullable(integer)),
  meta: loose({
    err: (x): x is unknown => x !== undefined,
    fee: integer,
    preBalances: S.array(lamports, 256),
    postBalances: S.array(lamports, 256),
    preTokenBalances: S.optional(nullable(S.array(tokenBalance, 256))),
    postTokenBalances: S.optional(nullable(S.array(tokenBalance, 256))),
  }),
  transaction: loose({ message: loose({ accountKeys: S.array(accountKey, 256) }) }),
})
type SignatureEntry = S.Infer<typeof signatureEntry>
type ParsedTransaction = S.Infer<typeof parsedTransaction>
type TokenBalanceEntry = S.Infer<typeof tokenBalance>

type Change = { account: string; mint?: string; amount: bigint; decimals: number }

function activityOf(input: { address: string; entry: SignatureEntry; transaction: ParsedTransaction | null; options: read.Options }): Activity {
  const { address, entry, transaction, options } = input
  const keys = transaction?.transaction.message.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey)) ?? []
  const payer = keys[0] ?? address
  const fee = BigInt(transaction?.meta.fee ?? 0)
  const sol = transaction ? solChanges(keys, transaction, payer === address ? fee : 0n) : []
  const tokens = transaction ? tokenChanges(transaction) : []
  // Tokens first: an SPL send that opens the receiver's account is a token send, its rent the detail.
  const own = [...tokens, ...sol].filter((c) => c.account === address && c.amount !== 0n)
  const transfers = own.map((change) => transferOf(change, [...sol, ...tokens], options.tokens ?? []))
  const out = own.some((c) => c.amount < 0n)
  const into = own.some((c) => c.amount > 0n)
  const blockTime = transaction?.blockTime ?? entry.blockTime ?? null
  const failed = (transaction?.meta.err ?? entry.err) !== null
  return {
    id: entry.signature,
    metadata: {
      operationType: out && into ? 'trade' : out ? 'send' : into ? 'receive' : 'execute',
      hash: entry.signature,
      // A node that keeps no block times (a local one may not) leaves the time of reading.
      minedAt: new Date(blockTime === null ? Date.now() : blockTime * 1000).toISOString(),
      sentFrom: payer,
      sentTo: transfers.find((t) => t.direction === 'out')?.recipient ?? address,
      status: failed ? 'failed' : 'confirmed',
      // Solana accounts have no nonce.
      nonce: -1,
      chain: options.chainId,
    },
    transfers,
    solana: {
      slot: transaction?.slot ?? entry.slot,
      fee,
      lamports: sol.find((c) => c.account === address)?.amount ?? 0n,
      tokens: tokens.filter((c) => c.account === address).map((c) => ({ mint: c.mint!, amount: c.amount, decimals: c.decimals })),
    },
  }
}

/** Each account's SOL change; `feeBack` (the fee the payer paid) is added back to the payer's. */
function solChanges(keys: string[], transaction: ParsedTransaction, feeBack: bigint): Change[] {
  const { preBalances, postBalances } = transaction.meta
  return keys.map((account, i) => {
    const change = BigInt(postBalances[i] ?? 0) - BigInt(preBalances[i] ?? 0)
    return { account, amount: i === 0 ? change + feeBack : change, decimals: 9 }
  })
}

/** Each owner's change per mint, from the token balances before and after. */
function tokenChanges(transaction: ParsedTransaction): Change[] {
  const changes = new Map<string, Change>()
  const add = (entries: readonly TokenBalanceEntry[] | null | undefined, sign: bigint) => {
    for (const entry of entries ?? []) {
      if (!entry.owner) continue
      const key = `${entry.owner}|${entry.mint}`
      const change = changes.get(key) ?? { account: entry.owner, mint: entry.mint, amount: 0n, decimals: entry.uiTokenAmount.decimals }
      change.amount += sign * BigInt(entry.uiTokenAmount.amount)
      changes.set(key, change)
    }
  }
  add(transaction.meta.preTokenBalances, -1n)
  add(transaction.meta.postTokenBalances, 1n)
  return [...changes.values()].filter((c) => c.amount !== 0n)
}

/** The account's change as a transfer; its other side is the account whose change of that asset is largest the other way. */
function transferOf(change: Change, all: readonly Change[], known: readonly TokenInfo[]): Transfer {
  const other = all
    .filter((c) => c.mint === change.mint && c.account !== change.account && (c.amount > 0n) !== (change.amount > 0n))
    .sort((a, b) => (abs(b.amount) > abs(a.amount) ? 1 : abs(b.amount) < abs(a.amount) ? -1 : 0))[0]
  const token: { name: string; symbol: string; image?: string } = change.mint === undefined ? solanaText.native : infoOf(change.mint, known)
  const out = change.amount < 0n
  return {
    fungible_info: { name: token.name, symbol: token.symbol, ...(token.image ? { icon: { url: token.image } } : {}) },
    direction: out ? 'out' : 'in',
    quantity: { numeric: Format.formatUnits(abs(change.amount), change.decimals) },
    ...(other ? (out ? { sender: change.account, recipient: other.account } : { sender: other.account, recipient: change.account }) : {}),
  }
}

function infoOf(mint: string, known: readonly TokenInfo[]): { name: string; symbol: string; image?: string } {
  const info = known.find((t) => t.mint === mint)
  // Only http(s) images: the list shows them with <img>.
  const image = info?.image !== undefined && S.url(info.image) ? { image: info.image } : {}
  return { name: info?.name ?? info?.symbol ?? mint, symbol: (info?.symbol ?? `${mint.slice(0, 4)}…${mint.slice(-4)}`).slice(0, 64), ...image }
}

const abs = (n: bigint) => (n < 0n ? -n : n)
