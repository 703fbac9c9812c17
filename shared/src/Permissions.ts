/**
 * Smart sessions (issue 25, docs/embedded-wallet.md "Smart sessions"): a dapp's permission request, read
 * into one model whatever shape it came in (AppKit's `wallet_grantPermissions`, or ERC-7715's current
 * `wallet_requestExecutionPermissions`, a moving draft), and the ERC-7710 delegation that grants it: from
 * the person's smart account (a HybridDeleGator) to the dapp's session key, its limits as caveats that
 * MetaMask's Delegation Framework enforces on chain. Then what the dapp redeems (the permission context),
 * what the owner signs, the session's id, and the calls that redeem and disable it.
 *
 * It does what `@metamask/smart-accounts-kit` 2.0.0 does for the same limits (`createDelegation` with a
 * scope and caveats, `encodeDelegations`, `hashDelegation`, `contracts.DelegationManager.encode`), byte for
 * byte (Permissions.test.ts compares them), with viem alone: the kit is 130 KB gzip and reports its calls
 * to MetaMask's analytics endpoint (see SmartAccount.ts).
 *
 * Everything that comes from a dapp or across postMessage is read strictly: a refusal is a PermissionError
 * whose message names the field. `import * as Permissions from '@doorway/shared/Permissions'`.
 */
import {
  type Address,
  type Hex,
  concat,
  decodeAbiParameters,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  hashStruct,
  hexToBigInt,
  isAddress,
  isAddressEqual,
  keccak256,
  maxUint256,
  numberToHex,
  slice,
  toFunctionSelector,
  zeroAddress,
} from 'viem'
import { isPlainObject } from './Schema.js'

export type Period = { amount: bigint; seconds: number; start: number /* unix s */ }
export type Permission =
  | { type: 'native-token-periodic'; period: Period }
  | { type: 'erc20-token-periodic'; token: Address; period: Period }
  | { type: 'contract-call'; targets: Address[]; selectors: Hex[] /* 4-byte; [] = any function */ }

/** One session: what the internal model holds, whatever shape the dapp asked in. */
export type Grant = {
  chainId: number
  /** The session key's address (AppKit's `keys`/`key` signer's secp256k1 key, or its `account`), or ERC-7715's `to`. */
  delegate: Address
  permission: Permission
  /** Unix seconds, required: sessions always expire. Whether it is in the future is the caller's check (no chain time here). */
  expiry: number
  /** LimitedCallsEnforcer: how many redemptions in all. */
  maxCalls?: number
  /** The dapp's words, shown as the app's (at most limits.justification characters). */
  justification?: string
  /** The account the dapp named (AppKit's `address`, ERC-7715's `from`): the frame checks it is the person's. */
  account?: Address
}

/** Every refusal: a message a developer understands, naming the field. */
export class PermissionError extends Error {
  override readonly name: string = 'PermissionError'
}

export const limits = {
  maxCalls: 1_000_000,
  /** The longest expiry from now (callers check it: this module has no clock for expiries). */
  maxSeconds: 366 * 86400,
  justification: 200,
  targets: 16,
  selectors: 32,
  /** The longest allowance period: MetaMask's own (ERC-7715 types' MAX_PERIOD_DURATION), ten years. */
  periodSeconds: 10 * 365 * 86400,
} as const

/** Unix seconds stay below this until the year 5138; a larger "time" is milliseconds sent by mistake. */
const maxSecondsValue = 1e11

// ---------------------------------------------------------------------------------------------------
// Reading requests

type Fields = Record<string, unknown>

/** A plain object with these keys and no others (null counts as absent, as ERC-7715's types allow). */
function fields(x: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Fields {
  if (!isPlainObject(x)) throw new PermissionError(`${path} must be an object`)
  for (const key of Object.keys(x))
    if (!required.includes(key) && !optional.includes(key)) throw new PermissionError(`${path} has an unknown field '${key}'`)
  for (const key of required) if (x[key] === undefined || x[key] === null) throw new PermissionError(`${path}.${key} is required`)
  return x
}

const present = (x: unknown) => x !== undefined && x !== null

function chainIdOf(x: unknown, path: string): number {
  if (typeof x !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(x)) throw new PermissionError(`${path} must be a hex chain id (e.g. 0x1)`)
  const id = Number(x)
  if (id <= 0 || !Number.isSafeInteger(id)) throw new PermissionError(`${path} ${x} is not a chain id`)
  return id
}

function addressOf(x: unknown, path: string): Address {
  if (typeof x !== 'string' || !isAddress(x)) throw new PermissionError(`${path} must be an address (0x and 40 hex digits, checksummed if mixed-case)`)
  return getAddress(x)
}

/** A uint256 amount as a hex quantity, more than 0. */
function amountOf(x: unknown, path: string): bigint {
  if (typeof x !== 'string' || !/^0x[0-9a-fA-F]+$/.test(x)) throw new PermissionError(`${path} must be a hex quantity (0x…)`)
  const digits = x.slice(2).replace(/^0+/, '')
  if (digits.length > 64) throw new PermissionError(`${path} must be less than 2^256`)
  const amount = digits === '' ? 0n : BigInt(`0x${digits}`)
  if (amount === 0n) throw new PermissionError(`${path} must be more than 0`)
  return amount
}

/** A point in time as unix seconds. */
function secondsOf(x: unknown, path: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw new PermissionError(`${path} must be an integer (unix seconds)`)
  if (x <= 0) throw new PermissionError(`${path} must be more than 0 (unix seconds)`)
  if (x >= maxSecondsValue) throw new PermissionError(`${path} ${x} looks like milliseconds: send unix seconds`)
  return x
}

function durationOf(x: unknown, path: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x <= 0) throw new PermissionError(`${path} must be a whole number of seconds, more than 0`)
  if (x > limits.periodSeconds) throw new PermissionError(`${path} must be at most ${limits.periodSeconds} seconds (ten years)`)
  return x
}

