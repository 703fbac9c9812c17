/**
 * The Esplora stand-in over HTTP: the faucet and Esplora's read routes in their JSON shapes, and POST /tx
 * accepting a transaction signed by hand with @scure/btc-signer and refusing the ones bitcoind would,
 * with its reasons. The wallet built on it (wallet.ts) has its own tests.
 */
import { request } from 'node:http'
import { secp256k1 } from '@noble/curves/secp256k1'
import { hex } from '@scure/base'
import { OutScript, RawTx, Transaction, p2pkh, p2wpkh } from '@scure/btc-signer'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Esplora from './esplora.js'
import * as Keys from './keys.js'

let server: Esplora.Server
beforeAll(async () => {
  server = await Esplora.start({ port: 0 })
})
afterAll(async () => {
  await server?.stop()
})

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`)
  const text = await res.text()
  return { status: res.status, text, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined, headers: res.headers }
}
const postTx = async (body: string) => {
  const res = await fetch(`${server.url}/tx`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
  return { status: res.status, text: await res.text() }
}

// Each test spends from its own key, so tests do not share coins.
let nextKey = 100
const freshKey = () => Keys.payment(nextKey++)

/** A P2WPKH spend of `coins` (all the key's) paying `outputs`, signed and finalized. */
function spend(key: Keys.PaymentKey, coins: { txid: string; vout: number; value: bigint }[], outputs: { address: string; amount: bigint }[]) {
  const script = p2wpkh(key.publicKey, Keys.network).script
  const tx = new Transaction()
  for (const coin of coins) tx.addInput({ txid: coin.txid, index: coin.vout, witnessUtxo: { script, amount: coin.value } })
  for (const { address, amount } of outputs) tx.addOutputAddress(address, amount, Keys.network)
  tx.sign(key.privateKey)
  tx.finalize()
  return tx
}

/** A funded key and its one coin. */
async function funded(sats = 100_000n) {
  const key = freshKey()
  const txid = await server.faucet(key.address, sats)
  return { key, coin: { txid, vout: 0, value: sats } }
}

/** The raw transaction with input `index`'s witness replaced. */
function withWitness(tx: Transaction, index: number, witness: Uint8Array[]) {
  const decoded = RawTx.decode(tx.extract())
  decoded.witnesses![index] = witness
  // Without a witness left, the transaction is serialized the legacy way (BIP144).
  if (decoded.witnesses!.every((w) => w.length === 0)) Object.assign(decoded, { segwitFlag: false, witnesses: [] })
  return hex.encode(RawTx.encode(decoded))
}

/** The raw transaction with its output amounts replaced (its signatures no longer commit to them). */
function withAmounts(tx: Transaction, amounts: bigint[]) {
  const decoded = RawTx.decode(tx.extract())
  amounts.forEach((amount, i) => (decoded.outputs[i]!.amount = amount))
  return hex.encode(RawTx.encode(decoded))
}

describe('start', () => {
  test('behavior: answers on loopback with the regtest chain id, the genesis block at height 0', async () => {
    const fresh = await Esplora.start({ port: 0 })
    try {
      expect(fresh.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(fresh.chainId).toBe('bip122:0f9188f13cb7b2c71f2a335e3a4fc328')
      expect(fresh.height()).toBe(0)
      const tip = await fetch(`${fresh.url}/blocks/tip/hash`)
      expect(await tip.text()).toBe('0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206')
    } finally {
      await fresh.stop()
    }
  })

  test('param: a host off loopback is refused', async () => {
    await expect(Esplora.start({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/loopback only/)
  })
})

describe('faucet', () => {
  test('behavior: mints to an address in a new block; the address lists the coin, its balance and history', async () => {
    const key = freshKey()
    const before = server.height()
    const txid = await server.faucet(key.address, 120_000n)
    expect(txid).toMatch(/^[0-9a-f]{64}$/)
    expect(server.height()).toBe(before + 1)
    expect((await get('/blocks/tip/height')).text).toBe(String(before + 1))

    const { body: info } = await get(`/address/${key.address}`)
    expect(info).toEqual({
      address: key.address,
      chain_stats: { funded_txo_count: 1, funded_txo_sum: 120_000, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 1 },
      mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 },
    })
    const { body: status } = await get(`/tx/${txid}/status`)
    expect(status).toEqual({ confirmed: true, block_height: before + 1, block_hash: expect.stringMatching(/^[0-9a-f]{64}$/), block_time: expect.any(Number) })
    expect((await get(`/block-height/${before + 1}`)).text).toBe(status.block_hash)
    expect((await get(`/address/${key.address}/utxo`)).body).toEqual([{ txid, vout: 0, status, value: 120_000 }])
  })

  test('behavior: the faucet transaction is coinbase-shaped and its hex decodes to its txid', async () => {
    const key = freshKey()
    const txid = await server.faucet(key.address, 5_000n)
    const { body } = await get(`/tx/${txid}`)
    const script = hex.encode(p2wpkh(key.publicKey).script)
    expect(body).toMatchObject({
      txid,
      vin: [{ txid: '0'.repeat(64), vout: 0xffffffff, prevout: null, is_coinbase: true, sequence: 0xffffffff }],
      vout: [{ scriptpubkey: script, scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${script.slice(4)}`, scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: key.address, value: 5_000 }],
      fee: 0,
      status: { confirmed: true },
    })
    const raw = (await get(`/tx/${txid}/hex`)).text
    expect(Transaction.fromRaw(hex.decode(raw), { allowUnknownInputs: true }).id).toBe(txid)
  })

  test.each([
    ['a mainnet address', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 1n, /Invalid|Unknown|prefix|bech32/i],
    ['nonsense', 'not an address', 1n, /./],
    ['zero sats', Keys.payment(0).address, 0n, /faucet amount/],
    ['more than all bitcoin', Keys.payment(0).address, 2_100_000_000_000_001n, /faucet amount/],
  ])('error: %s is refused', async (_, address, sats, message) => {
    const before = server.height()
    await expect(server.faucet(address, sats)).rejects.toThrow(message)
    expect(server.height()).toBe(before)
  })
})

