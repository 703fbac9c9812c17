import { describe, expect, test } from 'vitest'
import * as Caip from './Caip.js'
import { CaipError } from './Errors.js'

const evm = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'
const sol = '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv'
const solMainnet = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const dot = '91b171bb158e2d3848fa23a9f1c25182'
const btc = '000000000019d6689c085ae165831e93'

const validChainIds = [
  ['eip155:1', 'eip155', '1'],
  ['eip155:137', 'eip155', '137'],
  ['eip155:11155111', 'eip155', '11155111'],
  [`solana:${solMainnet}`, 'solana', solMainnet],
  [`polkadot:${dot}`, 'polkadot', dot],
  [`bip122:${btc}`, 'bip122', btc],
  ['bip122:a-b_C', 'bip122', 'a-b_C'],
  [`polkadot:${'a'.repeat(32)}`, 'polkadot', 'a'.repeat(32)],
] as const

const invalidChainIds = [
  ['empty string', ''],
  ['one part', 'eip155'],
  ['three parts', 'eip155:1:2'],
  ['empty namespace', ':1'],
  ['empty reference', 'eip155:'],
  ['only a colon', ':'],
  ['unknown namespace', 'cosmos:cosmoshub-4'],
  ['upper-case namespace', 'EIP155:1'],
  ['eip155 leading zero', 'eip155:01'],
  ['eip155 zero', 'eip155:0'],
  ['eip155 hex', 'eip155:0x1'],
  ['eip155 negative', 'eip155:-1'],
  ['reference over 32 chars', `solana:${'a'.repeat(33)}`],
  ['eip155 reference over 32 digits', `eip155:1${'0'.repeat(32)}`],
  ['reference with a dot', 'polkadot:a.b'],
  ['reference with a space', 'solana:ab cd'],
  ['surrounding whitespace', ' eip155:1'],
] as const

const validAccountIds = [
  [`eip155:1:${evm}`, 'eip155', '1', evm],
  [`eip155:1:${evm.slice(2)}`, 'eip155', '1', evm.slice(2)],
  [`solana:${solMainnet}:${sol}`, 'solana', solMainnet, sol],
  [`polkadot:${dot}:5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY`, 'polkadot', dot, '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'],
  [`bip122:${btc}:128Lkh3S7CkDTBZ8W7BbpsN3YYizJMp8p6`, 'bip122', btc, '128Lkh3S7CkDTBZ8W7BbpsN3YYizJMp8p6'],
  [`bip122:${btc}:a.b-c%20`, 'bip122', btc, 'a.b-c%20'],
  [`polkadot:${dot}:${'a'.repeat(128)}`, 'polkadot', dot, 'a'.repeat(128)],
] as const

const invalidAccountIds = [
  ['empty string', ''],
  ['one part', evm],
  ['two parts', `eip155:${evm}`],
  ['four parts', `eip155:1:${evm}:x`],
  ['empty namespace', `:1:${evm}`],
  ['empty reference', `eip155::${evm}`],
  ['empty address', 'eip155:1:'],
  ['unknown namespace', `cosmos:cosmoshub-4:${evm}`],
  ['bad chain reference', `eip155:01:${evm}`],
  ['evm address 39 hex digits', `eip155:1:${evm.slice(0, -1)}`],
  ['evm address 41 hex digits', `eip155:1:${evm}a`],
  ['evm address with a non-hex digit', `eip155:1:0x${'g'.repeat(40)}`],
  ['evm address with upper-case 0X', `eip155:1:0X${evm.slice(2)}`],
  ['solana address on eip155', `eip155:1:${sol}`],
  ['solana address 31 chars', `solana:${solMainnet}:${sol.slice(0, 31)}`],
  ['solana address 45 chars', `solana:${solMainnet}:${sol}1`],
  ['solana address with 0', `solana:${solMainnet}:0${sol.slice(1)}`],
  ['solana address with l', `solana:${solMainnet}:l${sol.slice(1)}`],
  ['evm address on solana', `solana:${solMainnet}:${evm}`],
  ['address over 128 chars', `polkadot:${dot}:${'a'.repeat(129)}`],
  ['address with a slash', `bip122:${btc}:a/b`],
] as const

describe('parseChainId', () => {
  test.each(validChainIds)('behavior: parses %s', (id, namespace, reference) => {
    expect(Caip.parseChainId(id)).toEqual({ namespace, reference })
  })

  test.each(invalidChainIds)("error: rejects %s with 'Invalid CAIP-2 network id'", (_, id) => {
    expect(catchError(() => Caip.parseChainId(id))).toMatchObject({
      name: 'CaipError',
      message: 'Invalid CAIP-2 network id',
      input: id,
    })
  })

  test('error: keeps the input on the error, not in the message', () => {
    const error = catchError(() => Caip.parseChainId('cosmos:hub'))
    expect(error).toBeInstanceOf(CaipError)
    expect(error).toMatchObject({ message: 'Invalid CAIP-2 network id', input: 'cosmos:hub', code: 32603 })
  })

  test.each([[undefined], [null], [1], [{}], [['eip155', '1']]])('error: rejects non-string %j', (id) => {
    expect(() => Caip.parseChainId(id as never)).toThrowError('Invalid CAIP-2 network id')
  })
})

