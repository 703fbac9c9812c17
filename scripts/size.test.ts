import { describe, expect, test } from 'vitest'
import { budget, check } from './size.js'

const figure = (gzip: number) => ({ name: 'script build', file: 'sdk/dist/doorway.js', gzip })

describe('check', () => {
  test.each([0, budget - 1, budget])('behavior: %i B fits the budget', (gzip) => {
    expect(check([figure(gzip)], budget)).toEqual([])
  })

  test('error: names the file and the overage', () => {
    expect(check([figure(budget + 6), { ...figure(100), file: 'sdk/dist/doorway.mjs' }], budget)).toMatchInlineSnapshot(`
      [
        "sdk/dist/doorway.js (script build) is 7174 B gzip, 6 B over the 7168 B budget",
      ]
    `)
  })
})
