/**
 * The regtest chain behind the Esplora stand-in (esplora.ts): an in-memory UTXO set where every
 * accepted transaction is mined at once into a block of its own, and the faucet mints outputs in a
 * coinbase-shaped transaction. It answers in Esplora's JSON shapes (Blockstream's esplora/electrs API
 * docs), so the frame reads it as it reads mempool.space. No mempool (mempool_stats stay zero), no
 * reorgs, no coinbase maturity. `import * as Chain from './chain.js'`.
 */
import { createHash } from 'node:crypto'
import { hex } from '@scure/base'
import { Address, OutScript, RawTx, Script, Transaction } from '@scure/btc-signer'
import * as Keys from './keys.js'
import * as Validation from './validation.js'

/** Regtest's genesis block: its hash (the CAIP-2 reference is its first 32 characters) and time. */
export const genesis = { hash: '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206', time: 1296688602 }

export type Status = { confirmed: true; block_height: number; block_hash: string; block_time: number }
export type Output = { scriptpubkey: string; scriptpubkey_asm: string; scriptpubkey_type: string; scriptpubkey_address?: string; value: number }
export type Input = {
  txid: string
  vout: number
  prevout: Output | null
  scriptsig: string
  scriptsig_asm: string
  witness?: string[]
  is_coinbase: boolean
  sequence: number
}
/** A transaction as Esplora's GET /tx/:txid answers it. */
export type Tx = { txid: string; version: number; locktime: number; vin: Input[]; vout: Output[]; size: number; weight: number; fee: number; status: Status }
export type Utxo = { txid: string; vout: number; status: Status; value: number }
export type Stats = { funded_txo_count: number; funded_txo_sum: number; spent_txo_count: number; spent_txo_sum: number; tx_count: number }
export type AddressInfo = { address: string; chain_stats: Stats; mempool_stats: Stats }
export type Outspend = { spent: false } | { spent: true; txid: string; vin: number; status: Status }

type Block = { height: number; hash: string; time: number }
type Coin = { txid: string; vout: number; value: bigint; script: Uint8Array; address: string | undefined; status: Status; spentBy?: { txid: string; vin: number; status: Status } }

export type Chain = {
  readonly blocks: Block[]
  readonly txs: Map<string, { json: Tx; hex: string }>
  /** Every output ever made, spent or not, by `txid:vout`. */
  readonly coins: Map<string, Coin>
  /** Each address's transactions, oldest first. */
  readonly history: Map<string, string[]>
}

export function create(): Chain {
  return { blocks: [{ height: 0, ...genesis }], txs: new Map(), coins: new Map(), history: new Map() }
}

export const tip = (chain: Chain): Block => chain.blocks[chain.blocks.length - 1]!

/** The output script of a regtest address; throws on anything else. */
export function scriptOf(address: string): Uint8Array {
  return OutScript.encode(Address(Keys.network).decode(address))
}

/** Mints `sats` to `address` in a coinbase-shaped transaction mined into a new block; its txid. */
export function faucet(chain: Chain, address: string, sats: bigint): string {
  const script = scriptOf(address)
  if (sats <= 0n || sats > Validation.maxMoney) throw new RangeError(`A faucet amount is 1 to ${Validation.maxMoney} sats, not ${sats}`)
  // BIP34: the coinbase script starts with the block height, which keeps every faucet txid unique.
  const height = tip(chain).height + 1
  const raw = RawTx.encode({
    version: 2,
    segwitFlag: false,
    inputs: [{ txid: new Uint8Array(32), index: 0xffffffff, finalScriptSig: Script.encode([scriptNum(height)]), sequence: 0xffffffff }],
    outputs: [{ amount: sats, script }],
    witnesses: [],
    lockTime: 0,
  })
  const tx = Transaction.fromRaw(raw, { allowUnknownInputs: true, allowUnknownOutputs: true, disableScriptCheck: true })
  mine(chain, tx, { raw, weight: Validation.weightOf(raw) }, [], 0n)
  return tx.id
}

