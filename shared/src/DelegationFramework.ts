/**
 * The Delegation Framework deployments Doorway trusts (issue 25, docs/embedded-wallet.md "Smart sessions"):
 * the addresses a smart session's delegation names, pinned here as literals. The secure-site signs a
 * delegation, and the api records one, only against these: a frame that handed over another enforcer (one
 * that checks nothing) could otherwise turn a session's limits into none, and the person would approve
 * "0.01 ETH a day" for an unlimited grant. DelegationFramework.test.ts checks the literals against
 * `@metamask/smart-accounts-kit` 2.0.0's table and the devnet's deployment.
 * `import * as DelegationFramework from '@doorway/shared/DelegationFramework'`.
 */
import { type Address, isAddress, isAddressEqual } from 'viem'
import type * as Permissions from './Permissions.js'
import { isPlainObject } from './Schema.js'

/** One deployment: what SmartAccount.ts needs, and the caveat enforcers Permissions.caveats uses. */
export type Environment = {
  DelegationManager: Address
  EntryPoint: Address
  SimpleFactory: Address
  implementations: { HybridDeleGatorImpl: Address }
  caveatEnforcers: Record<Permissions.EnforcerName, Address>
}

/**
 * MetaMask's production deployment, v1.3.0: `getSmartAccountsEnvironment(chainId)` gives these on every
 * chain the kit knows (CREATE2, so the same everywhere), against the canonical EntryPoint v0.7.
 */
export const metamask: Environment = {
  DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  SimpleFactory: '0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c',
  implementations: { HybridDeleGatorImpl: '0x48dBe696A4D990079e039489bA2053B36E8FFEC4' },
  caveatEnforcers: {
    AllowedMethodsEnforcer: '0x2c21fD0Cb9DC8445CB3fb0DC5E7Bb0Aca01842B5',
    AllowedTargetsEnforcer: '0x7F20f61b1f09b08D970938F6fa563634d65c4EeB',
    ERC20PeriodTransferEnforcer: '0x474e3Ae7E169e940607cC624Da8A15Eb120139aB',
    ExactCalldataEnforcer: '0x99F2e9bF15ce5eC84685604836F71aB835DBBdED',
    LimitedCallsEnforcer: '0x04658B29F6b82ed55274221a06Fc97D318E25416',
    NativeTokenPeriodTransferEnforcer: '0x9BC0FAf4Aca5AE429F4c06aEEaC517520CB16BD9',
    TimestampEnforcer: '0x1046bb45C8d673d4ea75321280DB34899413c069',
    ValueLteEnforcer: '0x92Bf12322527cAA612fd31a0e810472BBB106A8F',
  },
}

/**
 * Doorway's devnet: the framework deployed by its dedicated key from nonce 0 on every anvil chain, so the
 * addresses are the same on each (the devnet's smartAccounts/contracts.ts `expectedEnvironment()`).
 */
export const devnet: Environment = {
  DelegationManager: '0xFe36d33e04115203d2914caFbf84A949B35e8426',
  EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  SimpleFactory: '0x6D8da4B12D658a36909ec1C75F81E54B8DB4eBf9',
  implementations: { HybridDeleGatorImpl: '0x407B5a261EC38a3F1b5cEBfF931a6Fe647EB07A5' },
  caveatEnforcers: {
    AllowedMethodsEnforcer: '0x6Fd09d4d9795a3e07EdDBD9a82c882B46a5A6deF',
    AllowedTargetsEnforcer: '0xc7C1e831b38382a2bdCd3708aB44d953758f624C',
    ERC20PeriodTransferEnforcer: '0x269132c0eAF527561e0e05c137c3646C05f609c5',
    ExactCalldataEnforcer: '0x50089b0f41f46716bfE0b0FF2c5ebdd7D2348e86',
    LimitedCallsEnforcer: '0x7196F6d9736079F19b3642e9fD1e59822993F2EE',
    NativeTokenPeriodTransferEnforcer: '0x0E839d0036f1BdB4e3E470650F6E34CD05c72Fd8',
    TimestampEnforcer: '0xA7F5957F7Ba52982F24B98faE73e320930aebFd2',
    ValueLteEnforcer: '0xd7C439f982e8b9cf92A66bba3d8768816e4fdb85',
  },
}

export const pinned: readonly Environment[] = [metamask, devnet]

/**
 * The pinned deployment `environment` is part of: every field it has (any subset of an Environment's,
 * DelegationManager among them, since it names the deployment) equals that one entry's. A field it has
 * that no Environment has, a field of another entry mixed in, or any other address: undefined.
 */
export function pinnedFor(environment: unknown): Environment | undefined {
  if (!isPlainObject(environment) || environment.DelegationManager === undefined) return undefined
  return pinned.find((entry) => matches(environment, entry))
}

export function isPinned(environment: unknown): boolean {
  return pinnedFor(environment) !== undefined
}

function matches(value: unknown, trusted: unknown): boolean {
  if (typeof trusted === 'string') return typeof value === 'string' && isAddress(value, { strict: false }) && isAddressEqual(value, trusted as Address)
  if (!isPlainObject(value) || !isPlainObject(trusted)) return false
  return Object.keys(value).every((key) => Object.hasOwn(trusted, key) && matches(value[key], trusted[key]))
}
