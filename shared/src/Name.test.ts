import { describe, expect, test } from 'vitest'
import * as Name from './Name.js'

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
