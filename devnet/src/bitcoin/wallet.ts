/**
 * What a Bitcoin payment wallet does against an Esplora server, for the devnet's test wallet (the
 * WalletConnect bip122 methods: sendTransfer, signPsbt, signMessage) and tests: pick coins, build and
 * sign a P2WPKH transaction, broadcast it, sign a PSBT's own inputs, sign a message. Every request
 * has a timeout and may be cancelled. Dev only, never shipped. `import * as BitcoinWallet from
 * './bitcoin/wallet.js'`.
 */
import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2'
import { base64, hex } from '@scure/base'
import { Address, SigHash, Transaction, p2pkh, p2sh, p2wpkh } from '@scure/btc-signer'
import * as Keys from './keys.js'

/** A coin to spend, as Esplora's GET /address/:address/utxo lists it (value in sats). */
export type Utxo = { txid: string; vout: number; value: bigint }

/** No change output below this (the P2PKH dust limit, the strictest common one): it goes to the fee. */
export const dustLimit = 546n

/** How long each request to Esplora may take. */
export const defaultTimeoutMs = 15_000

/** The confirmation target whose fee estimate a transfer pays when no rate is given. */
export const defaultTarget = '3'

/**
 * A P2WPKH transaction's virtual size: 10.5 vB of overhead (version, counts, locktime, segwit marker),
 * 68 per input (outpoint, sequence and a witness with a 72-byte signature), 31 per output.
 */
export const estimateVsize = (inputs: number, outputs: number) => 10.5 + 68 * inputs + 31 * outputs

/** The fee of that size at `feeRate` sat/vB, rounded up. */
export const feeFor = (inputs: number, outputs: number, feeRate: number) => BigInt(Math.ceil(estimateVsize(inputs, outputs) * feeRate))

/** The coins cannot pay the amount and its fee; `shortfall` sats more would. */
export class InsufficientFundsError extends Error {
  readonly code = 'InsufficientFunds'
  constructor(
    readonly shortfall: bigint,
    readonly available: bigint,
    readonly needed: bigint,
  ) {
    super(`Insufficient funds: ${shortfall} sats short (available ${available}, needed ${needed} including the fee)`)
  }
}

/**
 * Largest-first coin selection for a payment of `amount` plus change: takes the largest coins until they
 * pay the amount and the fee. A change output worth less than `dustLimit` is not made; its value joins
 * the fee instead (so `fee` may exceed the estimate). Throws InsufficientFundsError with the shortfall.
 */
export function selectUtxos(utxos: readonly Utxo[], amount: bigint, feeRate: number): { inputs: Utxo[]; change: bigint; fee: bigint } {
  if (amount < dustLimit) throw new RangeError(`The amount must be at least ${dustLimit} sats, not ${amount}`)
  if (!Number.isFinite(feeRate) || feeRate <= 0) throw new RangeError(`The fee rate must be a positive number of sat/vB, not ${feeRate}`)
  // Ties broken by outpoint, so the same coins give the same transaction.
  const sorted = [...utxos].sort((a, b) => (a.value === b.value ? `${a.txid}:${a.vout}`.localeCompare(`${b.txid}:${b.vout}`) : a.value > b.value ? -1 : 1))
  const inputs: Utxo[] = []
  let total = 0n
  for (const utxo of sorted) {
    if (utxo.value <= 0n) continue
    inputs.push(utxo)
    total += utxo.value
    const withChange = feeFor(inputs.length, 2, feeRate)
    if (total - amount - withChange >= dustLimit) return { inputs, change: total - amount - withChange, fee: withChange }
    if (total - amount >= feeFor(inputs.length, 1, feeRate)) return { inputs, change: 0n, fee: total - amount }
  }
  const needed = amount + feeFor(Math.max(inputs.length, 1), 1, feeRate)
  throw new InsufficientFundsError(needed - total, total, needed)
}

/** An Esplora server answered with an error (its text, e.g. bitcoind's reject reason) or an unexpected body. */
export class EsploraError extends Error {
  readonly code = 'Esplora'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

type RequestOptions = { timeoutMs?: number | undefined; signal?: AbortSignal | undefined }

async function request(url: string, init: RequestInit, { timeoutMs = defaultTimeoutMs, signal }: RequestOptions): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs)
  const res = await fetch(url, { ...init, signal: signal ? AbortSignal.any([timeout, signal]) : timeout })
  const text = await res.text()
  if (!res.ok) throw new EsploraError(res.status, `${init.method ?? 'GET'} ${new URL(url).pathname} failed (${res.status}): ${text.slice(0, 300)}`)
  return text
}

