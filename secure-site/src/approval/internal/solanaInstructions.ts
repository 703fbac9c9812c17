import { approveText } from '@doorway/shared/texts/approve'
import { format } from '@doorway/shared/Texts'
import type * as SolanaTransaction from '../../wallet/SolanaTransaction.js'
import * as Display from './display.js'

// Solana instructions in words (docs/embedded-wallet.md §7): the programs a wallet meets in a send
// (System, SPL Token, Associated Token Account, ComputeBudget) are read from their bytes; any other call
// is named by its program and data length, with a warning. Token-2022 is not read: its transfers can
// carry fees and hooks that are invisible without chain access, so it gets the warning too.

export const programs = {
  system: '11111111111111111111111111111111',
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  associatedToken: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  computeBudget: 'ComputeBudget111111111111111111111111111111',
} as const

// Precompiles whose first data byte counts signatures the fee is charged for, like the transaction's own.
const precompiles = new Set(['Ed25519SigVerify111111111111111111111111111', 'KeccakSecp256k11111111111111111111111111111', 'Secp256r1SigVerify1111111111111111111111111'])

/** What one instruction says: a sentence, rows with the full values it shortened, and whether it could not be read. */
export type Words = { text: string; details: readonly { label: string; value: string; mono: true }[]; unknown: boolean }

export type Context = {
  /** This wallet's address. */
  from: string
  /** Token accounts this transaction creates (or checks) as an owner's associated account: account → owner. */
  owners: ReadonlyMap<string, string>
  fiat: { price: number; currency: string } | undefined
}

/** The instruction in words; never throws: what cannot be read is a program call with a warning. */
export function describe(instruction: SolanaTransaction.Instruction, context: Context): Words {
  const words = known(instruction, context)
  if (words) return words
  const text = format(approveText.callProgram, { program: instruction.programId, size: Display.bytes(instruction.data.length) })
  return { text, details: [], unknown: true }
}

function known(instruction: SolanaTransaction.Instruction, context: Context): Words | undefined {
  switch (instruction.programId) {
    case programs.system:
      return systemTransfer(instruction, context)
    case programs.token:
      return tokenTransfer(instruction, context)
    case programs.associatedToken:
      return createTokenAccount(instruction, context)
    case programs.computeBudget:
      return computeBudget(instruction)
  }
  return undefined
}

function words(text: string, details: Words['details'] = []): Words {
  return { text, details, unknown: false }
}

// System Transfer: u32 2, u64 lamports; accounts [from, to].
function systemTransfer({ data, accounts }: SolanaTransaction.Instruction, context: Context): Words | undefined {
  if (data.length !== 12 || u32(data, 0) !== 2 || accounts.length < 2) return undefined
  const amount = Display.sol(u64(data, 4), context.fiat)
  const [from, to] = accounts as [string, string]
  return words(from === context.from ? format(approveText.solTransfer, { amount, to }) : format(approveText.solTransferFrom, { amount, from, to }))
}

// SPL Token Transfer (3: u64; [source, destination, authority]) and TransferChecked (12: u64, u8 decimals; [source, mint, destination, authority]).
function tokenTransfer({ data, accounts }: SolanaTransaction.Instruction, context: Context): Words | undefined {
  if (data[0] === 3 && data.length === 9 && accounts.length >= 3) {
    const [source, destination] = accounts as [string, string]
    return words(format(approveText.tokenTransfer, { amount: Display.integer(u64(data, 1)), source: Display.shortKey(source), to: recipient(destination, context) }), [
      { label: approveText.tokenSource, value: source, mono: true },
    ])
  }
  if (data[0] === 12 && data.length === 10 && accounts.length >= 4) {
    const [, mint, destination] = accounts as [string, string, string]
    const amount = u64(data, 1)
    const shown = Display.units(amount, data[9]!) ?? `${Display.integer(amount)} base units`
    const text = format(approveText.tokenTransferChecked, { amount: shown, mint: Display.shortKey(mint), to: recipient(destination, context) })
    return words(text, [{ label: approveText.tokenMint, value: mint, mono: true }])
  }
  return undefined
}

// A token account names its owner when this transaction creates it as the owner's associated account:
// that instruction fails the whole transaction unless the account is exactly that (docs/embedded-wallet.md §7).
function recipient(account: string, context: Context): string {
  return context.owners.get(account) ?? format(approveText.tokenAccount, { address: account })
}

/** The associated token account creations of a message: account → owner. */
export function associatedOwners(instructions: readonly SolanaTransaction.Instruction[]): Map<string, string> {
  const owners = new Map<string, string>()
  for (const instruction of instructions) {
    const created = createsTokenAccount(instruction)
    if (created) owners.set(created.account, created.owner)
  }
  return owners
}

// Create (no data or 0) and CreateIdempotent (1): [funder, account, owner, mint, system program, token program].
function createsTokenAccount({ programId, data, accounts }: SolanaTransaction.Instruction) {
  if (programId !== programs.associatedToken || data.length > 1 || (data.length === 1 && data[0]! > 1) || accounts.length < 6) return undefined
  const [payer, account, owner] = accounts as [string, string, string]
  return { payer, account, owner }
}

function createTokenAccount(instruction: SolanaTransaction.Instruction, context: Context): Words | undefined {
  const created = createsTokenAccount(instruction)
  if (!created) return undefined
  const { payer, owner } = created
  return words(payer === context.from ? format(approveText.ataCreate, { owner }) : format(approveText.ataCreateOther, { owner, payer }))
}

// ComputeBudget: 1 RequestHeapFrame (u32), 2 SetComputeUnitLimit (u32), 3 SetComputeUnitPrice (u64), 4 SetLoadedAccountsDataSizeLimit (u32).
function computeBudget({ data }: SolanaTransaction.Instruction): Words | undefined {
  const budget = readBudget(data)
  if (!budget) return undefined
  switch (budget.kind) {
    case 1:
      return words(format(approveText.computeHeap, { size: Display.bytes(Number(budget.value)) }))
    case 2:
      return words(format(approveText.computeLimit, { units: Display.integer(budget.value) }))
    case 3:
      return words(format(approveText.computePrice, { price: Display.integer(budget.value) }))
    case 4:
      return words(format(approveText.computeData, { size: Display.bytes(Number(budget.value)) }))
  }
  return undefined
}

/** A ComputeBudget instruction's kind and value; undefined when it is not one of the four. */
export function readBudget(data: Uint8Array): { kind: number; value: bigint } | undefined {
  const kind = data[0]
  if ((kind === 1 || kind === 2 || kind === 4) && data.length === 5) return { kind, value: BigInt(u32(data, 1)) }
  if (kind === 3 && data.length === 9) return { kind, value: u64(data, 1) }
  return undefined
}

/** Signatures a precompile instruction checks, charged like the transaction's own. */
export function precompileSignatures({ programId, data }: SolanaTransaction.Instruction): number {
  return precompiles.has(programId) ? (data[0] ?? 0) : 0
}

function u32(data: Uint8Array, offset: number): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)
}

function u64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)
}
