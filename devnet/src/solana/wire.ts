/**
 * Transactions as they cross the wire: base58 or base64 text → bytes → web3.js's parsed message, and
 * the `{ messageBytes, signatures }` shape litesvm takes (@solana/kit's Transaction, built here without
 * kit). `import * as Wire from './wire.js'`.
 */
import { base58, base64 } from '@scure/base'
import { PACKET_DATA_SIZE, VersionedTransaction, type VersionedMessage } from '@solana/web3.js'
import type { LiteSVM } from 'litesvm'
import { invalidParams } from './errors.js'

/** What litesvm's sendTransaction takes: kit's branded Transaction type. */
export type SvmTransaction = Parameters<LiteSVM['sendTransaction']>[0]

export type Decoded = {
  /** The first signature, base58: the transaction's id. */
  signature: string
  signatures: string[]
  message: VersionedMessage
  version: 'legacy' | 0
  bytes: Uint8Array
  svm: SvmTransaction
}

export type Encoding = 'base58' | 'base64'

/** Text in `encoding` as bytes; a message that names the parameter when it is not. */
export function bytes(text: string, encoding: Encoding, what: string): Uint8Array {
  try {
    return encoding === 'base64' ? base64.decode(text) : base58.decode(text)
  } catch {
    throw invalidParams(`${what} is not ${encoding}`)
  }
}

/** A signed (or partly signed) transaction's bytes, checked as a node checks them before anything runs. */
export function decode(raw: Uint8Array): Decoded {
  // agave refuses these before decoding, with the same limit (solana_packet::PACKET_DATA_SIZE)
  if (raw.length > PACKET_DATA_SIZE) throw invalidParams(`transaction too large: ${raw.length} bytes (max: ${PACKET_DATA_SIZE})`)
  let transaction: VersionedTransaction
  try {
    transaction = VersionedTransaction.deserialize(raw)
  } catch (error) {
    throw invalidParams(`failed to deserialize the transaction: ${(error as Error).message}`)
  }
  const { message, signatures } = transaction
  const signers = message.staticAccountKeys.slice(0, message.header.numRequiredSignatures).map((key) => key.toBase58())
  if (signatures.length !== signers.length || new Set(signers).size !== signers.length || !signatures.length)
    throw invalidParams(`the transaction has ${signatures.length} signatures for ${message.header.numRequiredSignatures} signers`)
  // The message's own bytes, as signed: whatever follows the signatures (a compact-u16 count, then 64 bytes each).
  const messageBytes = raw.slice(shortVecLength(signatures.length) + 64 * signatures.length)
  const svm = { messageBytes, signatures: Object.fromEntries(signers.map((signer, i) => [signer, signatures[i]!])) } as unknown as SvmTransaction
  return { signature: base58.encode(signatures[0]!), signatures: signatures.map((s) => base58.encode(s)), message, version: transaction.version, bytes: raw, svm }
}

const shortVecLength = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : 3)
