/**
 * The Solana wire format, read by the secure-site itself (no @solana/web3.js on this origin): a
 * transaction is its signatures then its message, legacy or v0. The frame is not trusted, so the bytes
 * are read strictly: every length in range, canonical compact-u16s, no byte left over, and v0
 * address-table lookups refused (Doorway never builds them, and the accounts they load cannot be shown
 * without chain access). `import * as SolanaTransaction from './SolanaTransaction.js'`.
 */
import { base58 } from '@scure/base'

/** Solana's packet limit: no transaction is larger. */
export const maxBytes = 1232

export const signatureBytes = 64

export type Header = {
  /** The first `requiredSignatures` accounts sign; the first of them pays the fee. */
  requiredSignatures: number
  readonlySigned: number
  readonlyUnsigned: number
}

export type Instruction = {
  /** base58 */
  programId: string
  /** base58, in the instruction's order. */
  accounts: readonly string[]
  data: Uint8Array
}

export type Message = {
  version: 'legacy' | 0
  header: Header
  /** base58; the first is the fee payer. */
  accountKeys: readonly string[]
  recentBlockhash: string
  instructions: readonly Instruction[]
}

export type Transaction = {
  signatures: readonly Uint8Array[]
  message: Message
  /** Exactly the message bytes read: what is signed. */
  messageBytes: Uint8Array
}

/** Bytes that are not a transaction (or message) Doorway signs. */
export class ParseError extends Error {
  override readonly name: string = 'ParseError'
}

/** A wire transaction: compact-u16 signature count, the signatures, the message. */
export function parse(wire: Uint8Array): Transaction {
  if (wire.length > maxBytes) throw new ParseError(`the transaction is over ${maxBytes} bytes`)
  const reader = new Reader(wire)
  const count = reader.compactU16('the signature count')
  const signatures = Array.from({ length: count }, () => reader.bytes(signatureBytes, 'a signature'))
  const messageBytes = wire.slice(reader.offset)
  const message = parseMessage(messageBytes)
  if (count !== message.header.requiredSignatures)
    throw new ParseError(`the transaction has ${count} signature slots for ${message.header.requiredSignatures} required signers`)
  return { signatures, message, messageBytes }
}

/** A legacy or v0 message; throws ParseError. */
export function parseMessage(bytes: Uint8Array): Message {
  const reader = new Reader(bytes)
  const version = readVersion(reader)
  const header = readHeader(reader)
  const keyCount = reader.compactU16('the account count')
  const keys = Array.from({ length: keyCount }, () => reader.bytes(32, 'an account key'))
  const accountKeys = keys.map((key) => base58.encode(key))
  checkKeys(header, accountKeys)
  const recentBlockhash = base58.encode(reader.bytes(32, 'the recent blockhash'))
  const instructions = Array.from({ length: reader.compactU16('the instruction count') }, () => readInstruction(reader, accountKeys))
  if (version === 0 && reader.compactU16('the address table lookups') !== 0)
    throw new ParseError('the transaction loads accounts from address lookup tables, which this wallet does not sign')
  if (reader.offset !== bytes.length) throw new ParseError(`${bytes.length - reader.offset} bytes follow the message`)
  return { version, header, accountKeys, recentBlockhash, instructions }
}

/** The transaction as sent: the same message, with `signature` in slot 0 (the fee payer's). */
export function withSignature(transaction: Transaction, signature: Uint8Array): Uint8Array {
  if (signature.length !== signatureBytes) throw new ParseError('a signature is 64 bytes')
  const slots = compactU16(transaction.signatures.length)
  const wire = new Uint8Array(slots.length + transaction.signatures.length * signatureBytes + transaction.messageBytes.length)
  wire.set(slots)
  transaction.signatures.forEach((existing, i) => wire.set(i === 0 ? signature : existing, slots.length + i * signatureBytes))
  wire.set(transaction.messageBytes, slots.length + transaction.signatures.length * signatureBytes)
  return wire
}

/** Solana's short_vec: 7 bits a byte, low first, at most 3 bytes. */
export function compactU16(value: number): Uint8Array {
  const out: number[] = []
  let rest = value
  for (;;) {
    const low = rest & 0x7f
    rest >>= 7
    if (rest === 0) return Uint8Array.from([...out, low])
    out.push(low | 0x80)
  }
}

// A version prefix has its high bit set; a legacy message starts with its signer count instead.
function readVersion(reader: Reader): 'legacy' | 0 {
  const first = reader.peek('the message')
  if ((first & 0x80) === 0) return 'legacy'
  reader.u8('the version')
  const version = first & 0x7f
  if (version !== 0) throw new ParseError(`message version ${version} is not supported`)
  return 0
}

function readHeader(reader: Reader): Header {
  const header = { requiredSignatures: reader.u8('the header'), readonlySigned: reader.u8('the header'), readonlyUnsigned: reader.u8('the header') }
  if (header.requiredSignatures === 0) throw new ParseError('the message has no signer')
  // The fee payer is the first signer and must be writable.
  if (header.readonlySigned >= header.requiredSignatures) throw new ParseError('the message has no writable signer to pay the fee')
  return header
}

// The runtime refuses a message that names an account twice or has fewer accounts than its header says.
function checkKeys(header: Header, keys: readonly string[]) {
  if (header.requiredSignatures + header.readonlyUnsigned > keys.length) throw new ParseError('the header counts more accounts than the message has')
  if (new Set(keys).size !== keys.length) throw new ParseError('the message names an account twice')
}

function readInstruction(reader: Reader, keys: readonly string[]): Instruction {
  const key = (index: number) => {
    if (index >= keys.length) throw new ParseError(`an instruction names account ${index} of ${keys.length}`)
    return keys[index]!
  }
  const program = reader.u8('an instruction')
  // The fee payer cannot be a program: the runtime refuses it.
  if (program === 0) throw new ParseError('an instruction calls the fee payer as a program')
  const programId = key(program)
  const accounts = Array.from({ length: reader.compactU16('an instruction\'s account count') }, () => key(reader.u8('an instruction\'s accounts')))
  const data = reader.bytes(reader.compactU16('an instruction\'s data length'), 'an instruction\'s data')
  return { programId, accounts, data }
}

/** Reads forward through bytes; every read past the end is a ParseError naming what was cut. */
class Reader {
  offset = 0
  constructor(readonly source: Uint8Array) {}

  peek(what: string): number {
    if (this.offset >= this.source.length) throw new ParseError(`the bytes end before ${what}`)
    return this.source[this.offset]!
  }

  u8(what: string): number {
    const byte = this.peek(what)
    this.offset++
    return byte
  }

  bytes(length: number, what: string): Uint8Array {
    if (this.offset + length > this.source.length) throw new ParseError(`the bytes end inside ${what}`)
    const out = this.source.slice(this.offset, this.offset + length)
    this.offset += length
    return out
  }

  /** Canonical only, as the runtime reads it: no zero continuation byte, nothing over 0xffff. */
  compactU16(what: string): number {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what)
      if (i > 0 && byte === 0) throw new ParseError(`${what} is not a canonical compact-u16`)
      value |= (byte & 0x7f) << (7 * i)
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) throw new ParseError(`${what} is over 65535`)
        return value
      }
    }
    throw new ParseError(`${what} is longer than a compact-u16`)
  }
}
