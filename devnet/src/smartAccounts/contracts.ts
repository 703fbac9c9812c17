/**
 * The ERC-4337 contracts of docs/local-stack.md on an anvil chain: the EntryPoints v0.6, v0.7 and v0.8 at
 * their canonical mainnet addresses (CREATE2 through anvil's deterministic deployer, from the
 * `@account-abstraction/contracts` artifacts), and MetaMask's Delegation Framework (HybridDeleGator,
 * DelegationManager, the caveat enforcers) against the canonical EntryPoint v0.7, from a dedicated key so
 * its addresses are the same on every fresh chain. Idempotent: a reused chain keeps what it has.
 * `import * as Contracts from './contracts.js'` → `await Contracts.deploy(chain)`.
 */
import { createRequire } from 'node:module'
import type { SmartAccountsEnvironment } from '@metamask/smart-accounts-kit'
import { deploySmartAccountsEnvironment } from '@metamask/smart-accounts-kit/utils'
import { type Address, type Hex, concat, getAddress, getContractAddress, isAddressEqual, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Chain } from '../anvil.js'
import * as Anvil from '../anvil.js'
import * as Tokens from '../tokens.js'

/** Every anvil chain has it preinstalled (anvil 1.7.1); mainnet's EntryPoints were deployed through it. */
export const create2Deployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** The canonical EntryPoints: the artifact that makes each, its CREATE2 salt and the address it lands at. */
export const entryPoints = [
  {
    version: '0.6',
    artifact: 'ep06/artifacts/EntryPoint.json',
    salt: '0x0000000000000000000000000000000000000000000000000000000000000000',
    address: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
  },
  {
    version: '0.7',
    artifact: 'ep07/artifacts/EntryPoint.json',
    salt: '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3',
    address: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  },
  {
    version: '0.8',
    artifact: '@account-abstraction/contracts/artifacts/EntryPoint.json',
    salt: '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9',
    address: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  },
] as const satisfies readonly { version: string; artifact: string; salt: Hex; address: Address }[]

/** The Delegation Framework's accounts, enforcers and manager are built against EntryPoint v0.7. */
export const entryPoint07 = entryPoints[1].address

/**
 * Account 20 of the test mnemonic (unfunded by anvil; this module funds it) deploys the framework from its
 * nonce 0, so the addresses are a function of the key alone and the same on both chains.
 */
export const frameworkDeployer = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 20 })

/** Account 21 pays for the EntryPoints' CREATE2 deployments (which land at the same address from any sender). */
export const entryPointDeployer = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 21 })

/** The framework's addresses on a chain: the kit's environment, whose implementations include the Hybrid account's. */
export type Environment = SmartAccountsEnvironment & { implementations: { HybridDeleGatorImpl: Address } }

/** Deploys what the chain lacks and returns the framework's addresses (the frame and secure-site's `environment`). */
export async function deploy(chain: Chain): Promise<Environment> {
  await deployEntryPoints(chain)
  return deployFramework(chain)
}

async function deployEntryPoints(chain: Chain): Promise<void> {
  const { client, wallet } = Anvil.clients(chain, entryPointDeployer)
  const require = createRequire(import.meta.url)
  for (const entryPoint of entryPoints) {
    if (await client.getCode({ address: entryPoint.address })) continue
    await fund(chain, entryPointDeployer.address)
    const { bytecode } = require(entryPoint.artifact) as { bytecode: Hex }
    const hash = await wallet.sendTransaction({ to: create2Deployer, data: concat([entryPoint.salt, bytecode]), gas: 8_000_000n })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success' || !(await client.getCode({ address: entryPoint.address })))
      throw new Error(`EntryPoint v${entryPoint.version} did not land at ${entryPoint.address} on chain ${chain.id} (${hash})`)
  }
}

