/**
 * The typed errors of the Solana chunk. Each carries the text a person should read (shared/src/texts/solana.ts)
 * as its message, and what a view or a log needs beside it as fields: the view shows `message`, or the spec's
 * §8 toast ('Failed to send transaction. Please try again.', 'Token Balance Unavailable') where a failure
 * has no better explanation.
 */
import * as Constants from '@doorway/shared/Constants'
import { DoorwayError } from '@doorway/shared/Errors'
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { solanaText } from '@doorway/shared/texts/solana'

export const lamportsPerSol = 1_000_000_000n
const solDecimals = 9

/** Lamports as SOL for a message, every significant digit kept: 890880n → '0.00089088'. */
export function formatSol(lamports: bigint): string {
  return formatToken(lamports, solDecimals)
}

/** Base units as whole tokens through Intl, every significant digit kept (a fee or a rent is tiny). */
export function formatToken(amount: bigint, decimals: number): string {
  const whole = Format.formatUnits(amount, decimals) as Intl.StringNumericLiteral
  return new Intl.NumberFormat(Constants.numberLocale, { maximumFractionDigits: Math.min(decimals, 20) }).format(whole)
}

/** The node answered with a JSON-RPC error object; `logs` are the program logs of a failed simulation. */
export class RpcError extends DoorwayError {
  override readonly name = 'SolanaRpcError'
  readonly rpcCode: number
  readonly data: unknown
  readonly logs: readonly string[]

  constructor(options: { code: number; message: string; data?: unknown }) {
    super(options.message)
    this.rpcCode = options.code
    this.data = options.data
    this.logs = logsOf(options.data)
  }
}

function logsOf(data: unknown): string[] {
  const logs = typeof data === 'object' && data !== null ? (data as { logs?: unknown }).logs : undefined
  return Array.isArray(logs) ? logs.filter((line): line is string => typeof line === 'string') : []
}

export declare namespace RpcUnavailableError {
  /** network: no answer; timeout: no answer in time; http: a non-2xx status; invalid: an answer that is not what was asked. */
  type Reason = 'network' | 'timeout' | 'http' | 'invalid'
}

/** The node could not be reached, or did not answer as a Solana node does. */
export class RpcUnavailableError extends DoorwayError {
  override readonly name = 'SolanaRpcUnavailableError'
  readonly reason: RpcUnavailableError.Reason
  readonly method: string
  readonly status: number | undefined

  constructor(options: { reason: RpcUnavailableError.Reason; method: string; status?: number; cause?: unknown }) {
    super(solanaText.rpcUnavailable, 'cause' in options ? { cause: options.cause } : {})
    this.reason = options.reason
    this.method = options.method
    this.status = options.status
  }
}

/** spec §8 'Failed to send transaction. Please try again.': a send failed for a reason with no text of its own. */
export class SendFailedError extends DoorwayError {
  override readonly name = 'SolanaSendFailedError'
  /** The program logs of a failed simulation, when the node gave them. */
  readonly logs: readonly string[]
  constructor(cause: unknown) {
    super(solanaText.sendFailed, { cause })
    this.logs = cause instanceof RpcError ? cause.logs : []
  }
}

/** spec §5 'Please enter a valid amount and receiver address'; `field` names what is wrong, `detail` may say more. */
export class InvalidSendError extends DoorwayError {
  override readonly name = 'SolanaInvalidSendError'
  readonly field: 'amount' | 'receiver' | 'sender' | 'mint' | 'decimals'
  readonly detail: string | undefined
  constructor(field: InvalidSendError['field'], detail?: string) {
    super(solanaText.invalidSend)
    this.field = field
    this.detail = detail
  }
}

export declare namespace RentError {
  /** receiver: a new account would get less than the minimum; sender: the sender would be left below it; unknown: the node said so. */
  type Kind = 'receiver' | 'sender' | 'unknown'
}

/** Solana keeps no account below its rent-exempt minimum (but an empty one). */
export class RentError extends DoorwayError {
  override readonly name = 'SolanaRentError'
  readonly kind: RentError.Kind
  /** The rent-exempt minimum in lamports, when known. */
  readonly minimum: bigint | undefined
  constructor(kind: RentError.Kind, minimum?: bigint, cause?: unknown) {
    super(rentMessage(kind, minimum), cause === undefined ? {} : { cause })
    this.kind = kind
    this.minimum = minimum
  }
}

function rentMessage(kind: RentError.Kind, minimum: bigint | undefined): string {
  if (kind === 'unknown' || minimum === undefined) return solanaText.rentUnknown
  return format(kind === 'receiver' ? solanaText.rentReceiver : solanaText.rentSender, { amount: formatSol(minimum) })
}

/** The account holds less than the send needs: `asset` is 'SOL' or the token's mint, amounts in its base units. */
export class InsufficientFundsError extends DoorwayError {
  override readonly name = 'SolanaInsufficientFundsError'
  readonly asset: string
  readonly needed: bigint | undefined
  readonly available: bigint | undefined
  constructor(options: { message: string; asset: string; needed?: bigint; available?: bigint; cause?: unknown }) {
    super(options.message, 'cause' in options ? { cause: options.cause } : {})
    this.asset = options.asset
    this.needed = options.needed
    this.available = options.available
  }
}

/** The blockhash expired before the transaction landed: nothing was sent; build it again. */
export class ExpiredError extends DoorwayError {
  override readonly name = 'SolanaExpiredError'
  constructor(cause?: unknown) {
    super(solanaText.expired, cause === undefined ? {} : { cause })
  }
}

/** The transaction landed and failed: its fee was paid, nothing else changed. `err` is the node's error value. */
export class FailedError extends DoorwayError {
  override readonly name = 'SolanaFailedError'
  readonly err: unknown
  readonly slot: number
  constructor(err: unknown, slot: number) {
    super(format(solanaText.failed, { reason: describe(err) }))
    this.err = err
    this.slot = slot
  }
}

/** A transaction error value as a short reason: 'InsufficientFundsForRent', 'InstructionError 1: Custom 1'. */
export function describe(err: unknown): string {
  if (typeof err === 'string') return err
  if (typeof err !== 'object' || err === null) return String(err)
  const [key, value] = Object.entries(err as Record<string, unknown>)[0] ?? ['unknown', undefined]
  if (Array.isArray(value)) return `${key} ${value.map((v: unknown) => (typeof v === 'object' && v !== null ? describe(v) : String(v))).join(': ')}`
  return typeof value === 'object' && value !== null ? `${key}: ${describe(value)}` : value === undefined ? key : `${key} ${String(value)}`
}

/** The wallet's answer is not a signed transaction, or its signature does not verify. */
export class WalletAnswerError extends DoorwayError {
  override readonly name = 'SolanaWalletAnswerError'
  constructor(message: string = solanaText.badWalletAnswer, cause?: unknown) {
    super(message, cause === undefined ? {} : { cause })
  }
}
