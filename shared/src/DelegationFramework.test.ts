import { getSmartAccountsEnvironment } from '@metamask/smart-accounts-kit'
import { type Address, getContractAddress } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import * as DelegationFramework from './DelegationFramework.js'
import * as Permissions from './Permissions.js'

process.env.DO_NOT_TRACK = '1'

/** The fields of `full` that a pinned entry has: what pinning promises to match. */
function pick(full: Record<string, unknown>, shape: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, typeof value === 'string' ? full[key] : pick(full[key] as Record<string, unknown>, value as Record<string, unknown>)]))
}

describe('pinned', () => {
  test.each([1, 8453, 10, 11155111])('behavior: MetaMask’s deployment is the kit’s getSmartAccountsEnvironment(%i)', (chainId) => {
    expect(DelegationFramework.metamask).toEqual(pick(getSmartAccountsEnvironment(chainId), DelegationFramework.metamask))
  })

  // The devnet's smartAccounts/contracts.ts deploys the framework from anvil account 20 of the test mnemonic at
  // nonce 0, in the kit's deploy order: these nonces are the order's positions (its expectedEnvironment()).
  test('behavior: the devnet’s deployment is the framework deployer’s CREATE addresses in the kit’s order', () => {
    const deployer = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 20 }).address
    const at = (nonce: number): Address => getContractAddress({ from: deployer, nonce: BigInt(nonce) })
    expect(DelegationFramework.devnet).toEqual({
      DelegationManager: at(32),
      EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      SimpleFactory: at(0),
      implementations: { HybridDeleGatorImpl: at(35) },
      caveatEnforcers: {
        AllowedTargetsEnforcer: at(2),
        AllowedMethodsEnforcer: at(3),
        TimestampEnforcer: at(7),
        LimitedCallsEnforcer: at(9),
        ValueLteEnforcer: at(18),
        ERC20PeriodTransferEnforcer: at(25),
        NativeTokenPeriodTransferEnforcer: at(26),
        ExactCalldataEnforcer: at(28),
      },
    })
  })

  test('behavior: each entry pins exactly the enforcers a session’s caveats use', () => {
    for (const entry of DelegationFramework.pinned) expect(Object.keys(entry.caveatEnforcers).sort()).toEqual([...Permissions.enforcerNames].sort())
    expect(DelegationFramework.pinned).toEqual([DelegationFramework.metamask, DelegationFramework.devnet])
  })
})

describe('isPinned', () => {
  const { metamask, devnet } = DelegationFramework

  test.each([
    ['MetaMask’s whole entry', metamask],
    ['the devnet’s whole entry', devnet],
    ['a smart account’s environment (no enforcers)', { DelegationManager: devnet.DelegationManager, EntryPoint: devnet.EntryPoint, SimpleFactory: devnet.SimpleFactory, implementations: devnet.implementations }],
    ['addresses in lowercase', { DelegationManager: metamask.DelegationManager.toLowerCase(), caveatEnforcers: { TimestampEnforcer: metamask.caveatEnforcers.TimestampEnforcer.toLowerCase() } }],
  ])('behavior: %s is pinned', (_, environment) => {
    expect(DelegationFramework.isPinned(environment)).toBe(true)
  })

  test('behavior: pinnedFor answers the whole entry the environment is part of', () => {
    expect(DelegationFramework.pinnedFor({ DelegationManager: devnet.DelegationManager })).toBe(devnet)
    expect(DelegationFramework.pinnedFor({ DelegationManager: metamask.DelegationManager, caveatEnforcers: {} })).toBe(metamask)
  })

  test.each([
    ['a changed enforcer', { ...devnet, caveatEnforcers: { ...devnet.caveatEnforcers, NativeTokenPeriodTransferEnforcer: '0x1111111111111111111111111111111111111111' } }],
    ['a changed DelegationManager', { ...metamask, DelegationManager: '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB4' }],
    ['an enforcer of another entry mixed in', { ...devnet, caveatEnforcers: { ...devnet.caveatEnforcers, TimestampEnforcer: metamask.caveatEnforcers.TimestampEnforcer } }],
    ['two enforcers swapped', { ...devnet, caveatEnforcers: { ...devnet.caveatEnforcers, ValueLteEnforcer: devnet.caveatEnforcers.ExactCalldataEnforcer, ExactCalldataEnforcer: devnet.caveatEnforcers.ValueLteEnforcer } }],
    ['a field no entry has', { ...devnet, caveatEnforcers: { ...devnet.caveatEnforcers, RedeemerEnforcer: devnet.caveatEnforcers.ValueLteEnforcer } }],
    ['no DelegationManager', { EntryPoint: devnet.EntryPoint }],
    ['an address that is not one', { ...devnet, SimpleFactory: 'factory' }],
    ['not an object', devnet.DelegationManager],
    ['null', null],
  ])('error: %s is not pinned', (_, environment) => {
    expect(DelegationFramework.isPinned(environment)).toBe(false)
    expect(DelegationFramework.pinnedFor(environment)).toBeUndefined()
  })
})
