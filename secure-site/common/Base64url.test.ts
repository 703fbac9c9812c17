import { describe, expect, test } from 'vitest'
import * as Base64url from './Base64url.js'

describe('encode', () => {
  test.each([
    [[], ''],
    [[0xfb], '-w'],
    [[0xfb, 0xff], '-_8'],
    [[0xfb, 0xff, 0xbf], '-_-_'],
  ])('behavior: %j is %s: the URL alphabet, no padding', (bytes, text) => {
    expect(Base64url.encode(Uint8Array.from(bytes))).toBe(text)
  })

  test('behavior: agrees with Node for every length up to a block and beyond', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n))
      expect(Base64url.encode(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
    }
  })
})

describe('decode', () => {
  test('behavior: undoes encode', () => {
    const bytes = crypto.getRandomValues(new Uint8Array(65))
    expect(Base64url.decode(Base64url.encode(bytes))).toEqual(bytes)
  })

  test.each([['a+b/'], ['ab=='], ['a b'], ['a']])('error: %j is not base64url', (text) => {
    expect(() => Base64url.decode(text)).toThrow()
  })
})
