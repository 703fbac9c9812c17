import { describe, expect, test } from 'vitest'
import * as Name from './Name.js'

describe('stripZone', () => {
  test.each([
    ['alice.doorway.id', 'alice'],
    ['Alice.Doorway.ID', 'Alice'],
    ['alice', 'alice'],
    ['alice.other.id', 'alice.other.id'],
    ['.doorway.id', ''],
  ])('behavior: %s → %s', (typed, label) => expect(Name.stripZone(typed)).toBe(label))
})

describe('isValidName', () => {
  test.each([['abcd'], ['alice'], ['Alice-99'], ['1234'], ['----'], ['a-b-c-d-e-f'], ['x'.repeat(64)]])(
    'behavior: accepts %s',
    (name) => {
      expect(Name.isValidName(name)).toBe(true)
    },
  )

  test.each([
    ['empty', ''],
    ['3 characters', 'abc'],
    ['underscore', 'ali_ce'],
    ['dot', 'alice.doorway.id'],
    ['space', 'ali ce'],
    ['emoji', 'alice😀'],
    ['non-ASCII letter', 'alicé'],
    ['trailing newline', 'alice\n'],
  ])('behavior: rejects %s', (_, name) => {
    expect(Name.isValidName(name)).toBe(false)
  })

  test.each([[undefined], [null], [12345], [{}], [['alice']]])('param: false for non-string %s', (name) => {
    expect(Name.isValidName(name)).toBe(false)
  })
})

describe('defaultZone', () => {
  test('behavior: is the doorway.id zone', () => {
    expect(Name.defaultZone).toBe('doorway.id')
  })
})

describe('isNameReference', () => {
  test.each(['alice', 'alice.doorway.id', 'Bob-1.example', 'a-b-c'])('behavior: %s is a name to resolve', (value) => {
    expect(Name.isNameReference(value)).toBe(true)
  })
  test.each(['abc', '0xname', '0x70997970C51812dc3A010C7d01b50e0d17dc79C', 'alice..id', 'alice.', 'ali ce', 'alice_1', '', 42])(
    'error: %s is not',
    (value) => {
      expect(Name.isNameReference(value)).toBe(false)
    },
  )
})

describe('registrationMessage', () => {
  const registration = { name: 'alice.doorway.id', attributes: { avatar: 'https://img.test/a.png' }, timestamp: 1_750_000_000, nonce: 'a'.repeat(32) }

  test('behavior: JSON of name, attributes, timestamp and nonce in that order', () => {
    expect(Name.registrationMessage(registration)).toMatchInlineSnapshot(
      `"{"name":"alice.doorway.id","attributes":{"avatar":"https://img.test/a.png"},"timestamp":1750000000,"nonce":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"`,
    )
  })

  test('behavior: the same text whatever order the fields were given in, and nothing else', () => {
    const shuffled = { nonce: registration.nonce, extra: 'dropped', timestamp: registration.timestamp, attributes: registration.attributes, name: registration.name }
    expect(Name.registrationMessage(shuffled)).toBe(Name.registrationMessage(registration))
  })

  test('behavior: parses back to the registration', () => {
    expect(JSON.parse(Name.registrationMessage(registration))).toEqual(registration)
  })
})

describe('ensip11CoinType', () => {
  test.each([
    [1, 2147483649],
    [10, 2147483658],
    [31337, 2147514985],
    [0x7fffffff, 0xffffffff],
  ])('behavior: chain %i is coin type %i (0x80000000 | chainId)', (chainId, coinType) => {
    expect(Name.ensip11CoinType(chainId)).toBe(coinType)
  })

  test.each([[0], [-1], [1.5], [0x80000000], [Number.NaN]])('error: no coin type for chain %s', (chainId) => {
    expect(() => Name.ensip11CoinType(chainId)).toThrow(RangeError)
  })
})
