import { hashDelegation as coreHashDelegation } from '@metamask/delegation-core'
import { contracts, createDelegation, createExecution, ExecutionMode, getSmartAccountsEnvironment, ROOT_AUTHORITY, ScopeType, signDelegation } from '@metamask/smart-accounts-kit'
import { createCaveatBuilder, decodeDelegations, encodeDelegations, hashDelegation } from '@metamask/smart-accounts-kit/utils'
import { type Address, type Hex, encodeFunctionData, erc20Abi, hashTypedData, parseEther, recoverTypedDataAddress, toFunctionSelector, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import * as DelegationFramework from './DelegationFramework.js'
import * as Permissions from './Permissions.js'

// The kit reports its calls to MetaMask unless told not to; it reads this on its first call.
process.env.DO_NOT_TRACK = '1'

const kitEnvironment = getSmartAccountsEnvironment(1)
const enforcers = DelegationFramework.metamask.caveatEnforcers
const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const sessionKey = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a')
const account: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' // the person's smart account: any address does for encodings
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const game: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const start = 1_767_225_600 // 2026-01-01
const expiry = start + 30 * 86400
const transfer = toFunctionSelector('transfer(address,uint256)')
const approve = toFunctionSelector('approve(address,uint256)')

const grants = {
  native: { chainId: 1, delegate: sessionKey.address, permission: { type: 'native-token-periodic', period: { amount: parseEther('0.01'), seconds: 86400, start } }, expiry },
  erc20: { chainId: 1, delegate: sessionKey.address, permission: { type: 'erc20-token-periodic', token, period: { amount: 10_000_000n, seconds: 604800, start } }, expiry },
  contractCall: { chainId: 1, delegate: sessionKey.address, permission: { type: 'contract-call', targets: [token], selectors: [transfer, approve] }, expiry, maxCalls: 5 },
  anyFunction: { chainId: 1, delegate: sessionKey.address, permission: { type: 'contract-call', targets: [token, game], selectors: [] }, expiry },
} satisfies Record<string, Permissions.Grant>

const expiryCaveat = { type: 'timestamp', afterThreshold: 0, beforeThreshold: expiry } as const
/** The kit's own caveats for each grant: its scope, then the expiry and call cap (lowercase addresses in, so its terms are too). */
const kitCaveats = {
  native: () => createDelegation({ from: account, to: sessionKey.address, environment: kitEnvironment, scope: { type: ScopeType.NativeTokenPeriodTransfer, periodAmount: parseEther('0.01'), periodDuration: 86400, startDate: start }, caveats: [expiryCaveat] }).caveats,
  erc20: () =>
    createDelegation({
      from: account,
      to: sessionKey.address,
      environment: kitEnvironment,
      scope: { type: ScopeType.Erc20PeriodTransfer, tokenAddress: lower(token), periodAmount: 10_000_000n, periodDuration: 604800, startDate: start },
      caveats: [expiryCaveat],
    }).caveats,
  contractCall: () =>
    createDelegation({
      from: account,
      to: sessionKey.address,
      environment: kitEnvironment,
      scope: { type: ScopeType.FunctionCall, targets: [lower(token)], selectors: ['transfer(address,uint256)', 'approve(address,uint256)'] },
      caveats: [expiryCaveat, { type: 'limitedCalls', limit: 5 }],
    }).caveats,
  // The FunctionCall scope needs a selector: any function of the targets is its builders without allowedMethods.
  anyFunction: () =>
    createCaveatBuilder(kitEnvironment)
      .addCaveat('allowedTargets', { targets: [lower(token), lower(game)] })
      .addCaveat('valueLte', { maxValue: 0n })
      .addCaveat('timestamp', { afterThreshold: 0, beforeThreshold: expiry })
      .build(),
}

function lower(address: Address): Address {
  return address.toLowerCase() as Address
}

/** The kit's Delegation: the same, with its salt as hex. */
const kit = (d: Permissions.Delegation) => ({ ...d, salt: toHex(d.salt) })
const signed = async (grant: Permissions.Grant, salt = 7n) => {
  const d = Permissions.delegation({ grant, delegator: account, enforcers, salt })
  return { ...d, signature: await owner.signTypedData(Permissions.delegationTypedData(d, { chainId: 1, delegationManager: kitEnvironment.DelegationManager })) }
}

/** A secp256k1 key's compressed form, from viem's uncompressed 0x04‖x‖y. */
function compressed(publicKey: Hex): Hex {
  const y = BigInt(`0x${publicKey.slice(68)}`)
  return `0x0${y & 1n ? 3 : 2}${publicKey.slice(4, 68)}`
}

const appKit = {
  native: {
    chainId: '0x1',
    expiry,
    signer: { type: 'keys', data: { keys: [{ type: 'secp256k1', publicKey: sessionKey.publicKey }] } },
    permissions: [{ type: 'native-token-recurring-allowance', data: { allowance: '0x2386f26fc10000', start, period: 86400 } }],
    policies: [],
  },
  erc20: {
    chainId: '0x2105',
    address: account,
    expiry,
    signer: { type: 'key', data: { type: 'secp256k1', publicKey: compressed(sessionKey.publicKey) } },
    permissions: [{ type: 'erc20-recurring-allowance', data: { token, allowance: '0x989680', start, period: 604800 } }],
    policies: [],
  },
  contractCall: {
    chainId: '0x1',
    expiry,
    signer: { type: 'account', data: { id: sessionKey.address } },
    permissions: [{ type: 'contract-call', data: { address: token, abi: erc20Abi, functions: [{ functionName: 'transfer' }, { functionName: 'approve(address,uint256)' }] } }],
    policies: [{ type: 'call-limit', data: { count: 5 } }],
  },
}

const execution = {
  native: {
    chainId: '0x1',
    from: account,
    to: sessionKey.address,
    permission: { type: 'native-token-periodic', isAdjustmentAllowed: false, data: { periodAmount: '0x2386f26fc10000', periodDuration: 86400, startTime: start, justification: 'Top up your game wallet daily' } },
    rules: [{ type: 'expiry', data: { timestamp: expiry } }],
  },
  erc20: {
    chainId: '0x1',
    to: sessionKey.address,
    permission: { type: 'erc20-token-periodic', isAdjustmentAllowed: true, data: { tokenAddress: token, periodAmount: '0x989680', periodDuration: 604800, startTime: null, justification: null } },
    rules: [{ type: 'expiry', data: { timestamp: expiry } }],
  },
}

/** A copy of `value` with `edit` applied to it (requests are plain JSON). */
function edited<T>(value: T, edit: (copy: any) => void): unknown {
  const copy = structuredClone(value)
  edit(copy)
  return copy
}

describe('fromGrantPermissions', () => {
  test('behavior: a native recurring allowance to a `keys` signer is a native periodic grant to the key’s address', () => {
    expect(Permissions.fromGrantPermissions(appKit.native)).toEqual(grants.native)
  })

  test('behavior: an ERC-20 recurring allowance to a compressed `key` signer, for the named account', () => {
    expect(Permissions.fromGrantPermissions(appKit.erc20)).toEqual({ ...grants.erc20, chainId: 8453, account })
  })

  test('behavior: a contract call names its functions by the abi or by signature, and a call-limit policy caps the calls', () => {
    expect(Permissions.fromGrantPermissions(appKit.contractCall)).toEqual(grants.contractCall)
  })

  test.each([
    ['an `account` signer’s `address` (AppKit’s earlier shape)', (r: any) => (r.signer = { type: 'account', data: { address: sessionKey.address } })],
    ['a `selector` beside the name', (r: any) => (r.permissions[0].data.functions = [{ functionName: 'transfer', selector: transfer }, { functionName: 'approve', selector: approve }])],
    ['a selector with a name the abi lacks', (r: any) => (r.permissions[0].data.functions = [{ functionName: 'move', selector: transfer }, { functionName: 'approve' }])],
    ['no abi, functions by signature', (r: any) => (r.permissions[0].data = { address: token, functions: [{ functionName: 'transfer(address,uint256)' }, { functionName: 'function approve(address spender, uint256 amount)' }] })],
    ['a zero valueLimit and a Call operation', (r: any) => Object.assign(r.permissions[0].data.functions[0], { valueLimit: '0x0', operation: 'Call', args: [] })],
    ['the same function twice', (r: any) => r.permissions[0].data.functions.push({ functionName: 'transfer' })],
  ])('param: %s', (_, edit) => {
    expect(Permissions.fromGrantPermissions(edited(appKit.contractCall, edit))).toEqual(grants.contractCall)
  })

  test('behavior: a contract call with no functions allows any function of the contract', () => {
    const request = edited(appKit.contractCall, (r) => (r.permissions[0].data.functions = []))
    expect(Permissions.fromGrantPermissions(request)).toMatchObject({ permission: { type: 'contract-call', targets: [token], selectors: [] } })
  })

  test.each([
    ['two permissions', (r: any) => r.permissions.push(r.permissions[0]), 'One permission per session request'],
    ['no permission', (r: any) => (r.permissions = []), 'request.permissions must hold one permission'],
    ['an unknown permission type', (r: any) => (r.permissions[0].type = 'native-token-transfer'), "Unsupported permission type 'native-token-transfer'"],
    ['a non-hex allowance', (r: any) => (r.permissions[0].data.allowance = '10000'), 'request.permissions[0].data.allowance must be a hex quantity'],
    ['an allowance as a number', (r: any) => (r.permissions[0].data.allowance = 10000), 'request.permissions[0].data.allowance must be a hex quantity'],
    ['a zero allowance', (r: any) => (r.permissions[0].data.allowance = '0x00'), 'allowance must be more than 0'],
    ['an allowance of 2^256', (r: any) => (r.permissions[0].data.allowance = `0x1${'0'.repeat(64)}`), 'allowance must be less than 2^256'],
    ['a negative period', (r: any) => (r.permissions[0].data.period = -86400), 'request.permissions[0].data.period must be a whole number of seconds'],
    ['a zero period', (r: any) => (r.permissions[0].data.period = 0), 'request.permissions[0].data.period must be a whole number of seconds'],
    ['a fractional period', (r: any) => (r.permissions[0].data.period = 1.5), 'request.permissions[0].data.period must be a whole number of seconds'],
    ['a period over ten years', (r: any) => (r.permissions[0].data.period = 11 * 365 * 86400), 'period must be at most'],
    ['a start in milliseconds', (r: any) => (r.permissions[0].data.start = start * 1000), `request.permissions[0].data.start ${start * 1000} looks like milliseconds`],
    ['an expiry in milliseconds', (r: any) => (r.expiry = expiry * 1000), 'request.expiry'],
    ['a negative expiry', (r: any) => (r.expiry = -1), 'request.expiry must be more than 0'],
    ['no expiry', (r: any) => delete r.expiry, 'request.expiry is required'],
    ['a start at the expiry', (r: any) => (r.permissions[0].data.start = expiry), 'at or after the session’s expiry'],
    ['an unknown field', (r: any) => (r.sessionKey = '0x'), "request has an unknown field 'sessionKey'"],
    ['an unknown permission field', (r: any) => (r.permissions[0].data.required = true), "request.permissions[0].data has an unknown field 'required'"],
    ['a decimal chain id', (r: any) => (r.chainId = 1), 'request.chainId must be a hex chain id'],
    ['chain id 0', (r: any) => (r.chainId = '0x0'), 'request.chainId 0x0 is not a chain id'],
    ['a wallet signer', (r: any) => (r.signer = { type: 'wallet', data: {} }), "Unsupported signer type 'wallet'"],
    ['a secp256r1 key', (r: any) => (r.signer.data.keys[0].type = 'secp256r1'), 'must be secp256k1'],
    ['two keys', (r: any) => r.signer.data.keys.push(r.signer.data.keys[0]), 'request.signer.data.keys must hold exactly one key'],
    ['a public key off the curve', (r: any) => (r.signer.data.keys[0].publicKey = `0x04${'11'.repeat(64)}`), 'is not a point on secp256k1'],
    ['a public key of 64 bytes', (r: any) => (r.signer.data.keys[0].publicKey = `0x${sessionKey.publicKey.slice(4)}`), 'must be a secp256k1 public key'],
    ['an account with a wrong checksum', (r: any) => (r.address = '0x90F79bf6EB2c4f870365E785982E1f101E93b9O6'.replace('O', '0').replace('b906', 'B906')), 'request.address must be an address'],
    ['an unknown policy', (r: any) => (r.policies = [{ type: 'gas-limit', data: { limit: '0x1' } }]), "Unsupported policy type 'gas-limit'"],
    ['a call limit over the limit', (r: any) => (r.policies = [{ type: 'call-limit', data: { count: 1_000_001 } }]), 'request.policies[0].data.count must be at most 1000000'],
    ['two call limits', (r: any) => (r.policies = [{ type: 'call-limit', data: { count: 1 } }, { type: 'call-limit', data: { count: 2 } }]), 'two call-limit policies'],
  ])('error: %s', (_, edit, message) => {
    const request = edited(appKit.native, edit)
    expect(() => Permissions.fromGrantPermissions(request)).toThrow(Permissions.PermissionError)
    expect(() => Permissions.fromGrantPermissions(request)).toThrow(message)
  })

  test.each([
    ['argument conditions', (r: any) => (r.permissions[0].data.functions[0].args = [{ operator: 'EQUAL', value: '0x01' }]), 'argument conditions are not supported'],
    ['a delegatecall', (r: any) => (r.permissions[0].data.functions[0].operation = 'DelegateCall'), "only 'Call' is supported"],
    ['a value limit', (r: any) => (r.permissions[0].data.functions[0].valueLimit = '0x1'), 'sends no native token'],
    ['a name the abi lacks', (r: any) => (r.permissions[0].data.functions[0].functionName = 'mint'), "functionName 'mint' is not a function of the abi"],
    ['an overloaded name', (r: any) => r.permissions[0].data.abi.push({ ...erc20Abi.find((f) => f.name === 'transfer'), inputs: [{ type: 'address' }] }), 'is overloaded'],
    ['a selector that is not the name’s', (r: any) => (r.permissions[0].data.functions[0].selector = approve), `selector ${approve} is not transfer’s`],
    ['a malformed selector', (r: any) => (r.permissions[0].data.functions[0].selector = '0xa9059c'), 'must be a 4-byte selector'],
    ['33 functions', (r: any) => (r.permissions[0].data.functions = Array.from({ length: 33 }, (_, i) => ({ functionName: `f${i}()` }))), 'at most 32'],
    ['a malformed signature', (r: any) => (r.permissions[0].data.functions[0].functionName = 'transfer(address'), 'is not a function signature'],
  ])('error: a contract call with %s', (_, edit, message) => {
    const request = edited(appKit.contractCall, edit)
    expect(() => Permissions.fromGrantPermissions(request)).toThrow(Permissions.PermissionError)
    expect(() => Permissions.fromGrantPermissions(request)).toThrow(message)
  })

  test.each([null, 'request', [appKit.native]])('error: %j is not a request', (request) => {
    expect(() => Permissions.fromGrantPermissions(request)).toThrow('request must be an object')
  })
})

describe('fromExecutionPermission', () => {
  test('behavior: a native periodic permission, with the dapp’s justification and the account it names', () => {
    expect(Permissions.fromExecutionPermission(execution.native)).toEqual({ ...grants.native, account, justification: 'Top up your game wallet daily' })
  })

  test('behavior: an ERC-20 periodic permission without a start starts now; null fields are absent', () => {
    expect(Permissions.fromExecutionPermission(execution.erc20, { now: start })).toEqual(grants.erc20)
  })

  test('behavior: the same limits asked in both shapes are the same grant', () => {
    const { justification: _, account: __, ...native } = Permissions.fromExecutionPermission(execution.native)
    expect(native).toEqual(Permissions.fromGrantPermissions(appKit.native))
  })

  test.each([
    ['a stream', (r: any) => (r.permission.type = 'native-token-stream'), "Permission type 'native-token-stream' is not supported"],
    ['an ERC-20 stream', (r: any) => (r.permission.type = 'erc20-token-stream'), "Permission type 'erc20-token-stream' is not supported"],
    ['a revocation', (r: any) => (r.permission = { type: 'erc20-token-revocation', isAdjustmentAllowed: false, data: {} }), "Permission type 'erc20-token-revocation' is not supported"],
    ['an unknown type', (r: any) => (r.permission.type = 'everything'), "Permission type 'everything' is unknown"],
    ['no rules', (r: any) => delete r.rules, "request.rules needs an 'expiry' rule: sessions always expire"],
    ['null rules', (r: any) => (r.rules = null), "needs an 'expiry' rule"],
    ['a redeemer rule', (r: any) => r.rules.push({ type: 'redeemer', data: { addresses: [account] } }), "Unsupported rule type 'redeemer'"],
    ['two expiry rules', (r: any) => r.rules.push(r.rules[0]), 'two expiry rules'],
    ['an expiry in milliseconds', (r: any) => (r.rules[0].data.timestamp = expiry * 1000), 'request.rules[0].data.timestamp'],
    ['a start in milliseconds', (r: any) => (r.permission.data.startTime = start * 1000), 'request.permission.data.startTime'],
    ['a start at the expiry', (r: any) => (r.permission.data.startTime = expiry + 1), 'it could never be spent'],
    ['a hex period duration', (r: any) => (r.permission.data.periodDuration = '0x15180'), 'request.permission.data.periodDuration must be a whole number'],
    ['an amount of 0', (r: any) => (r.permission.data.periodAmount = '0x0'), 'request.permission.data.periodAmount must be more than 0'],
    ['a justification of 201 characters', (r: any) => (r.permission.data.justification = 'x'.repeat(201)), 'at most 200 characters'],
    ['a justification with a bidi override', (r: any) => (r.permission.data.justification = 'Pay \u202Eevil'), 'must not hold control characters'],
    ['a justification with a newline', (r: any) => (r.permission.data.justification = 'Pay\nnow'), 'must not hold control characters'],
    ['no isAdjustmentAllowed', (r: any) => delete r.permission.isAdjustmentAllowed, 'request.permission.isAdjustmentAllowed is required'],
    ['a session key that is not an address', (r: any) => (r.to = '0x1234'), 'request.to must be an address'],
    ['a token field on a native permission', (r: any) => (r.permission.data.tokenAddress = token), "has an unknown field 'tokenAddress'"],
  ])('error: %s', (_, edit, message) => {
    const request = edited(execution.native, edit)
    expect(() => Permissions.fromExecutionPermission(request)).toThrow(Permissions.PermissionError)
    expect(() => Permissions.fromExecutionPermission(request)).toThrow(message)
  })

  test('error: an ERC-20 permission without its token', () => {
    expect(() => Permissions.fromExecutionPermission(edited(execution.erc20, (r) => delete r.permission.data.tokenAddress))).toThrow('request.permission.data.tokenAddress is required')
  })
})

describe('caveats', () => {
  test.each(Object.keys(grants) as (keyof typeof grants)[])('behavior: the %s grant’s caveats are the kit’s, in its order', (name) => {
    expect(Permissions.caveats(grants[name], enforcers)).toEqual(kitCaveats[name]())
  })

  test('behavior: the caveats name the enforcers given, as the devnet’s', () => {
    const devnet = Permissions.caveats(grants.native, DelegationFramework.devnet.caveatEnforcers)
    expect(devnet.map((c) => c.enforcer)).toEqual([DelegationFramework.devnet.caveatEnforcers.ExactCalldataEnforcer, DelegationFramework.devnet.caveatEnforcers.NativeTokenPeriodTransferEnforcer, DelegationFramework.devnet.caveatEnforcers.TimestampEnforcer])
  })

  test.each([
    ['an enforcer the environment lacks', grants.native, { ...enforcers, TimestampEnforcer: undefined as unknown as Address }, 'The environment has no TimestampEnforcer'],
    ['a contract named twice', { ...grants.anyFunction, permission: { type: 'contract-call', targets: [token, lower(token)], selectors: [] } }, enforcers, 'names a contract twice'],
    ['17 contracts', { ...grants.anyFunction, permission: { type: 'contract-call', targets: Array(17).fill(token), selectors: [] } }, enforcers, '1 to 16 contracts'],
    ['no contract', { ...grants.anyFunction, permission: { type: 'contract-call', targets: [], selectors: [] } }, enforcers, '1 to 16 contracts'],
    ['a call cap of 0', { ...grants.contractCall, maxCalls: 0 }, enforcers, 'maxCalls must be a whole number'],
    ['an expiry in milliseconds', { ...grants.native, expiry: expiry * 1000 }, enforcers, 'is not unix seconds'],
    ['an amount of 2^256', { ...grants.native, permission: { type: 'native-token-periodic', period: { amount: 2n ** 256n, seconds: 86400, start } } }, enforcers, 'less than 2^256'],
  ] as [string, Permissions.Grant, Record<string, Address>, string][])('error: %s', (_, grant, environment, message) => {
    expect(() => Permissions.caveats(grant, environment)).toThrow(message)
  })
})

describe('fromCaveats', () => {
  test.each(Object.keys(grants) as (keyof typeof grants)[])('behavior: the %s grant’s limits read back from its caveats', (name) => {
    const { chainId: _, delegate: __, ...limits } = grants[name]
    expect(Permissions.fromCaveats(Permissions.caveats(grants[name], enforcers), enforcers)).toEqual(limits)
  })

  test('behavior: the kit’s own caveats read, addresses in any case', () => {
    expect(Permissions.fromCaveats(kitCaveats.contractCall(), kitEnvironment.caveatEnforcers)).toEqual({ permission: grants.contractCall.permission, expiry, maxCalls: 5 })
  })

  const native = () => Permissions.caveats(grants.native, enforcers)
  const contractCall = () => Permissions.caveats(grants.contractCall, enforcers)
  test.each([
    ['an enforcer swapped for an unknown contract', () => native().map((c, i) => (i === 1 ? { ...c, enforcer: game } : c)), 'is not one of the session enforcers'],
    ['the allowance’s enforcer swapped for another session enforcer', () => native().map((c, i) => (i === 1 ? { ...c, enforcer: enforcers.ValueLteEnforcer } : c)), 'are not a session’s scope'],
    ['an extra caveat', () => [...native(), contractCall()[2]!], 'end with its expiry'],
    ['an extra caveat in the scope', () => [contractCall()[0]!, ...native()], 'are not a session’s scope'],
    ['a caveat less (no calldata pin)', () => native().slice(1), 'are not a session’s scope'],
    ['no expiry', () => native().slice(0, 2), 'end with its expiry'],
    ['reordered scope caveats', () => [native()[1]!, native()[0]!, native()[2]!], 'are not a session’s scope'],
    ['the expiry after the call cap', () => [...contractCall().slice(0, 3), contractCall()[4]!, contractCall()[3]!], 'are not a session’s scope'],
    ['a start time after the expiry', () => native().map((c, i) => (i === 2 ? { ...c, terms: `0x${'0'.repeat(32)}${(start - 1).toString(16).padStart(32, '0')}` as Hex } : c)), 'it could never be spent'],
    ['an afterThreshold', () => native().map((c, i) => (i === 2 ? { ...c, terms: `0x${'0'.repeat(31)}1${expiry.toString(16).padStart(32, '0')}` as Hex } : c)), 'not exactly those of a session grant'],
    ['a calldata pin other than empty', () => native().map((c, i) => (i === 0 ? { ...c, terms: '0x00' as Hex } : c)), 'not exactly those of a session grant'],
    ['a zero allowance', () => native().map((c, i) => (i === 1 ? { ...c, terms: `0x${'0'.repeat(64)}${c.terms.slice(66)}` as Hex } : c)), 'more than 0'],
    ['a truncated allowance', () => native().map((c, i) => (i === 1 ? { ...c, terms: c.terms.slice(0, -2) as Hex } : c)), 'terms must be 96 bytes'],
    ['a value cap above 0', () => contractCall().map((c, i) => (i === 2 ? { ...c, terms: `0x${'0'.repeat(63)}1` as Hex } : c)), 'not exactly those of a session grant'],
    ['a selector list with a trailing byte', () => contractCall().map((c, i) => (i === 1 ? { ...c, terms: `${c.terms}00` as Hex } : c)), 'items of 4 bytes'],
    ['other args', () => native().map((c, i) => (i === 0 ? { ...c, args: '0x01' as Hex } : c)), 'not exactly those of a session grant'],
    ['terms that are not hex', () => native().map((c, i) => (i === 1 ? { ...c, terms: 'ten' as Hex } : c)), 'must have hex bytes'],
    ['nothing at all', () => [], 'end with its expiry'],
  ])('error: %s', (_, list, message) => {
    expect(() => Permissions.fromCaveats(list(), enforcers)).toThrow(Permissions.PermissionError)
    expect(() => Permissions.fromCaveats(list(), enforcers)).toThrow(message)
  })

  test('error: caveats made with another deployment’s enforcers are not this one’s', () => {
    expect(() => Permissions.fromCaveats(Permissions.caveats(grants.native, DelegationFramework.devnet.caveatEnforcers), enforcers)).toThrow('is not one of the session enforcers')
  })
})

describe('delegation', () => {
  test('behavior: the unsigned delegation is the kit’s createDelegation for the same grant and salt', () => {
    const d = Permissions.delegation({ grant: grants.contractCall, delegator: account, enforcers, salt: 7n })
    const theirs = createDelegation({
      from: account,
      to: sessionKey.address,
      environment: kitEnvironment,
      scope: { type: ScopeType.FunctionCall, targets: [lower(token)], selectors: [transfer, approve] },
      caveats: [expiryCaveat, { type: 'limitedCalls', limit: 5 }],
      salt: '0x7',
    })
    expect(kit(d)).toEqual(theirs)
    expect(d.authority).toBe(ROOT_AUTHORITY)
    expect(Permissions.rootAuthority).toBe(ROOT_AUTHORITY)
  })

  test.each([
    ['the delegator as its own delegate', { delegator: sessionKey.address, salt: 1n }, 'to another account'],
    ['a negative salt', { delegator: account, salt: -1n }, 'salt must be a uint256'],
    ['a salt of 2^256', { delegator: account, salt: 2n ** 256n }, 'salt must be a uint256'],
    ['a delegator that is not an address', { delegator: '0x12' as Address, salt: 1n }, 'delegator must be an address'],
  ])('error: %s', (_, options, message) => {
    expect(() => Permissions.delegation({ grant: grants.native, enforcers, ...options })).toThrow(message)
  })
})

describe('delegationHash', () => {
  test.each(Object.keys(grants) as (keyof typeof grants)[])('behavior: the %s delegation’s hash is the kit’s and delegation-core’s', async (name) => {
    const d = await signed(grants[name])
    expect(Permissions.delegationHash(d)).toBe(hashDelegation(kit(d)))
    expect(Permissions.delegationHash(d)).toBe(coreHashDelegation(d))
  })

  test('behavior: every signed field is in the hash, the signature and args are not (as DelegationManager.getDelegationHash)', async () => {
    const d = await signed(grants.native)
    const hash = Permissions.delegationHash(d)
    expect(Permissions.delegationHash({ ...d, salt: 8n })).not.toBe(hash)
    expect(Permissions.delegationHash({ ...d, delegate: account, delegator: sessionKey.address })).not.toBe(hash)
    expect(Permissions.delegationHash({ ...d, caveats: d.caveats.slice(1) })).not.toBe(hash)
    expect(Permissions.delegationHash({ ...d, signature: '0x' })).toBe(hash)
    expect(Permissions.delegationHash({ ...d, caveats: d.caveats.map((c) => ({ ...c, args: '0x1234' as Hex })) })).toBe(hash)
  })
})

describe('delegationTypedData', () => {
  test('behavior: the owner’s signature is the kit’s signDelegation, and recovers to the owner', async () => {
    const d = Permissions.delegation({ grant: grants.erc20, delegator: account, enforcers, salt: 3n })
    const options = { chainId: 8453, delegationManager: kitEnvironment.DelegationManager }
    const signature = await owner.signTypedData(Permissions.delegationTypedData(d, options))
    const theirs = await signDelegation({ privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d', delegation: kit(d), ...options })
    expect(signature).toBe(theirs)
    expect(await recoverTypedDataAddress({ ...Permissions.delegationTypedData(d, options), signature })).toBe(owner.address)
  })

  test('behavior: the chain and the DelegationManager are in what is signed', () => {
    const d = Permissions.delegation({ grant: grants.native, delegator: account, enforcers, salt: 3n })
    const hash = (chainId: number, delegationManager: Address) => hashTypedData(Permissions.delegationTypedData(d, { chainId, delegationManager }))
    const base = hash(1, kitEnvironment.DelegationManager)
    expect(hash(8453, kitEnvironment.DelegationManager)).not.toBe(base)
    expect(hash(1, DelegationFramework.devnet.DelegationManager)).not.toBe(base)
  })

  test('error: a delegation without caveats is never signed', () => {
    const d = Permissions.delegation({ grant: grants.native, delegator: account, enforcers, salt: 3n })
    expect(() => Permissions.delegationTypedData({ ...d, caveats: [] }, { chainId: 1, delegationManager: kitEnvironment.DelegationManager })).toThrow('without caveats')
  })
})

describe('encodeContext', () => {
  test('behavior: one delegation, or a chain, encodes as the kit’s encodeDelegations and reads back', async () => {
    const leaf = await signed(grants.contractCall)
    const root = await signed(grants.native, 9n)
    for (const chain of [[leaf], [leaf, root]]) {
      const context = Permissions.encodeContext(chain)
      expect(context).toBe(encodeDelegations(chain.map(kit)))
      expect(Permissions.decodeContext(context)).toEqual(chain)
      // The kit reads addresses back in lowercase: the same delegations, by their hashes and signatures.
      expect(decodeDelegations(context).map((d) => [hashDelegation(d), d.signature])).toEqual(chain.map((d) => [Permissions.delegationHash(d), d.signature]))
    }
  })

  test('error: an empty chain, trailing bytes or garbage are refused', async () => {
    const context = Permissions.encodeContext([await signed(grants.native)])
    expect(() => Permissions.encodeContext([])).toThrow(Permissions.PermissionError)
    expect(() => Permissions.decodeContext(`${context}00`)).toThrow('does not read back')
    expect(() => Permissions.decodeContext('0x1234')).toThrow('is not an ABI-encoded delegation chain')
    expect(() => Permissions.decodeContext('context' as Hex)).toThrow('The permission context must be hex bytes')
    expect(() => Permissions.decodeContext(encodeDelegations([]))).toThrow('1 to 8 delegations')
  })
})

describe('redeemCalldata', () => {
  const call = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [account, 10n] })

  test('behavior: redeeming one context is the kit’s DelegationManager.encode.redeemDelegations', async () => {
    const d = await signed(grants.contractCall)
    const theirs = contracts.DelegationManager.encode.redeemDelegations({ delegations: [[kit(d)]], modes: [ExecutionMode.SingleDefault], executions: [[createExecution({ target: token, value: 0n, callData: call })]] })
    expect(Permissions.redeemCalldata([Permissions.encodeContext([d])], [{ target: token, value: 0n, callData: call }])).toBe(theirs)
  })

  test('behavior: two contexts, one execution each', async () => {
    const [a, b] = [await signed(grants.contractCall), await signed(grants.native)]
    const executions = [{ target: token, value: 0n, callData: call }, { target: account, value: parseEther('0.004'), callData: '0x' as Hex }]
    const theirs = contracts.DelegationManager.encode.redeemDelegations({ delegations: [[kit(a)], [kit(b)]], modes: [ExecutionMode.SingleDefault, ExecutionMode.SingleDefault], executions: executions.map((e) => [createExecution(e)]) })
    expect(Permissions.redeemCalldata([Permissions.encodeContext([a]), Permissions.encodeContext([b])], executions)).toBe(theirs)
  })

  test('error: a context without its execution', async () => {
    const context = Permissions.encodeContext([await signed(grants.native)])
    expect(() => Permissions.redeemCalldata([context], [])).toThrow('One execution per permission context')
    expect(() => Permissions.redeemCalldata([], [])).toThrow('One execution per permission context')
  })
})

describe('disableCalldata', () => {
  test('behavior: it is the kit’s DelegationManager.encode.disableDelegation, and decodeDisable reads it back', async () => {
    const d = await signed(grants.erc20)
    const calldata = Permissions.disableCalldata(d)
    expect(calldata).toBe(contracts.DelegationManager.encode.disableDelegation({ delegation: kit(d) }))
    expect(Permissions.decodeDisable(calldata)).toEqual(d)
  })

  test('error: decodeDisable refuses another call, trailing bytes and garbage', async () => {
    const d = await signed(grants.erc20)
    expect(() => Permissions.decodeDisable(Permissions.redeemCalldata([Permissions.encodeContext([d])], [{ target: token, value: 0n, callData: '0x' }]))).toThrow('is not DelegationManager.disableDelegation')
    expect(() => Permissions.decodeDisable(`${Permissions.disableCalldata(d)}00`)).toThrow('does not read back')
    expect(() => Permissions.decodeDisable('0xdeadbeef')).toThrow(Permissions.PermissionError)
    expect(() => Permissions.decodeDisable(42 as unknown as Hex)).toThrow('The call must be hex bytes')
  })
})

describe('toJson', () => {
  test('behavior: a delegation survives JSON (the salt as a hex quantity)', async () => {
    const d = await signed(grants.contractCall, 2n ** 128n + 1n)
    const json = JSON.parse(JSON.stringify(Permissions.toJson(d)))
    expect(json.salt).toBe('0x100000000000000000000000000000001')
    expect(Permissions.fromJson(json)).toEqual(d)
    expect(Permissions.fromJson(Permissions.toJson({ ...d, salt: 0n, signature: '0x' }))).toEqual({ ...d, salt: 0n, signature: '0x' })
  })

  test.each([
    ['an unknown field', (j: any) => (j.chainId = 1), "delegation has an unknown field 'chainId'"],
    ['a missing signature', (j: any) => delete j.signature, 'delegation.signature is required'],
    ['a salt as a number', (j: any) => (j.salt = 7), 'delegation.salt must be a hex quantity'],
    ['a salt of 2^256', (j: any) => (j.salt = `0x1${'0'.repeat(64)}`), 'delegation.salt must be a hex quantity below 2^256'],
    ['a short authority', (j: any) => (j.authority = '0xff'), 'delegation.authority must be 32 bytes'],
    ['a delegate that is not an address', (j: any) => (j.delegate = 'alice.eth'), 'delegation.delegate must be an address'],
    ['odd-length terms', (j: any) => (j.caveats[0].terms = '0x123'), 'delegation.caveats[0].terms must be hex bytes'],
    ['a caveat with an extra field', (j: any) => (j.caveats[0].type = 'timestamp'), "delegation.caveats[0] has an unknown field 'type'"],
    ['caveats that are not a list', (j: any) => (j.caveats = {}), 'delegation.caveats must be an array'],
    ['33 caveats', (j: any) => (j.caveats = Array(33).fill(j.caveats[0])), 'delegation.caveats holds 33 entries, at most 32'],
    ['a signature over 8 KB', (j: any) => (j.signature = `0x${'00'.repeat(8193)}`), 'delegation.signature must be at most 8192 bytes'],
  ])('error: fromJson refuses %s', async (_, edit, message) => {
    const json = edited(Permissions.toJson(await signed(grants.native)), edit)
    expect(() => Permissions.fromJson(json)).toThrow(Permissions.PermissionError)
    expect(() => Permissions.fromJson(json)).toThrow(message)
  })
})

describe('grantPermissionsResponse', () => {
  const delegationManager = kitEnvironment.DelegationManager
  const factory: Address = kitEnvironment.SimpleFactory

  test('behavior: the request echoed with the account, the context and the DelegationManager; the factory call while undeployed', async () => {
    const d = await signed(Permissions.fromGrantPermissions(appKit.native))
    const answer = Permissions.grantPermissionsResponse(appKit.native, d, { delegationManager }) as Record<string, unknown>
    expect(answer).toEqual({ ...appKit.native, address: account, context: Permissions.encodeContext([d]), signerMeta: { delegationManager } })
    expect(Permissions.decodeContext(answer.context as Hex)).toEqual([d])
    expect(Permissions.grantPermissionsResponse(appKit.native, d, { delegationManager, factory, factoryData: '0xabcd' })).toMatchObject({ accountMeta: { factory, factoryData: '0xabcd' } })
  })

  test.each([
    ['an unsigned delegation', (d: Permissions.Delegation) => ({ ...d, signature: '0x' as Hex }), {}, 'The delegation is not signed'],
    ['another delegate', (d: Permissions.Delegation) => ({ ...d, delegate: game }), {}, 'is not the request’s'],
    ['a factory without its data', (d: Permissions.Delegation) => d, { factory }, 'factory and factoryData go together'],
  ])('error: %s', async (_, change, meta, message) => {
    const d = change(await signed(Permissions.fromGrantPermissions(appKit.native)))
    expect(() => Permissions.grantPermissionsResponse(appKit.native, d, { delegationManager, ...meta })).toThrow(message)
  })

  test('error: a delegation from another account than the one the request names', async () => {
    const d = { ...(await signed(Permissions.fromGrantPermissions(appKit.erc20))), delegator: game }
    expect(() => Permissions.grantPermissionsResponse(appKit.erc20, d, { delegationManager })).toThrow('is not the requested account')
  })
})

describe('executionPermissionResponse', () => {
  const delegationManager = kitEnvironment.DelegationManager

  test('behavior: the request echoed with the context, the dependencies and the DelegationManager', async () => {
    const d = await signed(Permissions.fromExecutionPermission(execution.native))
    expect(Permissions.executionPermissionResponse(execution.native, d, { delegationManager })).toEqual({ ...execution.native, context: Permissions.encodeContext([d]), dependencies: [], delegationManager })
    const factoryData: Hex = '0x1234'
    expect(Permissions.executionPermissionResponse(execution.native, d, { delegationManager, factory: kitEnvironment.SimpleFactory, factoryData })).toMatchObject({
      dependencies: [{ factory: kitEnvironment.SimpleFactory, factoryData }],
    })
  })

  test('behavior: a request without `from` is answered with the granting account', async () => {
    const d = await signed(Permissions.fromExecutionPermission(execution.erc20, { now: start }))
    expect(Permissions.executionPermissionResponse(execution.erc20, d, { delegationManager })).toMatchObject({ from: account, to: sessionKey.address })
  })

  test('error: a malformed request is not answered', async () => {
    const d = await signed(grants.native)
    expect(() => Permissions.executionPermissionResponse({ ...execution.native, rules: [] }, d, { delegationManager })).toThrow(Permissions.PermissionError)
  })
})