function countOf(x: unknown, path: string): number {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x <= 0) throw new PermissionError(`${path} must be a whole number, more than 0`)
  if (x > limits.maxCalls) throw new PermissionError(`${path} must be at most ${limits.maxCalls}`)
  return x
}

function arrayOf(x: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(x)) throw new PermissionError(`${path} must be an array`)
  if (x.length > max) throw new PermissionError(`${path} holds ${x.length} entries, at most ${max}`)
  return x
}

// Shown as the dapp's words: no control characters, and no bidi overrides that would make them read as someone else's.
const unsafeText = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u

function justificationOf(x: unknown, path: string): string | undefined {
  if (!present(x)) return undefined
  if (typeof x !== 'string') throw new PermissionError(`${path} must be a string`)
  if ([...x].length > limits.justification) throw new PermissionError(`${path} must be at most ${limits.justification} characters`)
  if (unsafeText.test(x)) throw new PermissionError(`${path} must not hold control characters`)
  return x === '' ? undefined : x
}

const secp256k1P = 2n ** 256n - 2n ** 32n - 977n

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n
  let b = base % modulus
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus
    b = (b * b) % modulus
  }
  return result
}

/** The Ethereum address of a secp256k1 public key, uncompressed (0x04…, 65 bytes) or compressed (0x02…/0x03…, 33 bytes). */
function keyAddress(x: unknown, path: string): Address {
  const shape = `${path} must be a secp256k1 public key: 0x04 and 64 bytes, or 0x02/0x03 and 32 bytes`
  if (typeof x !== 'string' || !/^0x(04[0-9a-fA-F]{128}|0[23][0-9a-fA-F]{64})$/.test(x)) throw new PermissionError(shape)
  const px = BigInt(`0x${x.slice(4, 68)}`)
  const rhs = (modPow(px, 3n, secp256k1P) + 7n) % secp256k1P
  let py: bigint
  if (x.startsWith('0x04')) py = BigInt(`0x${x.slice(68)}`)
  else {
    py = modPow(rhs, (secp256k1P + 1n) / 4n, secp256k1P)
    if ((py & 1n) !== (x.startsWith('0x03') ? 1n : 0n)) py = (secp256k1P - py) % secp256k1P
  }
  if (px >= secp256k1P || py >= secp256k1P || (py * py) % secp256k1P !== rhs) throw new PermissionError(`${path} is not a point on secp256k1`)
  return getAddress(slice(keccak256(concat([numberToHex(px, { size: 32 }), numberToHex(py, { size: 32 })])), 12))
}

// ---------------------------------------------------------------------------------------------------
// AppKit's wallet_grantPermissions (ERC-7715's first draft)

/** AppKit's `wallet_grantPermissions` request (its params[0]), read into one Grant. */
export function fromGrantPermissions(request: unknown): Grant {
  const r = fields(request, 'request', ['chainId', 'expiry', 'signer', 'permissions'], ['address', 'policies'])
  const permissions = arrayOf(r.permissions, 'request.permissions', 16)
  if (permissions.length === 0) throw new PermissionError('request.permissions must hold one permission')
  // Several would all apply to one delegation and contradict: a native allowance pins empty calldata.
  if (permissions.length > 1) throw new PermissionError('One permission per session request: ask for each in its own request')
  const grant: Grant = {
    chainId: chainIdOf(r.chainId, 'request.chainId'),
    delegate: signerAddress(r.signer),
    permission: appKitPermission(permissions[0]),
    expiry: secondsOf(r.expiry, 'request.expiry'),
  }
  const maxCalls = callLimit(r.policies)
  if (maxCalls !== undefined) grant.maxCalls = maxCalls
  if (present(r.address)) grant.account = addressOf(r.address, 'request.address')
  return checked(grant)
}

function signerAddress(x: unknown): Address {
  const signer = fields(x, 'request.signer', ['type', 'data'])
  switch (signer.type) {
    case 'keys': {
      const keys = arrayOf(fields(signer.data, 'request.signer.data', ['keys']).keys, 'request.signer.data.keys', 16)
      // One delegate per delegation: a multisig of keys would need a MultiSigDeleGator as the delegate.
      if (keys.length !== 1) throw new PermissionError(`request.signer.data.keys must hold exactly one key (it holds ${keys.length})`)
      return publicKeyAddress(keys[0], 'request.signer.data.keys[0]')
    }
    case 'key':
      return publicKeyAddress(signer.data, 'request.signer.data')
    case 'account': {
      // ERC-7715's drafts and viem name it `id`; AppKit and MetaMask's earlier ones `address`.
      const data = fields(signer.data, 'request.signer.data', [], ['id', 'address'])
      if (present(data.id) && present(data.address) && String(data.id).toLowerCase() !== String(data.address).toLowerCase()) throw new PermissionError('request.signer.data.id and .address differ')
      return addressOf(data.id ?? data.address, `request.signer.data.${present(data.id) ? 'id' : 'address'}`)
    }
    default:
      throw new PermissionError(`Unsupported signer type '${String(signer.type)}': use 'keys', 'key' (secp256k1) or 'account'`)
  }
}

