import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { describe, expect, test } from 'vitest'
import * as SwapArguments from './swapArguments.js'

const networks: Protocol.Network[] = [
  { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
  { caipNetworkId: 'eip155:31338', name: 'Anvil 2', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
]
const dusd = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const native = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

const parse = (args: Parameters<typeof SwapArguments.parse>[0]) => SwapArguments.parse(args, networks)
function thrown(args: Parameters<typeof SwapArguments.parse>[0]) {
  try {
    parse(args)
  } catch (error) {
    return { message: (error as Error).message, config: error instanceof Errors.ConfigError }
  }
  throw new Error('parse did not throw')
}
const error = (name: string, reason: string) => ({ message: `Invalid Swap argument \`${name}\`: ${reason}`, config: true })
const badToken = (name: string) => error(name, 'expected a token symbol, a contract address (0x… or CAIP-10) on one of the app networks, or ETH')

describe('parse', () => {
  test('behavior: no arguments prefills nothing', () => {
    expect(parse({})).toEqual({})
  })

  test('behavior: symbols, kept for the token list to match', () => {
    expect(parse({ fromToken: 'ETH', toToken: 'DUSD', amount: '0.5' })).toEqual({
      from: { kind: 'symbol', symbol: 'ETH' },
      to: { kind: 'symbol', symbol: 'DUSD' },
      amount: '0.5',
    })
  })

  test('behavior: a 0x address, and the 0xeeee… address as the native token', () => {
    expect(parse({ fromToken: native, toToken: dusd })).toEqual({ from: { kind: 'native' }, to: { kind: 'address', address: dusd } })
  })

  test('behavior: a CAIP-10 token names the network', () => {
    expect(parse({ fromToken: `eip155:31338:${dusd}`, toToken: 'ETH' })).toEqual({
      from: { kind: 'address', address: dusd },
      to: { kind: 'symbol', symbol: 'ETH' },
      chainId: 'eip155:31338',
    })
  })

  test.each([
    ['a token on a network the app does not have', { fromToken: `eip155:1:${dusd}` }, badToken('fromToken')],
    ['a token that is no symbol or address', { toToken: '<script>' }, badToken('toToken')],
    ['a short address', { fromToken: '0x1234' }, badToken('fromToken')],
    ['tokens on two networks', { fromToken: `eip155:31337:${dusd}`, toToken: `eip155:31338:${native}` }, badToken('toToken')],
    ['the same token twice', { fromToken: 'dusd', toToken: 'DUSD' }, error('toToken', 'must be another token than fromToken')],
    ['the native token twice', { fromToken: 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', toToken: native }, error('toToken', 'must be another token than fromToken')],
    ['a zero amount', { amount: '0.00' }, error('amount', 'expected a positive decimal number such as 0.01')],
    ['a negative amount', { amount: '-1' }, error('amount', 'expected a positive decimal number such as 0.01')],
    ['an amount as a number', { amount: 1 }, error('amount', 'expected a positive decimal number such as 0.01')],
    ['an unknown argument', { to: dusd }, error('to', 'not one of fromToken, toToken, amount')],
  ])('error: %s', (_, args, expected) => {
    expect(thrown(args)).toEqual(expected)
  })
})
