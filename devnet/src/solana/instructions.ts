/**
 * Instructions in getTransaction's `jsonParsed` shape, for the programs a wallet's activity reads
 * (System, SPL Token, Associated Token Account, Memo), as a node's transaction-status parsers print
 * them; any other instruction stays "partially decoded" (program id, account list, base58 data).
 * `import * as Instructions from './instructions.js'`.
 */
import { base58 } from '@scure/base'
import { ASSOCIATED_TOKEN_PROGRAM_ID } from '@solana/spl-token'
import { tokenAmount, tokenProgram } from './accounts.js'

const systemProgram = '11111111111111111111111111111111'
const ataProgram = ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()
const memoPrograms = new Set(['Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'])

type Info = Record<string, unknown>

/** One instruction as jsonParsed prints it. */
export function parse(programId: string, accounts: readonly string[], data: Uint8Array, stackHeight: number | null) {
  const parsed = safely(() => parsers[programId]?.(accounts, data))
  if (parsed) return { ...parsed, programId, stackHeight }
  return { programId, accounts: [...accounts], data: base58.encode(data), stackHeight }
}

// Malformed data of a known program reads as partially decoded, as a node prints it.
function safely<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

const named = (names: readonly string[], accounts: readonly string[]): Info => Object.fromEntries(names.map((name, i) => [name, accounts[i]]))
const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength)
const key = (data: Uint8Array, offset: number) => base58.encode(data.slice(offset, offset + 32))

const parsers: Record<string, (accounts: readonly string[], data: Uint8Array) => { program: string; parsed: unknown } | undefined> = {
  [systemProgram]: (accounts, data) => {
    const info = system(accounts, data)
    return info && { program: 'system', parsed: info }
  },
  [tokenProgram]: (accounts, data) => {
    const info = token(accounts, data)
    return info && { program: 'spl-token', parsed: info }
  },
  [ataProgram]: (accounts, data) => {
    if (data.length > 1 || (data[0] ?? 0) > 1) return undefined
    const info = named(['source', 'account', 'wallet', 'mint', 'systemProgram', 'tokenProgram'], accounts)
    return { program: 'spl-associated-token-account', parsed: { type: data[0] === 1 ? 'createIdempotent' : 'create', info } }
  },
  ...Object.fromEntries([...memoPrograms].map((id) => [id, (_: readonly string[], data: Uint8Array) => ({ program: 'spl-memo', parsed: new TextDecoder('utf-8', { fatal: true }).decode(data) })])),
}

function system(accounts: readonly string[], data: Uint8Array): { type: string; info: Info } | undefined {
  const tag = view(data).getUint32(0, true)
  const u64 = (offset: number) => Number(view(data).getBigUint64(offset, true))
  if (tag === 0) return { type: 'createAccount', info: { ...named(['source', 'newAccount'], accounts), lamports: u64(4), space: u64(12), owner: key(data, 20) } }
  if (tag === 1) return { type: 'assign', info: { account: accounts[0], owner: key(data, 4) } }
  if (tag === 2) return { type: 'transfer', info: { ...named(['source', 'destination'], accounts), lamports: u64(4) } }
  if (tag === 8) return { type: 'allocate', info: { account: accounts[0], space: u64(4) } }
  return undefined
}

// Token instructions by tag: their account names, and how their amount reads (checked ones carry decimals).
const tokenInstructions: Record<number, { type: string; accounts: readonly string[]; amount?: 'amount' | 'tokenAmount' }> = {
  3: { type: 'transfer', accounts: ['source', 'destination', 'authority'], amount: 'amount' },
  7: { type: 'mintTo', accounts: ['mint', 'account', 'mintAuthority'], amount: 'amount' },
  8: { type: 'burn', accounts: ['account', 'mint', 'authority'], amount: 'amount' },
  9: { type: 'closeAccount', accounts: ['account', 'destination', 'owner'] },
  12: { type: 'transferChecked', accounts: ['source', 'mint', 'destination', 'authority'], amount: 'tokenAmount' },
  14: { type: 'mintToChecked', accounts: ['mint', 'account', 'mintAuthority'], amount: 'tokenAmount' },
  15: { type: 'burnChecked', accounts: ['account', 'mint', 'authority'], amount: 'tokenAmount' },
  21: { type: 'getAccountDataSize', accounts: ['mint'] },
  22: { type: 'initializeImmutableOwner', accounts: ['account'] },
}

function token(accounts: readonly string[], data: Uint8Array): { type: string; info: Info } | undefined {
  const tag = data[0]!
  if (tag === 18 && data.length === 33) return { type: 'initializeAccount3', info: { ...named(['account', 'mint'], accounts), owner: key(data, 1) } }
  if (tag === 20 && data.length >= 35) {
    const freeze = data[34] === 1 ? { freezeAuthority: key(data, 35) } : {}
    return { type: 'initializeMint2', info: { mint: accounts[0], decimals: data[1], mintAuthority: key(data, 2), ...freeze } }
  }
  const shape = tokenInstructions[tag]
  if (!shape || data.length < (shape.amount === 'tokenAmount' ? 10 : shape.amount ? 9 : 1)) return undefined
  const info = named(shape.accounts, accounts)
  if (shape.amount === 'amount') info.amount = view(data).getBigUint64(1, true).toString()
  if (shape.amount === 'tokenAmount') info.tokenAmount = tokenAmount(view(data).getBigUint64(1, true), data[9]!)
  if (shape.type === 'getAccountDataSize') info.extensionTypes = []
  return { type: shape.type, info }
}
