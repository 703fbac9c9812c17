/**
 * Sending and simulating transactions as a node does: the signature check first (-32003), then the
 * blockhash, then a preflight simulation whose failure is refused with -32002 and the program logs,
 * then execution; a transaction that fails while executing still lands, its fee paid.
 * `import * as Execute from './execute.js'`.
 */
import { base58, base64 } from '@scure/base'
import { AddressLookupTableAccount, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { FailedTransactionMetadata, type TransactionMetadata } from 'litesvm'
import * as Accounts from './accounts.js'
import { blockhashNotFound, codes, describe, isSignatureFailure, lands, RpcError, type TransactionError } from './errors.js'
import * as Fees from './fees.js'
import * as Ledger from './ledger.js'
import * as Wire from './wire.js'

const lookupTableProgram = 'AddressLookupTab1e1111111111111111111111111'

export type Failure = { json: TransactionError; message: string }

const signatureFailure = () => new RpcError(codes.signatureFailure, 'Transaction signature verification failure')

function simulationFailed(failure: Failure, logs: string[], unitsConsumed: number) {
  const data = { err: failure.json, logs, accounts: null, unitsConsumed, returnData: null, innerInstructions: null }
  return new RpcError(codes.simulationFailed, `Transaction simulation failed: ${failure.message}`, data)
}

/** The transaction's account keys: its static ones, then those its lookup tables load. */
export function accountKeys(ledger: Ledger.Ledger, decoded: Wire.Decoded) {
  const writable: string[] = []
  const readonly: string[] = []
  for (const lookup of decoded.message.addressTableLookups) {
    const table = Accounts.get(ledger.svm, lookup.accountKey.toBase58())
    if (!table || table.owner !== lookupTableProgram)
      throw simulationFailed({ json: 'AddressLookupTableNotFound', message: "Transaction loads an address table account that doesn't exist" }, [], 0)
    const { addresses } = AddressLookupTableAccount.deserialize(table.data)
    const pick = (indexes: number[]) => indexes.map((i) => addresses[i]?.toBase58() ?? '')
    writable.push(...pick(lookup.writableIndexes))
    readonly.push(...pick(lookup.readonlyIndexes))
  }
  const keys = [...decoded.message.staticAccountKeys.map((key) => key.toBase58()), ...writable, ...readonly]
  return { keys, loadedAddresses: { writable, readonly } }
}

export type SimulateOptions = { sigVerify: boolean; replaceRecentBlockhash: boolean }

export type Simulation = {
  error: Failure | null
  logs: string[]
  unitsConsumed: number
  returnData: { programId: string; data: [string, 'base64'] } | null
  /** The state of the transaction's accounts after it, by address. */
  postAccounts: Map<string, Accounts.Account>
  innerInstructions: Ledger.Meta['innerInstructions']
}

/** Runs `decoded` against the current state and keeps nothing. */
export function simulate(ledger: Ledger.Ledger, decoded: Wire.Decoded, options: SimulateOptions): Simulation {
  const empty = { logs: [], unitsConsumed: 0, returnData: null, postAccounts: new Map(), innerInstructions: [] }
  if (!options.replaceRecentBlockhash && !Ledger.isBlockhashValid(ledger, decoded.message.recentBlockhash)) return { ...empty, error: blockhashNotFound }
  const { svm } = ledger
  svm.withSigverify(options.sigVerify)
  let result: ReturnType<typeof svm.simulateTransaction>
  try {
    result = svm.simulateTransaction(decoded.svm)
  } finally {
    svm.withSigverify(true)
  }
  if (result instanceof FailedTransactionMetadata) {
    if (isSignatureFailure(result.err())) throw signatureFailure()
    return { ...outcome(result.meta()), error: describe(result.err()), postAccounts: new Map() }
  }
  const postAccounts = new Map(
    result.postAccounts().map((a) => [a.address as string, { address: a.address, lamports: a.lamports, owner: a.programAddress, data: Uint8Array.from(a.data), executable: a.executable }]),
  )
  return { ...outcome(result.meta()), error: null, postAccounts }
}

function outcome(meta: TransactionMetadata) {
  const returned = meta.returnData()
  const data = returned.data()
  return {
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    returnData: data.length ? { programId: base58.encode(returned.programId()), data: [base64.encode(data), 'base64'] as [string, 'base64'] } : null,
    innerInstructions: Ledger.innerInstructions(meta),
  }
}

/**
 * Sends `decoded` and returns its signature. Without `skipPreflight` a failure is refused (-32002, with
 * logs) and nothing is charged; with it, a transaction that fails while executing lands with its error,
 * and one that cannot load (an unknown blockhash) is dropped, as a node drops it, and never lands.
 */
export function send(ledger: Ledger.Ledger, decoded: Wire.Decoded, options: { skipPreflight: boolean }): string {
  const { keys, loadedAddresses } = accountKeys(ledger, decoded)
  if (!options.skipPreflight) {
    const preflight = simulate(ledger, decoded, { sigVerify: true, replaceRecentBlockhash: false })
    if (preflight.error) throw simulationFailed(preflight.error, preflight.logs, preflight.unitsConsumed)
  } else if (!Ledger.isBlockhashValid(ledger, decoded.message.recentBlockhash)) return decoded.signature
  const pre = Ledger.balances(ledger, keys)
  const result = ledger.svm.sendTransaction(decoded.svm)
  const fee = Fees.fee(decoded.message)
  const landing = { transaction: decoded, accountKeys: keys, loadedAddresses, fee, pre }
  if (!(result instanceof FailedTransactionMetadata)) return Ledger.land(ledger, { ...landing, result, err: null }).signature
  const err = result.err()
  if (isSignatureFailure(err)) throw signatureFailure()
  if (lands(err)) Ledger.land(ledger, { ...landing, result: result.meta(), err: describe(err).json })
  return decoded.signature
}

/** Sends `lamports` from the faucet to `address`, as a node's requestAirdrop does. */
export function airdrop(ledger: Ledger.Ledger, address: string, lamports: bigint): string {
  const { faucet } = ledger
  const transaction = new Transaction({ feePayer: faucet.publicKey, ...Ledger.latestBlockhash(ledger) })
  transaction.add(SystemProgram.transfer({ fromPubkey: faucet.publicKey, toPubkey: new PublicKey(address), lamports }))
  transaction.sign(faucet)
  return send(ledger, Wire.decode(transaction.serialize()), { skipPreflight: false })
}
