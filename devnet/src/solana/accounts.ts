/**
 * Accounts as the RPC answers them: base58/base64 data, or SPL Token mints and token accounts parsed
 * the way a node's `jsonParsed` encoding parses them (account-decoder's "spl-token" parser), and the
 * token balances a transaction's meta lists. `import * as Accounts from './accounts.js'`.
 */
import { base58, base64 } from '@scure/base'
import { ACCOUNT_SIZE, AccountLayout, AccountState, MINT_SIZE, MintLayout, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token'
import type { LiteSVM } from 'litesvm'
import { invalidParams } from './errors.js'

export type Address = Parameters<LiteSVM['getAccount']>[0]

export type Account = { address: string; lamports: bigint; owner: string; data: Uint8Array; executable: boolean }

export type Encoding = 'base58' | 'base64' | 'jsonParsed'
export const encodings: readonly Encoding[] = ['base58', 'base64', 'jsonParsed']

export type DataSlice = { offset: number; length: number }

export const tokenProgram = TOKEN_PROGRAM_ID.toBase58()
/** Not loaded in litesvm (the namespaces notes, §1): its queries answer nothing. */
export const token2022Program = TOKEN_2022_PROGRAM_ID.toBase58()

// A node reports u64::MAX for every rent-exempt account since rent collection ended; JSON numbers
// carry it as this double, which is what clients read anyway.
const rentEpoch = 2 ** 64

/** The account at `address`, or undefined when it has never been funded. */
export function get(svm: LiteSVM, address: string): Account | undefined {
  const account = svm.getAccount(address as Address)
  if (!account.exists) return undefined
  return { address, lamports: account.lamports, owner: account.programAddress, data: Uint8Array.from(account.data), executable: account.executable }
}

/** An account in the shape of getAccountInfo's `value` (null when missing). */
export function encode(svm: LiteSVM, account: Account | undefined, encoding: Encoding, slice?: DataSlice) {
  if (!account) return null
  const base = { executable: account.executable, lamports: Number(account.lamports), owner: account.owner, rentEpoch, space: account.data.length }
  const parsed = encoding === 'jsonParsed' && !slice ? parse(svm, account) : undefined
  if (parsed) return { ...base, data: parsed }
  const data = slice ? account.data.slice(slice.offset, slice.offset + slice.length) : account.data
  // jsonParsed falls back to base64 for accounts no parser knows, as a node does
  return { ...base, data: encoding === 'base58' ? [base58.encode(data), 'base58'] : [base64.encode(data), 'base64'] }
}

export type TokenAccount = { mint: string; owner: string; amount: bigint; state: 'uninitialized' | 'initialized' | 'frozen'; delegate?: string; delegatedAmount: bigint; closeAuthority?: string; isNative: boolean }

/** A classic SPL Token account's fields, or undefined for any other account. */
export function tokenAccount(account: Account | undefined): TokenAccount | undefined {
  if (!account || account.owner !== tokenProgram || account.data.length !== ACCOUNT_SIZE) return undefined
  const raw = AccountLayout.decode(account.data)
  const state = raw.state === AccountState.Frozen ? 'frozen' : raw.state === AccountState.Initialized ? 'initialized' : 'uninitialized'
  return {
    mint: raw.mint.toBase58(),
    owner: raw.owner.toBase58(),
    amount: raw.amount,
    state,
    ...(raw.delegateOption ? { delegate: raw.delegate.toBase58() } : {}),
    delegatedAmount: raw.delegatedAmount,
    ...(raw.closeAuthorityOption ? { closeAuthority: raw.closeAuthority.toBase58() } : {}),
    isNative: raw.isNativeOption === 1,
  }
}

export type Mint = { decimals: number; supply: bigint; mintAuthority: string | null; freezeAuthority: string | null; isInitialized: boolean }

/** A classic SPL Token mint's fields, or undefined for any other account. */
export function mint(account: Account | undefined): Mint | undefined {
  if (!account || account.owner !== tokenProgram || account.data.length !== MINT_SIZE) return undefined
  const raw = MintLayout.decode(account.data)
  return {
    decimals: raw.decimals,
    supply: raw.supply,
    mintAuthority: raw.mintAuthorityOption ? raw.mintAuthority.toBase58() : null,
    freezeAuthority: raw.freezeAuthorityOption ? raw.freezeAuthority.toBase58() : null,
    isInitialized: raw.isInitialized,
  }
}

/** A token amount as nodes print it: `uiAmountString` has no trailing zeros ("1000", "0.25"). */
export function tokenAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** The decimals of `mintAddress`, which must be a mint. */
export function decimalsOf(svm: LiteSVM, mintAddress: string): number {
  const found = mint(get(svm, mintAddress))
  if (!found) throw invalidParams(`${mintAddress} is not a mint`)
  return found.decimals
}

/** jsonParsed data for a mint or token account (undefined for others): `{ program, parsed, space }`. */
function parse(svm: LiteSVM, account: Account) {
  const space = account.data.length
  const found = mint(account)
  if (found) {
    const info = { ...found, supply: found.supply.toString() }
    return { program: 'spl-token', parsed: { type: 'mint', info }, space }
  }
  const token = tokenAccount(account)
  if (!token) return undefined
  const decimals = mint(get(svm, token.mint))?.decimals ?? 0
  const info = {
    isNative: token.isNative,
    mint: token.mint,
    owner: token.owner,
    state: token.state,
    tokenAmount: tokenAmount(token.amount, decimals),
    ...(token.delegate ? { delegate: token.delegate, delegatedAmount: tokenAmount(token.delegatedAmount, decimals) } : {}),
    ...(token.closeAuthority ? { closeAuthority: token.closeAuthority } : {}),
  }
  return { program: 'spl-token', parsed: { type: 'account', info }, space }
}

/** A transaction meta's pre/postTokenBalances entry for every token account among `keys`. */
export function tokenBalances(svm: LiteSVM, keys: readonly string[]) {
  return keys.flatMap((key, accountIndex) => {
    const token = tokenAccount(get(svm, key))
    if (!token) return []
    const decimals = mint(get(svm, token.mint))?.decimals ?? 0
    return [{ accountIndex, mint: token.mint, owner: token.owner, programId: tokenProgram, uiTokenAmount: tokenAmount(token.amount, decimals) }]
  })
}

/** Every token account `owner` holds, of `mint` when given. */
export function tokenAccountsOf(svm: LiteSVM, owner: string, mintAddress?: string): Account[] {
  return svm.getProgramAccounts(tokenProgram as Address).flatMap((encoded) => {
    const account = { address: encoded.address, lamports: encoded.lamports, owner: encoded.programAddress, data: Uint8Array.from(encoded.data), executable: encoded.executable }
    const token = tokenAccount(account)
    return token && token.owner === owner && (mintAddress === undefined || token.mint === mintAddress) ? [account] : []
  })
}