async function getJson<T>(url: string, guard: (value: unknown) => value is T, options: RequestOptions): Promise<T> {
  const text = await request(url, {}, options)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new EsploraError(502, `${new URL(url).pathname} did not answer JSON`)
  }
  if (!guard(value)) throw new EsploraError(502, `${new URL(url).pathname} answered an unexpected shape`)
  return value
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
const isTxid = (x: unknown): x is string => typeof x === 'string' && /^[0-9a-f]{64}$/.test(x)
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0

/** Esplora's utxo list, extra fields allowed (mempool.space adds some). */
const isUtxoList = (x: unknown): x is { txid: string; vout: number; value: number }[] =>
  Array.isArray(x) && x.length <= 10_000 && x.every((u) => isRecord(u) && isTxid(u.txid) && isCount(u.vout) && isCount(u.value))

const isFeeEstimates = (x: unknown): x is Record<string, number> =>
  isRecord(x) && Object.values(x).every((rate) => typeof rate === 'number' && Number.isFinite(rate) && rate > 0)

/** GET /address/:address/utxo, values as bigint. */
export async function utxos(esploraUrl: string, address: string, options: RequestOptions = {}): Promise<Utxo[]> {
  const list = await getJson(`${esploraUrl}/address/${encodeURIComponent(address)}/utxo`, isUtxoList, options)
  return list.map(({ txid, vout, value }) => ({ txid, vout, value: BigInt(value) }))
}

/** GET /fee-estimates at `defaultTarget` (else the nearest target listed), at least the 1 sat/vB relay minimum. */
export async function feeRate(esploraUrl: string, options: RequestOptions = {}): Promise<number> {
  const estimates = await getJson(`${esploraUrl}/fee-estimates`, isFeeEstimates, options)
  const targets = Object.keys(estimates).sort((a, b) => Math.abs(Number(a) - Number(defaultTarget)) - Math.abs(Number(b) - Number(defaultTarget)))
  return Math.max(1, estimates[targets[0] ?? ''] ?? 1)
}

/** POST /tx with the raw transaction's hex; the txid Esplora answers. */
export async function broadcast(esploraUrl: string, txHex: string, options: RequestOptions = {}): Promise<string> {
  const txid = (await request(`${esploraUrl}/tx`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: txHex }, options)).trim()
  if (!isTxid(txid)) throw new EsploraError(502, 'POST /tx did not answer a txid')
  return txid
}

/**
 * Pays `amount` sats to `to` from the key's coins (selectUtxos), change back to the key's address (or
 * `changeAddress`), signed SIGHASH_ALL and broadcast. The fee rate is Esplora's estimate unless given.
 */
export async function transfer(options: transfer.Options): Promise<{ txid: string; fee: bigint }> {
  const { esploraUrl, key, to, amount, changeAddress = key.address } = options
  for (const address of [to, changeAddress]) checkAddress(address)
  const [coins, rate] = await Promise.all([utxos(esploraUrl, key.address, options), options.feeRate ?? feeRate(esploraUrl, options)])
  const { inputs, change, fee } = selectUtxos(coins, amount, rate)
  const script = p2wpkh(key.publicKey, Keys.network).script
  const tx = new Transaction()
  for (const { txid, vout, value } of inputs) tx.addInput({ txid, index: vout, witnessUtxo: { script, amount: value } })
  tx.addOutputAddress(to, amount, Keys.network)
  if (change > 0n) tx.addOutputAddress(changeAddress, change, Keys.network)
  tx.sign(key.privateKey, [SigHash.ALL])
  tx.finalize()
  const txid = await broadcast(esploraUrl, tx.hex, options)
  if (txid !== tx.id) throw new EsploraError(502, `POST /tx answered ${txid} for ${tx.id}`)
  return { txid, fee }
}
export declare namespace transfer {
  type Options = RequestOptions & {
    /** No trailing slash. */
    esploraUrl: string
    key: Keys.PaymentKey
    /** A regtest address. */
    to: string
    /** Sats, at least `dustLimit`. */
    amount: bigint
    /** sat/vB; default: GET /fee-estimates at `defaultTarget`. */
    feeRate?: number
    /** Default: the key's own address. */
    changeAddress?: string
  }
}

function checkAddress(address: string) {
  try {
    Address(Keys.network).decode(address)
  } catch {
    throw new RangeError(`Not a regtest address: ${address}`)
  }
}

/** An input a dapp asks to be signed (WalletConnect bip122 signPsbt's signInputs). */
export type SignInput = { address: string; index: number; sighashTypes?: number[] }