/** Checks a raw transaction (Validation.check), then spends its inputs and mines it; its txid. */
export function submit(chain: Chain, rawHex: string): string {
  const { tx, raw, fee, weight } = Validation.check(rawHex, {
    unspent(txid, vout) {
      const coin = chain.coins.get(`${txid}:${vout}`)
      return coin && !coin.spentBy ? coin : undefined
    },
    known: (txid) => chain.txs.has(txid),
  })
  const spent = Array.from({ length: tx.inputsLength }, (_, i) => {
    const { txid, index } = tx.getInput(i)
    return chain.coins.get(`${hex.encode(txid!)}:${index}`)!
  })
  mine(chain, tx, { raw, weight }, spent, fee)
  return tx.id
}

function mine(chain: Chain, tx: Transaction, { raw, weight }: { raw: Uint8Array; weight: number }, spent: Coin[], fee: bigint) {
  const block = nextBlock(chain, tx.id)
  const status: Status = { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time }
  chain.blocks.push(block)
  spent.forEach((coin, vin) => (coin.spentBy = { txid: tx.id, vin, status }))
  const outputs = Array.from({ length: tx.outputsLength }, (_, vout) => {
    const { amount = 0n, script = new Uint8Array() } = tx.getOutput(vout)
    const coin: Coin = { txid: tx.id, vout, value: amount, script, address: addressOf(script), status }
    chain.coins.set(`${tx.id}:${vout}`, coin)
    return coin
  })
  const json: Tx = {
    txid: tx.id,
    version: tx.version,
    locktime: tx.lockTime,
    vin: Array.from({ length: tx.inputsLength }, (_, i) => input(tx, i, spent[i])),
    vout: outputs.map(output),
    size: raw.length,
    weight,
    fee: Number(fee),
    status,
  }
  chain.txs.set(tx.id, { json, hex: hex.encode(raw) })
  const addresses = new Set([...spent, ...outputs].flatMap((coin) => (coin.address ? [coin.address] : [])))
  for (const address of addresses) chain.history.set(address, [...(chain.history.get(address) ?? []), tx.id])
}

/** A block of one transaction; its hash commits to the previous block and the transaction, as a real one does. */
function nextBlock(chain: Chain, txid: string): Block {
  const previous = tip(chain)
  const digest = (data: Buffer) => createHash('sha256').update(data).digest()
  const header = Buffer.concat([Buffer.from(previous.hash, 'hex'), Buffer.from(txid, 'hex'), Buffer.from(String(previous.height + 1))])
  const hash = Buffer.from(digest(digest(header))).reverse().toString('hex')
  return { height: previous.height + 1, hash, time: Math.max(previous.time + 1, Math.floor(Date.now() / 1000)) }
}

function input(tx: Transaction, index: number, coin: Coin | undefined): Input {
  const { txid, index: vout = 0, finalScriptSig = new Uint8Array(), finalScriptWitness, sequence = 0xffffffff } = tx.getInput(index)
  return {
    txid: hex.encode(txid ?? new Uint8Array(32)),
    vout,
    prevout: coin ? output(coin) : null,
    scriptsig: hex.encode(finalScriptSig),
    scriptsig_asm: asm(finalScriptSig),
    ...(finalScriptWitness && finalScriptWitness.length > 0 && { witness: finalScriptWitness.map((item) => hex.encode(item)) }),
    is_coinbase: coin === undefined,
    sequence,
  }
}

function output(coin: Coin): Output {
  const base = { scriptpubkey: hex.encode(coin.script), scriptpubkey_asm: asm(coin.script), scriptpubkey_type: scriptType(coin.script) }
  return { ...base, ...(coin.address && { scriptpubkey_address: coin.address }), value: Number(coin.value) }
}

function addressOf(script: Uint8Array): string | undefined {
  try {
    return Address(Keys.network).encode(OutScript.decode(script))
  } catch {
    return undefined
  }
}

/** Esplora's names for output types. */
function scriptType(script: Uint8Array): string {
  if (script[0] === 0x6a) return 'op_return'
  const names: Record<string, string> = { pkh: 'p2pkh', sh: 'p2sh', wpkh: 'v0_p2wpkh', wsh: 'v0_p2wsh', tr: 'v1_p2tr' }
  return names[Validation.outputType(script) ?? ''] ?? 'unknown'
}

