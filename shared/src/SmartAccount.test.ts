import { Implementation, toMetaMaskSmartAccount } from '@metamask/smart-accounts-kit'
import { encodeCalls as kitEncodeCalls, getCounterfactualAccountData, SIGNABLE_USER_OP_TYPED_DATA } from '@metamask/smart-accounts-kit/utils'
import { ERC1967Proxy } from '@metamask/delegation-abis/bytecode'
import { type Address, createPublicClient, custom, defineChain, encodeFunctionData, erc20Abi, hashTypedData, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import * as SmartAccount from './SmartAccount.js'

// The devnet's addresses (devnet/src/smartAccounts/contracts.ts): any addresses do for encodings.
const environment: SmartAccount.Environment = {
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  DelegationManager: '0xFe36d33e04115203d2914caFbf84A949B35e8426',
  SimpleFactory: '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9',
  implementations: { HybridDeleGatorImpl: '0x407B5a261EC38a3F1b5cEBfF931a6Fe647EB07A5' },
}
const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const bob: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 10n] })

// The kit builds its account offline; a chain it is never asked about.
const client = createPublicClient({ chain: defineChain({ id: 31337, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:1'] } } }), transport: custom({ request: () => Promise.reject(new Error('offline')) }) })
process.env.DO_NOT_TRACK = '1'

describe('counterfactual', () => {
  test('behavior: the address and factory call are the kit’s for a Hybrid account with its default salt', async () => {
    const kit = await getCounterfactualAccountData({ factory: environment.SimpleFactory, implementations: environment.implementations, implementation: Implementation.Hybrid, deployParams: [owner.address, [], [], []], deploySalt: '0x' })
    expect(SmartAccount.counterfactual(owner.address, environment)).toEqual({ address: kit.address, factory: environment.SimpleFactory, factoryData: kit.factoryData })
  })

  test('behavior: another owner or another implementation is another account', () => {
    const mine = SmartAccount.counterfactual(owner.address, environment).address
    expect(SmartAccount.counterfactual(bob, environment).address).not.toBe(mine)
    expect(SmartAccount.counterfactual(owner.address, { ...environment, implementations: { HybridDeleGatorImpl: bob } }).address).not.toBe(mine)
    expect(SmartAccount.isOwnedBy(mine, owner.address, environment)).toBe(true)
    expect(SmartAccount.isOwnedBy(mine, bob, environment)).toBe(false)
  })

  test('behavior: the proxy bytecode is the one @metamask/delegation-abis ships', () => {
    expect(SmartAccount.proxyBytecode).toBe(ERC1967Proxy)
  })
})

describe('encodeCalls', () => {
  test.each([
    ['one native transfer', [{ to: bob, value: parseEther('0.004'), data: '0x' as Hex }]],
    ['one contract call', [{ to: token, value: 0n, data: transfer }]],
    ['a batch of two', [{ to: bob, value: 1n, data: '0x' as Hex }, { to: token, value: 0n, data: transfer }]],
  ])('behavior: %s encodes as the kit does and reads back', (_, calls) => {
    const encoded = SmartAccount.encodeCalls(calls)
    expect(encoded).toBe(kitEncodeCalls(calls))
    expect(SmartAccount.decodeCalls(encoded)).toEqual(calls.map((c) => ({ ...c, to: c.to })))
  })

  test('error: no calls', () => {
    expect(() => SmartAccount.encodeCalls([])).toThrow('No calls')
  })
})

describe('decodeCalls', () => {
  test('error: another function, trailing bytes or another mode are refused', () => {
    const one = SmartAccount.encodeCalls([{ to: bob, value: 1n, data: '0x' }])
    expect(() => SmartAccount.decodeCalls(transfer)).toThrow()
    expect(() => SmartAccount.decodeCalls(`${one}00`)).toThrow('do not read back')
    const tryMode = `0x0101${'0'.repeat(60)}` as Hex
    const batch = SmartAccount.encodeCalls([{ to: bob, value: 1n, data: '0x' }, { to: bob, value: 2n, data: '0x' }])
    expect(() => SmartAccount.decodeCalls(`${batch.slice(0, 10)}${tryMode.slice(2)}${batch.slice(74)}` as Hex)).toThrow('Unsupported execution mode')
  })
})

describe('userOperationTypedData', () => {
  const operation: SmartAccount.UserOperation = {
    sender: SmartAccount.counterfactual(owner.address, environment).address,
    nonce: 3n,
    ...SmartAccount.counterfactual(owner.address, environment),
    callData: SmartAccount.encodeCalls([{ to: bob, value: 1n, data: '0x' }]),
    callGasLimit: 100_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    paymaster: '0x1111111111111111111111111111111111111111',
    paymasterVerificationGasLimit: 40_000n,
    paymasterPostOpGasLimit: 10_000n,
    paymasterData: '0xabcdef',
  }

  test('behavior: the owner’s signature is the kit account’s signUserOperation, byte for byte', async () => {
    const kit = await toMetaMaskSmartAccount({ client, implementation: Implementation.Hybrid, deployParams: [owner.address, [], [], []], deploySalt: '0x', signer: { account: owner }, environment: { ...environment, caveatEnforcers: {}, implementations: { ...environment.implementations, MultiSigDeleGatorImpl: bob, EIP7702StatelessDeleGatorImpl: bob } } })
    const { address: _, ...unsigned } = { ...operation, address: 0 }
    const expected = await kit.signUserOperation({ ...unsigned, chainId: 31337, signature: '0x' })
    const typedData = SmartAccount.userOperationTypedData(operation, { chainId: 31337, entryPoint: environment.EntryPoint })
    expect(typedData.types).toEqual(SIGNABLE_USER_OP_TYPED_DATA)
    expect(await owner.signTypedData(typedData)).toBe(expected)
  })

  test('behavior: the chain, the account and every field are in what is signed', () => {
    const hash = (op: SmartAccount.UserOperation, chainId = 31337) => hashTypedData(SmartAccount.userOperationTypedData(op, { chainId, entryPoint: environment.EntryPoint }))
    const base = hash(operation)
    expect(hash(operation, 31338)).not.toBe(base)
    expect(hash({ ...operation, nonce: 4n })).not.toBe(base)
    expect(hash({ ...operation, paymasterData: '0xabcdee' })).not.toBe(base)
    expect(hash({ ...operation, maxFeePerGas: 2_000_000_001n })).not.toBe(base)
  })

  test('behavior: maxCost is every gas limit at the highest fee, and nothing when a paymaster pays', () => {
    expect(SmartAccount.maxCost(operation)).toBe(0n)
    expect(SmartAccount.maxCost({ ...operation, paymaster: undefined })).toBe(450_000n * 2_000_000_000n)
  })
})