describe('fundDevKeys', () => {
  test('behavior: gives dev keys 0–3 one bitcoin each', async () => {
    const fresh = await Esplora.start({ port: 0 })
    try {
      const txids = await Esplora.fundDevKeys(fresh)
      expect(txids).toHaveLength(4)
      for (const i of [0, 1, 2, 3]) {
        const res = await fetch(`${fresh.url}/address/${Keys.payment(i).address}`)
        const info = (await res.json()) as { chain_stats: { funded_txo_sum: number } }
        expect(info.chain_stats.funded_txo_sum).toBe(100_000_000)
      }
      const unfunded = (await (await fetch(`${fresh.url}/address/${Keys.payment(4).address}/utxo`)).json()) as unknown[]
      expect(unfunded).toEqual([])
    } finally {
      await fresh.stop()
    }
  })
})

describe('GET /fee-estimates', () => {
  test('behavior: sat/vB for Esplora’s targets, at least the 1 sat/vB relay minimum, falling with the target', async () => {
    const { status, body } = await get('/fee-estimates')
    expect(status).toBe(200)
    expect(Object.keys(body).map(Number).sort((a, b) => a - b)).toEqual([...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008])
    expect(body['1']).toBeGreaterThanOrEqual(body['6'])
    expect(body['6']).toBeGreaterThanOrEqual(body['144'])
    expect(Math.min(...(Object.values(body) as number[]))).toBeGreaterThanOrEqual(1)
  })
})