function publicKeyAddress(x: unknown, path: string): Address {
  const key = fields(x, path, ['type', 'publicKey'])
  if (key.type !== 'secp256k1') throw new PermissionError(`${path}.type '${String(key.type)}' is not supported: the session key must be secp256k1`)
  return keyAddress(key.publicKey, `${path}.publicKey`)
}

function appKitPermission(x: unknown): Permission {
  const permission = fields(x, 'request.permissions[0]', ['type', 'data'])
  const path = 'request.permissions[0].data'
  switch (permission.type) {
    case 'native-token-recurring-allowance': {
      const data = fields(permission.data, path, ['allowance', 'start', 'period'])
      return { type: 'native-token-periodic', period: { amount: amountOf(data.allowance, `${path}.allowance`), seconds: durationOf(data.period, `${path}.period`), start: secondsOf(data.start, `${path}.start`) } }
    }
    case 'erc20-recurring-allowance': {
      const data = fields(permission.data, path, ['token', 'allowance', 'start', 'period'])
      const period = { amount: amountOf(data.allowance, `${path}.allowance`), seconds: durationOf(data.period, `${path}.period`), start: secondsOf(data.start, `${path}.start`) }
      return { type: 'erc20-token-periodic', token: addressOf(data.token, `${path}.token`), period }
    }
    case 'contract-call': {
      const data = fields(permission.data, path, ['address', 'functions'], ['abi'])
      const abi = present(data.abi) ? arrayOf(data.abi, `${path}.abi`, 2048) : []
      const functions = arrayOf(data.functions, `${path}.functions`, limits.selectors)
      const selectors = functions.map((f, i) => functionSelector(f, abi, `${path}.functions[${i}]`))
      return { type: 'contract-call', targets: [addressOf(data.address, `${path}.address`)], selectors: [...new Set(selectors)] }
    }
    default:
      throw new PermissionError(
        `Unsupported permission type '${String(permission.type)}': use 'native-token-recurring-allowance', 'erc20-recurring-allowance' or 'contract-call'`,
      )
  }
}

/**
 * The selector of one AppKit function entry: its `selector`, or its `functionName` looked up in the abi
 * (or a signature such as `transfer(address,uint256)`). Conditions the caveats cannot enforce are refused
 * rather than dropped: the session would allow more than the dapp asked for.
 */
function functionSelector(x: unknown, abi: unknown[], path: string): Hex {
  const entry = fields(x, path, ['functionName'], ['selector', 'args', 'valueLimit', 'operation'])
  if (present(entry.args) && !(Array.isArray(entry.args) && entry.args.length === 0)) throw new PermissionError(`${path}.args: argument conditions are not supported`)
  if (present(entry.operation) && entry.operation !== 'Call') throw new PermissionError(`${path}.operation: only 'Call' is supported`)
  if (present(entry.valueLimit) && !/^0x0*$/.test(String(entry.valueLimit)))
    throw new PermissionError(`${path}.valueLimit: a contract-call session sends no native token (only 0x0 is supported)`)
  const selector = present(entry.selector) ? selectorOf(entry.selector, `${path}.selector`) : undefined
  const named = selectorByName(entry.functionName, abi, path, selector === undefined)
  if (selector && named && selector !== named) throw new PermissionError(`${path}.selector ${selector} is not ${String(entry.functionName)}’s (${named})`)
  return (selector ?? named)!
}

function selectorOf(x: unknown, path: string): Hex {
  if (typeof x !== 'string' || !/^0x[0-9a-fA-F]{8}$/.test(x)) throw new PermissionError(`${path} must be a 4-byte selector (0x and 8 hex digits)`)
  return x.toLowerCase() as Hex
}

function selectorByName(name: unknown, abi: unknown[], path: string, required: boolean): Hex | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > 1024) throw new PermissionError(`${path}.functionName must be a function’s name`)
  if (name.includes('(')) {
    try {
      return toFunctionSelector(name)
    } catch {
      throw new PermissionError(`${path}.functionName '${name}' is not a function signature`)
    }
  }
  const matching = abi.filter((item) => isPlainObject(item) && item.type === 'function' && item.name === name)
  if (matching.length === 0) {
    if (!required) return undefined
    throw new PermissionError(`${path}.functionName '${name}' is not a function of the abi`)
  }
  if (matching.length > 1) throw new PermissionError(`${path}.functionName '${name}' is overloaded in the abi: give its signature or selector`)
  try {
    return toFunctionSelector(matching[0] as Parameters<typeof toFunctionSelector>[0])
  } catch {
    throw new PermissionError(`${path}.functionName '${name}' has a malformed abi entry`)
  }
}

