import * as DelegationFramework from '@doorway/shared/DelegationFramework'
import * as Permissions from '@doorway/shared/Permissions'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { approveText } from '@doorway/shared/texts/approve'
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseEther, toFunctionSelector } from 'viem'
import { formatUserOperationRequest } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import * as Describe from './describe.js'

// Dates read in one zone whatever the machine's: this file's process only (vitest runs each file in its own).
process.env.TZ = 'UTC'

// Anvil's first address as the owner key, its second and third as other people and the dapp's session key.
const owner: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const sessionKey: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
// The devnet's deployment, as the frame sends it (its four addresses, no enforcers).
const { caveatEnforcers: enforcers, ...environment } = DelegationFramework.devnet
const account = SmartAccount.counterfactual(owner, environment).address
const now = Date.UTC(2026, 11, 1, 12) / 1000
const day = 86_400

function grant(change: Partial<Permissions.Grant> = {}): Permissions.Grant {
  return {
    chainId: 31337,
    delegate: sessionKey,
    permission: { type: 'native-token-periodic', period: { amount: parseEther('0.01'), seconds: day, start: now + 3600 } },
    expiry: now + 7 * day,
    maxCalls: 5,
    ...change,
  }
}

/** The unsigned delegation the frame builds from a grant (Permissions.delegation), from this wallet's account unless told. */
function delegation(change: Partial<Permissions.Grant> = {}, delegator: Address = account, salt = 1n): Permissions.Delegation {
  return Permissions.delegation({ grant: grant(change), delegator, enforcers, salt })
}

function request(method: Describe.Method, params: unknown[], extra: Partial<Describe.Request> = {}): Describe.Request {
  return { method, params, chainId: 'eip155:31337', from: owner, smartAccount: environment, chainName: 'Anvil', now, locale: 'en-US', ...extra }
}

const describeGrant = (params: unknown[], extra: Partial<Describe.Request> = {}) => Describe.describe(request('eth_signDelegation', params, extra))
// ICU versions differ in the space before AM/PM (U+202F or U+0020): compared as plain spaces.
const plain = (rows: readonly Describe.Row[]) => rows.map((row) => ({ ...row, value: row.value.replace(/\s/g, ' ') }))
const allows = (description: Describe.Description) => description.rows.find((row) => row.label === approveText.allows)?.value

