import * as Constants from './Constants.js'

// Numbers and dates go through Intl only (spec §9: en-US; money 2, quantity 3, default 2 decimals).

/** Shown for input that is not a finite number, instead of 'NaN' or '∞'. */
export const invalid = '—'

// Intl formatters are costly to build and lists format hundreds of values, so reuse them.
const numberFormats = new Map<string, Intl.NumberFormat>()
const dateFormats = new Map<string, Intl.DateTimeFormat>()

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`
  let format = numberFormats.get(key)
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)))
  return format
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)))
  return format
}

// Decimal strings are passed to Intl as they are: token quantities can exceed a double's precision.
function numeric(value: number | string): number | Intl.StringNumericLiteral | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  const text = value.trim()
  return text !== '' && Number.isFinite(Number(text)) ? (text as `${number}`) : undefined
}

/** @example formatMoney(1234.5) // '$1,234.50' */
export function formatMoney(
  value: number | string,
  currency: string = Constants.priceCurrency,
  locale: string = Constants.numberLocale,
): string {
  const n = numeric(value)
  if (n === undefined) return invalid
  const digits = Constants.moneyDecimals
  return numberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n)
}

/** Token amounts, spec §2 history and §9: 3 decimals. @example formatQuantity(1234.5678) // '1,234.568' */
export function formatQuantity(value: number | string, locale: string = Constants.numberLocale): string {
  return formatNumber(value, Constants.quantityDecimals, locale)
}

/** Exactly `decimals` fraction digits. @example formatNumber(0.5) // '0.50' */
export function formatNumber(
  value: number | string,
  decimals: number = Constants.numberDecimals,
  locale: string = Constants.numberLocale,
): string {
  const n = numeric(value)
  if (n === undefined) return invalid
  return numberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(n)
}

/**
 * Transaction-history group title, spec §2: the month name, plus the year when it is not the current
 * year. Both dates are read in local time, the same time zone Intl formats in.
 */
export function formatHistoryMonth(date: Date, now: Date, locale: string = Constants.numberLocale): string {
  if (Number.isNaN(date.getTime())) return invalid
  const sameYear = date.getFullYear() === now.getFullYear()
  return dateFormat(locale, sameYear ? { month: 'long' } : { month: 'long', year: 'numeric' }).format(date)
}

/** A token amount in base units as a decimal string, exactly (no float rounding): 10n ** 18n → '1'. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
