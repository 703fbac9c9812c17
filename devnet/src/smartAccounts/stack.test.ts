import { Implementation, toMetaMaskSmartAccount } from '@metamask/smart-accounts-kit'
import { http, parseEther } from 'viem'
import { createBundlerClient, createPaymasterClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as DelegationFramework from '@doorway/shared/DelegationFramework'
import * as Anvil from '../anvil.js'
import * as Contracts from './contracts.js'
import * as SmartAccounts from './stack.js'

// Ports apart from the running stack's and from the other tests' chains.
const chain = { id: 31337, port: 18745, rpcUrl: 'http://127.0.0.1:18745' }
const ports = [{ bundler: 18746, paymaster: 18747 }]
const dead = '0x000000000000000000000000000000000000dEaD'

describe('start', () => {
  let anvil: Anvil.start.ReturnType
  let stack: SmartAccounts.start.ReturnType
  beforeAll(async () => {
    anvil = await Anvil.start({ chains: [chain] })
    stack = await SmartAccounts.start({ chains: [chain], ports })
  }, 120_000)
  afterAll(async () => {
    await stack?.stop()
    await anvil?.stop()
  })

  const { client } = Anvil.clients(chain, dead)
  const smartAccount = async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const { environment } = stack.networks[0]!
    return toMetaMaskSmartAccount({ client, implementation: Implementation.Hybrid, deployParams: [owner.address, [], [], []], deploySalt: '0x', signer: { account: owner }, environment })
  }
  const bundler = () => {
    const { bundlerUrl, paymasterUrl } = stack.networks[0]!
    return createBundlerClient({ client, transport: http(bundlerUrl), paymaster: createPaymasterClient({ transport: http(paymasterUrl) }), pollingInterval: 100 })
  }

  test('behavior: the EntryPoints sit at their canonical addresses and the framework where expectedEnvironment says', async () => {
    for (const { address } of Contracts.entryPoints) expect(await client.getCode({ address })).toMatch(/^0x[0-9a-f]{100,}/)
    expect(stack.networks[0]!.environment).toEqual(Contracts.expectedEnvironment())
    // The secure-site trusts only pinned framework addresses (shared/src/DelegationFramework.ts): the devnet's must be among them.
    expect(Contracts.expectedEnvironment()).toMatchObject(DelegationFramework.devnet)
    expect(await client.getCode({ address: stack.networks[0]!.environment.DelegationManager })).toMatch(/^0x[0-9a-f]{100,}/)
  })

  test('behavior: the bundler serves EntryPoint v0.7 and v0.8', async () => {
    const entryPoints = await bundler().getSupportedEntryPoints()
    expect(entryPoints.map((e) => e.toLowerCase())).toEqual(expect.arrayContaining([Contracts.entryPoint07.toLowerCase(), Contracts.entryPoints[2].address.toLowerCase()]))
  })

  test('behavior: a HybridDeleGator with 0 ETH is deployed by its first operation, which the paymaster pays', async () => {
    const account = await smartAccount()
    expect(await client.getBalance({ address: account.address })).toBe(0n)
    expect(await client.getCode({ address: account.address })).toBeUndefined()
    const hash = await bundler().sendUserOperation({ account, calls: [{ to: dead, value: 0n }, { to: dead, data: '0x' }] })
    const receipt = await bundler().waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster?.toLowerCase()).not.toBe('0x0000000000000000000000000000000000000000')
    expect(await client.getCode({ address: account.address })).toBeTruthy()
    expect(await client.getBalance({ address: account.address })).toBe(0n)
  })

  test('behavior: the account signs as a wallet: ERC-6492 while undeployed, ERC-1271 once deployed', async () => {
    const account = await smartAccount()
    const before = await account.signMessage({ message: 'hello' })
    expect(await client.verifyMessage({ address: account.address, message: 'hello', signature: before })).toBe(true)
    await bundler().waitForUserOperationReceipt({ hash: await bundler().sendUserOperation({ account, calls: [{ to: dead, value: 0n }] }) })
    const after = await account.signMessage({ message: 'hello' })
    expect(after).not.toBe(before)
    expect(await client.verifyMessage({ address: account.address, message: 'hello', signature: after })).toBe(true)
    expect(await client.verifyMessage({ address: account.address, message: 'other', signature: after })).toBe(false)
  })

  test('error: an account that has no ETH and no paymaster cannot pay: the bundler refuses the operation', async () => {
    const account = await smartAccount()
    const unsponsored = createBundlerClient({ client, transport: http(stack.networks[0]!.bundlerUrl) })
    await expect(unsponsored.sendUserOperation({ account, calls: [{ to: dead, value: parseEther('0') }] })).rejects.toThrow()
  })

  test('behavior: a second start on the same chain keeps its contracts and gives the same addresses', async () => {
    expect(await Contracts.deploy(chain)).toEqual(stack.networks[0]!.environment)
  })
})