/**
 * Signs the listed inputs of a base64 PSBT that are the key's: those naming its address, which must
 * spend its P2WPKH output. Inputs naming another address are left for their owner. Not finalized, so
 * other signers may add theirs; finalizePsbt finishes it.
 */
export function signPsbt(psbtBase64: string, key: Keys.PaymentKey, signInputs: readonly SignInput[]): string {
  const tx = decodePsbt(psbtBase64)
  const own = p2wpkh(key.publicKey, Keys.network).script
  for (const { address, index, sighashTypes = [SigHash.ALL] } of signInputs) {
    if (address !== key.address) continue
    if (!Number.isSafeInteger(index) || index < 0 || index >= tx.inputsLength) throw new RangeError(`The PSBT has no input ${index}`)
    const input = tx.getInput(index)
    // A PSBT names the spent output in witnessUtxo, or gives the whole previous transaction (BIP174).
    const previous = input.nonWitnessUtxo as { outputs: { script: Uint8Array }[] } | undefined
    const spent = input.witnessUtxo?.script ?? (input.index !== undefined ? previous?.outputs[input.index]?.script : undefined)
    if (!spent || hex.encode(spent) !== hex.encode(own)) throw new RangeError(`Input ${index} does not spend ${key.address}`)
    tx.signIdx(key.privateKey, index, sighashTypes)
  }
  return base64.encode(tx.toPSBT())
}

/** Finalizes every input of a fully signed base64 PSBT: the raw transaction's hex and txid. */
export function finalizePsbt(psbtBase64: string): { hex: string; txid: string } {
  const tx = decodePsbt(psbtBase64)
  tx.finalize()
  return { hex: tx.hex, txid: tx.id }
}

function decodePsbt(psbtBase64: string): Transaction {
  let bytes: Uint8Array
  try {
    bytes = base64.decode(psbtBase64)
  } catch {
    throw new RangeError('The PSBT is not valid base64')
  }
  try {
    return Transaction.fromPSBT(bytes)
  } catch (error) {
    throw new RangeError(`Not a valid PSBT: ${(error as Error).message}`, { cause: error })
  }
}

// BIP-137 (the "legacy" Bitcoin Signed Message, what WalletConnect's protocol "ecdsa" means).
const magic = new TextEncoder().encode('Bitcoin Signed Message:\n')

/** CompactSize length prefix (messages over 4 GB are not signed). */
function varint(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n)
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >> 8)
  return Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
}

/** sha256d(varint ‖ "Bitcoin Signed Message:\n" ‖ varint ‖ message): what BIP-137 signs. */
export function messageHash(message: string | Uint8Array): Uint8Array {
  const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message
  const parts = [varint(magic.length), magic, varint(bytes.length), bytes]
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((offset, p) => (data.set(p, offset), offset + p.length), 0)
  return sha256(sha256(data))
}

/**
 * Signs a message the BIP-137 way (ECDSA, compact and recoverable), not BIP-322: 65 bytes in base64,
 * the header 39 + recovery id marking a P2WPKH (bech32) address, as BIP-137 assigns.
 */
export function signMessage(message: string | Uint8Array, key: Keys.PaymentKey): string {
  const signature = secp256k1.sign(messageHash(message), key.privateKey)
  return base64.encode(Uint8Array.of(39 + signature.recovery, ...signature.toCompactRawBytes()))
}

/**
 * Whether a BIP-137 signature of `message` is by `address`'s key. Headers 27–30 mean an uncompressed
 * key (P2PKH); for 31–42 any of the compressed key's P2PKH, P2SH-P2WPKH or P2WPKH addresses is
 * accepted, as Electrum and most verifiers do (Electrum signs segwit addresses with 31–34).
 */
export function verifyMessage(message: string | Uint8Array, signature: string, address: string): boolean {
  try {
    const bytes = base64.decode(signature)
    const header = bytes[0] ?? 0
    if (bytes.length !== 65 || header < 27 || header > 42) return false
    const point = secp256k1.Signature.fromCompact(bytes.subarray(1))
      .addRecoveryBit((header - 27) % 4)
      .recoverPublicKey(messageHash(message))
    if (header < 31) return p2pkh(point.toRawBytes(false), Keys.network).address === address
    const publicKey = point.toRawBytes(true)
    const candidates = [p2pkh(publicKey, Keys.network), p2sh(p2wpkh(publicKey, Keys.network), Keys.network), p2wpkh(publicKey, Keys.network)]
    return candidates.some((payment) => payment.address === address)
  } catch {
    return false
  }
}
