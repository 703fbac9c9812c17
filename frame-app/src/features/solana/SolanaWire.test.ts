import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import { WalletAnswerError } from './SolanaErrors.js'
import * as SolanaWire from './SolanaWire.js'

const payer = Keypair.generate()
const blockhash = Keypair.generate().publicKey.toBase58()

/** An unsigned SOL transfer's wire bytes, as SolanaTransfer builds them. */
function unsigned(): Uint8Array {
  const transaction = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 10 })
  transaction.add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5n }))
  return new Uint8Array(transaction.serialize({ requireAllSignatures: false, verifySignatures: false }))
}

function signed(bytes: Uint8Array, keypair = payer): Transaction {
  const transaction = Transaction.from(bytes)
  transaction.sign(keypair)
  return transaction
}

describe('base58', () => {
  test.each([
    ['empty', new Uint8Array()],
    ['leading zeros', Uint8Array.from([0, 0, 1, 2, 255])],
    ['a key', Keypair.generate().publicKey.toBytes()],
    ['64 bytes', crypto.getRandomValues(new Uint8Array(64))],
  ])('behavior: round-trips %s', (_, bytes) => {
    expect(SolanaWire.fromBase58(SolanaWire.toBase58(bytes))).toEqual(bytes)
  })

  test('behavior: writes addresses as web3.js does', () => {
    const key = Keypair.generate().publicKey
    expect(SolanaWire.toBase58(key.toBytes())).toBe(key.toBase58())
    expect(SolanaWire.toBase58(new Uint8Array(32))).toBe(new PublicKey(new Uint8Array(32)).toBase58())
  })

  test('error: refuses characters outside the alphabet', () => {
    expect(() => SolanaWire.fromBase58('0OIl')).toThrowError(TypeError)
  })
})

describe('base64', () => {
  test('behavior: round-trips bytes, a whole transaction too', () => {
    const bytes = unsigned()
    expect(SolanaWire.toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
    expect(SolanaWire.fromBase64(SolanaWire.toBase64(bytes))).toEqual(bytes)
  })

  test.each(['abc', 'ab$=', 'a==='])('error: refuses %s', (text) => {
    expect(() => SolanaWire.fromBase64(text)).toThrowError(TypeError)
  })
})

describe('signatureOf', () => {
  test('behavior: is the fee payer signature, base58', () => {
    const transaction = signed(unsigned())
    expect(SolanaWire.signatureOf(transaction.serialize())).toBe(SolanaWire.toBase58(transaction.signature!))
  })

  test('error: an unsigned transaction has no id yet', () => {
    expect(() => SolanaWire.signatureOf(unsigned())).toThrowError(WalletAnswerError)
  })

  test('error: bytes too short to hold a signature', () => {
    expect(() => SolanaWire.signatureOf(Uint8Array.from([1, 2, 3]))).toThrowError(WalletAnswerError)
  })
})

describe('signatureFromBase58', () => {
  test('behavior: decodes a 64-byte signature', () => {
    const signature = signed(unsigned()).signature!
    expect(SolanaWire.signatureFromBase58(SolanaWire.toBase58(signature))).toEqual(new Uint8Array(signature))
  })

  test.each([[payer.publicKey.toBase58()], ['not base58 0OIl'], [42]])('error: refuses %s', (value) => {
    expect(() => SolanaWire.signatureFromBase58(value)).toThrowError(WalletAnswerError)
  })
})

describe('signedFromWalletConnect', () => {
  test('behavior: puts a bare signature into the fee payer slot', () => {
    const bytes = unsigned()
    const expected = signed(bytes)
    const result = { signature: SolanaWire.toBase58(expected.signature!) }
    expect(SolanaWire.signedFromWalletConnect(result, bytes)).toEqual(new Uint8Array(expected.serialize()))
  })

  test('behavior: takes the whole signed transaction when the wallet sends it', () => {
    const bytes = unsigned()
    const expected = signed(bytes)
    const result = { signature: SolanaWire.toBase58(expected.signature!), transaction: expected.serialize().toString('base64') }
    expect(SolanaWire.signedFromWalletConnect(result, bytes)).toEqual(new Uint8Array(expected.serialize()))
  })

  test('error: a signature by another key does not verify', () => {
    const bytes = unsigned()
    // The same message signed by a key that is not the fee payer's.
    const other = Keypair.generate()
    const message = Transaction.from(bytes)
    message.feePayer = other.publicKey
    const result = { signature: SolanaWire.toBase58(signed(message.serialize({ requireAllSignatures: false }), other).signature!) }
    expect(() => SolanaWire.signedFromWalletConnect(result, bytes)).toThrowError('The wallet returned a transaction whose signature does not match it.')
  })

  test('error: a transaction whose first signature is not the one named', () => {
    const bytes = unsigned()
    const expected = signed(bytes)
    const result = { signature: SolanaWire.toBase58(new Uint8Array(64).fill(7)), transaction: expected.serialize().toString('base64') }
    expect(() => SolanaWire.signedFromWalletConnect(result, bytes)).toThrowError(WalletAnswerError)
  })

  test.each([[null], ['sig'], [{ signature: 'x'.repeat(10) }], [{ signature: '1'.repeat(88), extra: 1 }], [{ signature: SolanaWire.toBase58(new Uint8Array(64).fill(1)), transaction: '%%%' }]])(
    'error: refuses the answer %j',
    (result) => {
      expect(() => SolanaWire.signedFromWalletConnect(result, unsigned())).toThrowError(WalletAnswerError)
    },
  )
})
