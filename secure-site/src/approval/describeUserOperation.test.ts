import * as SmartAccount from '@doorway/shared/SmartAccount'
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint128, parseEther, toHex } from 'viem'
import { formatUserOperationRequest, type UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import * as DescribeUserOperation from './describeUserOperation.js'
import { InvalidRequest } from './internal/errors.js'

// The devnet's Delegation Framework addresses (any do for encodings) and anvil's first key as the owner.
const environment: SmartAccount.Environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xFe36d33e04115203d2914caFbf84A949B35e8426',
  SimpleFactory: '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9',
  implementations: { HybridDeleGatorImpl: '0x407B5a261EC38a3F1b5cEBfF931a6Fe647EB07A5' },
}
const owner: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const paymasterAddress: Address = '0x1111111111111111111111111111111111111111'
const account = SmartAccount.counterfactual(owner, environment)
const calls: SmartAccount.Call[] = [{ to: bob, value: parseEther('0.01'), data: '0x' }]

/** An operation as the frame sends it: viem's ERC-7769 JSON of the operation its bundler client prepared. */
function json(change: Partial<UserOperation<'0.7'>> = {}): Record<string, unknown> {
  return formatUserOperationRequest({
    sender: account.address,
    nonce: 0n,
    callData: SmartAccount.encodeCalls(calls),
    callGasLimit: 100_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    ...change,
  }) as Record<string, unknown>
}
const sponsored = { paymaster: paymasterAddress, paymasterVerificationGasLimit: 40_000n, paymasterPostOpGasLimit: 10_000n, paymasterData: '0xabcdef' as Hex }
const parse = (input: unknown) => DescribeUserOperation.parse(input, { owner, environment })