function callLimit(x: unknown): number | undefined {
  if (!present(x)) return undefined
  let count: number | undefined
  for (const [i, item] of arrayOf(x, 'request.policies', 16).entries()) {
    const policy = fields(item, `request.policies[${i}]`, ['type', 'data'])
    if (policy.type !== 'call-limit') throw new PermissionError(`Unsupported policy type '${String(policy.type)}': only 'call-limit' is supported`)
    if (count !== undefined) throw new PermissionError('request.policies holds two call-limit policies')
    count = countOf(fields(policy.data, `request.policies[${i}].data`, ['count']).count, `request.policies[${i}].data.count`)
  }
  return count
}

// ---------------------------------------------------------------------------------------------------
// ERC-7715's wallet_requestExecutionPermissions (MetaMask; @metamask/7715-permission-types 2.0.0)

const unsupportedExecutionTypes = ['native-token-stream', 'erc20-token-stream', 'native-token-allowance', 'erc20-token-allowance', 'erc20-token-revocation', 'token-approval-revocation']

/**
 * One item of `wallet_requestExecutionPermissions`' params[0], read into one Grant. A periodic
 * allowance without a `startTime` starts now (`options.now`, unix seconds; the clock by default).
 */
export function fromExecutionPermission(request: unknown, options: { now?: number } = {}): Grant {
  return checked(executionGrant(request, options.now ?? Math.floor(Date.now() / 1000)))
}

function executionGrant(request: unknown, now: number): Grant {
  const r = fields(request, 'request', ['chainId', 'to', 'permission'], ['from', 'rules'])
  const permission = fields(r.permission, 'request.permission', ['type', 'isAdjustmentAllowed', 'data'])
  if (typeof permission.isAdjustmentAllowed !== 'boolean') throw new PermissionError('request.permission.isAdjustmentAllowed must be a boolean')
  const type = permission.type
  if (type !== 'native-token-periodic' && type !== 'erc20-token-periodic') {
    const known = unsupportedExecutionTypes.includes(String(type)) ? 'is not supported' : 'is unknown'
    throw new PermissionError(`Permission type '${String(type)}' ${known}: use 'native-token-periodic' or 'erc20-token-periodic'`)
  }
  const path = 'request.permission.data'
  const data = fields(permission.data, path, ['periodAmount', 'periodDuration', ...(type === 'erc20-token-periodic' ? ['tokenAddress'] : [])], ['startTime', 'justification'])
  const period: Period = {
    amount: amountOf(data.periodAmount, `${path}.periodAmount`),
    seconds: durationOf(data.periodDuration, `${path}.periodDuration`),
    start: present(data.startTime) ? secondsOf(data.startTime, `${path}.startTime`) : secondsOf(now, 'now'),
  }
  const grant: Grant = {
    chainId: chainIdOf(r.chainId, 'request.chainId'),
    delegate: addressOf(r.to, 'request.to'),
    permission: type === 'native-token-periodic' ? { type, period } : { type, token: addressOf(data.tokenAddress, `${path}.tokenAddress`), period },
    expiry: expiryRule(r.rules),
  }
  const justification = justificationOf(data.justification, `${path}.justification`)
  if (justification !== undefined) grant.justification = justification
  if (present(r.from)) grant.account = addressOf(r.from, 'request.from')
  return grant
}

function expiryRule(x: unknown): number {
  let expiry: number | undefined
  for (const [i, item] of (present(x) ? arrayOf(x, 'request.rules', 16) : []).entries()) {
    const rule = fields(item, `request.rules[${i}]`, ['type', 'data'])
    // A redeemer or payee rule narrows who may redeem or receive; dropping it would grant more than asked.
    if (rule.type !== 'expiry') throw new PermissionError(`Unsupported rule type '${String(rule.type)}': only 'expiry' is supported`)
    if (expiry !== undefined) throw new PermissionError('request.rules holds two expiry rules')
    expiry = secondsOf(fields(rule.data, `request.rules[${i}].data`, ['timestamp']).timestamp, `request.rules[${i}].data.timestamp`)
  }
  if (expiry === undefined) throw new PermissionError("request.rules needs an 'expiry' rule: sessions always expire")
  return expiry
}

// ---------------------------------------------------------------------------------------------------
// The model's own checks (a Grant may come from elsewhere than a request)

function checked(grant: Grant): Grant {
  const { permission } = grant
  if (!Number.isSafeInteger(grant.expiry) || grant.expiry <= 0 || grant.expiry >= maxSecondsValue) throw new PermissionError(`expiry ${grant.expiry} is not unix seconds`)
  if (grant.maxCalls !== undefined) countOf(grant.maxCalls, 'maxCalls')
  if (permission.type === 'contract-call') {
    const { targets, selectors } = permission
    if (targets.length === 0 || targets.length > limits.targets) throw new PermissionError(`A contract-call permission names 1 to ${limits.targets} contracts`)
    if (selectors.length > limits.selectors) throw new PermissionError(`A contract-call permission names at most ${limits.selectors} functions`)
    targets.forEach((target, i) => addressOf(target, `targets[${i}]`))
    selectors.forEach((selector, i) => selectorOf(selector, `selectors[${i}]`))
    if (new Set(targets.map((t) => t.toLowerCase())).size !== targets.length) throw new PermissionError('A contract-call permission names a contract twice')
    if (new Set(selectors.map((s) => s.toLowerCase())).size !== selectors.length) throw new PermissionError('A contract-call permission names a function twice')
    return grant
  }
  if (permission.type !== 'native-token-periodic' && permission.type !== 'erc20-token-periodic') throw new PermissionError(`Unknown permission type '${String((permission as { type: unknown }).type)}'`)
  if (permission.type === 'erc20-token-periodic') addressOf(permission.token, 'token')
  const { amount, seconds, start } = permission.period
  if (typeof amount !== 'bigint' || amount <= 0n || amount > maxUint256) throw new PermissionError('The period amount must be more than 0 and less than 2^256')
  durationOf(seconds, 'The period')
  secondsOf(start, 'The period start')
  if (start >= grant.expiry) throw new PermissionError(`The allowance starts at ${start}, at or after the session’s expiry ${grant.expiry}: it could never be spent`)
  return grant
}