describe('describe: eth_signDelegation', () => {
  test('behavior: a native allowance reads as its limits in words, and what is signed is its EIP-712 Delegation for the pinned DelegationManager', () => {
    const d = delegation()
    const description = describeGrant([Permissions.toJson(d), { justification: 'Top up your game wallet' }])
    expect(description.title).toBe('Grant a session')
    expect(plain(description.rows)).toEqual([
      { label: approveText.network, value: 'Anvil (31337)' },
      { label: approveText.account, value: account, mono: true },
      { label: approveText.sessionKey, value: sessionKey, mono: true },
      { label: approveText.allows, value: 'Spend up to 0.01 ETH every day' },
      { label: approveText.starts, value: 'Dec 1, 2026, 1:00 PM UTC' },
      { label: approveText.expires, value: 'Dec 8, 2026, 12:00 PM UTC' },
      { label: approveText.uses, value: 'At most 5 uses' },
      { label: approveText.appSays, value: '"Top up your game wallet"' },
      { label: approveText.warning, value: approveText.sessionWarning, tone: 'warning' },
    ])
    expect(description.delegation).toEqual({ delegation: d, typedData: Permissions.delegationTypedData(d, { chainId: 31337, delegationManager: DelegationFramework.devnet.DelegationManager }) })
    expect(description).not.toHaveProperty('userOperation')
  })

  test.each([
    [3600, 'hour'],
    [7 * day, 'week'],
    [2 * day, '2 days'],
    [7200, '2 hours'],
    [5400, '90 minutes'],
    [45, '45 seconds'],
  ])('behavior: a period of %i seconds reads "every %s"', (seconds, words) => {
    const d = delegation({ permission: { type: 'native-token-periodic', period: { amount: parseEther('1.5'), seconds, start: now - day } } })
    expect(allows(describeGrant([Permissions.toJson(d)]))).toBe(`Spend up to 1.5 ETH every ${words}`)
  })

  test('behavior: the native amount carries the network\'s symbol and the dapp\'s price', () => {
    const d = delegation({ permission: { type: 'native-token-periodic', period: { amount: parseEther('0.5'), seconds: day, start: now } } })
    const description = describeGrant([Permissions.toJson(d)], { nativeSymbol: 'POL', fiat: { price: 2, currency: 'USD' } })
    expect(allows(description)).toBe('Spend up to 0.5 POL (≈ $1.00) every day')
  })

  test('behavior: an allowance that has started shows no start, and no cap shows no uses', () => {
    const d = delegation({ permission: { type: 'native-token-periodic', period: { amount: 1n, seconds: day, start: now - 60 } }, maxCalls: undefined })
    const labels = describeGrant([Permissions.toJson(d)]).rows.map((row) => row.label)
    expect(labels).not.toContain(approveText.starts)
    expect(labels).not.toContain(approveText.uses)
    expect(labels).not.toContain(approveText.appSays)
    expect(labels).toContain(approveText.expires)
  })

  test('behavior: an ERC-20 allowance says its amount is in the token\'s units, which this screen cannot convert', () => {
    const d = delegation({ permission: { type: 'erc20-token-periodic', token, period: { amount: 1_000_000n, seconds: 7 * day, start: now } }, maxCalls: 1 })
    const description = describeGrant([Permissions.toJson(d)])
    expect(allows(description)).toBe(`Spend up to 1,000,000 units of token ${token} every week\n${approveText.tokenUnits}`)
    expect(description.rows.find((row) => row.label === approveText.uses)?.value).toBe('At most 1 use')
  })

  test('behavior: a contract-call session lists each contract with its functions, known ones by their signature', () => {
    const other: Hex = '0x12345678'
    const d = delegation({ permission: { type: 'contract-call', targets: [token, bob], selectors: [toFunctionSelector('transfer(address,uint256)'), other] }, maxCalls: 2 })
    const description = describeGrant([Permissions.toJson(d)])
    expect(allows(description)).toBe([`Call only ${token}: transfer(address,uint256), 0x12345678`, `Call only ${bob}: transfer(address,uint256), 0x12345678`].join('\n'))
    expect(description.rows.map((row) => row.label)).not.toContain(approveText.starts)
  })

  test.each([
    ['approve(address,uint256)', 'approve(address,uint256)'],
    ['transferFrom(address,address,uint256)', 'transferFrom(address,address,uint256)'],
  ])('behavior: %s is named', (signature, words) => {
    const d = delegation({ permission: { type: 'contract-call', targets: [token], selectors: [toFunctionSelector(signature)] } })
    expect(allows(describeGrant([Permissions.toJson(d)]))).toBe(`Call only ${token}: ${words}`)
  })

  test('behavior: a contract-call session without functions allows any of them, and says so', () => {
    const d = delegation({ permission: { type: 'contract-call', targets: [token], selectors: [] } })
    expect(allows(describeGrant([Permissions.toJson(d)]))).toBe(`Call only ${token}: any function`)
  })

  test('behavior: dates read in the modal\'s locale', () => {
    const description = describeGrant([Permissions.toJson(delegation())], { locale: 'de-DE' })
    expect(description.rows.find((row) => row.label === approveText.expires)?.value).toBe('8. Dez. 2026, 12:00 UTC')
  })

  test('behavior: a justification that could fake another line is quoted with its line break escaped', () => {
    const description = describeGrant([Permissions.toJson(delegation()), { justification: 'Play\nApproved by Doorway' }])
    expect(description.rows.find((row) => row.label === approveText.appSays)?.value).toBe('"Play\\nApproved by Doorway"')
  })

  const swapped = (d: Permissions.Delegation, enforcer: Address) => ({ ...d, caveats: d.caveats.map((c, i) => (i === 1 ? { ...c, enforcer } : c)) })
  test.each([
    ['no smart account', [Permissions.toJson(delegation())], { smartAccount: undefined }, "eth_signDelegation: sessions are granted and revoked only by this wallet's smart account"],
    ['an unpinned deployment', [Permissions.toJson(delegation())], { smartAccount: { ...environment, DelegationManager: bob } }, 'is not a deployment this wallet trusts'],
    ['two deployments mixed', [Permissions.toJson(delegation())], { smartAccount: { ...environment, DelegationManager: DelegationFramework.metamask.DelegationManager } }, 'is not a deployment this wallet trusts'],
    ['a swapped enforcer (one that could check nothing)', [Permissions.toJson(swapped(delegation(), bob))], {}, `is not one of the session enforcers`],
    ['another deployment\'s enforcer', [Permissions.toJson(swapped(delegation(), DelegationFramework.metamask.caveatEnforcers.NativeTokenPeriodTransferEnforcer))], {}, 'is not one of the session enforcers'],
    ['a caveat more', [Permissions.toJson({ ...delegation(), caveats: [...delegation().caveats, delegation().caveats[0]!] })], {}, "its caveats are not a session's limits"],
    ['a delegator that is not this account', [Permissions.toJson(delegation({}, bob))], {}, "the delegator is not this wallet's smart account"],
    ['a redelegation (authority not root)', [Permissions.toJson({ ...delegation(), authority: `0x${'11'.repeat(32)}` })], {}, 'the authority is not the root'],
    ['the account as its own session key', [Permissions.toJson({ ...delegation(), delegate: account })], {}, "the session key is this wallet's own account"],
    ['the owner key as the session key', [Permissions.toJson(delegation({ delegate: owner }))], {}, "the session key is this wallet's own account"],
    ['a signed delegation', [Permissions.toJson({ ...delegation(), signature: '0x1234' })], {}, 'the delegation is already signed'],
    ['an expired session', [Permissions.toJson(delegation({ expiry: now, permission: { type: 'contract-call', targets: [token], selectors: [] } }))], {}, 'the session has already expired'],
    ['a session over a year long', [Permissions.toJson(delegation({ expiry: now + 400 * day }))], {}, 'the session expires more than a year from now'],
    ['a malformed delegation', [{ ...Permissions.toJson(delegation()), salt: 7 }], {}, 'eth_signDelegation: delegation.salt must be a hex quantity'],
    ['an unknown option', [Permissions.toJson(delegation()), { justification: 'hi', note: 'x' }], {}, 'unexpected option note'],
    ['a justification over 200 characters', [Permissions.toJson(delegation()), { justification: 'a'.repeat(201) }], {}, 'the justification is not a plain text'],
    ['a justification with a bidi override', [Permissions.toJson(delegation()), { justification: 'safe\u202e' }], {}, 'the justification is not a plain text'],
    ['three params', [Permissions.toJson(delegation()), {}, {}], {}, 'eth_signDelegation: expected 1 or 2 params, got 3'],
  ] as const)('error: %s is refused', (_, params, extra, message) => {
    expect(() => describeGrant([...params], extra as Partial<Describe.Request>)).toThrow(Describe.InvalidRequest)
    expect(() => describeGrant([...params], extra as Partial<Describe.Request>)).toThrow(message)
  })
})

