/**
 * The checks bitcoind runs before it accepts a transaction, the ones a payment wallet can trip: the
 * transaction decodes, its outputs are standard and not dust, each input spends an unspent output once,
 * value in covers value out plus the minimum relay fee, and each P2WPKH input's witness holds the key
 * the output pays and a low-S DER signature that verifies over the BIP143 digest. Rejections carry
 * bitcoind's reject reasons (validation.cpp, script_error.cpp) and RPC codes, as Esplora passes them on.
 * Limits: P2WPKH inputs only (P2TR would need schnorr over preimageWitnessV1), no scripts, no locktimes.
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import { hex } from '@scure/base'
import { OutScript, RawTx, SigHash, Transaction, p2wpkh } from '@scure/btc-signer'

/** All the bitcoin there will ever be, in satoshis (bitcoind's MAX_MONEY). */
export const maxMoney = 2_100_000_000_000_000n
/** The largest transaction accepted, in bytes (bitcoind's standard weight limit is 400,000 WU). */
export const maxTxBytes = 100_000
/** bitcoind's default minimum relay fee: 1 sat/vB. */
export const minRelayFeeRate = 1

/** An output the chain knows: what an input spends. */
export type Spendable = { readonly value: bigint; readonly script: Uint8Array }

/** A refusal, as bitcoind's sendrawtransaction reports it and Esplora answers it (HTTP 400). */
export class Rejection extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`sendrawtransaction RPC error: ${JSON.stringify({ code, message: reason })}`)
  }
}
const RPC_VERIFY_ERROR = -25
const RPC_VERIFY_REJECTED = -26
const RPC_DESERIALIZATION_ERROR = -22
const RPC_VERIFY_ALREADY_IN_CHAIN = -27
const rejected = (reason: string) => new Rejection(RPC_VERIFY_REJECTED, reason)
const scriptFailed = (why: string) => rejected(`mandatory-script-verify-flag-failed (${why})`)

/** What an accepted transaction spends and pays. */
export type Checked = { tx: Transaction; raw: Uint8Array; spent: Spendable[]; fee: bigint; weight: number }

/** What check asks of the chain. */
export type Lookup = {
  /** The unspent output at this outpoint, or undefined if it is missing or spent. */
  unspent(txid: string, vout: number): Spendable | undefined
  /** Whether the chain holds this transaction already. */
  known(txid: string): boolean
}

/**
 * Checks a raw transaction against the chain, in bitcoind's order. Throws a Rejection; changes nothing,
 * so the caller applies it only once everything passed.
 */
export function check(rawHex: string, chain: Lookup): Checked {
  const raw = decodeHex(rawHex)
  const tx = decodeTx(raw)
  checkShape(tx)
  // A wallet re-broadcasting a mined transaction hears this, not that its inputs are spent.
  if (chain.known(tx.id)) throw new Rejection(RPC_VERIFY_ALREADY_IN_CHAIN, 'Transaction outputs already in utxo set')
  const spent = inputs(tx, chain.unspent)
  const valueIn = spent.reduce((sum, output) => sum + output.value, 0n)
  const valueOut = outputsTotal(tx)
  if (valueIn < valueOut) throw rejected(`bad-txns-in-belowout, value in (${btc(valueIn)}) < value out (${btc(valueOut)})`)
  const fee = valueIn - valueOut
  const weight = weightOf(raw)
  const minFee = BigInt(Math.ceil(Math.ceil(weight / 4) * minRelayFeeRate))
  if (fee < minFee) throw rejected(`min relay fee not met, ${fee} < ${minFee}`)
  spent.forEach((output, index) => verifyInput(tx, index, output))
  return { tx, raw, spent, fee, weight }
}

/**
 * BIP141 weight: the size without witnesses × 3 plus the full size. From the bytes, as btc-signer's
 * `weight` throws on an input with neither scriptSig nor witness, which this must refuse, not crash on.
 */
export function weightOf(raw: Uint8Array): number {
  const stripped = RawTx.encode({ ...RawTx.decode(raw), segwitFlag: false, witnesses: [] })
  return stripped.length * 3 + raw.length
}

function decodeHex(rawHex: string): Uint8Array {
  if (rawHex.length > 2 * maxTxBytes) throw rejected('tx-size')
  if (!/^([0-9a-f]{2})+$/i.test(rawHex)) throw new Rejection(RPC_DESERIALIZATION_ERROR, 'TX decode failed')
  return hex.decode(rawHex.toLowerCase())
}

function decodeTx(raw: Uint8Array): Transaction {
  try {
    // Unknown scripts parse, so that they are refused below with bitcoind's own reasons.
    return Transaction.fromRaw(raw, { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true })
  } catch {
    throw new Rejection(RPC_DESERIALIZATION_ERROR, 'TX decode failed')
  }
}

/** CheckTransaction and IsStandardTx: inputs and outputs present, amounts in range, standard outputs, no dust. */
function checkShape(tx: Transaction) {
  if (tx.inputsLength === 0) throw rejected('bad-txns-vin-empty')
  if (tx.outputsLength === 0) throw rejected('bad-txns-vout-empty')
  const seen = new Set<string>()
  for (let i = 0; i < tx.inputsLength; i++) {
    const { txid, index } = tx.getInput(i)
    const outpoint = `${hex.encode(txid ?? new Uint8Array())}:${index}`
    if (seen.has(outpoint)) throw rejected('bad-txns-inputs-duplicate')
    seen.add(outpoint)
    if (index === 0xffffffff && txid?.every((b) => b === 0)) throw rejected('coinbase')
  }
  for (let i = 0; i < tx.outputsLength; i++) {
    const { amount = 0n, script = new Uint8Array() } = tx.getOutput(i)
    if (amount > maxMoney) throw rejected('bad-txns-vout-toolarge')
    const dust = dustThreshold(script)
    if (dust === undefined) throw rejected('scriptpubkey')
    if (amount < dust) throw rejected('dust')
  }
  if (outputsTotal(tx) > maxMoney) throw rejected('bad-txns-txouttotal-toolarge')
}

