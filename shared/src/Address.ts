// spec §5 Address formats. Checksums are not verified: the spec asks for the shape only.
const evm = /^(0x)?[0-9a-fA-F]{40}$/
// base58: digits and letters without 0, O, I and l
const solana = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** 40 hex digits with an optional `0x` prefix (spec §5). */
export function isEvmAddress(s: unknown): s is string {
  return typeof s === 'string' && evm.test(s)
}

/** 32 to 44 base58 characters (spec §5). */
export function isSolanaAddress(s: unknown): boolean {
  return typeof s === 'string' && solana.test(s)
}

export declare namespace truncate {
  type Options = { start?: number; end?: number }
}

/**
 * Shortens an address for display, keeping a `0x` prefix plus `start` characters and the last `end`.
 * @example truncate('0x1234567890abcdef1234567890abcdef12345678') // '0x1234…5678'
 */
export function truncate(address: string, options: truncate.Options = {}): string {
  const { start = 4, end = 4 } = options
  for (const n of [start, end])
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`truncate: expected a non-negative integer, got ${n}`)
  const head = (address.startsWith('0x') ? 2 : 0) + start
  // shortening must save characters, otherwise the full address is clearer
  if (address.length <= head + end + 1) return address
  return `${address.slice(0, head)}…${end === 0 ? '' : address.slice(-end)}`
}
