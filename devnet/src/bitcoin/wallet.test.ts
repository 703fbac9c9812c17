/**
 * The payment wallet: coin selection and fees (tables), then transfers, PSBTs and messages against a
 * real Esplora stand-in (esplora.ts), which verifies every signature it is sent.
 */
import { createServer, type Server as NetServer, type Socket } from 'node:net'
import { secp256k1 } from '@noble/curves/secp256k1'
import { base64, hex } from '@scure/base'
import { RawTx, Transaction, p2wpkh } from '@scure/btc-signer'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Esplora from './esplora.js'
import * as Keys from './keys.js'
import * as Wallet from './wallet.js'

let server: Esplora.Server
beforeAll(async () => {
  server = await Esplora.start({ port: 0 })
})
afterAll(async () => {
  await server?.stop()
})

// Each test uses keys of its own, so tests do not share coins.
let nextKey = 200
const freshKey = () => Keys.payment(nextKey++)

const coin = (value: bigint, n = 0): Wallet.Utxo => ({ txid: n.toString(16).padStart(64, '0'), vout: 0, value })

type Info = { chain_stats: { funded_txo_sum: number; spent_txo_sum: number } }
const balance = async (address: string) => {
  const { chain_stats } = (await (await fetch(`${server.url}/address/${address}`)).json()) as Info
  return BigInt(chain_stats.funded_txo_sum - chain_stats.spent_txo_sum)
}

/** A key holding one faucet coin per amount. */
async function funded(...amounts: bigint[]) {
  const key = freshKey()
  for (const sats of amounts) await server.faucet(key.address, sats)
  return key
}