/** A script as Esplora writes it: OP_0 OP_PUSHBYTES_20 <hex>, OP_PUSHNUM_1, OP_DUP… ('' if it does not parse). */
export function asm(script: Uint8Array): string {
  const items = decodeScript(script)
  if (!items) return ''
  return items
    .map((item) => {
      if (item instanceof Uint8Array) return `${item.length <= 75 ? `OP_PUSHBYTES_${item.length}` : 'OP_PUSHDATA'} ${hex.encode(item)}`
      if (typeof item === 'number') return item === 0 ? 'OP_0' : `OP_PUSHNUM_${item}`
      return item === '1NEGATE' ? 'OP_PUSHNUM_NEG1' : `OP_${item}`
    })
    .join(' ')
}

function decodeScript(script: Uint8Array) {
  try {
    return Script.decode(script)
  } catch {
    return undefined
  }
}

/** A minimal little-endian script number (BIP34's height push). */
function scriptNum(n: number): Uint8Array {
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.push(rest % 256)
  if ((bytes[bytes.length - 1] ?? 0) & 0x80) bytes.push(0)
  return Uint8Array.from(bytes)
}

export function tx(chain: Chain, txid: string): Tx | undefined {
  return chain.txs.get(txid)?.json
}

export function rawHex(chain: Chain, txid: string): string | undefined {
  return chain.txs.get(txid)?.hex
}

/** Esplora's GET /tx/:txid/outspends: for each output, whether and where it was spent. */
export function outspends(chain: Chain, txid: string): Outspend[] | undefined {
  const found = chain.txs.get(txid)
  if (!found) return undefined
  return found.json.vout.map((_, vout) => {
    const spentBy = chain.coins.get(`${txid}:${vout}`)?.spentBy
    return spentBy ? { spent: true, ...spentBy } : { spent: false }
  })
}

function coinsOf(chain: Chain, address: string): Coin[] {
  return (chain.history.get(address) ?? []).flatMap((txid) => {
    const { vout } = chain.txs.get(txid)!.json
    return vout.flatMap((_, i) => {
      const coin = chain.coins.get(`${txid}:${i}`)!
      return coin.address === address ? [coin] : []
    })
  })
}

/** GET /address/:address: what it received and spent, all confirmed. */
export function addressInfo(chain: Chain, address: string): AddressInfo {
  const coins = coinsOf(chain, address)
  const spent = coins.filter((coin) => coin.spentBy)
  const sum = (list: Coin[]) => Number(list.reduce((total, coin) => total + coin.value, 0n))
  const chain_stats = {
    funded_txo_count: coins.length,
    funded_txo_sum: sum(coins),
    spent_txo_count: spent.length,
    spent_txo_sum: sum(spent),
    tx_count: chain.history.get(address)?.length ?? 0,
  }
  const mempool_stats = { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 }
  return { address, chain_stats, mempool_stats }
}

/** GET /address/:address/utxo. */
export function utxos(chain: Chain, address: string): Utxo[] {
  return coinsOf(chain, address)
    .filter((coin) => !coin.spentBy)
    .map(({ txid, vout, status, value }) => ({ txid, vout, status, value: Number(value) }))
}

/** Esplora's page of confirmed history: 25 transactions, newest first, after `lastSeen` when given. */
export const pageSize = 25

/** GET /address/:address/txs and /txs/chain/:last_seen_txid: newest first; undefined if `lastSeen` is not in its history. */
export function addressTxs(chain: Chain, address: string, lastSeen?: string): Tx[] | undefined {
  const newestFirst = [...(chain.history.get(address) ?? [])].reverse()
  const start = lastSeen === undefined ? 0 : newestFirst.indexOf(lastSeen) + 1
  if (start === 0 && lastSeen !== undefined) return undefined
  return newestFirst.slice(start, start + pageSize).map((txid) => chain.txs.get(txid)!.json)
}