// ---------------------------------------------------------------------------------------------------
// Caveats: the kit's scope and caveat builders, in its order

export type Caveat = { enforcer: Address; terms: Hex; args: Hex }
export type Delegation = { delegate: Address; delegator: Address; authority: Hex; caveats: Caveat[]; salt: bigint; signature: Hex }

/** The enforcers a session's caveats use, by the names of the kit's `environment.caveatEnforcers`. */
export const enforcerNames = [
  'AllowedMethodsEnforcer',
  'AllowedTargetsEnforcer',
  'ERC20PeriodTransferEnforcer',
  'ExactCalldataEnforcer',
  'LimitedCallsEnforcer',
  'NativeTokenPeriodTransferEnforcer',
  'TimestampEnforcer',
  'ValueLteEnforcer',
] as const
export type EnforcerName = (typeof enforcerNames)[number]

/** The framework's ROOT_AUTHORITY: a delegation straight from the account, not a redelegation. */
export const rootAuthority: Hex = '0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff'

const uint = (value: bigint | number, bytes: number) => numberToHex(value, { size: bytes })
// The kit's builders give every caveat these args; they are not signed (the caveat hash leaves them out).
const noArgs: Hex = '0x00'

/**
 * The caveats of a session, exactly as the kit's `createDelegation({ scope, caveats })` makes them for
 * the same limits: the scope's (NativeTokenPeriodTransfer, Erc20PeriodTransfer, FunctionCall), then the
 * expiry (timestamp) and the call cap (limitedCalls). A contract call to any function of its targets
 * (no selectors) is the FunctionCall scope without its allowedMethods caveat.
 */
export function caveats(grant: Grant, enforcers: Record<string, Address>): Caveat[] {
  const { permission, expiry, maxCalls } = checked(grant)
  const at = (name: EnforcerName) => enforcerAddress(enforcers, name)
  const list: Caveat[] = []
  const add = (name: EnforcerName, terms: Hex) => list.push({ enforcer: at(name), terms, args: noArgs })
  if (permission.type === 'native-token-periodic') {
    // Empty calldata: the allowance moves native token and calls nothing.
    add('ExactCalldataEnforcer', '0x')
    add('NativeTokenPeriodTransferEnforcer', periodTerms(permission.period))
  } else if (permission.type === 'erc20-token-periodic') {
    add('ValueLteEnforcer', uint(0n, 32))
    add('ERC20PeriodTransferEnforcer', concat([permission.token.toLowerCase() as Hex, periodTerms(permission.period)]))
  } else {
    add('AllowedTargetsEnforcer', concat(permission.targets.map((t) => t.toLowerCase() as Hex)))
    if (permission.selectors.length > 0) add('AllowedMethodsEnforcer', concat(permission.selectors.map((s) => s.toLowerCase() as Hex)))
    add('ValueLteEnforcer', uint(0n, 32))
  }
  add('TimestampEnforcer', concat([uint(0, 16), uint(expiry, 16)]))
  if (maxCalls !== undefined) add('LimitedCallsEnforcer', uint(maxCalls, 32))
  return list
}

const periodTerms = (period: Period) => concat([uint(period.amount, 32), uint(period.seconds, 32), uint(period.start, 32)])

function enforcerAddress(enforcers: Record<string, Address>, name: EnforcerName): Address {
  const address = enforcers[name]
  if (typeof address !== 'string' || !isAddress(address, { strict: false })) throw new PermissionError(`The environment has no ${name}`)
  return getAddress(address)
}

/**
 * The limits a delegation's caveats enforce: the strict inverse of `caveats`, for the secure-site and the
 * api, which show and record what is signed. An enforcer that is not one of `enforcers`' session
 * enforcers, terms that do not read, or any list that `caveats` would not make for some Grant (a caveat
 * more or less, another order, another term) is refused.
 */
export function fromCaveats(list: readonly Caveat[], enforcers: Record<string, Address>): Omit<Grant, 'chainId' | 'delegate' | 'account' | 'justification'> {
  const named = list.map((caveat, i) => ({ name: enforcerName(caveat, enforcers, i), terms: caveat.terms.toLowerCase() as Hex }))
  const read = readCaveats(named)
  const remade = caveats({ ...read, chainId: 1, delegate: zeroAddress }, enforcers)
  const same = (a: Caveat, b: Caveat | undefined) => b !== undefined && isAddressEqual(a.enforcer, b.enforcer) && a.terms === b.terms.toLowerCase() && a.args === b.args.toLowerCase()
  if (remade.length !== list.length || !remade.every((caveat, i) => same(caveat, list[i]))) throw new PermissionError('The caveats are not exactly those of a session grant')
  return read
}