describe('POST /tx', () => {
  test('behavior: a signed P2WPKH spend is mined; balances, history, outspends and the tx’s JSON follow', async () => {
    const { key, coin } = await funded(100_000n)
    const to = freshKey()
    const tx = spend(key, [coin], [{ address: to.address, amount: 60_000n }, { address: key.address, amount: 39_500n }])
    const before = server.height()
    const res = await postTx(tx.hex)
    expect(res).toEqual({ status: 200, text: tx.id })
    expect(server.height()).toBe(before + 1)

    expect((await get(`/address/${to.address}`)).body.chain_stats).toEqual({ funded_txo_count: 1, funded_txo_sum: 60_000, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 1 })
    expect((await get(`/address/${key.address}`)).body.chain_stats).toEqual({
      funded_txo_count: 2,
      funded_txo_sum: 139_500,
      spent_txo_count: 1,
      spent_txo_sum: 100_000,
      tx_count: 2,
    })
    expect((await get(`/address/${key.address}/utxo`)).body).toEqual([{ txid: tx.id, vout: 1, status: expect.any(Object), value: 39_500 }])

    const { body: json } = await get(`/tx/${tx.id}`)
    expect(json).toMatchObject({ txid: tx.id, version: 2, locktime: 0, fee: 500, size: tx.extract().length, weight: tx.weight })
    expect(json.vin).toEqual([
      {
        txid: coin.txid,
        vout: 0,
        prevout: expect.objectContaining({ scriptpubkey_address: key.address, value: 100_000, scriptpubkey_type: 'v0_p2wpkh' }),
        scriptsig: '',
        scriptsig_asm: '',
        witness: [expect.stringMatching(/^30[0-9a-f]+01$/), hex.encode(key.publicKey)],
        is_coinbase: false,
        sequence: 0xffffffff,
      },
    ])
    expect(json.vout.map((o: { scriptpubkey_address: string; value: number }) => [o.scriptpubkey_address, o.value])).toEqual([
      [to.address, 60_000],
      [key.address, 39_500],
    ])
    expect(json.status).toEqual({ confirmed: true, block_height: before + 1, block_hash: expect.any(String), block_time: expect.any(Number) })
    expect((await get(`/tx/${coin.txid}/outspends`)).body).toEqual([{ spent: true, txid: tx.id, vin: 0, status: json.status }])
    expect((await get(`/tx/${tx.id}/outspends`)).body).toEqual([{ spent: false }, { spent: false }])
    expect((await get(`/tx/${tx.id}/hex`)).text).toBe(tx.hex)

    // Newest first: the spend, then the faucet.
    expect((await get(`/address/${key.address}/txs`)).body.map((t: { txid: string }) => t.txid)).toEqual([tx.id, coin.txid])
    expect((await get(`/address/${key.address}/txs/mempool`)).body).toEqual([])
  })

  test('behavior: history pages by 25 after the last txid seen', async () => {
    const key = freshKey()
    const txids: string[] = []
    for (let i = 0; i < 27; i++) txids.push(await server.faucet(key.address, 1_000n))
    const newest = [...txids].reverse()
    const first = (await get(`/address/${key.address}/txs/chain`)).body.map((t: { txid: string }) => t.txid)
    expect(first).toEqual(newest.slice(0, 25))
    const next = (await get(`/address/${key.address}/txs/chain/${first[24]}`)).body.map((t: { txid: string }) => t.txid)
    expect(next).toEqual(newest.slice(25))
  })

  test('error: a double spend is refused as missing or spent', async () => {
    const { key, coin } = await funded()
    const first = spend(key, [coin], [{ address: freshKey().address, amount: 90_000n }])
    const second = spend(key, [coin], [{ address: freshKey().address, amount: 80_000n }])
    expect((await postTx(first.hex)).status).toBe(200)
    const before = server.height()
    expect(await postTx(second.hex)).toEqual({ status: 400, text: 'sendrawtransaction RPC error: {"code":-25,"message":"bad-txns-inputs-missingorspent"}' })
    expect(server.height()).toBe(before)
  })

  test('error: re-broadcasting a mined transaction says so', async () => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin], [{ address: freshKey().address, amount: 90_000n }])
    expect((await postTx(tx.hex)).status).toBe(200)
    expect(await postTx(tx.hex)).toEqual({ status: 400, text: expect.stringContaining('"code":-27') })
  })

  test('error: an input that does not exist is refused', async () => {
    const key = freshKey()
    const tx = spend(key, [{ txid: 'ab'.repeat(32), vout: 0, value: 10_000n }], [{ address: key.address, amount: 9_000n }])
    expect(await postTx(tx.hex)).toEqual({ status: 400, text: expect.stringContaining('bad-txns-inputs-missingorspent') })
  })

  test('error: a signature copied onto a changed amount does not verify (tampered transaction)', async () => {
    const { key, coin } = await funded()
    const thief = freshKey()
    const honest = spend(key, [coin], [{ address: thief.address, amount: 10_000n }, { address: key.address, amount: 89_000n }])
    const res = await postTx(withAmounts(honest, [99_000n, 500n]))
    expect(res.status).toBe(400)
    expect(res.text).toContain('mandatory-script-verify-flag-failed (Script evaluated without error but finished with a false/empty top stack element)')
    expect((await get(`/address/${thief.address}`)).body.chain_stats.funded_txo_sum).toBe(0)
  })

  test('error: a witness with another key than the one paid to is refused', async () => {
    const { key, coin } = await funded()
    const other = freshKey()
    const tx = spend(key, [coin], [{ address: other.address, amount: 90_000n }])
    // The other key signs the same transaction: a valid signature, by the wrong key.
    const forged = new Transaction()
    forged.addInput({ txid: coin.txid, index: 0, witnessUtxo: { script: p2wpkh(other.publicKey).script, amount: coin.value } })
    forged.addOutputAddress(other.address, 90_000n, Keys.network)
    forged.sign(other.privateKey)
    forged.finalize()
    const res = await postTx(withWitness(tx, 0, forged.getInput(0).finalScriptWitness!))
    expect(res).toEqual({ status: 400, text: expect.stringContaining('(Witness program hash mismatch)') })
  })

  test('error: a high-S signature is refused as non-canonical', async () => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin], [{ address: freshKey().address, amount: 90_000n }])
    const [signature, publicKey] = tx.getInput(0).finalScriptWitness!
    const { r, s } = secp256k1.Signature.fromDER(signature!.subarray(0, -1))
    const high = new secp256k1.Signature(r, secp256k1.CURVE.n - s).toDERRawBytes()
    const res = await postTx(withWitness(tx, 0, [Uint8Array.of(...high, 1), publicKey!]))
    expect(res.text).toContain('(Non-canonical signature: S value is unnecessarily high)')
  })

  test.each([
    ['an empty witness', () => [], 'Witness program was passed an empty witness'],
    ['an unknown sighash type', (sig: Uint8Array, pub: Uint8Array) => [Uint8Array.of(...sig.subarray(0, -1), 0x04), pub], 'Signature hash type missing or not understood'],
    ['a signature that is not DER', (sig: Uint8Array, pub: Uint8Array) => [Uint8Array.of(0x31, ...sig.subarray(1)), pub], 'Non-canonical DER signature'],
    ['an uncompressed key', (sig: Uint8Array, pub: Uint8Array) => [sig, secp256k1.ProjectivePoint.fromHex(pub).toRawBytes(false)], 'Using non-compressed keys in segwit'],
    ['three witness items', (sig: Uint8Array, pub: Uint8Array) => [sig, pub, pub], 'Witness program hash mismatch'],
  ])('error: %s is refused', async (_, witness, reason) => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin], [{ address: freshKey().address, amount: 90_000n }])
    const [sig, pub] = tx.getInput(0).finalScriptWitness!
    const res = await postTx(withWitness(tx, 0, witness(sig!, pub!)))
    expect(res).toEqual({ status: 400, text: `sendrawtransaction RPC error: {"code":-26,"message":"mandatory-script-verify-flag-failed (${reason})"}` })
  })

  test('error: a non-empty scriptSig on a native segwit input is refused', async () => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin], [{ address: freshKey().address, amount: 90_000n }])
    const decoded = RawTx.decode(tx.extract())
    decoded.inputs[0]!.finalScriptSig = Uint8Array.of(0x51)
    expect((await postTx(hex.encode(RawTx.encode(decoded)))).text).toContain('(Witness requires empty scriptSig)')
  })

  test('error: spending a P2PKH output is refused: the stand-in verifies P2WPKH only', async () => {
    const key = freshKey()
    const legacy = p2pkh(key.publicKey, Keys.network).address!
    const txid = await server.faucet(legacy, 10_000n)
    const raw = RawTx.encode({
      version: 2,
      segwitFlag: false,
      inputs: [{ txid: hex.decode(txid), index: 0, finalScriptSig: Uint8Array.of(0x51), sequence: 0xffffffff }],
      outputs: [{ amount: 9_000n, script: p2wpkh(key.publicKey).script }],
      witnesses: [],
      lockTime: 0,
    })
    expect((await postTx(hex.encode(raw))).text).toContain('verifies P2WPKH inputs only')
  })

  test.each([
    // Signed for less, then raised: the value check comes before the signatures'.
    ['paying more than it spends', [90_000n], [100_001n], 'bad-txns-in-belowout, value in (0.00100000) < value out (0.00100001)'],
    ['a fee under 1 sat/vB', [99_950n], [], 'min relay fee not met, 50 < 110'],
    ['a dust output', [90_000n, 293n], [], 'dust'],
  ])('error: %s is refused', async (_, amounts, raised, reason) => {
    const { key, coin } = await funded(100_000n)
    const tx = spend(
      key,
      [coin],
      amounts.map((amount) => ({ address: freshKey().address, amount })),
    )
    const raw = raised.length > 0 ? withAmounts(tx, raised) : tx.hex
    expect(await postTx(raw)).toEqual({ status: 400, text: `sendrawtransaction RPC error: {"code":-26,"message":"${reason}"}` })
  })

  test('error: an OP_RETURN over 83 bytes is not standard', async () => {
    const { key, coin } = await funded()
    const tx = new Transaction({ allowUnknownOutputs: true })
    tx.addInput({ txid: coin.txid, index: 0, witnessUtxo: { script: p2wpkh(key.publicKey).script, amount: coin.value } })
    tx.addOutput({ script: Uint8Array.of(0x6a, 0x4c, 82, ...new Uint8Array(82)), amount: 0n })
    tx.addOutputAddress(key.address, 90_000n, Keys.network)
    tx.sign(key.privateKey)
    tx.finalize()
    expect((await postTx(tx.hex)).text).toContain('"scriptpubkey"')
  })

  test('error: spending the same coin twice in one transaction is refused', async () => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin, coin], [{ address: key.address, amount: 150_000n }])
    expect((await postTx(tx.hex)).text).toContain('bad-txns-inputs-duplicate')
  })

  test.each([
    ['not hex', 'zz'],
    ['an odd length', 'abc'],
    ['bytes that are not a transaction', 'deadbeef'],
    ['nothing', ''],
  ])('error: %s is a decode failure, not a 5xx', async (_, body) => {
    expect(await postTx(body)).toEqual({ status: 400, text: 'sendrawtransaction RPC error: {"code":-22,"message":"TX decode failed"}' })
  })

  test('error: a body over the limit is 413', async () => {
    const res = await postTx('00'.repeat(Esplora.limits.bodyBytes))
    expect(res.status).toBe(413)
  })

  test('error: a coinbase-shaped transaction is refused', async () => {
    const key = freshKey()
    const raw = RawTx.encode({
      version: 2,
      segwitFlag: false,
      inputs: [{ txid: new Uint8Array(32), index: 0xffffffff, finalScriptSig: Uint8Array.of(1, 1), sequence: 0xffffffff }],
      outputs: [{ amount: 5_000n, script: OutScript.encode({ type: 'wpkh', hash: p2wpkh(key.publicKey).hash }) }],
      witnesses: [],
      lockTime: 0,
    })
    expect((await postTx(hex.encode(raw))).text).toContain('"coinbase"')
  })
})

