import { describe, expect, test } from 'vitest'
import * as Address from './Address.js'

const evm = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'
const sol = '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv'

describe('isEvmAddress', () => {
  test.each([
    ['with 0x prefix', evm],
    ['without prefix', evm.slice(2)],
    ['all lower case', evm.toLowerCase()],
    ['all upper-case digits', `0x${evm.slice(2).toUpperCase()}`],
    ['zero address', `0x${'0'.repeat(40)}`],
  ])('behavior: accepts %s', (_, s) => {
    expect(Address.isEvmAddress(s)).toBe(true)
  })

  test.each([
    ['empty', ''],
    ['bare prefix', '0x'],
    ['39 hex digits', evm.slice(0, -1)],
    ['41 hex digits', `${evm}a`],
    ['39 digits without prefix', evm.slice(3)],
    ['non-hex digit', `0x${'0'.repeat(39)}g`],
    ['upper-case 0X prefix', `0X${evm.slice(2)}`],
    ['double prefix', `0x0x${evm.slice(4)}`],
    ['surrounding whitespace', ` ${evm}`],
    ['trailing newline', `${evm}\n`],
    ['solana address', sol],
  ])('behavior: rejects %s', (_, s) => {
    expect(Address.isEvmAddress(s)).toBe(false)
  })

  test.each([[undefined], [null], [0x1234], [123n], [{}], [[evm]]])('param: false for non-string %s', (s) => {
    expect(Address.isEvmAddress(s)).toBe(false)
  })
})

describe('isSolanaAddress', () => {
  test.each([
    ['44 chars', sol],
    ['32 chars', '1'.repeat(32)],
    ['43 chars', 'So11111111111111111111111111111111111111112'],
    ['system program', '11111111111111111111111111111111'],
  ])('behavior: accepts %s', (_, s) => {
    expect(Address.isSolanaAddress(s)).toBe(true)
  })

  test.each([
    ['empty', ''],
    ['31 chars', '1'.repeat(31)],
    ['45 chars', `${sol}1`],
    ['contains 0', `0${sol.slice(1)}`],
    ['contains O', `O${sol.slice(1)}`],
    ['contains I', `I${sol.slice(1)}`],
    ['contains l', `l${sol.slice(1)}`],
    ['contains +', `+${sol.slice(1)}`],
    ['surrounding whitespace', ` ${sol}`],
    ['evm address', evm],
  ])('behavior: rejects %s', (_, s) => {
    expect(Address.isSolanaAddress(s)).toBe(false)
  })

  test.each([[undefined], [null], [1], [{}], [[sol]]])('param: false for non-string %s', (s) => {
    expect(Address.isSolanaAddress(s)).toBe(false)
  })
})

describe('truncate', () => {
  test.each([
    ['evm keeps 0x plus 4', evm, undefined, '0xab16…fcdb'],
    ['solana', sol, undefined, '7S3P…AaKv'],
    ['no prefix', evm.slice(2), undefined, 'ab16…fcdb'],
  ])('behavior: %s', (_, address, options, expected) => {
    expect(Address.truncate(address, options)).toBe(expected)
  })

  test.each([
    [{ start: 6 }, '0xab16a9…fcdb'],
    [{ end: 6 }, '0xab16…5Bfcdb'],
    [{ start: 2, end: 3 }, '0xab…cdb'],
    [{ start: 0, end: 4 }, '0x…fcdb'],
    [{ start: 4, end: 0 }, '0xab16…'],
  ])('param: %j', (options, expected) => {
    expect(Address.truncate(evm, options)).toBe(expected)
  })

  test.each([
    ['empty', ''],
    ['exactly start + end + 1', '123456789'],
    ['short with prefix', '0x123456789'],
    ['shorter than the ellipsis form', 'abc'],
  ])('behavior: leaves %s unchanged', (_, address) => {
    expect(Address.truncate(address)).toBe(address)
  })

  test('behavior: shortens once it saves a character', () => {
    expect(Address.truncate('1234567890')).toBe('1234…7890')
  })

  test.each([[{ start: -1 }], [{ end: -1 }], [{ start: 1.5 }], [{ end: Number.NaN }]])('error: rejects %j', (options) => {
    expect(() => Address.truncate(evm, options)).toThrowError(RangeError)
  })
})
