import * as Constants from '@doorway/shared/Constants'
import type * as DelegationFramework from '@doorway/shared/DelegationFramework'
import * as Permissions from '@doorway/shared/Permissions'
import * as SmartAccount from '@doorway/shared/SmartAccount'
import { format } from '@doorway/shared/Texts'
import { approveText } from '@doorway/shared/texts/approve'
import { type Address, type Hex, isAddressEqual, toFunctionSelector } from 'viem'
import type { Description, Row } from './describe.js'
import * as UserOperation from './describeUserOperation.js'
import * as Display from './internal/display.js'
import { InvalidRequest } from './internal/errors.js'

// Smart sessions (issue 25, docs/embedded-wallet.md "Smart sessions"): the ERC-7710 delegation that gives a
// dapp's session key limits over the person's smart account, and the operation that disables it. The frame
// builds both and is not trusted: the delegation is read strictly, its caveats only against the enforcers of
// the pinned deployment (a frame's enforcer could check nothing), and its limits are shown in words.

export type Context = {
  chainId: number
  /** The wallet's own (EOA) key address: the smart account's owner, and the signer. */
  owner: Address
  /** The person's smart account, derived from `owner` and the pinned deployment. */
  account: Address
  /** The pinned Delegation Framework deployment (DelegationFramework.pinnedFor), never the frame's addresses. */
  environment: DelegationFramework.Environment
  /** The network row every request starts with (describe.ts). */
  network: Row
  symbol: string
  fiat?: { price: number; currency: string } | undefined
  /** Unix seconds: an allowance that starts later says when, and a session that is already over is not granted. */
  now: number
  /** The modal's locale (`configure`), for dates. */
  locale?: string | undefined
}

/** The limits a session's caveats enforce. */
type Limits = ReturnType<typeof Permissions.fromCaveats>

/** What the owner signs for doorway_revokeSession, beside the operation: the api's record of the revoke checks it (ERC-1271). */
export const revokeMessage = Permissions.revokeMessage

/**
 * eth_signDelegation `[delegation, { justification }?]`: a session from this wallet's smart account to another
 * key, with exactly a session grant's caveats. Approved, the owner signs its EIP-712 Delegation for the pinned
 * DelegationManager on this chain (the HybridDeleGator checks the owner's ECDSA over it).
 */
export function signDelegation(params: readonly unknown[], context: Context): Description {
  const { owner, account, environment, now } = context
  if (params.length !== 1 && params.length !== 2) throw invalid('eth_signDelegation', `expected 1 or 2 params, got ${params.length}`)
  const d = delegationOf(params[0], 'eth_signDelegation')
  const justification = justificationOf(params[1])
  if (!isAddressEqual(d.delegator, account)) throw invalid('eth_signDelegation', "the delegator is not this wallet's smart account")
  if (d.authority.toLowerCase() !== Permissions.rootAuthority) throw invalid('eth_signDelegation', 'the authority is not the root: a redelegation is not signed here')
  if (isAddressEqual(d.delegate, account) || isAddressEqual(d.delegate, owner)) throw invalid('eth_signDelegation', "the session key is this wallet's own account")
  if (d.signature !== '0x') throw invalid('eth_signDelegation', 'the delegation is already signed')
  const limits = limitsOf(d, environment, 'eth_signDelegation')
  // fromCaveats reads an expiry from every session's caveats (its TimestampEnforcer), and an allowance's start
  // before it: a session without one cannot exist.
  if (!Number.isSafeInteger(limits.expiry) || limits.expiry <= 0) throw invalid('eth_signDelegation', 'the session has no expiry')
  if (limits.expiry <= now) throw invalid('eth_signDelegation', 'the session has already expired')
  if (limits.expiry > now + Permissions.limits.maxSeconds) throw invalid('eth_signDelegation', 'the session expires more than a year from now')
  return {
    method: 'eth_signDelegation',
    title: approveText.methods.eth_signDelegation,
    rows: [
      ...sessionRows(d, limits, context),
      ...(justification === undefined ? [] : [{ label: approveText.appSays, value: Display.quote(justification) }]),
      { label: approveText.warning, value: approveText.sessionWarning, tone: 'warning' },
    ],
    delegation: { delegation: d, typedData: Permissions.delegationTypedData(d, { chainId: context.chainId, delegationManager: environment.DelegationManager }) },
  }
}

