/**
 * The byte formats a Solana transaction crosses in: base64 for RPC and WalletConnect transactions, base58
 * for addresses and signatures (notes/namespaces.md §3: `solana_signTransaction {transaction: base64}` →
 * `{signature: base58, transaction?: base64}`). Wallet Standard passes the bytes themselves.
 */
import { PublicKey, Transaction } from '@solana/web3.js'
import * as S from '@doorway/shared/Schema'
import { solanaText } from '@doorway/shared/texts/solana'
import { WalletAnswerError } from './SolanaErrors.js'

export const signatureLength = 64

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // In slices: String.fromCharCode takes its bytes as arguments, and a transaction has up to 1232.
  for (let i = 0; i < bytes.length; i += 0x2000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x2000))
  return btoa(binary)
}

/** Throws a TypeError on text that is not base64. */
export function fromBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new TypeError('Expected base64 text')
  const binary = atob(text)
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

export function toBase58(bytes: Uint8Array): string {
  const digits: number[] = []
  for (const byte of bytes) {
    let carry = byte
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8
      digits[i] = carry % 58
      carry = Math.floor(carry / 58)
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58)
  }
  // Each leading zero byte is a leading '1'.
  let zeros = ''
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) zeros += '1'
  return zeros + digits.reverse().map((d) => alphabet[d]).join('')
}

/** Throws a TypeError on text that is not base58. */
export function fromBase58(text: string): Uint8Array {
  const bytes: number[] = []
  for (const char of text) {
    let carry = alphabet.indexOf(char)
    if (carry < 0) throw new TypeError('Expected base58 text')
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58
      bytes[i] = carry & 0xff
      carry >>= 8
    }
    for (; carry > 0; carry >>= 8) bytes.push(carry & 0xff)
  }
  let zeros = 0
  while (text[zeros] === '1') zeros++
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()])
}

/** A transaction signature (its id) from base58; a WalletAnswerError unless it is 64 bytes. */
export function signatureFromBase58(text: unknown): Uint8Array {
  try {
    const bytes = fromBase58(typeof text === 'string' && text.length <= 88 ? text : '!')
    if (bytes.length === signatureLength) return bytes
  } catch (cause) {
    throw new WalletAnswerError(undefined, cause)
  }
  throw new WalletAnswerError()
}

/**
 * The id of a signed transaction: its first signature (the fee payer's), base58. Reads the wire format
 * (a compact-u16 count, then 64-byte signatures); an unsigned slot (all zeros) is not an id.
 */
export function signatureOf(bytes: Uint8Array): string {
  const { count, offset } = compactU16(bytes)
  const first = bytes.subarray(offset, offset + signatureLength)
  if (count < 1 || first.length !== signatureLength || first.every((b) => b === 0)) throw new WalletAnswerError()
  return toBase58(first)
}

function compactU16(bytes: Uint8Array): { count: number; offset: number } {
  let count = 0
  for (let i = 0; i < 3 && i < bytes.length; i++) {
    count |= (bytes[i]! & 0x7f) << (7 * i)
    if ((bytes[i]! & 0x80) === 0) return { count, offset: i + 1 }
  }
  throw new WalletAnswerError()
}

const walletConnectResult = S.object({
  signature: S.string({ min: 64, max: 88 }),
  transaction: S.optional(S.string({ max: 2048 })),
})

/**
 * The signed transaction from a WalletConnect `solana_signTransaction` answer. Wallets answer either the
 * whole signed transaction, or only the signature, which then goes into the fee payer's slot of the
 * transaction the frame asked it to sign (`unsigned`). Either way the signature must verify: a wallet's
 * wrong answer fails here with a clear error, not at the node.
 */
export function signedFromWalletConnect(result: unknown, unsigned: Uint8Array): Uint8Array {
  if (!walletConnectResult(result)) throw new WalletAnswerError()
  const signature = signatureFromBase58(result.signature)
  let transaction: Transaction
  try {
    if (result.transaction !== undefined) transaction = Transaction.from(fromBase64(result.transaction))
    else {
      transaction = Transaction.from(unsigned)
      // web3.js copies the bytes into its own Buffer; the global Buffer does not exist in a browser.
      transaction.addSignature(feePayerOf(transaction), signature as Parameters<Transaction['addSignature']>[1])
    }
  } catch (cause) {
    throw new WalletAnswerError(undefined, cause)
  }
  const signed = serializeSigned(transaction)
  if (toBase58(signature) !== signatureOf(signed)) throw new WalletAnswerError(solanaText.badSignature)
  return signed
}

function feePayerOf(transaction: Transaction): PublicKey {
  const payer = transaction.feePayer ?? transaction.signatures[0]?.publicKey
  if (!payer) throw new WalletAnswerError()
  return payer
}

/** The wire bytes of a transaction every signature of which verifies (web3.js checks them as it serialises). */
function serializeSigned(transaction: Transaction): Uint8Array {
  try {
    return new Uint8Array(transaction.serialize({ requireAllSignatures: true, verifySignatures: true }))
  } catch (cause) {
    throw new WalletAnswerError(solanaText.badSignature, cause)
  }
}
