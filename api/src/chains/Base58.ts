/**
 * Base58 (Bitcoin's alphabet) and Base58Check, for telling real Solana and legacy Bitcoin addresses
 * from strings that merely use the alphabet. Decoding only: the api never makes addresses.
 */
import { createHash } from 'node:crypto'

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** The bytes `text` encodes, or undefined when it is not base58 (or longer than any address). */
export function decode(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length > 128) return undefined
  let n = 0n
  for (const char of text) {
    const digit = alphabet.indexOf(char)
    if (digit < 0) return undefined
    n = n * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  for (; n > 0n; n >>= 8n) bytes.push(Number(n & 0xffn))
  // Each leading '1' is a leading zero byte.
  let zeros = 0
  while (text[zeros] === '1') zeros++
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()])
}

/** The payload of a Base58Check string (its 4-byte double-SHA-256 checksum verified), or undefined. */
export function decodeCheck(text: string): Uint8Array | undefined {
  const bytes = decode(text)
  if (!bytes || bytes.length < 5) return undefined
  const payload = bytes.subarray(0, -4)
  const sum = sha256(sha256(payload)).subarray(0, 4)
  return sum.every((byte, i) => byte === bytes[bytes.length - 4 + i]) ? payload : undefined
}

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest())
