import { ed25519 } from '@noble/curves/ed25519'
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import * as SolanaTransaction from './SolanaTransaction.js'

// Fixtures come from web3.js (tests only: the secure-site reads the bytes itself).
const payer = Keypair.fromSeed(new Uint8Array(32).fill(7))
const to = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey
const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58()
const instructions = [
  ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
  SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_500_000_000 }),
]

function legacy(): Uint8Array {
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(...instructions)
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false })
}

function v0(): Uint8Array {
  const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message()
  return new VersionedTransaction(message).serialize()
}

describe('parse', () => {
  test.each([
    ['legacy', legacy, 'legacy'],
    ['v0 without lookups', v0, 0],
  ] as const)('behavior: a %s transaction: header, accounts, blockhash and instructions as web3.js made them', (_, make, version) => {
    const wire = make()
    const parsed = SolanaTransaction.parse(wire)
    expect(parsed.message.version).toBe(version)
    expect(parsed.signatures).toHaveLength(1)
    expect(parsed.message.header).toEqual({ requiredSignatures: 1, readonlySigned: 0, readonlyUnsigned: 2 })
    expect(parsed.message.accountKeys[0]).toBe(payer.publicKey.toBase58())
    expect(parsed.message.recentBlockhash).toBe(blockhash)
    expect(parsed.message.instructions.map((i) => i.programId)).toEqual([ComputeBudgetProgram.programId.toBase58(), SystemProgram.programId.toBase58()])
    expect(parsed.message.instructions[1]!.accounts).toEqual([payer.publicKey.toBase58(), to.toBase58()])
    expect([...parsed.message.instructions[1]!.data]).toEqual([...instructions[1]!.data])
    expect([...parsed.messageBytes]).toEqual([...VersionedTransaction.deserialize(wire).message.serialize()])
  })

  test('behavior: withSignature puts the signature in slot 0 of the same message: web3.js reads it and it verifies', () => {
    for (const wire of [legacy(), v0()]) {
      const parsed = SolanaTransaction.parse(wire)
      const signature = ed25519.sign(parsed.messageBytes, payer.secretKey.slice(0, 32))
      const signed = VersionedTransaction.deserialize(SolanaTransaction.withSignature(parsed, signature))
      expect([...signed.signatures[0]!]).toEqual([...signature])
      expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), payer.publicKey.toBytes())).toBe(true)
    }
    // A legacy one reads as web3.js's legacy Transaction too, with its signature checked.
    const parsed = SolanaTransaction.parse(legacy())
    const signed = Transaction.from(SolanaTransaction.withSignature(parsed, ed25519.sign(parsed.messageBytes, payer.secretKey.slice(0, 32))))
    expect(signed.verifySignatures()).toBe(true)
    expect(signed.feePayer?.toBase58()).toBe(payer.publicKey.toBase58())
  })

  test('behavior: compact-u16 round-trips at its byte boundaries', () => {
    expect([...SolanaTransaction.compactU16(0)]).toEqual([0])
    expect([...SolanaTransaction.compactU16(127)]).toEqual([0x7f])
    expect([...SolanaTransaction.compactU16(128)]).toEqual([0x80, 0x01])
    expect([...SolanaTransaction.compactU16(0xffff)]).toEqual([0xff, 0xff, 0x03])
  })

  const cut = (bytes: Uint8Array, end: number) => bytes.slice(0, end)
  const join = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => [...p]))
  test.each([
    ['empty bytes', () => new Uint8Array(), /end before/],
    ['a cut signature', () => cut(legacy(), 30), /inside a signature/],
    ['a cut message', () => cut(legacy(), legacy().length - 1), /end inside/],
    ['a byte after the message', () => join(legacy(), [0]), /bytes follow the message/],
    ['two signature slots for one signer', () => join([2], new Uint8Array(64), legacy().slice(1)), /2 signature slots for 1 required signers/],
    ['a non-canonical compact-u16 (0x81 0x00)', () => join([0x81, 0x00], legacy().slice(1)), /canonical/],
    ['a message version 1', () => { const w = v0(); w[65] = 0x81; return w }, /version 1 is not supported/],
    ['a header with no signer', () => { const w = legacy(); w[65] = 0; return w }, /no signer/],
    ['over 1232 bytes', () => new Uint8Array(1233), /over 1232 bytes/],
  ])('error: %s is refused', (_, make, message) => {
    expect(() => SolanaTransaction.parse(make())).toThrow(SolanaTransaction.ParseError)
    expect(() => SolanaTransaction.parse(make())).toThrow(message)
  })

  test('error: a v0 message with address lookup tables is refused: Doorway never builds them', () => {
    const wire = v0()
    // The last byte is the lookup count (0): one table with no indexes.
    const withTable = join(wire.slice(0, -1), [1], new Uint8Array(32).fill(3), [0], [0])
    expect(() => SolanaTransaction.parse(withTable)).toThrow(/address lookup tables/)
  })

  test('error: an instruction naming an account the message does not have is refused', () => {
    const wire = legacy()
    const parsed = SolanaTransaction.parse(wire)
    // The transfer's program index is the byte after the compute budget instruction's data.
    const keys = parsed.message.accountKeys.length
    // The transfer is last: program index, account count, 2 account indexes, data length, 12 data bytes.
    const at = wire.length - (1 + 1 + 2 + 1 + 12)
    expect(parsed.message.accountKeys[wire[at]!]).toBe(SystemProgram.programId.toBase58())
    wire[at] = keys
    expect(() => SolanaTransaction.parse(wire)).toThrow(/names account/)
  })

  test('error: a message naming the same account twice is refused', () => {
    const wire = legacy()
    const keys = 65 + 3 + 1 // signatures, header, key count
    wire.set(wire.slice(keys, keys + 32), keys + 32)
    expect(() => SolanaTransaction.parse(wire)).toThrow(/names an account twice/)
  })
})