/**
 * doorway_revokeSession `[operation, delegation]`: an operation (eth_signUserOperation's, read as strictly) whose
 * one call is the pinned DelegationManager's disableDelegation of exactly that delegation, one of this wallet's.
 * Approved, the owner signs the operation and `Revoke session {pci}` in one go: the chain disables the session,
 * and the api marks it revoked.
 */
export function revokeSession(params: readonly unknown[], context: Context): Description {
  const { owner, account, environment, chainId } = context
  if (params.length !== 2) throw invalid('doorway_revokeSession', `expected 2 params, got ${params.length}`)
  const { operation, calls } = UserOperation.parse(params[0], { owner, environment })
  const d = delegationOf(params[1], 'doorway_revokeSession')
  if (!isAddressEqual(d.delegator, account)) throw invalid('doorway_revokeSession', "the session is not this wallet's smart account's")
  const [call] = calls
  if (calls.length !== 1 || !call) throw invalid('doorway_revokeSession', 'the operation must make exactly one call, disableDelegation')
  if (!isAddressEqual(call.to, environment.DelegationManager)) throw invalid('doorway_revokeSession', 'the operation does not call the DelegationManager')
  if (call.value !== 0n) throw invalid('doorway_revokeSession', 'the operation sends value')
  let disabled: Permissions.Delegation
  try {
    disabled = Permissions.decodeDisable(call.data)
  } catch (cause) {
    throw invalid('doorway_revokeSession', 'the call is not disableDelegation', cause)
  }
  // Compared as encoded (hex in one letter case): every field, the signature too, is the one disabled.
  if (Permissions.disableCalldata(disabled) !== Permissions.disableCalldata(d)) throw invalid('doorway_revokeSession', 'the operation disables another delegation than this session')
  const message = revokeMessage(Permissions.delegationHash(d))
  return {
    method: 'doorway_revokeSession',
    title: approveText.methods.doorway_revokeSession,
    // The person revokes from the Account view: the dapp is where, not who asked.
    hostLabel: approveText.hostSite,
    rows: [
      context.network,
      accountRow(account),
      ...(operation.factory ? [{ label: approveText.smartAccount, value: approveText.accountCreated }] : []),
      ...describedLimits(d, context),
      // What is signed is what was shown (docs/embedded-wallet.md §7): the record's message too.
      { label: approveText.alsoSigns, value: message, mono: true },
      UserOperation.fee(operation, context),
    ],
    userOperation: { operation, typedData: SmartAccount.userOperationTypedData(operation, { chainId, entryPoint: environment.EntryPoint }) },
    revoke: { message },
  }
}

/**
 * A call of a plain eth_signUserOperation that disables one of this wallet's sessions, in words instead of its
 * data; undefined for any other call.
 */
export function disableCallRows(call: SmartAccount.Call, context: Context): Row[] | undefined {
  if (!isAddressEqual(call.to, context.environment.DelegationManager) || call.value !== 0n) return undefined
  let d: Permissions.Delegation
  try {
    d = Permissions.decodeDisable(call.data)
  } catch {
    return undefined // another call to the DelegationManager: shown as its data
  }
  // Only the delegator can disable a delegation: another account's would revert, and is shown as data.
  if (!isAddressEqual(d.delegator, context.account)) return undefined
  return [{ label: approveText.call, value: approveText.revokeCall }, ...describedLimits(d, context)]
}

function sessionRows(d: Permissions.Delegation, limits: Limits, context: Context): Row[] {
  return [context.network, accountRow(context.account), { label: approveText.sessionKey, value: d.delegate, mono: true }, ...limitRows(limits, context)]
}

const accountRow = (account: Address): Row => ({ label: approveText.account, value: account, mono: true })

/** A session being revoked: its key and limits, or, when they do not read, a warning (revoking ends them whatever they are). */
function describedLimits(d: Permissions.Delegation, context: Context): Row[] {
  const key: Row = { label: approveText.sessionKey, value: d.delegate, mono: true }
  try {
    return [key, ...limitRows(Permissions.fromCaveats(d.caveats, context.environment.caveatEnforcers), context)]
  } catch {
    return [key, { label: approveText.warning, value: approveText.sessionUnreadable, tone: 'warning' }]
  }
}

