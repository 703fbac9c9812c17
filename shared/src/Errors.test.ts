import { describe, expect, test } from 'vitest'
import * as Errors from './Errors.js'

describe('codes', () => {
  test('behavior: stable numeric codes', () => {
    expect(Errors.codes).toMatchInlineSnapshot(`
      {
        "chainDisconnected": 4901,
        "default": 5000,
        "disconnected": 4900,
        "invalidChainId": 32603,
        "unauthorized": 4100,
        "unrecognizedChain": 4902,
        "unsupportedMethod": 4200,
        "userRejected": 4001,
      }
    `)
  })
})

describe('DoorwayError', () => {
  test('behavior: defaults to code 5000 and carries a name', () => {
    const error = new Errors.DoorwayError('boom')
    expect(error).toBeInstanceOf(Error)
    expect({ name: error.name, code: error.code, message: error.message }).toEqual({
      name: 'DoorwayError',
      code: 5000,
      message: 'boom',
    })
  })

  test('param: code and cause', () => {
    const cause = new Error('inner')
    const error = new Errors.DoorwayError('outer', { code: 4001, cause })
    expect(error.code).toBe(4001)
    expect(error.cause).toBe(cause)
  })

  test('behavior: no cause property without a cause', () => {
    expect('cause' in new Errors.DoorwayError('x')).toBe(false)
  })
})

describe('ConfigError', () => {
  test('behavior: is a DoorwayError with code 5000', () => {
    const error = new Errors.ConfigError('bad option')
    expect(error).toBeInstanceOf(Errors.DoorwayError)
    expect([error.name, error.code, error.message]).toEqual(['ConfigError', 5000, 'bad option'])
  })
})

describe('CaipError', () => {
  test.each([
    ['chainId', 'Invalid CAIP-2 network id', 32603],
    ['accountId', 'Invalid CAIP-10 address', 5000],
  ] as const)('behavior: %s', (kind, message, code) => {
    const error = new Errors.CaipError(kind, 'x:y')
    expect(error).toBeInstanceOf(Errors.DoorwayError)
    expect([error.name, error.message, error.code, error.input]).toEqual(['CaipError', message, code, 'x:y'])
  })
})

const factories = [
  ['userRejected', Errors.userRejected, 4001, 'User rejected the request.'],
  ['unauthorized', Errors.unauthorized, 4100, 'The requested method and/or account has not been authorized by the user.'],
  ['unsupportedMethod', Errors.unsupportedMethod, 4200, 'The requested method is not supported by this Ethereum provider.'],
  ['disconnected', Errors.disconnected, 4900, 'The provider is disconnected from all chains.'],
  ['chainDisconnected', Errors.chainDisconnected, 4901, 'The provider is disconnected from the specified chain.'],
  ['unrecognizedChain', Errors.unrecognizedChain, 4902, 'Unrecognized chain ID.'],
] as const

describe.each(factories)('%s', (_, factory, code, message) => {
  test('behavior: ProviderRpcError with the EIP-1193 code and text', () => {
    const error = factory()
    expect(error).toBeInstanceOf(Errors.ProviderRpcError)
    expect([error.name, error.code, error.message]).toEqual(['ProviderRpcError', code, message])
  })

  test('param: custom message', () => {
    expect(factory('wallet said no').message).toBe('wallet said no')
  })
})

describe('fromCode', () => {
  test.each<[number, string]>([
    ...factories.map(([, , code, message]): [number, string] => [code, message]),
    [32603, 'Invalid CAIP-2 network id'],
  ])('behavior: %i is a ProviderRpcError with its standard text', (code, message) => {
    const error = Errors.fromCode(code)
    expect(error).toBeInstanceOf(Errors.ProviderRpcError)
    expect([error.code, error.message]).toEqual([code, message])
  })

  test.each([
    [5000, undefined, 'Something went wrong'],
    [-32000, undefined, 'Something went wrong'],
    [-32000, 'execution reverted', 'execution reverted'],
  ])('behavior: %i keeps its code as a plain DoorwayError', (code, message, expected) => {
    const error = Errors.fromCode(code, message)
    expect(error).not.toBeInstanceOf(Errors.ProviderRpcError)
    expect([error.name, error.code, error.message]).toEqual(['DoorwayError', code, expected])
  })

  test.each([
    [4001, 'User rejected the request.'],
    [5000, 'Something went wrong'],
  ])('param: an empty message falls back to the standard text (%i)', (code, message) => {
    expect(Errors.fromCode(code, '').message).toBe(message)
  })
})

