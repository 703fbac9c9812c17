import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { describe, expect, test } from 'vitest'
import * as SendArguments from './sendArguments.js'

const networks: Protocol.Network[] = [
  { caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
  { caipNetworkId: 'eip155:31338', name: 'Anvil 2', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
]
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const receiver = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const parse = (args: Parameters<typeof SendArguments.parse>[0]) => SendArguments.parse(args, networks)

/** The error parse throws, to check its class and exact message together. */
function thrown(args: Parameters<typeof SendArguments.parse>[0]): { name: string; message: string; config: boolean } {
  try {
    parse(args)
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message, config: error instanceof Errors.ConfigError }
  }
  throw new Error('parse did not throw')
}
const error = (name: string, reason: string) => ({ name: 'ConfigError', message: `Invalid Send argument \`${name}\`: ${reason}`, config: true })
const badChainId = error('chainId', 'expected one of the app networks')
const badAsset = error('assetAddress', 'expected a token contract address (0x… or CAIP-10) on one of the app networks')
const badAmount = error('amount', 'expected a positive decimal number such as 0.01')
const badTo = error('to', 'expected an address or a name')

describe('parse', () => {
  test('behavior: no arguments is the native token, nothing else', () => {
    expect(parse({})).toEqual({ asset: 'native' })
  })

  test('behavior: a 0x contract address, no chain', () => {
    expect(parse({ assetAddress: usdc })).toEqual({ asset: usdc })
  })

  test('behavior: a CAIP-10 contract sets the chain', () => {
    expect(parse({ assetAddress: `eip155:31338:${usdc}` })).toEqual({ asset: usdc, chainId: 'eip155:31338' })
  })

  test('behavior: a CAIP-10 contract on the chain given', () => {
    expect(parse({ assetAddress: `eip155:31337:${usdc}`, chainId: 31337 })).toEqual({ asset: usdc, chainId: 'eip155:31337' })
  })

  test('behavior: every argument', () => {
    expect(parse({ assetAddress: usdc, amount: '12.5', to: receiver, chainId: 'eip155:31338' })).toMatchInlineSnapshot(`
      {
        "amount": "12.5",
        "asset": "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        "chainId": "eip155:31338",
        "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      }
    `)
  })

  test.each<[string, string | number]>([
    ['a number', 31337],
    ['a decimal string', '31337'],
    ['a hex string', '0x7a69'],
    ['an uppercase hex string', '0x7A69'],
    ['CAIP-2', 'eip155:31337'],
  ])('param: chainId as %s', (_, chainId) => {
    expect(parse({ chainId })).toEqual({ asset: 'native', chainId: 'eip155:31337' })
  })

  test.each<[string, string | number]>([
    ['a chain the app has not configured', 1],
    ['a CAIP-2 chain the app has not configured', 'eip155:1'],
    ['another namespace', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    ['zero', 0],
    ['a negative number', -31337],
    ['a fraction', 31337.5],
    ['a word', 'anvil'],
    ['an empty string', ''],
    ['CAIP-2 without a reference', 'eip155:'],
  ])('error: chainId as %s', (_, chainId) => {
    expect(thrown({ chainId })).toEqual(badChainId)
  })

  test('error: the chainId message is exactly the one the spec asks', () => {
    expect(() => parse({ chainId: 1 })).toThrow('Invalid Send argument `chainId`: expected one of the app networks')
  })

  test.each<[string, string | number]>([
    ['a CAIP-10 contract on another chain than chainId', `eip155:31337:${usdc}`],
    ['a CAIP-10 contract on a chain the app has not configured', `eip155:1:${usdc}`],
    ['39 hex digits', usdc.slice(0, -1)],
    ['41 hex digits', `${usdc}0`],
    ['no 0x', usdc.slice(2)],
    ['a name', 'usdc.doorway.id'],
    ['the word native', 'native'],
    ['a number', 1],
    ['a CAIP-10 address of another namespace', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv'],
  ])('error: assetAddress as %s', (_, assetAddress) => {
    expect(thrown({ assetAddress, chainId: 'eip155:31338' })).toEqual(badAsset)
  })

  test.each([['1'], ['0.01'], ['.5'], ['1.'], ['1000000']])('param: amount %s', (amount) => {
    expect(parse({ amount })).toEqual({ asset: 'native', amount })
  })

  test.each<[string, string | number]>([
    ['zero', '0'],
    ['zero with decimals', '0.000'],
    ['negative', '-1'],
    ['a word', 'abc'],
    ['exponent notation', '1e5'],
    ['an empty string', ''],
    ['a comma', '0,01'],
    ['a number instead of a string', 0.01],
  ])('error: amount as %s', (_, amount) => {
    expect(thrown({ amount })).toEqual(badAmount)
  })

  test.each([
    ['an address', receiver],
    ['a lowercase address', receiver.toLowerCase()],
    ['a name in the zone', 'alice.doorway.id'],
    ['a bare name', 'alice'],
  ])('param: to as %s', (_, to) => {
    expect(parse({ to })).toEqual({ asset: 'native', to })
  })

  test.each<[string, string | number]>([
    ['a name too short', 'abc'],
    ['a space', 'al ice'],
    ['an underscore', 'al_ice'],
    ['an empty string', ''],
    ['a number', 42],
    ['an empty zone part', 'alice..id'],
    // parseReceiver refuses these in the flow; open() should say so at once
    ['39 hex digits after 0x (a truncated address)', receiver.slice(0, -1)],
    ['0x and a name', '0xname'],
  ])('error: to as %s', (_, to) => {
    expect(thrown({ to })).toEqual(badTo)
  })

  test('error: an unknown key', () => {
    expect(thrown({ foo: 'bar' })).toEqual(error('foo', 'not one of assetAddress, amount, to, chainId'))
  })

  test('error: an unknown key is named even beside valid ones', () => {
    expect(() => parse({ amount: '1', token: usdc })).toThrow('Invalid Send argument `token`: not one of assetAddress, amount, to, chainId')
  })

  test('error: the first bad argument is named when there are several', () => {
    expect(thrown({ chainId: 1, amount: 'abc' })).toEqual(badChainId)
  })

  test('behavior: a network of another namespace is never a send chain', () => {
    const solana: Protocol.Network = { caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', name: 'Solana', nativeCurrency: { name: 'Sol', symbol: 'SOL', decimals: 9 }, testnet: false }
    expect(() => SendArguments.parse({ chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }, [solana])).toThrow(Errors.ConfigError)
  })
})