describe('selectUtxos', () => {
  test.each([
    // name, coins, amount, rate, [chosen values], change, fee
    ['one coin, change back', [100_000n], 50_000n, 2, [100_000n], 49_719n, 281n],
    ['the largest coin first', [1_000n, 60_000n, 30_000n], 50_000n, 1, [60_000n], 9_859n, 141n],
    ['more coins while short', [30_000n, 25_000n, 1_000n], 50_000n, 1, [30_000n, 25_000n], 4_791n, 209n],
    ['a fractional rate rounds the fee up', [100_000n], 50_000n, 1.5, [100_000n], 49_789n, 211n],
    ['exactly the amount and a one-output fee: no change', [50_110n], 50_000n, 1, [50_110n], 0n, 110n],
    ['zero-value coins are skipped', [0n, 100_000n], 50_000n, 1, [100_000n], 49_859n, 141n],
  ])('behavior: %s', (_, values, amount, rate, chosen, change, fee) => {
    const utxos = values.map((value, i) => coin(value, i))
    const result = Wallet.selectUtxos(utxos, amount, rate)
    expect(result.inputs.map((u) => u.value)).toEqual(chosen)
    expect(result.change).toBe(change)
    expect(result.fee).toBe(fee)
    // Nothing is lost: what goes in comes out as payment, change and fee.
    expect(result.inputs.reduce((sum, u) => sum + u.value, 0n)).toBe(amount + change + fee)
  })

  test.each([
    // coins, amount: change would be 359 and 545 sats, under the 546 dust limit
    ['359 sats', [50_500n], 50_000n, 500n],
    ['545 sats', [50_686n], 50_000n, 686n],
  ])('behavior: change under the dust limit joins the fee (%s)', (_, values, amount, fee) => {
    const result = Wallet.selectUtxos(values.map((v, i) => coin(v, i)), amount, 1)
    expect(result).toMatchObject({ change: 0n, fee })
  })

  test('behavior: change of exactly the dust limit is kept', () => {
    // 141 sats of fee with change, 546 sats of change.
    expect(Wallet.selectUtxos([coin(50_687n)], 50_000n, 1)).toMatchObject({ change: 546n, fee: 141n })
  })

  test('behavior: equal coins are chosen in outpoint order, so a selection repeats', () => {
    const utxos = [coin(40_000n, 3), coin(40_000n, 1), coin(40_000n, 2)]
    expect(Wallet.selectUtxos(utxos, 50_000n, 1).inputs.map((u) => u.txid)).toEqual([coin(0n, 1).txid, coin(0n, 2).txid])
  })

  test.each([
    ['two small coins', [1_000n, 2_000n], 5_000n, 2_178n],
    ['no coins', [], 5_000n, 5_110n],
    ['one sat short of the one-output fee', [50_109n], 50_000n, 1n],
  ])('error: %s: Insufficient funds with the shortfall', (_, values, amount, shortfall) => {
    const utxos = values.map((v, i) => coin(v, i))
    let error: unknown
    try {
      Wallet.selectUtxos(utxos, amount, 1)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(Wallet.InsufficientFundsError)
    expect(error).toMatchObject({ code: 'InsufficientFunds', shortfall })
    expect((error as Error).message).toMatch(new RegExp(`^Insufficient funds: ${shortfall} sats short`))
  })

  test.each([
    ['an amount under the dust limit', 545n, 1],
    ['a zero fee rate', 10_000n, 0],
    ['a NaN fee rate', 10_000n, Number.NaN],
  ])('param: %s is refused', (_, amount, rate) => {
    expect(() => Wallet.selectUtxos([coin(100_000n)], amount, rate)).toThrow(RangeError)
  })
})

describe('estimateVsize', () => {
  test.each([1, 2, 3, 5])('behavior: covers the real size of a signed P2WPKH transaction with %i inputs and 2 outputs', (inputs) => {
    // Several keys, so signatures of both lengths (71 and 72 bytes with the sighash byte) occur.
    for (const index of [0, 1, 2, 3, 4, 5]) {
      const key = Keys.payment(index)
      const script = p2wpkh(key.publicKey, Keys.network).script
      const tx = new Transaction()
      for (let i = 0; i < inputs; i++) tx.addInput({ txid: coin(0n, i + 1).txid, index: i, witnessUtxo: { script, amount: 100_000n } })
      tx.addOutputAddress(key.address, 1_000n, Keys.network)
      tx.addOutputAddress(key.address, 1_000n, Keys.network)
      tx.sign(key.privateKey)
      tx.finalize()
      const estimate = Wallet.estimateVsize(inputs, 2)
      expect(tx.vsize).toBeLessThanOrEqual(Math.ceil(estimate))
      expect(tx.vsize).toBeGreaterThanOrEqual(Math.floor(estimate) - inputs)
    }
  })
})

describe('transfer', () => {
  test('behavior: pays from the key’s coins with change back; the server accepts it and balances follow', async () => {
    const key = await funded(30_000_000n, 20_000_000n)
    const to = freshKey()
    const { txid, fee } = await Wallet.transfer({ esploraUrl: server.url, key, to: to.address, amount: 35_000_000n })
    expect(txid).toMatch(/^[0-9a-f]{64}$/)
    expect(await balance(to.address)).toBe(35_000_000n)
    expect(await balance(key.address)).toBe(50_000_000n - 35_000_000n - fee)
    const tx = (await (await fetch(`${server.url}/tx/${txid}`)).json()) as { fee: number; vin: unknown[]; status: { confirmed: boolean } }
    expect(BigInt(tx.fee)).toBe(fee)
    expect(tx.vin).toHaveLength(2)
    expect(tx.status.confirmed).toBe(true)
    // The default rate is the server's estimate for 3 blocks: 2 inputs, 2 outputs.
    expect(fee).toBe(Wallet.feeFor(2, 2, Esplora.feeEstimates['3']!))
  })

  test('behavior: a given fee rate and change address are used', async () => {
    const key = await funded(100_000n)
    const to = freshKey()
    const change = freshKey()
    const { fee } = await Wallet.transfer({ esploraUrl: server.url, key, to: to.address, amount: 40_000n, feeRate: 5, changeAddress: change.address })
    expect(fee).toBe(Wallet.feeFor(1, 2, 5))
    expect(await balance(change.address)).toBe(100_000n - 40_000n - fee)
    expect(await balance(key.address)).toBe(0n)
  })

  test('behavior: spending all but dust sends no change output', async () => {
    const key = await funded(10_300n)
    const { fee } = await Wallet.transfer({ esploraUrl: server.url, key, to: freshKey().address, amount: 10_000n, feeRate: 1 })
    expect(fee).toBe(300n)
    expect(await balance(key.address)).toBe(0n)
  })

  test('error: insufficient funds broadcasts nothing', async () => {
    const key = await funded(10_000n)
    const before = server.height()
    await expect(Wallet.transfer({ esploraUrl: server.url, key, to: freshKey().address, amount: 10_000n })).rejects.toBeInstanceOf(Wallet.InsufficientFundsError)
    expect(server.height()).toBe(before)
  })

  test.each([
    ['a mainnet recipient', { to: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }],
    ['a nonsense change address', { to: Keys.payment(1).address, changeAddress: 'nope' }],
  ])('param: %s is refused before any request', async (_, change) => {
    await expect(Wallet.transfer({ esploraUrl: 'http://127.0.0.1:9', key: Keys.payment(0), amount: 1_000n, ...change })).rejects.toThrow(/Not a regtest address/)
  })

  test('error: a cancelled transfer rejects with the abort', async () => {
    const key = await funded(100_000n)
    const controller = new AbortController()
    controller.abort()
    await expect(Wallet.transfer({ esploraUrl: server.url, key, to: freshKey().address, amount: 1_000n, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' })
  })

  test('error: a server that never answers times out', async () => {
    // Accepts connections and says nothing.
    const sockets = new Set<Socket>()
    const silent: NetServer = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    try {
      await expect(
        Wallet.transfer({ esploraUrl: `http://127.0.0.1:${port}`, key: Keys.payment(0), to: Keys.payment(1).address, amount: 1_000n, timeoutMs: 100 }),
      ).rejects.toMatchObject({ name: 'TimeoutError' })
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
  })

  test('error: the server’s refusal is an EsploraError with bitcoind’s reason', async () => {
    const key = await funded(100_000n)
    const to = freshKey().address
    const [utxo] = await Wallet.utxos(server.url, key.address)
    // Spend the coin behind the wallet's back: the wallet's transaction is then a double spend.
    const script = p2wpkh(key.publicKey, Keys.network).script
    const first = new Transaction()
    first.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script, amount: utxo!.value } })
    first.addOutputAddress(to, 90_000n, Keys.network)
    first.sign(key.privateKey)
    first.finalize()
    const second = new Transaction()
    second.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script, amount: utxo!.value } })
    second.addOutputAddress(to, 80_000n, Keys.network)
    second.sign(key.privateKey)
    second.finalize()
    expect(await Wallet.broadcast(server.url, first.hex)).toBe(first.id)
    const refused = Wallet.broadcast(server.url, second.hex)
    await expect(refused).rejects.toBeInstanceOf(Wallet.EsploraError)
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bad-txns-inputs-missingorspent') })
  })

  test('error: a tampered signature is refused by the server', async () => {
    const key = await funded(100_000n)
    const [utxo] = await Wallet.utxos(server.url, key.address)
    const tx = new Transaction()
    tx.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script: p2wpkh(key.publicKey, Keys.network).script, amount: utxo!.value } })
    tx.addOutputAddress(freshKey().address, 90_000n, Keys.network)
    tx.sign(key.privateKey)
    tx.finalize()
    const raw = RawTx.decode(tx.extract())
    const signature = raw.witnesses![0]![0]!
    signature[10] = signature[10]! ^ 1
    await expect(Wallet.broadcast(server.url, hex.encode(RawTx.encode(raw)))).rejects.toThrow(/mandatory-script-verify-flag-failed/)
    expect(await balance(key.address)).toBe(100_000n)
  })
})

