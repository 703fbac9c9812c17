/**
 * What the Solana routes share: the node calls they make (through the injected JSON-RPC client, so
 * every call has its timeout and the request's cancellation) and the checks on each answer, which a
 * node outside this repo gives. A malformed answer is the node's fault: 502, never a crash.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as S from '@doorway/shared/contracts/Described'
import type { Deps } from '../deps.js'
import { HttpError } from '../http.js'

/** The classic SPL Token program and Token-2022: an account's tokens live under either. */
export const tokenPrograms = ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'] as const

// 'confirmed': a transfer shows within a second or two, not after finalization's ~13 s; a rolled-back confirmed block is very rare.
export const commitment = 'confirmed'

/** Lamports and token amounts can pass 2^53: any non-negative integer, read as a bigint by its caller. */
export const lamports = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0
export const digits = S.string({ pattern: /^[0-9]{1,40}$/ })
export const base58 = S.string({ pattern: /^[1-9A-HJ-NP-Za-km-z]{32,88}$/ })
export const integer = S.integer({ min: 0 })
const nullable = <T>(schema: S.Schema<T>) => S.union(schema, S.literal(null))
export const present = (x: unknown): x is unknown => x !== undefined

/** An RpcResponse: `{ context, value }`. */
export const withContext = <T>(value: S.Schema<T>) => S.open({ value })

export const signatureEntry = S.open({ signature: base58, slot: integer, err: present, blockTime: S.optional(nullable(integer)) })
export type SignatureEntry = S.Infer<typeof signatureEntry>

export const tokenBalance = S.open({ accountIndex: integer, mint: base58, owner: S.optional(base58), uiTokenAmount: S.open({ amount: digits, decimals: integer }) })
export type TokenBalance = S.Infer<typeof tokenBalance>

const accountKey = S.union(base58, S.open({ pubkey: base58 }))
const tokenBalances = S.optional(nullable(S.array(tokenBalance, 1024)))

/** getTransaction with encoding jsonParsed: what an account's side of it is read from. */
export const parsedTransaction = S.open({
  slot: integer,
  blockTime: S.optional(nullable(integer)),
  meta: nullable(
    S.open({
      err: present,
      fee: lamports,
      preBalances: S.array(lamports, 1024),
      postBalances: S.array(lamports, 1024),
      preTokenBalances: tokenBalances,
      postTokenBalances: tokenBalances,
    }),
  ),
  transaction: S.open({ message: S.open({ accountKeys: S.array(accountKey, 1024), instructions: S.array(S.isPlainObject, 1024) }) }),
})
export type ParsedTransaction = S.Infer<typeof parsedTransaction>

/** A parsed token account (getTokenAccountsByOwner, jsonParsed); others in the list (not parsed) are skipped. */
export const tokenAccount = S.open({
  account: S.open({ data: S.open({ parsed: S.open({ info: S.open({ mint: base58, tokenAmount: S.open({ amount: digits, decimals: integer }) }) }) }) }),
})
export type TokenAccount = S.Infer<typeof tokenAccount>

/** `method` on `chainId`'s node, its answer checked with `schema`; `what` names it in the 502. */
export async function call<T>(deps: Pick<Deps, 'rpc'>, chainId: ChainId, request: { method: string; params: unknown[]; what: string }, schema: S.Schema<T>, signal?: AbortSignal): Promise<T> {
  const result = await deps.rpc(chainId, request.method, request.params, signal)
  if (!schema(result)) throw new HttpError(502, `The node gave no answer for ${request.what} on ${chainId}`)
  return result
}
