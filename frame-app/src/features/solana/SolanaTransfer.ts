/**
 * Builds the unsigned transactions of a Solana send (spec §4 Sending, the Solana path): SOL with a System
 * transfer, SPL tokens with `transferChecked` between associated token accounts, opening the receiver's
 * when it has none (the sender pays its rent). The wallet signs the wire bytes; SolanaConfirm broadcasts
 * and follows them. Every rule the chain would refuse is checked first, so the person reads why here
 * rather than as a failed simulation: the rent-exempt minimum, and SOL for the amount, fee and rent.
 */
import { isSolanaAddress } from '@doorway/shared/Address'
import { format } from '@doorway/shared/Texts'
import { solanaText } from '@doorway/shared/texts/solana'
import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token'
import { PublicKey, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js'
import * as S from '@doorway/shared/Schema'
import {
  ExpiredError,
  InsufficientFundsError,
  InvalidSendError,
  RentError,
  RpcError,
  RpcUnavailableError,
  SendFailedError,
  formatSol,
  formatToken,
} from './SolanaErrors.js'
import type { Rpc } from './SolanaRpc.js'
import { toBase64 } from './SolanaWire.js'
import { base58, digits, integer, lamports, loose, nullable, withContext } from './internal/shape.js'

/** An unsigned transaction and what the send view shows of it. */
export type Built = {
  /** The wire bytes the wallet signs (fee payer's signature slot empty). */
  bytes: Uint8Array
  blockhash: string
  /** The transaction expires once the chain is past this block height (SolanaConfirm.confirm). */
  lastValidBlockHeight: number
  /** The network fee in lamports (getFeeForMessage). */
  fee: bigint
  /** The receiver had no token account for the mint: this transaction opens it. */
  createsTokenAccount: boolean
  /** The rent the sender pays for that account, in lamports (0 when none is opened). */
  rentLamports: bigint
}

/** The size of a classic SPL token account, whose rent an opened account holds. */
export const tokenAccountSize = 165

export declare namespace sol {
  type Parameters = { rpc: Rpc; from: string; to: string; lamports: bigint; signal?: AbortSignal }
}

/** A SOL transfer of `lamports` from `from` (who signs and pays the fee) to `to`. */
export async function sol(parameters: sol.Parameters): Promise<Built> {
  const { rpc, lamports, signal } = parameters
  const from = publicKey(parameters.from, 'sender')
  const to = publicKey(parameters.to, 'receiver')
  if (typeof lamports !== 'bigint' || lamports <= 0n) throw new InvalidSendError('amount')
  const self = from.equals(to)
  return guarded(signal, async () => {
    const [balance, received, minimum, latest] = await Promise.all([
      lamportsOf(rpc, from, signal),
      lamportsOf(rpc, to, signal),
      rentExempt(rpc, 0, signal),
      latestBlockhash(rpc, signal),
    ])
    // An account with no lamports does not exist: the transfer creates it, and the chain wants it rent-exempt.
    if (received === 0n && !self && lamports < minimum) throw new RentError('receiver', minimum)
    const transaction = compose(from, latest, [SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports })])
    const fee = await feeOf(rpc, transaction, signal)
    const needed = lamports + fee
    if (needed > balance)
      throw new InsufficientFundsError({
        message: format(solanaText.insufficientSol, { needed: formatSol(needed), balance: formatSol(balance) }),
        asset: 'SOL',
        needed,
        available: balance,
      })
    // A send to oneself moves nothing but the fee out.
    checkSenderRent(balance - (self ? fee : needed), minimum)
    return built(transaction, latest, fee, 0n)
  })
}

export declare namespace spl {
  type Parameters = {
    rpc: Rpc
    from: string
    to: string
    mint: string
    /** In the token's base units. */
    amount: bigint
    decimals: number
    /** For messages; the mint's address stands in without it. */
    symbol?: string
    signal?: AbortSignal
  }
}

/**
 * An SPL token transfer (`transferChecked`) of `amount` from the sender's associated token account to the
 * receiver's, which the transaction opens first (idempotently, the sender paying the rent) when it is missing.
 */
export async function spl(parameters: spl.Parameters): Promise<Built> {
  const { rpc, amount, decimals, signal } = parameters
  const { from, to, mint } = splKeys(parameters)
  if (typeof amount !== 'bigint' || amount <= 0n) throw new InvalidSendError('amount')
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) throw new InvalidSendError('decimals')
  // A sender may be a program's account (a multisig vault); a receiver must be a wallet (see splKeys).
  const source = getAssociatedTokenAddressSync(mint, from, true)
  const destination = getAssociatedTokenAddressSync(mint, to)
  return guarded(signal, async () => {
    const [balance, [held, opened], minimum, rent, latest] = await Promise.all([
      lamportsOf(rpc, from, signal),
      tokenAccounts(rpc, source, destination, signal),
      rentExempt(rpc, 0, signal),
      rentExempt(rpc, tokenAccountSize, signal),
      latestBlockhash(rpc, signal),
    ])
    checkTokens(parameters, held, amount)
    const open = opened === null
    const instructions = [
      ...(open ? [createAssociatedTokenAccountIdempotentInstruction(from, destination, to, mint)] : []),
      createTransferCheckedInstruction(source, mint, destination, from, amount, decimals),
    ]
    const transaction = compose(from, latest, instructions)
    const fee = await feeOf(rpc, transaction, signal)
    const rentLamports = open ? rent : 0n
    const needed = fee + rentLamports
    if (needed > balance) {
      const message = open
        ? format(solanaText.insufficientSolForTokenAccount, { needed: formatSol(needed), balance: formatSol(balance) })
        : solanaText.insufficientFee
      throw new InsufficientFundsError({ message, asset: 'SOL', needed, available: balance })
    }
    checkSenderRent(balance - needed, minimum)
    return built(transaction, latest, fee, rentLamports)
  })
}