describe('signPsbt', () => {
  /** An unsigned PSBT spending one coin of each key to `to`. */
  async function psbtFrom(keys: Keys.PaymentKey[], to: string, amount: bigint) {
    const tx = new Transaction()
    for (const key of keys) {
      const [utxo] = await Wallet.utxos(server.url, key.address)
      tx.addInput({ txid: utxo!.txid, index: utxo!.vout, witnessUtxo: { script: p2wpkh(key.publicKey, Keys.network).script, amount: utxo!.value } })
    }
    tx.addOutputAddress(to, amount, Keys.network)
    return base64.encode(tx.toPSBT())
  }

  test('behavior: each key signs only its own listed input; finalized, the transaction is accepted', async () => {
    const alice = await funded(50_000n)
    const bob = await funded(70_000n)
    const to = freshKey()
    const psbt = await psbtFrom([alice, bob], to.address, 119_000n)
    const inputs = [
      { address: alice.address, index: 0 },
      { address: bob.address, index: 1 },
    ]

    const byAlice = Wallet.signPsbt(psbt, alice, inputs)
    const half = Transaction.fromPSBT(base64.decode(byAlice))
    expect(half.getInput(0).partialSig).toHaveLength(1)
    expect(half.getInput(1).partialSig).toBeUndefined()
    expect(() => Wallet.finalizePsbt(byAlice)).toThrow()

    const both = Wallet.signPsbt(byAlice, bob, inputs)
    const { hex: raw, txid } = Wallet.finalizePsbt(both)
    expect(await Wallet.broadcast(server.url, raw)).toBe(txid)
    expect(await balance(to.address)).toBe(119_000n)
    expect(await balance(alice.address)).toBe(0n)
    expect(await balance(bob.address)).toBe(0n)
  })

  test('behavior: inputs listed for another address are left unsigned', async () => {
    const alice = await funded(50_000n)
    const psbt = await psbtFrom([alice], freshKey().address, 49_000n)
    const signed = Wallet.signPsbt(psbt, Keys.payment(7), [{ address: alice.address, index: 0 }])
    expect(Transaction.fromPSBT(base64.decode(signed)).getInput(0).partialSig).toBeUndefined()
  })

  test('error: an input naming the key’s address but spending another script is refused', async () => {
    const alice = await funded(50_000n)
    const mallory = freshKey()
    const psbt = await psbtFrom([alice], freshKey().address, 49_000n)
    expect(() => Wallet.signPsbt(psbt, mallory, [{ address: mallory.address, index: 0 }])).toThrow(/does not spend/)
  })

  test.each([
    ['an index past the inputs', [{ address: Keys.payment(0).address, index: 5 }], /has no input 5/],
    ['a negative index', [{ address: Keys.payment(0).address, index: -1 }], /has no input -1/],
  ])('error: %s is refused', async (_, inputs, message) => {
    const key = Keys.payment(0)
    const psbt = await psbtFrom([await funded(10_000n)], key.address, 9_000n)
    expect(() => Wallet.signPsbt(psbt, key, inputs)).toThrow(message)
  })

  test.each([
    ['not base64', '%%%'],
    ['base64 that is not a PSBT', base64.encode(new TextEncoder().encode('hello'))],
  ])('error: %s is refused', (_, psbt) => {
    expect(() => Wallet.signPsbt(psbt, Keys.payment(0), [])).toThrow(RangeError)
  })
})