describe('parseAccountId', () => {
  test.each(validAccountIds)('behavior: parses %s', (id, namespace, reference, address) => {
    expect(Caip.parseAccountId(id)).toEqual({ namespace, reference, address, chainId: `${namespace}:${reference}` })
  })

  test.each(invalidAccountIds)("error: rejects %s with 'Invalid CAIP-10 address'", (_, id) => {
    expect(catchError(() => Caip.parseAccountId(id))).toMatchObject({
      name: 'CaipError',
      message: 'Invalid CAIP-10 address',
      input: id,
    })
  })

  test('error: keeps the input on the error, not in the message', () => {
    const error = catchError(() => Caip.parseAccountId('eip155:1:0x12'))
    expect(error).toBeInstanceOf(CaipError)
    expect(error).toMatchObject({ message: 'Invalid CAIP-10 address', input: 'eip155:1:0x12', code: 5000 })
  })

  test.each([[undefined], [null], [42], [{ toString: () => `eip155:1:${evm}` }]])('error: rejects non-string %j', (id) => {
    expect(() => Caip.parseAccountId(id as never)).toThrowError('Invalid CAIP-10 address')
  })
})

describe('formatChainId', () => {
  test.each(validChainIds)('behavior: formats %s', (id, namespace, reference) => {
    expect(Caip.formatChainId(namespace, reference)).toBe(id)
  })

  test.each([
    ['eip155', ''],
    ['eip155', '01'],
    ['solana', 'a:b'],
    ['cosmos', 'cosmoshub-4'],
  ])("error: rejects %s + '%s'", (namespace, reference) => {
    expect(catchError(() => Caip.formatChainId(namespace as Caip.Namespace, reference))).toMatchObject({
      message: 'Invalid CAIP-2 network id',
      input: `${namespace}:${reference}`,
    })
  })
})

describe('formatAccountId', () => {
  test.each(validAccountIds)('behavior: formats %s', (id, namespace, reference, address) => {
    expect(Caip.formatAccountId(`${namespace}:${reference}`, address)).toBe(id)
  })

  test.each([
    ['eip155:1', ''],
    ['eip155:1', '0x12'],
    ['eip155:01', evm],
    ['eip155:1', `${evm}:x`],
    ['cosmos:hub', 'abc'],
  ])("error: rejects %s + '%s' with 'Invalid CAIP-10 address'", (chainId, address) => {
    expect(() => Caip.formatAccountId(chainId as Caip.ChainId, address)).toThrowError('Invalid CAIP-10 address')
  })
})

describe('isChainId', () => {
  test.each(validChainIds)('behavior: true for %s', (id) => {
    expect(Caip.isChainId(id)).toBe(true)
  })

  test.each(invalidChainIds)('behavior: false for %s', (_, id) => {
    expect(Caip.isChainId(id)).toBe(false)
  })

  test.each([[undefined], [null], [1], [true], [{}], [Symbol('eip155:1')], [`eip155:1:${evm}`]])(
    'param: false without throwing for %s',
    (x) => {
      expect(Caip.isChainId(x)).toBe(false)
    },
  )
})

describe('isAccountId', () => {
  test.each(validAccountIds)('behavior: true for %s', (id) => {
    expect(Caip.isAccountId(id)).toBe(true)
  })

  test.each(invalidAccountIds)('behavior: false for %s', (_, id) => {
    expect(Caip.isAccountId(id)).toBe(false)
  })

  test.each([[undefined], [null], [1], [false], [[]], [Symbol('x')], ['eip155:1']])(
    'param: false without throwing for %s',
    (x) => {
      expect(Caip.isAccountId(x)).toBe(false)
    },
  )
})

describe('namespaces', () => {
  test('behavior: lists the spec §3 namespaces', () => {
    expect(Caip.namespaces).toEqual(['eip155', 'solana', 'polkadot', 'bip122'])
  })
})

function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('eip155Hex', () => {
  test.each([
    ['eip155:1', '0x1'],
    ['eip155:31337', '0x7a69'],
    ['eip155:8453', '0x2105'],
  ])('behavior: %s is %s', (chainId, hex) => {
    expect(Caip.eip155Hex(chainId)).toBe(hex)
  })
})

describe('fromEip155', () => {
  test.each([
    ['0x1', 'eip155:1'],
    ['0x7a69', 'eip155:31337'],
    ['0x7A69', 'eip155:31337'],
    ['0X2105', 'eip155:8453'],
    ['31337', 'eip155:31337'],
    ['11155111', 'eip155:11155111'],
    [1, 'eip155:1'],
    [8453, 'eip155:8453'],
    [31337n, 'eip155:31337'],
    ['eip155:1', 'eip155:1'],
    ['eip155:31337', 'eip155:31337'],
  ])('behavior: %s is %s', (value, chainId) => {
    expect(Caip.fromEip155(value)).toBe(chainId)
  })

  test.each([
    ['negative number', -1],
    ['negative decimal', '-1'],
    ['negative hex', '-0x1'],
    ['zero', 0],
    ['zero hex', '0x0'],
    ['non-integer number', 1.5],
    ['non-integer decimal', '1.5'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['above the safe integers', 2 ** 53],
    ['hex above the safe integers', '0xffffffffffffffff'],
    ['empty string', ''],
    ['bare 0x', '0x'],
    ['non-hex digits', '0xg1'],
    ['junk', 'mainnet'],
    ['surrounding whitespace', ' 1'],
    ['exponent notation', '1e3'],
    ['undefined', undefined],
    ['null', null],
    ['object', {}],
    ['eip155 leading zero', 'eip155:01'],
    ['eip155 zero', 'eip155:0'],
    ['eip155 hex', 'eip155:0x1'],
    ['eip155 account id', `eip155:1:${evm}`],
    ['other namespace', `solana:${solMainnet}`],
    ['other namespace, numeric reference', 'bip122:1'],
  ])('error: undefined for %s', (_, value) => {
    expect(Caip.fromEip155(value)).toBeUndefined()
  })

  test.each(['eip155:1', 'eip155:31337', 'eip155:8453'])('behavior: round-trips %s through eip155Hex', (chainId) => {
    expect(Caip.fromEip155(Caip.eip155Hex(chainId))).toBe(chainId)
  })
})
