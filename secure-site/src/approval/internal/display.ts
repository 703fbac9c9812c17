import * as Constants from '@doorway/shared/Constants'
import { formatEther, formatUnits } from 'viem'

// How request values read on the approval screen: numbers through Intl, text that cannot hide or
// reorder what surrounds it.

const grouped = new Intl.NumberFormat(Constants.numberLocale, { maximumFractionDigits: 0 })
// Wei are exact: 18 fraction digits so that no amount is rounded before the person approves it.
const ether = new Intl.NumberFormat(Constants.numberLocale, { maximumFractionDigits: 18 })
const byteCount = new Intl.NumberFormat(Constants.numberLocale, { style: 'unit', unit: 'byte', unitDisplay: 'long' })

/** Longest single value shown before the middle is elided. */
export const maxValueChars = 200

// C0 and C1 controls except tab and line breaks, the Unicode line separators, and the bidi marks and
// overrides that reorder what is read (a spoofed address or amount): text holding them is not shown as is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unsafe = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/

export function isSafeText(text: string): boolean {
  return !unsafe.test(text)
}

/** An integer with digit grouping: 1000000n → '1,000,000'. */
export function integer(value: bigint): string {
  return grouped.format(value)
}

/** An amount in wei as the native currency, exactly: 1500000000000000000n → '1.5 ETH'. */
export function native(wei: bigint, symbol: string, fiat?: { price: number; currency: string }): string {
  return withFiat(`${ether.format(formatEther(wei) as Intl.StringNumericLiteral)} ${symbol}`, formatEther(wei), fiat)
}

// In the dapp's currency, from the frame's price: an estimate beside the exact amount, never instead of it.
function withFiat(amount: string, decimal: string, fiat?: { price: number; currency: string }): string {
  if (!fiat || !Number.isFinite(fiat.price) || fiat.price <= 0) return amount
  const value = new Intl.NumberFormat(undefined, { style: 'currency', currency: fiat.currency, maximumFractionDigits: 2 }).format(Number(decimal) * fiat.price)
  return `${amount} (≈ ${value})`
}

/** Fraction digits an amount is shown with exactly; a token with more decimals shows its base units. */
export const maxDecimals = 18

/** An integer amount of base units with `decimals`, exactly: (1500000n, 6) → '1.5'; undefined over 18 decimals. */
export function units(value: bigint, decimals: number): string | undefined {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > maxDecimals) return undefined
  return ether.format(formatUnits(value, decimals) as Intl.StringNumericLiteral)
}

/** Lamports as SOL, exactly, with the dapp's currency beside it when the frame knows the price. */
export function sol(lamports: bigint, fiat?: { price: number; currency: string }): string {
  return withFiat(`${units(lamports, 9)!} SOL`, formatUnits(lamports, 9), fiat)
}

/** A base58 key shortened for a sentence: 'Es9v…wNYB'; the full value is in a row of its own. */
export function shortKey(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 4)}…${key.slice(-4)}`
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Bytes as text when they are readable UTF-8 that cannot hide what surrounds it; undefined means show them as hex. */
export function text(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return undefined
  let decoded: string
  try {
    decoded = utf8Decoder.decode(bytes)
  } catch {
    return undefined // not UTF-8: shown as hex, which is the answer, not an error
  }
  return isSafeText(decoded) ? decoded : undefined
}

/** A data length: 68 → '68 bytes'. */
export function bytes(length: number): string {
  return byteCount.format(length)
}

/** Keeps the start and the end of a long value, eliding the middle. */
export function shorten(text: string, max: number = maxValueChars): string {
  if (text.length <= max) return text
  const head = Math.ceil((max - 1) / 2)
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`
}

/**
 * A string field as a quoted literal, so its bounds are plain and it cannot fake another line: line
 * breaks, controls and bidi marks are escaped.
 */
export function quote(text: string): string {
  const escaped = JSON.stringify(text).replace(new RegExp(unsafe.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return shorten(escaped)
}
