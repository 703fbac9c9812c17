/**
 * The Send flow's rules as pure functions (spec §3 Send state, §5 validation, §9 decimals and
 * tether-style tokens): what can be sent, what a typed amount or receiver means, the gas check, and
 * the wallet request. send.ts runs them against the wallet and the api.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Format from '@doorway/shared/Format'
import { decodeFunctionResult, encodeFunctionData, getAddress, type Hex, parseUnits, toHex } from 'viem'
import type { Balance, Profile } from '../../api/client.js'
import * as Namespaces from '../namespaces/registry.js'

/** spec §3 Send state, exactly. Amounts are decimal strings in whole units; gasPrice is wei per gas. */
export type SendState = {
  token: Balance | undefined
  sendTokenAmount: string | undefined
  receiverAddress: string | undefined
  receiverProfileName: string | undefined
  receiverProfileImageUrl: string | undefined
  gasPrice: bigint | undefined
  /** The estimated network fee, in US dollars. */
  gasPriceInUSD: number | undefined
  networkBalanceInUSD: number | undefined
  tokenBalances: Balance[]
  loading: boolean
  lastRetry: number | undefined
}

export const isNative = (token: Balance) => token.address === undefined

/** spec §9: tokens with 0 decimals are filtered out; the native token first, then ERC-20s by value. */
export function sendableTokens(balances: readonly Balance[]): Balance[] {
  const listed = balances.filter((b) => b.quantity.decimals !== '0')
  const value = (b: Balance) => b.value ?? -1
  return [...listed.filter(isNative), ...listed.filter((b) => !isNative(b)).sort((a, b) => value(b) - value(a))]
}

/** The token's balance in base units. */
export function balanceOf(token: Balance): bigint {
  return baseUnits(token.quantity.numeric, token)
}

/** An amount of the token, in whole units, as base units. */
export function baseUnits(amount: string, token: Balance): bigint {
  return parseUnits(amount, Number(token.quantity.decimals))
}

export type AmountError = 'amountRequired' | 'amountDecimals' | 'amountAboveBalance'

/** A typed amount against the token: its value in base units, or why it cannot be sent. */
export function checkAmount(text: string, token: Balance): { value: bigint; amount: string } | { error: AmountError } {
  const amount = text.trim()
  const decimals = Number(token.quantity.decimals)
  if (!/^(\d+\.?\d*|\.\d+)$/.test(amount)) return { error: 'amountRequired' }
  const fraction = amount.split('.')[1] ?? ''
  if (fraction.length > decimals) return { error: 'amountDecimals' }
  const value = baseUnits(amount, token)
  if (value === 0n) return { error: 'amountRequired' }
  if (value > balanceOf(token)) return { error: 'amountAboveBalance' }
  return { value, amount: amount.replace(/^\./, '0.').replace(/\.$/, '') }
}

/**
 * What Max fills in: the whole balance of a token, or for the native token the balance minus a fee
 * reserve (the fee is paid in it). Never below zero.
 */
export function maxAmount(token: Balance, feeReserve: bigint): string {
  const available = balanceOf(token) - (isNative(token) ? feeReserve : 0n)
  return Format.formatUnits(available > 0n ? available : 0n, Number(token.quantity.decimals))
}

/**
 * The native amount Max keeps back: twice the estimated fee, because wallets bid an EIP-1559 max fee
 * of up to twice the current price and the node refuses a transaction that cannot pay it.
 */
export function feeReserve(gas: bigint, gasPrice: bigint): bigint {
  return gas * gasPrice * 2n
}

/** spec §5 insufficient-gas check: a zero native balance, or a fee above it; smart accounts never. */
export function hasInsufficientGas(options: { nativeBalance: bigint; fee: bigint; smartAccount: boolean }): boolean {
  const { nativeBalance, fee, smartAccount } = options
  if (smartAccount) return false
  return nativeBalance === 0n || fee > nativeBalance
}

export type Receiver = Namespaces.Receiver

/**
 * A typed receiver, read by the rule of the account's namespace (spec §5 Address formats,
 * features/namespaces/registry.ts): an EVM address with its EIP-55 checksum, or a name to resolve;
 * a Solana or Bitcoin address.
 */
