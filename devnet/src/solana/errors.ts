/**
 * The Solana RPC's errors: JSON-RPC error codes, and litesvm's transaction errors in the shapes a real
 * node answers with (the `err` JSON of getSignatureStatuses and the human message of a failed
 * preflight), so wallets and web3.js show the messages they show against mainnet.
 * `import * as Errors from './errors.js'`.
 */
import type { FailedTransactionMetadata } from 'litesvm'

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/** JSON-RPC 2.0's codes and the Solana RPC's own (agave rpc/custom_error.rs). */
export const codes = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** A failed preflight: `data` is the simulation's result, logs included. */
  simulationFailed: -32002,
  signatureFailure: -32003,
  unsupportedTransactionVersion: -32015,
} as const

export const invalidParams = (message: string) => new RpcError(codes.invalidParams, `Invalid params: ${message}`)

/** A transaction error as a node serialises it: `"BlockhashNotFound"` or `{"InstructionError":[0,{"Custom":1}]}`. */
export type TransactionError = string | { [name: string]: unknown }

type LitesvmError = ReturnType<FailedTransactionMetadata['err']>
type InstructionFailure = ReturnType<Extract<LitesvmError, { err(): unknown }>['err']>

// litesvm's fieldless enums are `const enum`s with no runtime object: their names, by value
// (litesvm/dist/internal.d.ts TransactionErrorFieldless and InstructionErrorFieldless).
const transactionErrors = (
  'AccountInUse AccountLoadedTwice AccountNotFound ProgramAccountNotFound InsufficientFundsForFee InvalidAccountForFee ' +
  'AlreadyProcessed BlockhashNotFound CallChainTooDeep MissingSignatureForFee InvalidAccountIndex SignatureFailure ' +
  'InvalidProgramForExecution SanitizeFailure ClusterMaintenance AccountBorrowOutstanding WouldExceedMaxBlockCostLimit ' +
  'UnsupportedVersion InvalidWritableAccount WouldExceedMaxAccountCostLimit WouldExceedAccountDataBlockLimit TooManyAccountLocks ' +
  'AddressLookupTableNotFound InvalidAddressLookupTableOwner InvalidAddressLookupTableData InvalidAddressLookupTableIndex ' +
  'InvalidRentPayingAccount WouldExceedMaxVoteCostLimit WouldExceedAccountDataTotalLimit MaxLoadedAccountsDataSizeExceeded ' +
  'ResanitizationNeeded InvalidLoadedAccountsDataSizeLimit UnbalancedTransaction ProgramCacheHitMaxLimit CommitCancelled'
).split(' ')

const instructionErrors = (
  'GenericError InvalidArgument InvalidInstructionData InvalidAccountData AccountDataTooSmall InsufficientFunds ' +
  'IncorrectProgramId MissingRequiredSignature AccountAlreadyInitialized UninitializedAccount UnbalancedInstruction ' +
  'ModifiedProgramId ExternalAccountLamportSpend ExternalAccountDataModified ReadonlyLamportChange ReadonlyDataModified ' +
  'DuplicateAccountIndex ExecutableModified RentEpochModified NotEnoughAccountKeys AccountDataSizeChanged AccountNotExecutable ' +
  'AccountBorrowFailed AccountBorrowOutstanding DuplicateAccountOutOfSync InvalidError ExecutableDataModified ' +
  'ExecutableLamportChange ExecutableAccountNotRentExempt UnsupportedProgramId CallDepth MissingAccount ReentrancyNotAllowed ' +
  'MaxSeedLengthExceeded InvalidSeeds InvalidRealloc ComputationalBudgetExceeded PrivilegeEscalation ' +
  'ProgramEnvironmentSetupFailure ProgramFailedToComplete ProgramFailedToCompile Immutable IncorrectAuthority ' +
  'AccountNotRentExempt InvalidAccountOwner ArithmeticOverflow UnsupportedSysvar IllegalOwner ' +
  'MaxAccountsDataAllocationsExceeded MaxAccountsExceeded MaxInstructionTraceLengthExceeded ' +
  'BuiltinProgramsMustConsumeComputeUnits BorshIoError'
).split(' ')

// The Display texts of solana-transaction-error that wallets show; the rest fall back to the name in words.
const transactionMessages: Record<string, string> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
}

const instructionMessages: Record<string, string> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()

/** A litesvm failure as a node shows it: its JSON and its message. */
export function describe(err: LitesvmError): { json: TransactionError; message: string } {
  if (typeof err === 'number') {
    const name = transactionErrors[err] ?? `TransactionError${err}`
    return { json: name, message: transactionMessages[name] ?? words(name) }
  }
  if ('err' in err) {
    const inner = instruction(err.err())
    return { json: { InstructionError: [err.index, inner.json] }, message: `Error processing Instruction ${err.index}: ${inner.message}` }
  }
  if ('accountIndex' in err) {
    const name = err.constructor.name.replace(/^TransactionError/, '')
    const message =
      name === 'InsufficientFundsForRent'
        ? `Transaction results in an account (${err.accountIndex}) with insufficient funds for rent`
        : `Execution of the program referenced by account at index ${err.accountIndex} is temporarily restricted.`
    return { json: { [name]: { account_index: err.accountIndex } }, message }
  }
  return { json: { DuplicateInstruction: err.index }, message: `Transaction contains a duplicate instruction (${err.index}) that is not allowed` }
}

function instruction(err: InstructionFailure): { json: TransactionError; message: string } {
  if (typeof err === 'number') {
    const name = instructionErrors[err] ?? `InstructionError${err}`
    return { json: name, message: instructionMessages[name] ?? words(name) }
  }
  if ('code' in err) return { json: { Custom: err.code }, message: `custom program error: 0x${err.code.toString(16)}` }
  return { json: { BorshIoError: err.msg }, message: `Failed to serialize or deserialize account data: ${err.msg}` }
}

/**
 * Whether a failed transaction still lands (in a block, its fee paid, its error in its status), as
 * failures while executing do; a failure while loading it (a bad blockhash, no fee payer) never lands.
 */
export function lands(err: LitesvmError): boolean {
  return typeof err !== 'number' && ('err' in err || 'accountIndex' in err)
}

/** Whether `err` is the signature check's: the RPC refuses those before any preflight, with -32003. */
export const isSignatureFailure = (err: LitesvmError) => typeof err === 'number' && transactionErrors[err] === 'SignatureFailure'

/** The devnet checks blockhashes itself (ledger.ts): its failure, as litesvm's own would read. */
export const blockhashNotFound = { json: 'BlockhashNotFound', message: 'Blockhash not found' } as const