/**
 * bitcoind's dust threshold at its 3 sat/vB dust relay fee, per standard output type; an OP_RETURN of
 * up to 83 bytes may carry nothing. Undefined: not a standard output.
 */
export function dustThreshold(script: Uint8Array): bigint | undefined {
  if (script[0] === 0x6a) return script.length <= 83 ? 0n : undefined
  const type = outputType(script)
  const thresholds: Record<string, bigint> = { pkh: 546n, sh: 540n, wpkh: 294n, wsh: 330n, tr: 330n }
  return type === undefined ? undefined : thresholds[type]
}

/** pkh, sh, wpkh, wsh, tr, or undefined for anything else. */
export function outputType(script: Uint8Array): string | undefined {
  const type = decodeScript(script)?.type
  return type !== undefined && ['pkh', 'sh', 'wpkh', 'wsh', 'tr'].includes(type) ? type : undefined
}

function decodeScript(script: Uint8Array) {
  try {
    return OutScript.decode(script)
  } catch {
    return undefined
  }
}

function outputsTotal(tx: Transaction): bigint {
  let total = 0n
  for (let i = 0; i < tx.outputsLength; i++) total += tx.getOutput(i).amount ?? 0n
  return total
}

function inputs(tx: Transaction, unspent: (txid: string, vout: number) => Spendable | undefined): Spendable[] {
  return Array.from({ length: tx.inputsLength }, (_, i) => {
    const { txid, index } = tx.getInput(i)
    const output = txid && index !== undefined ? unspent(hex.encode(txid), index) : undefined
    if (!output) throw new Rejection(RPC_VERIFY_ERROR, 'bad-txns-inputs-missingorspent')
    return output
  })
}

// SIGHASH_ALL, NONE and SINGLE, each with or without ANYONECANPAY: the types BIP143 defines.
const sighashTypes = new Set<number>([SigHash.ALL, SigHash.NONE, SigHash.SINGLE, SigHash.ALL_ANYONECANPAY, SigHash.NONE_ANYONECANPAY, SigHash.SINGLE_ANYONECANPAY])

/** Input `index` spends a P2WPKH output with the key it pays to and a valid signature (BIP141, BIP143). */
function verifyInput(tx: Transaction, index: number, spent: Spendable) {
  const program = decodeScript(spent.script)
  if (program?.type !== 'wpkh') throw scriptFailed('the devnet stand-in verifies P2WPKH inputs only')
  const input = tx.getInput(index)
  if (input.finalScriptSig && input.finalScriptSig.length > 0) throw scriptFailed('Witness requires empty scriptSig')
  const witness = input.finalScriptWitness ?? []
  if (witness.length === 0) throw scriptFailed('Witness program was passed an empty witness')
  const [signature, publicKey] = witness
  if (witness.length !== 2 || !signature || !publicKey) throw scriptFailed('Witness program hash mismatch')
  if (publicKey.length !== 33 || (publicKey[0] !== 2 && publicKey[0] !== 3)) throw scriptFailed('Using non-compressed keys in segwit')
  if (!equal(witnessProgram(publicKey), spent.script)) throw scriptFailed('Witness program hash mismatch')
  const hashType = signature[signature.length - 1] ?? 0
  if (!sighashTypes.has(hashType)) throw scriptFailed('Signature hash type missing or not understood')
  let parsed: ReturnType<typeof secp256k1.Signature.fromDER>
  try {
    parsed = secp256k1.Signature.fromDER(signature.subarray(0, -1))
  } catch {
    throw scriptFailed('Non-canonical DER signature')
  }
  if (parsed.hasHighS()) throw scriptFailed('Non-canonical signature: S value is unnecessarily high')
  // BIP143: the script code of a P2WPKH spend is the P2PKH script of its key hash.
  const scriptCode = OutScript.encode({ type: 'pkh', hash: program.hash })
  const digest = tx.preimageWitnessV0(index, scriptCode, hashType, spent.value)
  if (!verifies(parsed, digest, publicKey)) throw scriptFailed('Script evaluated without error but finished with a false/empty top stack element')
}

/** The P2WPKH script of a key (empty for bytes that are not a point: they pay to no output). */
function witnessProgram(publicKey: Uint8Array): Uint8Array {
  try {
    return p2wpkh(publicKey).script
  } catch {
    return new Uint8Array()
  }
}

/** A key that is not a point fails the signature check, as in bitcoind, rather than throwing. */
function verifies(signature: ReturnType<typeof secp256k1.Signature.fromDER>, digest: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(signature, digest, publicKey, { lowS: true })
  } catch {
    return false
  }
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

/** Satoshis as bitcoind's FormatMoney writes them: BTC with 8 decimals. */
const btc = (sats: bigint) => `${sats / 100_000_000n}.${(sats % 100_000_000n).toString().padStart(8, '0')}`