function enforcerName(caveat: Caveat, enforcers: Record<string, Address>, i: number): EnforcerName {
  if (!isPlainObject(caveat) || typeof caveat.enforcer !== 'string' || !isAddress(caveat.enforcer, { strict: false })) throw new PermissionError(`caveats[${i}].enforcer must be an address`)
  for (const hex of [caveat.terms, caveat.args])
    if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) throw new PermissionError(`caveats[${i}] must have hex bytes as terms and args`)
  const name = enforcerNames.find((n) => typeof enforcers[n] === 'string' && isAddress(enforcers[n], { strict: false }) && isAddressEqual(enforcers[n], caveat.enforcer))
  if (!name) throw new PermissionError(`caveats[${i}].enforcer ${caveat.enforcer} is not one of the session enforcers`)
  return name
}

type Named = { name: EnforcerName; terms: Hex }

function readCaveats(named: Named[]): Omit<Grant, 'chainId' | 'delegate' | 'account' | 'justification'> {
  const rest = [...named]
  const calls = rest.at(-1)?.name === 'LimitedCallsEnforcer' ? rest.pop() : undefined
  const timestamp = rest.pop()
  if (timestamp?.name !== 'TimestampEnforcer') throw new PermissionError('A session’s caveats end with its expiry (TimestampEnforcer), then an optional call cap')
  const expiry = safe(word(timestamp, 16, 32, 32), timestamp.name)
  const read = { permission: scopeOf(rest), expiry }
  return calls ? { ...read, maxCalls: safe(word(calls, 0, 32, 32), calls.name) } : read
}

function scopeOf(scope: Named[]): Permission {
  const [first, second, third] = scope
  const names = scope.map((c) => c.name).join(',')
  if (names === 'ExactCalldataEnforcer,NativeTokenPeriodTransferEnforcer') return { type: 'native-token-periodic', period: periodOf(second!, 0, 96) }
  if (names === 'ValueLteEnforcer,ERC20PeriodTransferEnforcer') {
    sized(second!, 116)
    return { type: 'erc20-token-periodic', token: getAddress(slice(second!.terms, 0, 20)), period: periodOf(second!, 20, 116) }
  }
  if (names === 'AllowedTargetsEnforcer,AllowedMethodsEnforcer,ValueLteEnforcer' || names === 'AllowedTargetsEnforcer,ValueLteEnforcer') {
    const targets = chunks(first!, 20, limits.targets).map((t) => getAddress(t))
    return { type: 'contract-call', targets, selectors: third ? chunks(second!, 4, limits.selectors) : [] }
  }
  throw new PermissionError(`The caveats [${names}] are not a session’s scope`)
}

function sized(caveat: Named, bytes: number): void {
  if ((caveat.terms.length - 2) / 2 !== bytes) throw new PermissionError(`The ${caveat.name} terms must be ${bytes} bytes`)
}

/** Bytes [from, to) of the terms, which must be `bytes` long, as a number. */
function word(caveat: Named, from: number, to: number, bytes: number): bigint {
  sized(caveat, bytes)
  return hexToBigInt(slice(caveat.terms, from, to))
}

function safe(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new PermissionError(`The ${name} terms hold a number too large`)
  return Number(value)
}

function periodOf(caveat: Named, offset: number, bytes: number): Period {
  return {
    amount: word(caveat, offset, offset + 32, bytes),
    seconds: safe(word(caveat, offset + 32, offset + 64, bytes), caveat.name),
    start: safe(word(caveat, offset + 64, offset + 96, bytes), caveat.name),
  }
}

function chunks(caveat: Named, size: number, max: number): Hex[] {
  const bytes = (caveat.terms.length - 2) / 2
  if (bytes === 0 || bytes % size !== 0 || bytes / size > max) throw new PermissionError(`The ${caveat.name} terms must be 1 to ${max} items of ${size} bytes`)
  return Array.from({ length: bytes / size }, (_, i) => slice(caveat.terms, i * size, (i + 1) * size))
}

// ---------------------------------------------------------------------------------------------------
// The delegation: what is signed, its id, its encodings

/** The unsigned delegation (signature `0x`) from the account to the session key, with the grant's caveats. */
export function delegation(options: { grant: Grant; delegator: Address; enforcers: Record<string, Address>; salt: bigint }): Delegation {
  const { grant, delegator, enforcers, salt } = options
  const delegate = addressOf(grant.delegate, 'delegate')
  if (typeof salt !== 'bigint' || salt < 0n || salt > maxUint256) throw new PermissionError('salt must be a uint256')
  if (isAddressEqual(delegate, addressOf(delegator, 'delegator'))) throw new PermissionError('A session is delegated to another account than the delegator')
  return { delegate, delegator: getAddress(delegator), authority: rootAuthority, caveats: caveats(grant, enforcers), salt, signature: '0x' }
}

const delegationTypes = {
  Caveat: [
    { name: 'enforcer', type: 'address' },
    { name: 'terms', type: 'bytes' },
  ],
  Delegation: [
    { name: 'delegate', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'authority', type: 'bytes32' },
    { name: 'caveats', type: 'Caveat[]' },
    { name: 'salt', type: 'uint256' },
  ],
} as const

const message = (d: Delegation) => ({
  delegate: d.delegate,
  delegator: d.delegator,
  authority: d.authority,
  caveats: d.caveats.map((c) => ({ enforcer: c.enforcer, terms: c.terms })),
  salt: d.salt,
})

