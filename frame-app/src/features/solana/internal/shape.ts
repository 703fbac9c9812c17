/**
 * Guards for what a Solana node answers. Unlike `S.object`, `loose` lets keys it does not name through:
 * nodes add fields from version to version, and only the fields this chunk reads are checked.
 */
import * as S from '@doorway/shared/Schema'

type Shape = Record<string, S.Schema<unknown>>

export function loose<shape extends Shape>(shape: shape): S.Schema<S.ObjectOf<shape>> {
  return (x): x is S.ObjectOf<shape> =>
    typeof x === 'object' && x !== null && !Array.isArray(x) && Object.entries(shape).every(([key, check]) => check((x as Record<string, unknown>)[key]))
}

export function nullable<T>(check: S.Schema<T>): S.Schema<T | null> {
  return (x): x is T | null => x === null || check(x)
}

/** A count, a slot or a block height: below 2^53, what JSON numbers hold exactly. */
export const integer: S.Schema<number> = (x): x is number => Number.isSafeInteger(x) && (x as number) >= 0

/**
 * Lamports. Nodes write them as JSON numbers, and a large account (a faucet, an exchange: over 9 million
 * SOL) is past 2^53, so it is read to a double's precision rather than refused.
 */
export const lamports: S.Schema<number> = (x): x is number => Number.isInteger(x) && (x as number) >= 0

/** A u64 as the node writes token amounts: decimal digits. */
export const digits = S.string({ min: 1, max: 20, pattern: /^\d+$/ })

/** An account address or a signature. */
export const base58 = S.string({ min: 32, max: 88, pattern: /^[1-9A-HJ-NP-Za-km-z]+$/ })

/** The `{ context, value }` envelope of most answers. */
export function withContext<T>(value: S.Schema<T>): S.Schema<{ value: T }> {
  // ObjectOf would make `value` optional for a T that admits undefined; the node always sends it.
  return loose({ value }) as S.Schema<{ value: T }>
}
