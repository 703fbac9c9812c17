import { describe, expect, test } from 'vitest'
import * as Format from './Format.js'

const nonFinite = [[Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY], ['abc'], [''], ['  '], ['1,000'], ['Infinity']] as const

describe('formatMoney', () => {
  test.each([
    [1234.5, '$1,234.50'],
    ['1234.5', '$1,234.50'],
    [0, '$0.00'],
    [0.005, '$0.01'],
    [0.004, '$0.00'],
    [-12.3, '-$12.30'],
    [1_000_000, '$1,000,000.00'],
    [' 7 ', '$7.00'],
  ])('behavior: %j → %s', (value, expected) => {
    expect(Format.formatMoney(value)).toBe(expected)
  })

  test.each([
    ['eur', undefined, '€1,234.50'],
    ['EUR', 'de-DE', '1.234,50\u00a0€'],
    ['usd', 'en-GB', 'US$1,234.50'],
  ])('param: currency %s, locale %s', (currency, locale, expected) => {
    expect(Format.formatMoney(1234.5, currency, locale)).toBe(expected)
  })

  test.each(nonFinite)("behavior: %j is shown as '—'", (value) => {
    expect(Format.formatMoney(value)).toBe('—')
  })

  test('error: an invalid currency code throws RangeError', () => {
    expect(() => Format.formatMoney(1, 'dollars')).toThrowError(RangeError)
  })
})

describe('formatQuantity', () => {
  test.each([
    [1234.5678, '1,234.568'],
    [1, '1.000'],
    [0.0004, '0.000'],
    ['0.0005', '0.001'],
    // decimal strings keep their precision beyond a double's 15–17 digits
    ['123456789012345678901.1235', '123,456,789,012,345,678,901.124'],
  ])('behavior: %j → %s', (value, expected) => {
    expect(Format.formatQuantity(value)).toBe(expected)
  })

  test('param: locale', () => {
    expect(Format.formatQuantity(1234.5678, 'de-DE')).toBe('1.234,568')
  })

  test.each(nonFinite)("behavior: %j is shown as '—'", (value) => {
    expect(Format.formatQuantity(value)).toBe('—')
  })
})

describe('formatNumber', () => {
  test.each([
    [1234.567, '1,234.57'],
    [0.5, '0.50'],
    ['42', '42.00'],
    [-0.001, '-0.00'],
  ])('behavior: %j → %s with 2 decimals by default', (value, expected) => {
    expect(Format.formatNumber(value)).toBe(expected)
  })

  test.each([
    [0, '1,235'],
    [4, '1,234.5670'],
  ])('param: %i decimals', (decimals, expected) => {
    expect(Format.formatNumber(1234.567, decimals)).toBe(expected)
  })

  test('param: locale', () => {
    expect(Format.formatNumber(1234.5, 2, 'fr-FR')).toBe('1\u202f234,50')
  })

  test.each(nonFinite)("behavior: %j is shown as '—'", (value) => {
    expect(Format.formatNumber(value)).toBe('—')
  })

  test.each([[-1], [101]])('error: %s decimals throw RangeError', (decimals) => {
    expect(() => Format.formatNumber(1, decimals)).toThrowError(RangeError)
  })
})

describe('formatHistoryMonth', () => {
  // mid-month noon in local time, so no time zone moves a date into another month
  const at = (year: number, month: number) => new Date(year, month - 1, 15, 12)
  const now = at(2025, 6)

  test.each([
    [at(2025, 3), 'March'],
    [at(2025, 6), 'June'],
    [at(2025, 12), 'December'],
    [at(2024, 12), 'December 2024'],
    [at(2023, 1), 'January 2023'],
    [at(2026, 1), 'January 2026'],
  ])('behavior: %s', (date, expected) => {
    expect(Format.formatHistoryMonth(date, now)).toBe(expected)
  })

  test.each([
    [at(2025, 3), 'mars'],
    [at(2024, 3), 'mars 2024'],
  ])('param: locale fr-FR %s', (date, expected) => {
    expect(Format.formatHistoryMonth(date, now, 'fr-FR')).toBe(expected)
  })

  test("behavior: an invalid date is shown as '—'", () => {
    expect(Format.formatHistoryMonth(new Date(Number.NaN), now)).toBe('—')
  })
})

describe('formatUnits', () => {
  test.each<[bigint, number, string]>([
    [10n ** 18n, 18, '1'],
    [1n, 18, '0.000000000000000001'],
    [1234567890000000000000n, 18, '1234.56789'],
    [0n, 18, '0'],
    [-15n, 1, '-1.5'],
    [42n, 0, '42'],
    [10000n * 10n ** 18n, 18, '10000'],
  ])('behavior: %s with %i decimals is %s', (value, decimals, expected) => {
    expect(Format.formatUnits(value, decimals)).toBe(expected)
  })
})