/**
 * What the owner key signs (EIP-712, domain DelegationManager v1 on this chain): the HybridDeleGator checks
 * it for the DelegationManager (ERC-1271). A delegation without caveats would grant everything: refused.
 */
export function delegationTypedData(d: Delegation, options: { chainId: number; delegationManager: Address }) {
  if (d.caveats.length === 0) throw new PermissionError('A delegation without caveats would grant everything')
  return {
    domain: { name: 'DelegationManager', version: '1', chainId: options.chainId, verifyingContract: options.delegationManager },
    types: delegationTypes,
    primaryType: 'Delegation',
    message: message(d),
  } as const
}

/** What the account signs to have the api record a revoke (spec §7 POST /v1/sessions/{address}/revoke), `pci` being delegationHash. */
export const revokeMessage = (pci: string) => `Revoke session ${pci}`

/** DelegationManager.getDelegationHash (the EIP-712 struct hash): the session's id ("pci") and its key in disabledDelegations. */
export function delegationHash(d: Delegation): Hex {
  return hashStruct({ data: message(d), primaryType: 'Delegation', types: delegationTypes })
}

const delegationTuple = {
  type: 'tuple',
  components: [
    { name: 'delegate', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'authority', type: 'bytes32' },
    {
      name: 'caveats',
      type: 'tuple[]',
      components: [
        { name: 'enforcer', type: 'address' },
        { name: 'terms', type: 'bytes' },
        { name: 'args', type: 'bytes' },
      ],
    },
    { name: 'salt', type: 'uint256' },
    { name: 'signature', type: 'bytes' },
  ],
} as const
const contextParameters = [{ ...delegationTuple, type: 'tuple[]' }] as const

// Hex in lowercase, as the kit's encoder writes it, so equal delegations encode to equal strings.
const struct = (d: Delegation): Delegation => ({
  delegate: d.delegate,
  delegator: d.delegator,
  authority: d.authority.toLowerCase() as Hex,
  caveats: d.caveats.map((c) => ({ enforcer: c.enforcer, terms: c.terms.toLowerCase() as Hex, args: c.args.toLowerCase() as Hex })),
  salt: d.salt,
  signature: d.signature.toLowerCase() as Hex,
})

const maxChain = 8

/** The permission context the dapp redeems: the delegation chain, leaf first, ABI-encoded (the kit's encodeDelegations). */
export function encodeContext(chain: readonly Delegation[]): Hex {
  if (chain.length === 0 || chain.length > maxChain) throw new PermissionError(`A permission context holds 1 to ${maxChain} delegations`)
  return encodeAbiParameters(contextParameters, [chain.map(struct)])
}

/** Reads a permission context back; only what encodeContext makes (no trailing or reordered bytes). */
export function decodeContext(context: Hex): Delegation[] {
  bytesOf(context, 'The permission context', Infinity)
  let chain: Delegation[]
  try {
    chain = decodeAbiParameters(contextParameters, context)[0].map((d) => ({ ...d, caveats: [...d.caveats] }))
  } catch {
    throw new PermissionError('The permission context is not an ABI-encoded delegation chain')
  }
  if (encodeContext(chain) !== context.toLowerCase()) throw new PermissionError('The permission context does not read back as it was encoded')
  return chain
}

