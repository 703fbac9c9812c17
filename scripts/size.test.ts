import { describe, expect, test } from 'vitest'
import { check } from './size.js'

const figure = (gzip: number) => ({ name: 'script build', file: 'sdk/dist/doorway.js', gzip })

describe('check', () => {
  test.each([0, 6143, 6144])('behavior: %i B fits a 6144 B budget', (gzip) => {
    expect(check([figure(gzip)], 6144)).toEqual([])
  })

  test('error: names the file and the overage', () => {
    expect(check([figure(6150), { ...figure(100), file: 'sdk/dist/doorway.mjs' }], 6144)).toMatchInlineSnapshot(`
      [
        "sdk/dist/doorway.js (script build) is 6150 B gzip, 6 B over the 6144 B budget",
      ]
    `)
  })
})