function splKeys(parameters: spl.Parameters) {
  const keys = { from: publicKey(parameters.from, 'sender'), to: publicKey(parameters.to, 'receiver'), mint: publicKey(parameters.mint, 'mint') }
  // A program-derived address (a token account pasted as the receiver, say) has no key to spend what it is sent.
  if (!PublicKey.isOnCurve(keys.to.toBytes())) throw new InvalidSendError('receiver', solanaText.offCurveReceiver)
  return keys
}

function checkTokens(parameters: spl.Parameters, held: TokenAccount | null, amount: bigint) {
  const info = held?.data.parsed.info
  if (info && info.tokenAmount.decimals !== parameters.decimals) throw new InvalidSendError('decimals')
  const available = info ? BigInt(info.tokenAmount.amount) : 0n
  if (available >= amount) return
  const symbol = parameters.symbol ?? parameters.mint
  throw new InsufficientFundsError({
    message: format(solanaText.insufficientToken, { symbol, balance: `${formatToken(available, parameters.decimals)} ${symbol}` }),
    asset: parameters.mint,
    needed: amount,
    available,
  })
}

/** What a sender keeps must be nothing or at least the rent-exempt minimum. */
function checkSenderRent(left: bigint, minimum: bigint) {
  if (left > 0n && left < minimum) throw new RentError('sender', minimum)
}

function publicKey(address: string, field: InvalidSendError['field']): PublicKey {
  // spec §5: 32 to 44 base58 characters; PublicKey then checks they are 32 bytes.
  if (!isSolanaAddress(address)) throw new InvalidSendError(field)
  try {
    return new PublicKey(address)
  } catch {
    throw new InvalidSendError(field)
  }
}

/**
 * Runs the node calls of a build: the typed errors above pass as they are, the caller's cancel as its
 * reason, and any other failure of the node is spec §8 'Failed to send transaction. Please try again.'.
 */
async function guarded<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    if (error instanceof RpcError || error instanceof RpcUnavailableError) throw new SendFailedError(error)
    throw error
  }
}

type Latest = { blockhash: string; lastValidBlockHeight: number }
const commitment = { commitment: 'confirmed' } as const

function compose(feePayer: PublicKey, latest: Latest, instructions: TransactionInstruction[]): Transaction {
  return new Transaction({ feePayer, ...latest }).add(...instructions)
}

function built(transaction: Transaction, latest: Latest, fee: bigint, rentLamports: bigint): Built {
  const bytes = new Uint8Array(transaction.serialize({ requireAllSignatures: false, verifySignatures: false }))
  return { bytes, ...latest, fee, createsTokenAccount: rentLamports > 0n, rentLamports }
}

async function lamportsOf(rpc: Rpc, account: PublicKey, signal: AbortSignal | undefined): Promise<bigint> {
  const { value } = await rpc.call('getBalance', [account.toBase58(), commitment], withContext(lamports), signal)
  return BigInt(value)
}

async function rentExempt(rpc: Rpc, size: number, signal: AbortSignal | undefined): Promise<bigint> {
  return BigInt(await rpc.call('getMinimumBalanceForRentExemption', [size, commitment], integer, signal))
}

async function latestBlockhash(rpc: Rpc, signal: AbortSignal | undefined): Promise<Latest> {
  const { value } = await rpc.call('getLatestBlockhash', [commitment], withContext(loose({ blockhash: base58, lastValidBlockHeight: integer })), signal)
  return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight }
}

async function feeOf(rpc: Rpc, transaction: Transaction, signal: AbortSignal | undefined): Promise<bigint> {
  const message = toBase64(transaction.compileMessage().serialize())
  const { value } = await rpc.call('getFeeForMessage', [message, commitment], withContext(nullable(integer)), signal)
  // null: the node no longer knows the blockhash it just gave (it moved on); building again picks a fresh one.
  if (value === null) throw new ExpiredError()
  return BigInt(value)
}

const tokenAccount = loose({
  data: loose({ parsed: loose({ info: loose({ mint: base58, tokenAmount: loose({ amount: digits, decimals: integer }) }) }) }),
})
type TokenAccount = S.Infer<typeof tokenAccount>

/** The sender's and the receiver's token accounts in one call, null where there is none. */
async function tokenAccounts(rpc: Rpc, source: PublicKey, destination: PublicKey, signal: AbortSignal | undefined) {
  const params = [[source.toBase58(), destination.toBase58()], { ...commitment, encoding: 'jsonParsed' }]
  const { value } = await rpc.call('getMultipleAccounts', params, withContext(S.array(nullable(tokenAccount), 2)), signal)
  return [value[0] ?? null, value[1] ?? null] as const
}