const delegationManagerAbi = [
  {
    type: 'function',
    name: 'redeemDelegations',
    inputs: [
      { name: '_permissionContexts', type: 'bytes[]' },
      { name: '_modes', type: 'bytes32[]' },
      { name: '_executionCallDatas', type: 'bytes[]' },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  { type: 'function', name: 'disableDelegation', inputs: [{ name: '_delegation', ...delegationTuple }], outputs: [], stateMutability: 'nonpayable' },
] as const

/** ERC-7579's single-call default mode: one execution, reverting if it reverts. */
const singleDefault = uint(0, 32)

/** DelegationManager.redeemDelegations: each context redeemed for one call (encoded as the kit's single execution). */
export function redeemCalldata(contexts: readonly Hex[], executions: readonly { target: Address; value: bigint; callData: Hex }[]): Hex {
  if (contexts.length === 0 || contexts.length !== executions.length) throw new PermissionError('One execution per permission context, at least one')
  const calls = executions.map((e) => encodePacked(['address', 'uint256', 'bytes'], [e.target, e.value, e.callData]))
  return encodeFunctionData({ abi: delegationManagerAbi, functionName: 'redeemDelegations', args: [contexts, contexts.map(() => singleDefault), calls] })
}

/** DelegationManager.disableDelegation: the delegator's call that revokes the session on chain. */
export function disableCalldata(d: Delegation): Hex {
  return encodeFunctionData({ abi: delegationManagerAbi, functionName: 'disableDelegation', args: [struct(d)] })
}

/** The delegation a disableDelegation call disables; only what disableCalldata makes. */
export function decodeDisable(callData: Hex): Delegation {
  bytesOf(callData, 'The call', Infinity)
  let d: Delegation
  try {
    const decoded = decodeFunctionData({ abi: delegationManagerAbi, data: callData })
    if (decoded.functionName !== 'disableDelegation') throw new Error(decoded.functionName)
    d = { ...decoded.args[0], caveats: [...decoded.args[0].caveats] }
  } catch {
    throw new PermissionError('The call is not DelegationManager.disableDelegation')
  }
  if (disableCalldata(d) !== callData.toLowerCase()) throw new PermissionError('The disableDelegation call does not read back as it was encoded')
  return d
}

// ---------------------------------------------------------------------------------------------------
// JSON: across postMessage and HTTP

/** A delegation as JSON: the salt as a hex quantity. */
export type DelegationJson = { delegate: Address; delegator: Address; authority: Hex; caveats: Caveat[]; salt: Hex; signature: Hex }

export function toJson(d: Delegation): DelegationJson {
  return {
    delegate: d.delegate,
    delegator: d.delegator,
    authority: d.authority,
    caveats: d.caveats.map((c) => ({ enforcer: c.enforcer, terms: c.terms, args: c.args })),
    salt: numberToHex(d.salt),
    signature: d.signature,
  }
}

const maxCaveats = 32
/** Generous for any caveat's terms or a signature (an ERC-1271 one may be long), small enough to refuse a flood. */
const maxBytes = 8192

/** A delegation from JSON (toJson's), checked strictly: it crosses postMessage and HTTP. */
export function fromJson(x: unknown): Delegation {
  const json = fields(x, 'delegation', ['delegate', 'delegator', 'authority', 'caveats', 'salt', 'signature'])
  const list = arrayOf(json.caveats, 'delegation.caveats', maxCaveats).map((item, i): Caveat => {
    const caveat = fields(item, `delegation.caveats[${i}]`, ['enforcer', 'terms', 'args'])
    return { enforcer: addressOf(caveat.enforcer, `delegation.caveats[${i}].enforcer`), terms: bytesOf(caveat.terms, `delegation.caveats[${i}].terms`), args: bytesOf(caveat.args, `delegation.caveats[${i}].args`) }
  })
  if (typeof json.authority !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(json.authority)) throw new PermissionError('delegation.authority must be 32 bytes of hex')
  if (typeof json.salt !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(json.salt)) throw new PermissionError('delegation.salt must be a hex quantity below 2^256')
  return {
    delegate: addressOf(json.delegate, 'delegation.delegate'),
    delegator: addressOf(json.delegator, 'delegation.delegator'),
    authority: json.authority as Hex,
    caveats: list,
    salt: BigInt(json.salt),
    signature: bytesOf(json.signature, 'delegation.signature'),
  }
}

function bytesOf(x: unknown, path: string, max: number = maxBytes): Hex {
  if (typeof x !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(x)) throw new PermissionError(`${path} must be hex bytes (0x and an even number of hex digits)`)
  if (x.length > 2 + 2 * max) throw new PermissionError(`${path} must be at most ${max} bytes`)
  return x as Hex
}

// ---------------------------------------------------------------------------------------------------
// The answers

export type ResponseMeta = { delegationManager: Address; factory?: Address | undefined; factoryData?: Hex | undefined }

/**
 * AppKit's answer to wallet_grantPermissions (ERC-7715's first draft): the request echoed (with the
 * granting account as `address`), the permission context, `signerMeta.delegationManager` to redeem it
 * with, and `accountMeta` (the factory call) while the account is undeployed: the redeemer deploys it first.
 */
export function grantPermissionsResponse(request: unknown, d: Delegation, meta: ResponseMeta): unknown {
  const grant = fromGrantPermissions(request)
  const deploy = answerable(grant, d, meta)
  return {
    ...(request as Fields),
    address: grant.account ?? d.delegator,
    context: encodeContext([d]),
    signerMeta: { delegationManager: meta.delegationManager },
    ...(deploy && { accountMeta: deploy }),
  }
}

/**
 * ERC-7715's answer to one wallet_requestExecutionPermissions item: the request echoed (with the granting
 * account as `from`), the permission context, the factory calls to run first (`dependencies`, empty once
 * the account is deployed) and the DelegationManager to redeem with.
 */
export function executionPermissionResponse(request: unknown, d: Delegation, meta: ResponseMeta): unknown {
  // Read for its parties only: its limits were checked when the delegation was made, and its start may default to a clock since moved on.
  const grant = executionGrant(request, 1)
  const deploy = answerable(grant, d, meta)
  return { ...(request as Fields), from: grant.account ?? d.delegator, context: encodeContext([d]), dependencies: deploy ? [deploy] : [], delegationManager: meta.delegationManager }
}

/** Checks the answer belongs to the request; the factory call, if the account is undeployed. */
function answerable(grant: Grant, d: Delegation, meta: ResponseMeta): { factory: Address; factoryData: Hex } | undefined {
  if (d.signature === '0x') throw new PermissionError('The delegation is not signed')
  if (!isAddressEqual(d.delegate, grant.delegate)) throw new PermissionError(`The delegation’s delegate ${d.delegate} is not the request’s ${grant.delegate}`)
  if (grant.account && !isAddressEqual(d.delegator, grant.account)) throw new PermissionError(`The delegation’s delegator ${d.delegator} is not the requested account ${grant.account}`)
  addressOf(meta.delegationManager, 'delegationManager')
  if (meta.factory === undefined && meta.factoryData === undefined) return undefined
  if (meta.factory === undefined || meta.factoryData === undefined) throw new PermissionError('factory and factoryData go together')
  return { factory: addressOf(meta.factory, 'factory'), factoryData: bytesOf(meta.factoryData, 'factoryData') }
}