export function parseReceiver(text: string, namespace: Caip.Namespace = 'eip155'): Receiver {
  const value = text.trim()
  return value ? Namespaces.registry[namespace].receiver(value) : { kind: 'empty' }
}

/** ENSIP-11 coin type of an EVM chain; 60 (SLIP-44 ether) is the address on every EVM chain. */
const evmCoinType = (chainId: number) => String((0x80000000 | chainId) >>> 0)

/** The address a resolved name points to on this chain, checksummed; undefined when it has none. */
export function profileAddress(profile: Profile, chainId: Caip.ChainId): string | undefined {
  const { reference } = Caip.parseChainId(chainId)
  const entry = profile.addresses[evmCoinType(Number(reference))] ?? profile.addresses['60']
  return entry && Address.isEvmAddress(entry.address) ? getAddress(entry.address) : undefined
}

/** An avatar the frame may show: https, or an inline image (nothing that runs or tracks over http). */
export function avatarUrl(profile: Profile): string | undefined {
  const avatar = profile.attributes.avatar
  return avatar && /^(https:|data:image\/(png|jpeg|webp|gif|svg\+xml)[;,])/i.test(avatar) ? avatar : undefined
}

/** Why a receiver deserves a second look: it is the sender, or one of the tokens' contracts. */
export function receiverWarnings(receiver: string, options: { from: string; tokens: readonly Balance[] }): ('toSelf' | 'toToken')[] {
  const same = (a: string) => a.toLowerCase() === receiver.toLowerCase()
  const warnings: ('toSelf' | 'toToken')[] = []
  if (same(options.from)) warnings.push('toSelf')
  if (options.tokens.some((t) => t.address && same(contractOf(t)))) warnings.push('toToken')
  return warnings
}

/** The contract address of an ERC-20 balance (its CAIP-10 address). */
export function contractOf(token: Balance): Hex {
  return Caip.parseAccountId(token.address!).address as Hex
}

/**
 * spec §5: a send needs token, amount and receiver; a native EVM send also gas price and decimals.
 * Returns whether the state can be sent.
 */
export function isComplete(state: SendState): boolean {
  const { token, sendTokenAmount, receiverAddress, gasPrice } = state
  if (!token || !sendTokenAmount || !receiverAddress) return false
  return !isNative(token) || (gasPrice !== undefined && !!token.quantity.decimals)
}

const transfer = { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }] } as const
/** EIP-20: transfer returns a bool. */
export const erc20Abi = [{ ...transfer, outputs: [{ name: '', type: 'bool' }] }] as const
/** spec §9: tether-style contracts (USDT) return nothing from transfer, so they use their own ABI. */
export const tetherAbi = [{ ...transfer, outputs: [] }] as const

export type TokenAbi = 'erc20' | 'tether'

/**
 * Reads a simulated transfer's answer with the ABI that fits it: empty data is a tether-style token;
 * a bool must be true. Throws when the token refuses or answers something else.
 */
export function readTransferResult(data: Hex): TokenAbi {
  if (data === '0x') {
    decodeFunctionResult({ abi: tetherAbi, functionName: 'transfer', data })
    return 'tether'
  }
  if (!decodeFunctionResult({ abi: erc20Abi, functionName: 'transfer', data })) throw new Error('The token refused the transfer')
  return 'erc20'
}

export type TransactionRequest = { from: string; to: string; value: Hex; data?: Hex }

/** The eth_sendTransaction parameters: a native transfer, or an ERC-20 transfer call to the token. */
export function transferRequest(options: { from: string; token: Balance; amount: string; receiver: string; abi?: TokenAbi }): TransactionRequest {
  const { from, token, receiver } = options
  const value = baseUnits(options.amount, token)
  if (isNative(token)) return { from, to: receiver, value: toHex(value) }
  const data = encodeFunctionData({ abi: options.abi === 'tether' ? tetherAbi : erc20Abi, functionName: 'transfer', args: [receiver as Hex, value] })
  return { from, to: contractOf(token), value: '0x0', data }
}
