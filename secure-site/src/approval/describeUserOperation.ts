import * as SmartAccount from '@doorway/shared/SmartAccount'
import { approveText } from '@doorway/shared/texts/approve'
import { type Address, getAddress, type Hex, isAddress, isAddressEqual, isHex, maxUint128, maxUint256 } from 'viem'
import type { Row } from './describe.js'
import * as Display from './internal/display.js'
import { InvalidRequest } from './internal/errors.js'

// An eth_signUserOperation's operation (issue 25, docs/embedded-wallet.md §7), read strictly for describe.ts
// to show: the frame builds it and is not trusted, so every field is typed, nothing unknown is taken, the
// account is the one this wallet's key owns, and its calls must read back exactly as they are signed.

export declare namespace parse {
  type Options = {
    /** The wallet's own (EOA) key address: the account's owner. */
    owner: Address
    environment: SmartAccount.Environment
  }
  type ReturnType = { operation: SmartAccount.UserOperation; calls: SmartAccount.Call[] }
}

// ERC-7769's JSON of an EntryPoint v0.7 operation. The signature is the frame's stub for estimation:
// checked for its type, never signed or shown.
const keys = new Set<string>([...SmartAccount.operationFields, 'signature'])
// JSON-RPC QUANTITY: 0x-hex without leading zeros.
const quantityPattern = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/
/** Longest hex field read (callData, factoryData, paymasterData), in characters (128 KB): bounds the work a hostile frame can ask for. */
const maxHexChars = 2 + 2 * 131_072

function invalid(reason: string, options?: { cause?: unknown }): InvalidRequest {
  return new InvalidRequest(`eth_signUserOperation: ${reason}`, options)
}

/** The operation and its calls; throws InvalidRequest for anything this wallet should not sign or cannot show. */
export function parse(input: unknown, { owner, environment }: parse.Options): parse.ReturnType {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('the operation is not an object')
  const op = input as Record<string, unknown>
  for (const key of Object.keys(op)) if (!keys.has(key)) throw invalid(`unexpected field ${key}`)
  if (op.signature !== undefined) hexBytes(op.signature, 'signature')

  const sender = address(op.sender, 'sender')
  if (!SmartAccount.isOwnedBy(sender, owner, environment)) throw invalid("sender is not this wallet's smart account")
  const callData = hexBytes(op.callData, 'callData')
  const calls = decode(callData, sender)
  // uint128 for what the EntryPoint packs in 16 bytes (gas limits, fees); the nonce and preVerificationGas are uint256.
  const maxFeePerGas = quantity(op.maxFeePerGas, 'maxFeePerGas', maxUint128)
  const maxPriorityFeePerGas = quantity(op.maxPriorityFeePerGas, 'maxPriorityFeePerGas', maxUint128)
  if (maxPriorityFeePerGas > maxFeePerGas) throw invalid('maxPriorityFeePerGas is above maxFeePerGas')
  const operation: SmartAccount.UserOperation = {
    sender,
    nonce: quantity(op.nonce, 'nonce', maxUint256),
    ...factory(op, owner, environment),
    callData,
    callGasLimit: quantity(op.callGasLimit, 'callGasLimit', maxUint128),
    verificationGasLimit: quantity(op.verificationGasLimit, 'verificationGasLimit', maxUint128),
    preVerificationGas: quantity(op.preVerificationGas, 'preVerificationGas', maxUint256),
    maxFeePerGas,
    maxPriorityFeePerGas,
    ...paymaster(op),
  }
  return { operation, calls }
}

/** The operation's fee row: "paid by the app" when a paymaster sponsors it, else the most it can cost the account. */
export function fee(operation: SmartAccount.UserOperation, { symbol, fiat }: { symbol: string; fiat?: { price: number; currency: string } | undefined }): Row {
  if (operation.paymaster) return { label: approveText.networkFee, value: approveText.sponsored }
  return { label: approveText.fee, value: Display.native(SmartAccount.maxCost(operation), symbol, fiat) }
}

/**
 * The calls as describe.ts shows them. None calls the account itself with data: its owner, keys and code
 * are not changed from here (a plain transfer to itself, with no data, changes nothing).
 */
function decode(callData: Hex, sender: Address): SmartAccount.Call[] {
  let calls: SmartAccount.Call[]
  try {
    calls = SmartAccount.decodeCalls(callData)
  } catch (cause) {
    throw invalid('its calls cannot be shown', { cause })
  }
  if (calls.some((call) => isAddressEqual(call.to, sender) && call.data !== '0x')) throw invalid('a call to the smart account itself is not signed here')
  return calls.map((call) => ({ to: getAddress(call.to), value: call.value, data: call.data.toLowerCase() as Hex }))
}

// Only the account's own deployment, exactly as SmartAccount.counterfactual makes it: any other factory
// call could deploy something else at another address, or run code before the account validates.
function factory(op: Record<string, unknown>, owner: Address, environment: SmartAccount.Environment): Pick<SmartAccount.UserOperation, 'factory' | 'factoryData'> {
  if (op.factory === undefined && op.factoryData === undefined) return {}
  if (op.factory === undefined || op.factoryData === undefined) throw invalid('factory and factoryData go together')
  const expected = SmartAccount.counterfactual(owner, environment)
  const given = address(op.factory, 'factory')
  const data = hexBytes(op.factoryData, 'factoryData')
  if (!isAddressEqual(given, expected.factory) || data.toLowerCase() !== expected.factoryData.toLowerCase())
    throw invalid("factory and factoryData do not deploy this wallet's smart account")
  return { factory: expected.factory, factoryData: expected.factoryData }
}

const paymasterKeys = ['paymaster', 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit', 'paymasterData'] as const

function paymaster(op: Record<string, unknown>): Pick<SmartAccount.UserOperation, (typeof paymasterKeys)[number]> {
  if (op.paymaster === undefined) {
    // viem fills both gas limits from the bundler's estimate even without a paymaster, as 0: they are not in
    // what is signed (paymasterAndData is empty), so zero is taken, and anything else refused.
    const unused = (key: (typeof paymasterKeys)[number]) => op[key] === undefined || (key !== 'paymasterData' && op[key] === '0x0')
    const stray = paymasterKeys.find((key) => !unused(key))
    if (stray) throw invalid(`${stray} without a paymaster`)
    return {}
  }
  const missing = paymasterKeys.find((key) => op[key] === undefined)
  if (missing) throw invalid(`a paymaster without ${missing}`)
  return {
    paymaster: address(op.paymaster, 'paymaster'),
    paymasterVerificationGasLimit: quantity(op.paymasterVerificationGasLimit, 'paymasterVerificationGasLimit', maxUint128),
    paymasterPostOpGasLimit: quantity(op.paymasterPostOpGasLimit, 'paymasterPostOpGasLimit', maxUint128),
    paymasterData: hexBytes(op.paymasterData, 'paymasterData'),
  }
}

function quantity(value: unknown, what: string, max: bigint): bigint {
  if (typeof value !== 'string' || !quantityPattern.test(value) || value.length > 66) throw invalid(`${what} is not a hex quantity`)
  const n = BigInt(value)
  if (n > max) throw invalid(`${what} is too large`)
  return n
}

// strict: a mixed-case address with a wrong checksum is a typo, not this account or contract
function address(value: unknown, what: string): Address {
  if (typeof value !== 'string' || !isAddress(value)) throw invalid(`${what} is not an address`)
  return getAddress(value)
}

function hexBytes(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || value.length > maxHexChars || !isHex(value, { strict: true }) || value.length % 2 !== 0)
    throw invalid(`${what} is not 0x-prefixed hex bytes`)
  return value
}
