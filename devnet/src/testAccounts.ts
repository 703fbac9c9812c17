/**
 * Tests only: contract accounts for sign-in checks on an anvil chain. TestSmartAccount
 * (devnet/contracts) accepts its owner's personal_sign signatures (ERC-1271); TestAccountFactory makes
 * them with CREATE2, so an account not deployed yet has an address and a factory call (ERC-6492).
 * `import * as TestAccounts from './testAccounts.js'` → `await TestAccounts.deployFactory(chain)`.
 */
import { dirname, join } from 'node:path'
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi } from 'viem'
import type { Chain } from './anvil.js'
import * as Anvil from './anvil.js'
import * as Tokens from './tokens.js'

/** The compiled contracts' cache, beside the tokens' one (`.doorway/test-account-contracts.json`). */
export const artifactPath = join(dirname(Tokens.artifactPath), 'test-account-contracts.json')

/** The compiled account and factory, through the tokens' compiler and cache (a file of their own). */
export function artifact(options: { path?: string } = {}) {
  return Tokens.artifact({ path: options.path ?? artifactPath, contracts: ['TestSmartAccount', 'TestAccountFactory'] as const })
}

export const factoryAbi = parseAbi([
  'function createAccount(address owner, bytes32 salt) returns (address account)',
  'function accountAddress(address owner, bytes32 salt) view returns (address)',
])

/** Deploys a factory from `from` (an anvil account, whose key the node holds) and returns its address. */
export async function deployFactory(chain: Chain, from: Address = Tokens.holders[0]!): Promise<Address> {
  const { client, wallet } = Anvil.clients(chain, from)
  const { abi, bytecode } = artifact().contracts.TestAccountFactory
  const hash = await wallet.deployContract({ abi, bytecode, args: [] })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`Deploying the test account factory failed (${hash})`)
  return getAddress(receipt.contractAddress)
}

export type Account = { factory: Address; owner: Address; salt: Hex }

/** The account's address and the call that deploys it: ERC-6492's `factory` and `factoryData`. */
export async function counterfactual(chain: Chain, account: Account): Promise<{ address: Address; factory: Address; factoryData: Hex }> {
  const { client } = Anvil.clients(chain, account.owner)
  const args = [account.owner, account.salt] as const
  const address = await client.readContract({ address: account.factory, abi: factoryAbi, functionName: 'accountAddress', args })
  return { address, factory: account.factory, factoryData: encodeFunctionData({ abi: factoryAbi, functionName: 'createAccount', args }) }
}

/** Deploys the account through its factory (from anvil account 0) and returns its address. */
export async function deploy(chain: Chain, account: Account): Promise<Address> {
  const { address, factory, factoryData } = await counterfactual(chain, account)
  const { client, wallet } = Anvil.clients(chain, Tokens.holders[0]!)
  const hash = await wallet.sendTransaction({ to: factory, data: factoryData })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`Deploying the test account ${address} failed (${hash})`)
  return address
}