function limitRows(limits: Limits, context: Context): Row[] {
  const rows: Row[] = [{ label: approveText.allows, value: permissionWords(limits.permission, context) }]
  const start = startOf(limits.permission)
  if (start !== undefined && start > context.now) rows.push({ label: approveText.starts, value: dateTime(start, context.locale) })
  rows.push({ label: approveText.expires, value: dateTime(limits.expiry, context.locale) })
  if (limits.maxCalls !== undefined)
    rows.push({ label: approveText.uses, value: limits.maxCalls === 1 ? approveText.maxOneUse : format(approveText.maxUses, { n: Display.integer(BigInt(limits.maxCalls)) }) })
  return rows
}

const startOf = (permission: Permissions.Permission) => (permission.type === 'contract-call' ? undefined : permission.period.start)

// Known by their signature; any other function is shown by its selector.
const knownFunctions = new Map(['transfer(address,uint256)', 'approve(address,uint256)', 'transferFrom(address,address,uint256)'].map((signature) => [toFunctionSelector(signature), signature]))

function permissionWords(permission: Permissions.Permission, context: Context): string {
  if (permission.type === 'native-token-periodic') {
    const { amount, seconds } = permission.period
    return format(approveText.nativePeriodic, { amount: Display.native(amount, context.symbol, context.fiat), period: period(seconds) })
  }
  if (permission.type === 'erc20-token-periodic') {
    const { amount, seconds } = permission.period
    // No chain access here: the token's symbol and decimals are unknown, so the amount is its base units, said so.
    const line = format(approveText.erc20Periodic, { amount: Display.integer(amount), token: permission.token, period: period(seconds) })
    return `${line}\n${approveText.tokenUnits}`
  }
  const functions = permission.selectors.length === 0 ? approveText.anyFunction : permission.selectors.map((s) => knownFunctions.get(s.toLowerCase() as Hex) ?? s.toLowerCase()).join(', ')
  return permission.targets.map((target) => format(approveText.contractCall, { target, functions })).join('\n')
}

const units = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const

/** An allowance's period in words: "day", "week", "hour", else "2 days", "90 minutes", "45 seconds". */
function period(seconds: number): string {
  if (seconds === 3_600) return approveText.hour
  if (seconds === 86_400) return approveText.day
  if (seconds === 604_800) return approveText.week
  const [unit, size] = units.find(([, size]) => seconds % size === 0)!
  return new Intl.NumberFormat(Constants.numberLocale, { style: 'unit', unit, unitDisplay: 'long' }).format(seconds / size)
}

const dateOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } as const

/** A date and time in the modal's locale, with its time zone: "Dec 1, 2026, 3:00 PM UTC". fromCaveats keeps times below 10^11 s, which a Date holds. */
function dateTime(seconds: number, locale: string | undefined): string {
  const date = new Date(seconds * 1000)
  let formatter: Intl.DateTimeFormat
  try {
    formatter = new Intl.DateTimeFormat(locale, dateOptions)
  } catch {
    formatter = new Intl.DateTimeFormat(Constants.numberLocale, dateOptions) // a tag Intl does not take
  }
  return formatter.format(date)
}

function delegationOf(input: unknown, method: string): Permissions.Delegation {
  try {
    return Permissions.fromJson(input)
  } catch (cause) {
    throw invalid(method, cause instanceof Error ? cause.message : 'the delegation does not read', cause)
  }
}

function limitsOf(d: Permissions.Delegation, environment: DelegationFramework.Environment, method: string): Limits {
  try {
    return Permissions.fromCaveats(d.caveats, environment.caveatEnforcers)
  } catch (cause) {
    throw invalid(method, `its caveats are not a session's limits: ${cause instanceof Error ? cause.message : String(cause)}`, cause)
  }
}

/** eth_signDelegation's second param: `{ justification? }`, the dapp's words, shown quoted as the app's. */
function justificationOf(options: unknown): string | undefined {
  if (options === undefined) return undefined
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid('eth_signDelegation', 'the options are not an object')
  for (const key of Object.keys(options)) if (key !== 'justification') throw invalid('eth_signDelegation', `unexpected option ${key}`)
  const { justification } = options as { justification?: unknown }
  if (justification === undefined || justification === '') return undefined
  if (typeof justification !== 'string' || [...justification].length > Permissions.limits.justification || !Display.isSafeText(justification))
    throw invalid('eth_signDelegation', `the justification is not a plain text of at most ${Permissions.limits.justification} characters`)
  return justification
}

function invalid(method: string, reason: string, cause?: unknown): InvalidRequest {
  return new InvalidRequest(`${method}: ${reason}`, cause === undefined ? {} : { cause })
}
