// Type-level checks: `npx tsc -p tsconfig.json` fails when one no longer holds.
import type * as Chains from 'viem/chains'
import { describe, expectTypeOf, test } from 'vitest'
import type { Adapter, Modal, NetworkOption, OpenOptions, OpenResult } from './types.js'

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

  test('param: Swap takes its own arguments, not Send\'s', () => {
    expectTypeOf<{ view: 'Swap'; arguments: { fromToken: string; toToken: string; amount: string } }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Swap'; arguments: { fromToken: 'ETH' } }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Swap' }>().toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Swap'; arguments: { to: string } }>().not.toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Swap'; arguments: { amount: number } }>().not.toExtend<OpenOptions>()
    expectTypeOf<{ view: 'Send'; arguments: { fromToken: string } }>().not.toExtend<OpenOptions>()
  })
})

describe('OpenResult', () => {
  test('behavior: includes what the Send flow settles with', () => {
    expectTypeOf<{ status: 'sent'; hash: string; chainId: 'eip155:31337' }>().toExtend<OpenResult>()
  })

  test('behavior: includes what the Swap flow settles with', () => {
    expectTypeOf<{ status: 'swapped'; hash: string; chainId: 'eip155:31337' }>().toExtend<OpenResult>()
  })
})

describe('Modal runtime networks', () => {
  test('param: a viem chain is a network to add; namespaces are the four CAIP ones', () => {
    expectTypeOf<typeof Chains.base>().toExtend<NetworkOption>()
    expectTypeOf<Parameters<Modal['addNetwork']>[0]>().toEqualTypeOf<'eip155' | 'solana' | 'polkadot' | 'bip122'>()
    expectTypeOf<{ namespace: 'solana' }>().toExtend<Adapter>()
    expectTypeOf<{ namespace: 'cosmos' }>().not.toExtend<Adapter>()
    expectTypeOf<Parameters<Modal['removeNetwork']>[1]>().toEqualTypeOf<string | number>()
  })
})