describe('parse', () => {
  test('behavior: reads every field, numbers as bigints, and the calls its callData holds', () => {
    const { operation, calls: read } = parse(json({ nonce: 7n, ...sponsored }))
    expect(operation).toEqual({
      sender: account.address,
      nonce: 7n,
      callData: SmartAccount.encodeCalls(calls),
      callGasLimit: 100_000n,
      verificationGasLimit: 300_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      ...sponsored,
    })
    expect(read).toEqual(calls)
  })

  test('behavior: the account\'s own deployment is taken, in any letter case', () => {
    const { operation } = parse(json({ factory: account.factory.toLowerCase() as Address, factoryData: account.factoryData.toUpperCase().replace('0X', '0x') as Hex }))
    expect([operation.factory, operation.factoryData]).toEqual([account.factory, account.factoryData])
  })

  test('behavior: zero paymaster gas limits without a paymaster (viem fills them from the estimate) are not signed', () => {
    const { operation } = parse(json({ paymasterVerificationGasLimit: 0n, paymasterPostOpGasLimit: 0n }))
    expect(operation).not.toHaveProperty('paymasterVerificationGasLimit')
    expect(operation).not.toHaveProperty('paymasterPostOpGasLimit')
  })

  test('behavior: a stub signature is checked for its type and dropped', () => {
    expect(parse({ ...json(), signature: SmartAccount.stubSignature }).operation).not.toHaveProperty('signature')
    expect(() => parse({ ...json(), signature: 42 })).toThrow('eth_signUserOperation: signature is not 0x-prefixed hex bytes')
  })

  test('error: an operation for another account, even one of this owner under another implementation', () => {
    const other = SmartAccount.counterfactual(owner, { ...environment, implementations: { HybridDeleGatorImpl: token } })
    expect(() => parse(json({ sender: other.address }))).toThrow("eth_signUserOperation: sender is not this wallet's smart account")
    expect(() => parse(json({ sender: owner }))).toThrow("sender is not this wallet's smart account")
  })

  test.each([
    ['another factory', { factory: bob, factoryData: account.factoryData }],
    ['another factory call', { factory: account.factory, factoryData: SmartAccount.counterfactual(bob, environment).factoryData }],
    ['factoryData with a byte more', { factory: account.factory, factoryData: `${account.factoryData}00` as Hex }],
  ])('error: %s is refused', (_, change) => {
    expect(() => parse(json(change))).toThrow("eth_signUserOperation: factory and factoryData do not deploy this wallet's smart account")
  })

  test.each([
    ['a factory without its data', { factory: account.factory }],
    ['factoryData without a factory', { factoryData: account.factoryData }],
  ])('error: %s', (_, change) => {
    expect(() => parse(json(change))).toThrow('eth_signUserOperation: factory and factoryData go together')
  })

  test.each([
    ['paymasterData', { paymasterData: '0x' }, 'paymasterData without a paymaster'],
    ['a non-zero paymaster gas limit', { paymasterVerificationGasLimit: '0x1' }, 'paymasterVerificationGasLimit without a paymaster'],
    ['a paymaster without its data', { ...json(sponsored), paymasterData: undefined }, 'a paymaster without paymasterData'],
    ['a paymaster without a post-op limit', { ...json(sponsored), paymasterPostOpGasLimit: undefined }, 'a paymaster without paymasterPostOpGasLimit'],
  ])('error: %s: paymaster fields go together', (_, change, message) => {
    expect(() => parse({ ...json(), ...change })).toThrow(`eth_signUserOperation: ${message}`)
  })

  test.each([
    ['another function', encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1n] })],
    ['trailing bytes', `${SmartAccount.encodeCalls(calls)}00`],
    ['no calls', '0x'],
  ])('error: callData with %s cannot be shown', (_, callData) => {
    expect(() => parse({ ...json(), callData })).toThrow('eth_signUserOperation: its calls cannot be shown')
  })

  test('error: a call to the account itself (its owner, keys, code) is not signed here', () => {
    const callData = SmartAccount.encodeCalls([...calls, { to: account.address, value: 0n, data: '0x12345678' }])
    expect(() => parse({ ...json(), callData })).toThrow('eth_signUserOperation: a call to the smart account itself is not signed here')
  })

  test('behavior: a plain transfer to the account itself, with no data, changes nothing and is shown', () => {
    const callData = SmartAccount.encodeCalls([...calls, { to: account.address, value: 0n, data: '0x' }])
    expect(parse({ ...json(), callData }).calls.at(-1)).toEqual({ to: account.address, value: 0n, data: '0x' })
  })

  test('error: a priority fee above the max fee', () => {
    expect(() => parse(json({ maxPriorityFeePerGas: 2_000_000_001n }))).toThrow('maxPriorityFeePerGas is above maxFeePerGas')
  })

  test.each([
    ['an unknown field', { eip7702Auth: {} }, 'unexpected field eip7702Auth'],
    ['a v0.6 initCode', { initCode: '0x' }, 'unexpected field initCode'],
    ['a null factory', { factory: null }, 'factory and factoryData go together'],
    ['no nonce', { nonce: undefined }, 'nonce is not a hex quantity'],
    ['no callData', { callData: undefined }, 'callData is not 0x-prefixed hex bytes'],
    ['a decimal gas limit', { callGasLimit: '100000' }, 'callGasLimit is not a hex quantity'],
    ['a number instead of hex', { preVerificationGas: 50_000 }, 'preVerificationGas is not a hex quantity'],
    ['a quantity with a leading zero', { nonce: '0x07' }, 'nonce is not a hex quantity'],
    ['a fee over uint128', { maxFeePerGas: toHex(maxUint128 + 1n) }, 'maxFeePerGas is too large'],
    ['a gas limit over uint128', { verificationGasLimit: toHex(maxUint128 + 1n) }, 'verificationGasLimit is too large'],
    ['a nonce over uint256', { nonce: `0x1${'0'.repeat(64)}` }, 'nonce is not a hex quantity'],
    ['a sender that is not an address', { sender: '0x1234' }, 'sender is not an address'],
    ['a sender with a wrong checksum', { sender: account.address.replace(/[a-f]/, (c) => c.toUpperCase()) }, 'sender is not an address'],
    ['callData with odd hex digits', { callData: '0x123' }, 'callData is not 0x-prefixed hex bytes'],
    ['callData over 128 KB', { callData: `0x${'00'.repeat(131_073)}` }, 'callData is not 0x-prefixed hex bytes'],
    ['a paymaster that is not an address', { ...sponsored, paymasterVerificationGasLimit: '0x1', paymasterPostOpGasLimit: '0x1', paymaster: 'paymaster' }, 'paymaster is not an address'],
  ])('error: %s', (_, change, message) => {
    expect(() => parse({ ...json(), ...change })).toThrow(`eth_signUserOperation: ${message}`)
  })

  test.each([
    ['a list', [json()]],
    ['a string', JSON.stringify(json())],
    ['null', null],
  ])('error: an operation that is %s', (_, input) => {
    expect(() => parse(input)).toThrow(InvalidRequest)
    expect(() => parse(input)).toThrow('eth_signUserOperation: the operation is not an object')
  })
})