describe.each([
  ['siweAndSiwx', () => Errors.siweAndSiwx(), 'ConfigError', 'Cannot set both `siweConfig` and `siwx` options'],
  ['invalidOption', () => Errors.invalidOption('networks'), 'ConfigError', 'Invalid option `networks`'],
  ['featureOff', () => Errors.featureOff('Swap', 'swaps'), 'ConfigError', 'The Swap view needs features.swaps to be on'],
  ['notInitialized', () => Errors.notInitialized(), 'DoorwayError', 'The wallet modal is not initialised yet'],
  ['aborted', () => Errors.aborted(), 'DoorwayError', 'Request was aborted'],
  ['timedOut', () => Errors.timedOut(), 'DoorwayError', 'Request timed out'],
  ['frameUnavailable', () => Errors.frameUnavailable(), 'DoorwayError', 'Unable to load the wallet modal'],
])('%s', (_, create, name, message) => {
  test('behavior: code 5000 with its message', () => {
    const error = create()
    expect([error.name, error.code, error.message]).toEqual([name, 5000, message])
  })
})

describe('serialize', () => {
  test.each([
    ['ProviderRpcError', Errors.userRejected(), { code: 4001, message: 'User rejected the request.' }],
    ['CaipError', new Errors.CaipError('accountId', 'x'), { code: 5000, message: 'Invalid CAIP-10 address' }],
    ['wallet error shape', { code: -32000, message: 'insufficient funds', stack: 'x' }, { code: -32000, message: 'insufficient funds' }],
    ['plain Error', new Error('internal detail'), { code: 5000, message: 'Something went wrong' }],
    ['string', 'oops', { code: 5000, message: 'Something went wrong' }],
    ['undefined', undefined, { code: 5000, message: 'Something went wrong' }],
  ])('behavior: %s', (_, err, expected) => {
    const serialized = Errors.serialize(err)
    expect(serialized).toEqual(expected)
    expect(Object.keys(serialized)).toEqual(['code', 'message'])
  })

  test('behavior: survives structured clone and round-trips', () => {
    const clone = structuredClone(Errors.serialize(Errors.chainDisconnected()))
    const error = Errors.deserialize(clone)
    expect(error).toBeInstanceOf(Errors.ProviderRpcError)
    expect([error.code, error.message]).toEqual([4901, 'The provider is disconnected from the specified chain.'])
  })
})

describe('deserialize', () => {
  test.each([
    [{ code: 4100, message: 'nope' }, 'ProviderRpcError', 4100, 'nope'],
    [{ code: 5000, message: 'Adapter not found' }, 'DoorwayError', 5000, 'Adapter not found'],
    // The sender always serialises a message; the receiver keeps no table of standard texts (SDK size).
    [{ code: 4902, message: '' }, 'ProviderRpcError', 4902, 'Something went wrong'],
  ])('behavior: rebuilds %j', (x, name, code, message) => {
    const error = Errors.deserialize(x)
    expect([error.name, error.code, error.message]).toEqual([name, code, message])
  })

  test.each([
    [undefined],
    [null],
    ['Something'],
    [4001],
    [{}],
    [{ code: '4001', message: 'x' }],
    [{ code: 4001.5, message: 'x' }],
    [{ code: Number.NaN, message: 'x' }],
    [{ code: 4001 }],
    [{ code: 4001, message: 42 }],
  ])('error: malformed %j falls back to 5000', (x) => {
    const error = Errors.deserialize(x)
    expect(error).toBeInstanceOf(Errors.DoorwayError)
    expect([error.code, error.message]).toEqual([5000, 'Something went wrong'])
  })
})
