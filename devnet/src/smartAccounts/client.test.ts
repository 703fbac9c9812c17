import * as SmartAccount from '@doorway/shared/SmartAccount'
import { create } from '@doorway/shared/SmartAccountClient'
import * as Anvil from '../anvil.js'
import * as SmartAccounts from './stack.js'
import { type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// A chain and smart-account stack of its own, on ports apart from the running stack's and other tests'.
const chain = { id: 31337, port: 18945, rpcUrl: 'http://127.0.0.1:18945' }
const ports = [{ bundler: 18946, paymaster: 18947 }]
const dead: Address = '0x000000000000000000000000000000000000dEaD'

describe('create', () => {
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

  test('behavior: twenty sponsored operations in a row all land, and the tip they bid does not grow (the devnet is quiet: the bundles are its only transactions)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const network = stack.networks[0]!
    const account = await create({ owner: owner.address, chainId: chain.id, rpcUrl: chain.rpcUrl, network: { ...network, enforcers: network.environment.caveatEnforcers } })
    expect(account.sponsored).toBe(true)
    expect(await account.deployed()).toBe(false)
    const tips: bigint[] = []
    for (let i = 0; i < 20; i++) {
      const operation = await account.prepare([{ to: dead, value: 0n }])
      tips.push(operation.maxPriorityFeePerGas)
      const signature = await owner.signTypedData(SmartAccount.userOperationTypedData(operation, { chainId: chain.id, entryPoint: network.environment.EntryPoint }))
      const receipt = await account.wait(await account.send(operation, signature))
      expect(receipt.success).toBe(true)
    }
    expect(await account.deployed()).toBe(true)
    // viem's default doubles the suggested tip, and the suggestion is the last bundle's tip: 2^19 times the first by now.
    expect(tips.at(-1)! <= tips[1]! * 2n).toBe(true)
  }, 120_000)
})