async function deployFramework(chain: Chain): Promise<Environment> {
  const { client, wallet } = Anvil.clients(chain, frameworkDeployer)
  const nonce = await client.getTransactionCount({ address: frameworkDeployer.address })
  if (nonce === 0) {
    await fund(chain, frameworkDeployer.address)
    const deployed = await deploySmartAccountsEnvironment(wallet, client, Anvil.viemChain(chain), { EntryPoint: entryPoint07 })
    const expected = expectedEnvironment()
    if (!isAddressEqual(deployed.DelegationManager, expected.DelegationManager) || !isAddressEqual(deployed.implementations.HybridDeleGatorImpl!, expected.implementations.HybridDeleGatorImpl))
      throw new Error(`The Delegation Framework landed at other addresses than expected on chain ${chain.id}: has @metamask/smart-accounts-kit changed its deploy order?`)
    return expected
  }
  const environment = expectedEnvironment()
  if (!(await client.getCode({ address: environment.implementations.HybridDeleGatorImpl })))
    throw new Error(`Chain ${chain.id} has used the framework deployer ${frameworkDeployer.address} without deploying the Delegation Framework: restart its anvil`)
  return environment
}

/**
 * The addresses `deploySmartAccountsEnvironment` gives from the deployer's nonce 0, in its deploy order
 * (@metamask/smart-accounts-kit 2.0.0): the standalone contracts, DelegationManager, NativeTokenPaymentEnforcer,
 * the P-256 library, then the three account implementations. `deploy` checks a fresh deployment against it.
 */
export function expectedEnvironment(): Environment {
  const at = (nonce: number) => getAddress(getContractAddress({ from: frameworkDeployer.address, nonce: BigInt(nonce) }))
  const standalone = [
    'SimpleFactory',
    'AllowedCalldataEnforcer',
    'AllowedTargetsEnforcer',
    'AllowedMethodsEnforcer',
    'ApprovalRevocationEnforcer',
    'ArgsEqualityCheckEnforcer',
    'DeployedEnforcer',
    'TimestampEnforcer',
    'BlockNumberEnforcer',
    'LimitedCallsEnforcer',
    'ERC20BalanceChangeEnforcer',
    'ERC20TransferAmountEnforcer',
    'ERC20StreamingEnforcer',
    'ERC721BalanceChangeEnforcer',
    'ERC721TransferEnforcer',
    'ERC1155BalanceChangeEnforcer',
    'IdEnforcer',
    'NonceEnforcer',
    'ValueLteEnforcer',
    'NativeTokenTransferAmountEnforcer',
    'NativeBalanceChangeEnforcer',
    'NativeTokenStreamingEnforcer',
    'OwnershipTransferEnforcer',
    'RedeemerEnforcer',
    'SpecificActionERC20TransferBatchEnforcer',
    'ERC20PeriodTransferEnforcer',
    'NativeTokenPeriodTransferEnforcer',
    'ExactCalldataBatchEnforcer',
    'ExactCalldataEnforcer',
    'ExactExecutionEnforcer',
    'ExactExecutionBatchEnforcer',
    'MultiTokenPeriodEnforcer',
  ] as const
  const n = standalone.length
  const enforcers = Object.fromEntries(standalone.slice(1).map((name, i) => [name, at(i + 1)]))
  return {
    DelegationManager: at(n),
    EntryPoint: entryPoint07,
    SimpleFactory: at(0),
    implementations: { HybridDeleGatorImpl: at(n + 3), MultiSigDeleGatorImpl: at(n + 4), EIP7702StatelessDeleGatorImpl: at(n + 5) },
    caveatEnforcers: { ...enforcers, NativeTokenPaymentEnforcer: at(n + 1) },
  }
}

/** The deployers are beyond anvil's ten funded accounts: give them what deploying costs. */
async function fund(chain: Chain, address: Address): Promise<void> {
  const { client } = Anvil.clients(chain, address)
  await client.request({ method: 'anvil_setBalance' as never, params: [address, `0x${parseEther('100').toString(16)}`] as never })
}
