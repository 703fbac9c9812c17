/**
 * A landed transaction in getTransaction's encodings: `json` (compiled instructions, base58 data),
 * `jsonParsed` (account keys with their roles, known instructions parsed) and `base64`/`base58` (the
 * wire bytes). `import * as Transactions from './transactions.js'`.
 */
import { base58, base64 } from '@scure/base'
import { codes, RpcError } from './errors.js'
import * as Instructions from './instructions.js'
import type * as Ledger from './ledger.js'

export type Encoding = 'json' | 'jsonParsed' | 'base64' | 'base58'
export const encodings: readonly Encoding[] = ['json', 'jsonParsed', 'base64', 'base58']

/** getTransaction's result for `record`; `maxVersion` is the client's maxSupportedTransactionVersion. */
export function format(record: Ledger.Record, encoding: Encoding, maxVersion: number | undefined) {
  const { version } = record.transaction
  // A client that names no version gets legacy transactions only, as from a node.
  if (version !== 'legacy' && (maxVersion === undefined || version > maxVersion))
    throw new RpcError(
      codes.unsupportedTransactionVersion,
      `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
    )
  const parsed = encoding === 'jsonParsed'
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    transaction: transaction(record, encoding),
    meta: meta(record, parsed),
    ...(maxVersion === undefined ? {} : { version }),
  }
}

function transaction(record: Ledger.Record, encoding: Encoding) {
  const { bytes, signatures, message } = record.transaction
  if (encoding === 'base64') return [base64.encode(bytes), 'base64']
  if (encoding === 'base58') return [base58.encode(bytes), 'base58']
  const lookups =
    record.transaction.version === 'legacy'
      ? {}
      : { addressTableLookups: message.addressTableLookups.map((l) => ({ accountKey: l.accountKey.toBase58(), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })) }
  const common = { recentBlockhash: message.recentBlockhash, ...lookups }
  if (encoding === 'jsonParsed') {
    const instructions = message.compiledInstructions.map((ix) => parsedInstruction(record, ix.programIdIndex, ix.accountKeyIndexes, ix.data, null))
    return { signatures, message: { accountKeys: parsedKeys(record), instructions, ...common } }
  }
  const instructions = message.compiledInstructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accountKeyIndexes, data: base58.encode(ix.data), stackHeight: null }))
  return { signatures, message: { accountKeys: message.staticAccountKeys.map((key) => key.toBase58()), header: message.header, instructions, ...common } }
}

function parsedKeys(record: Ledger.Record) {
  const { message } = record.transaction
  const statics = message.staticAccountKeys.length
  const { writable } = record.loadedAddresses
  return record.accountKeys.map((pubkey, i) => ({
    pubkey,
    signer: i < message.header.numRequiredSignatures,
    writable: i < statics ? message.isAccountWritable(i) : i < statics + writable.length,
    source: i < statics ? 'transaction' : 'lookupTable',
  }))
}

function parsedInstruction(record: Ledger.Record, programIdIndex: number, accounts: readonly number[], data: Uint8Array, stackHeight: number | null) {
  const key = (i: number) => record.accountKeys[i] ?? ''
  return Instructions.parse(key(programIdIndex), accounts.map(key), data, stackHeight)
}

function meta(record: Ledger.Record, parsed: boolean) {
  const { meta } = record
  const innerInstructions = meta.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      parsed
        ? parsedInstruction(record, ix.programIdIndex, ix.accounts, ix.data, ix.stackHeight)
        : { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: base58.encode(ix.data), stackHeight: ix.stackHeight },
    ),
  }))
  return {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: meta.fee,
    preBalances: meta.preBalances,
    postBalances: meta.postBalances,
    innerInstructions,
    logMessages: meta.logMessages,
    preTokenBalances: meta.preTokenBalances,
    postTokenBalances: meta.postTokenBalances,
    rewards: [],
    ...(parsed ? {} : { loadedAddresses: record.loadedAddresses }),
    computeUnitsConsumed: meta.computeUnitsConsumed,
  }
}