/** An operation as the frame prepares it (ERC-7769 JSON), making `calls`, sponsored. */
function operation(calls: SmartAccount.Call[], sender: Address = account): Record<string, unknown> {
  return formatUserOperationRequest({
    sender,
    nonce: 3n,
    callData: SmartAccount.encodeCalls(calls),
    callGasLimit: 100_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    paymaster: '0x1111111111111111111111111111111111111111',
    paymasterVerificationGasLimit: 40_000n,
    paymasterPostOpGasLimit: 10_000n,
    paymasterData: '0xabcdef',
  }) as Record<string, unknown>
}

const signed = (d: Permissions.Delegation): Permissions.Delegation => ({ ...d, signature: `0x${'ab'.repeat(65)}` })
const disable = (d: Permissions.Delegation): SmartAccount.Call => ({ to: environment.DelegationManager, value: 0n, data: Permissions.disableCalldata(d) })
const describeRevoke = (params: unknown[], extra: Partial<Describe.Request> = {}) => Describe.describe(request('doorway_revokeSession', params, extra))

describe('describe: doorway_revokeSession', () => {
  test('behavior: shows the session revoked and the fee; signs the operation and the api\'s revoke message', () => {
    const d = signed(delegation())
    const op = operation([disable(d)])
    const description = describeRevoke([op, Permissions.toJson(d)])
    const message = `Revoke session ${Permissions.delegationHash(d)}`
    expect(description.title).toBe('Revoke session')
    expect(description.hostLabel).toBe(approveText.hostSite)
    expect(plain(description.rows)).toEqual([
      { label: approveText.network, value: 'Anvil (31337)' },
      { label: approveText.account, value: account, mono: true },
      { label: approveText.sessionKey, value: sessionKey, mono: true },
      { label: approveText.allows, value: 'Spend up to 0.01 ETH every day' },
      { label: approveText.starts, value: 'Dec 1, 2026, 1:00 PM UTC' },
      { label: approveText.expires, value: 'Dec 8, 2026, 12:00 PM UTC' },
      { label: approveText.uses, value: 'At most 5 uses' },
      { label: approveText.alsoSigns, value: message, mono: true },
      { label: approveText.networkFee, value: approveText.sponsored },
    ])
    expect(description.revoke).toEqual({ message })
    expect(description.userOperation?.operation.callData).toBe(op.callData)
    expect(description.userOperation?.typedData).toEqual(SmartAccount.userOperationTypedData(description.userOperation!.operation, { chainId: 31337, entryPoint: environment.EntryPoint }))
  })

  test('behavior: an unsponsored revoke shows the most it can cost', () => {
    const d = signed(delegation())
    const { paymaster: _, paymasterVerificationGasLimit: _v, paymasterPostOpGasLimit: _p, paymasterData: _d, ...unsponsored } = operation([disable(d)])
    const description = describeRevoke([unsponsored, Permissions.toJson(d)])
    expect(description.rows.at(-1)).toEqual({ label: approveText.fee, value: '0.0009 ETH' })
  })

  test('behavior: a session whose limits do not read can still be revoked, under a warning', () => {
    const d = signed({ ...delegation(), caveats: [{ enforcer: bob, terms: '0x', args: '0x' }] })
    const description = describeRevoke([operation([disable(d)]), Permissions.toJson(d)])
    expect(description.rows.slice(2, 4)).toEqual([
      { label: approveText.sessionKey, value: sessionKey, mono: true },
      { label: approveText.warning, value: approveText.sessionUnreadable, tone: 'warning' },
    ])
  })

  const d = signed(delegation())
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob, 1n] })
  test.each([
    ['no smart account', [operation([disable(d)]), Permissions.toJson(d)], { smartAccount: undefined }, "doorway_revokeSession: sessions are granted and revoked only by this wallet's smart account"],
    ['an unpinned deployment', [operation([disable(d)]), Permissions.toJson(d)], { smartAccount: { ...environment, DelegationManager: bob } }, 'is not a deployment this wallet trusts'],
    ['an operation that calls something else', [operation([{ to: token, value: 0n, data: transfer }]), Permissions.toJson(d)], {}, 'the operation does not call the DelegationManager'],
    ['an operation that disables and also transfers', [operation([disable(d), { to: token, value: 0n, data: transfer }]), Permissions.toJson(d)], {}, 'exactly one call'],
    ['an operation that disables another delegation', [operation([disable(signed(delegation({}, account, 2n)))]), Permissions.toJson(d)], {}, 'the operation disables another delegation than this session'],
    ['an operation that disables this delegation with another signature', [operation([disable({ ...d, signature: '0x12' })]), Permissions.toJson(d)], {}, 'disables another delegation'],
    ['another DelegationManager function', [operation([{ to: environment.DelegationManager, value: 0n, data: Permissions.redeemCalldata(['0x12'], [{ target: bob, value: 0n, callData: '0x' }]) }]), Permissions.toJson(d)], {}, 'the call is not disableDelegation'],
    ['value sent with the disable', [operation([{ ...disable(d), value: 1n }]), Permissions.toJson(d)], {}, 'the operation sends value'],
    ['another account\'s session', [operation([disable(signed(delegation({}, bob)))]), Permissions.toJson(signed(delegation({}, bob)))], {}, "the session is not this wallet's smart account's"],
    ['an operation for another account', [operation([disable(d)], bob), Permissions.toJson(d)], {}, "sender is not this wallet's smart account"],
    ['one param', [operation([disable(d)])], {}, 'doorway_revokeSession: expected 2 params, got 1'],
  ] as const)('error: %s is refused', (_, params, extra, message) => {
    expect(() => describeRevoke([...params], extra as Partial<Describe.Request>)).toThrow(Describe.InvalidRequest)
    expect(() => describeRevoke([...params], extra as Partial<Describe.Request>)).toThrow(message)
  })
})