describe('signMessage', () => {
  test('behavior: a BIP-137 P2WPKH signature (header 39–42) that recovers the key', () => {
    const key = Keys.payment(0)
    const signature = Wallet.signMessage('Sign in to Doorway', key)
    const bytes = base64.decode(signature)
    expect(bytes).toHaveLength(65)
    expect(bytes[0]).toBeGreaterThanOrEqual(39)
    expect(bytes[0]).toBeLessThanOrEqual(42)
    const recovered = secp256k1.Signature.fromCompact(bytes.subarray(1))
      .addRecoveryBit(bytes[0]! - 39)
      .recoverPublicKey(Wallet.messageHash('Sign in to Doorway'))
    expect(hex.encode(recovered.toRawBytes(true))).toBe(hex.encode(key.publicKey))
    expect(Wallet.verifyMessage('Sign in to Doorway', signature, key.address)).toBe(true)
  })

  test('behavior: the hash is BIP-137’s, of the prefixed message', () => {
    // sha256d(0x18 "Bitcoin Signed Message:\n" 0x05 "hello"), worked out independently with node:crypto.
    expect(hex.encode(Wallet.messageHash('hello'))).toBe('cf0447ec85f0ce7150a257db32ebfcb7523dae17c36dbd1be598779fec0484f4')
  })

  test.each([
    ['another message', 'Sign in to Doorway!', Keys.payment(0).address],
    ['another address', 'Sign in to Doorway', Keys.payment(1).address],
  ])('error: the signature does not verify for %s', (_, message, address) => {
    expect(Wallet.verifyMessage(message, Wallet.signMessage('Sign in to Doorway', Keys.payment(0)), address)).toBe(false)
  })

  test.each([
    ['not base64', '%%%'],
    ['too short', base64.encode(new Uint8Array(64))],
    ['an unknown header', base64.encode(Uint8Array.of(50, ...new Uint8Array(64)))],
  ])('error: a signature that is %s does not verify', (_, signature) => {
    expect(Wallet.verifyMessage('x', signature, Keys.payment(0).address)).toBe(false)
  })
})
