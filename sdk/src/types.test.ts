// Type-level checks: `npx tsc -p tsconfig.json` fails when one no longer holds.
import { describe, expectTypeOf, test } from 'vitest'
import type { OpenOptions, OpenResult } from './types.js'

describe('OpenOptions', () => {
  test('param: arguments only with the Send view', () => {
    expectTypeOf<{ view: 'Send'; arguments: { amount: string; to: string } }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Send'; arguments: { assetAddress: string; chainId: number } }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Send' }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Account' }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Account'; arguments: { amount: string } }>().not.toExtend<OpenOptions>()
    expectTypeOf<{ arguments: { amount: string } }>().not.toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Send'; arguments: { amount: number } }>().not.toExtend<OpenOptions>()
  })
})

describe('OpenResult', () => {
  test('behavior: includes what the Send flow settles with', () => {
    expectTypeOf<{ status: 'sent'; hash: string; chainId: 'eip155:31337' }>().toExtend<OpenResult>()
  })
})