describe('describe: eth_signUserOperation disabling a session', () => {
  test('behavior: a disableDelegation of this wallet\'s session reads as "Revoke session" with its key and limits, not as data', () => {
    const d = signed(delegation())
    const description = Describe.describe(request('eth_signUserOperation', [operation([disable(d)])]))
    const call = description.rows.findIndex((row) => row.label === approveText.call)
    expect(description.rows.slice(call, call + 3)).toEqual([
      { label: approveText.call, value: approveText.revokeCall },
      { label: approveText.sessionKey, value: sessionKey, mono: true },
      { label: approveText.allows, value: 'Spend up to 0.01 ETH every day' },
    ])
    expect(description.rows.map((row) => row.label)).not.toContain(approveText.data)
  })

  test('behavior: another account\'s delegation (the call would revert) is shown as data', () => {
    const description = Describe.describe(request('eth_signUserOperation', [operation([disable(signed(delegation({}, bob)))])]))
    expect(description.rows.find((row) => row.label === approveText.data)?.value).toMatch(/^0x49934047 · /)
    expect(description.rows.map((row) => row.label)).not.toContain(approveText.sessionKey)
  })
})

describe('describe: pinning', () => {
  const message = '0x6869'
  test.each([
    ['personal_sign', [message, account]],
    ['eth_signUserOperation', [operation([{ to: bob, value: 1n, data: '0x' }])]],
  ] as const)('error: %s for a smart account of an unpinned deployment is refused', (method, params) => {
    const other = { ...environment, SimpleFactory: bob }
    expect(() => Describe.describe(request(method, [...params], { smartAccount: other }))).toThrow(
      `The smart account's Delegation Framework (DelegationManager ${environment.DelegationManager}) is not a deployment this wallet trusts`,
    )
  })

  test('behavior: the account is derived from the pinned addresses, whatever case the frame wrote them in', () => {
    const lower = { ...environment, SimpleFactory: environment.SimpleFactory.toLowerCase() as Address }
    const description = Describe.describe(request('personal_sign', [message, account], { smartAccount: lower }))
    expect(description.rows[1]).toEqual({ label: approveText.from, value: account, mono: true })
  })
})