describe('HTTP', () => {
  test('behavior: CORS * on answers and preflights, for a browser frame', async () => {
    expect((await get('/blocks/tip/height')).headers.get('access-control-allow-origin')).toBe('*')
    const res = await fetch(`${server.url}/tx`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:5174', 'access-control-request-method': 'POST' } })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
  })

  test.each([
    ['/address/bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 400, 'Invalid Bitcoin address'],
    ['/address/%E0%A4%A', 400, 'Invalid path'],
    ['/address/xyz/utxo', 400, 'Invalid Bitcoin address'],
    [`/address/${Keys.payment(0).address}/nope`, 404, 'Not found'],
    [`/address/${Keys.payment(0).address}/txs/chain/${'00'.repeat(32)}`, 400, 'Transaction not found in the address history'],
    ['/tx/xyz', 400, 'Invalid hex string'],
    [`/tx/${'00'.repeat(32)}`, 404, 'Transaction not found'],
    [`/tx/${'00'.repeat(32)}/status`, 404, 'Transaction not found'],
    ['/block-height/999999', 404, 'Block not found'],
    ['/nope', 404, 'Not found'],
    ['/blocks/tip/height/more/and/more', 404, 'Not found'],
  ])('error: GET %s is %i', async (path, status, text) => {
    expect(await get(path)).toMatchObject({ status, text })
  })

  test('error: other methods are 405', async () => {
    const res = await fetch(`${server.url}/tx`, { method: 'PUT', body: '00' })
    expect(res.status).toBe(405)
  })

  test('error: a Host header off loopback (DNS rebinding) is 403', async () => {
    const { port } = new URL(server.url)
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/blocks/tip/height', headers: { host: 'evil.example:80' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(403)
  })
})

describe('POST /tx robustness', () => {
  test('error: corrupted transactions are refused with 400, never a 5xx, and move nothing', async () => {
    const { key, coin } = await funded()
    const tx = spend(key, [coin], [{ address: freshKey().address, amount: 60_000n }, { address: key.address, amount: 39_000n }])
    const raw = tx.extract()
    // A fixed-seed generator (xorshift): the same corruptions on every run.
    let seed = 0x2545f491
    const next = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), seed >>> 0)
    const corruptions = Array.from({ length: 300 }, (_, i) => {
      const bytes = Uint8Array.from(raw)
      if (i % 3 === 2) return bytes.subarray(0, next() % bytes.length)
      for (let flips = 1 + (next() % 3); flips > 0; flips--) {
        const at = next() % bytes.length
        bytes[at] = bytes[at]! ^ (1 << next() % 8)
      }
      return bytes
    })
    const before = server.height()
    for (const bytes of corruptions) {
      const res = await postTx(hex.encode(bytes))
      if (res.status === 200) continue // a flip in a field no signature covers, such as witness padding, can leave it valid
      expect(res.status, `${hex.encode(bytes)} → ${res.text}`).toBe(400)
      expect(res.text).toMatch(/^sendrawtransaction RPC error: /)
    }
    // At most the one spend of the one coin went through.
    expect(server.height() - before).toBeLessThanOrEqual(1)
  })
})
