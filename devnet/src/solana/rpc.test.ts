import { base58 } from '@scure/base'
import {
  AccountLayout,
  createAssociatedTokenAccountIdempotentInstruction,
  createMint,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  getOrCreateAssociatedTokenAccount,
  mintTo,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import WebSocket from 'ws'
import * as SolanaRpc from './rpc.js'

let chain: SolanaRpc.Chain
let connection: Connection

beforeAll(async () => {
  chain = await SolanaRpc.start({ port: 0 })
  connection = new Connection(chain.url, 'confirmed')
})
afterAll(() => chain.stop())

/** A fresh account holding `sol` SOL. */
async function funded(sol: number) {
  const keypair = Keypair.generate()
  await chain.airdrop(keypair.publicKey.toBase58(), BigInt(sol * LAMPORTS_PER_SOL))
  return keypair
}

/** Builds, signs and sends a legacy transaction paid by `payer`; the frame's way: send, then poll. */
async function send(payer: Keypair, instructions: TransactionInstruction[], options: { signers?: Keypair[]; skipPreflight?: boolean; blockhash?: string } = {}) {
  const blockhash = options.blockhash ?? (await connection.getLatestBlockhash()).blockhash
  const transaction = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(...instructions)
  transaction.sign(payer, ...(options.signers ?? []))
  return connection.sendRawTransaction(transaction.serialize(), { skipPreflight: options.skipPreflight ?? false })
}

/** Polls getSignatureStatuses until the signature is finalized (the devnet lands at once: one round). */
async function finalized(signature: string) {
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature])
    if (value[0]?.confirmationStatus === 'finalized') return value[0]
  }
}

async function rpc(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await fetch(chain.url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}

describe('start', () => {
  test('behavior: the CAIP-2 id is solana: and the genesis hash first 32 characters, the same on every start', async () => {
    expect(await connection.getGenesisHash()).toBe(chain.genesisHash)
    expect(chain.chainId).toBe(`solana:${chain.genesisHash.slice(0, 32)}`)
    const other = await SolanaRpc.start({ port: 0 })
    try {
      expect(other.chainId).toBe(chain.chainId)
      expect(other.url).not.toBe(chain.url)
    } finally {
      await other.stop()
    }
  })

  test('behavior: the websocket is on the next port, where web3.js looks for it', () => {
    expect(Number(new URL(chain.wsUrl).port)).toBe(Number(new URL(chain.url).port) + 1)
  })

  test('error: refuses a host off loopback', async () => {
    await expect(SolanaRpc.start({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/loopback/)
  })
})

describe('read methods', () => {
  test('behavior: health, version, slot, block height and epoch info', async () => {
    const slot = await connection.getSlot()
    expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'getHealth' })).toMatchObject({ body: { result: 'ok' } })
    expect((await connection.getVersion())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/)
    const epoch = await connection.getEpochInfo()
    expect(epoch).toMatchObject({ absoluteSlot: slot, blockHeight: await connection.getBlockHeight() })
  })

  test('behavior: an airdrop lands in its own block, and the balance shows it', async () => {
    const slot = await connection.getSlot()
    const keypair = await funded(2)
    expect(await connection.getBalance(keypair.publicKey)).toBe(2 * LAMPORTS_PER_SOL)
    expect(await connection.getSlot()).toBe(slot + 1)
    expect(await connection.getBalance(Keypair.generate().publicKey)).toBe(0)
  })

  test('behavior: requestAirdrop over JSON-RPC', async () => {
    const address = Keypair.generate().publicKey
    const signature = await connection.requestAirdrop(address, LAMPORTS_PER_SOL)
    expect((await finalized(signature)).err).toBeNull()
    expect(await connection.getBalance(address)).toBe(LAMPORTS_PER_SOL)
  })

  test('behavior: getAccountInfo and getMultipleAccounts, base64, with null for a missing account', async () => {
    const keypair = await funded(1)
    const info = await connection.getAccountInfo(keypair.publicKey)
    expect(info).toMatchObject({ lamports: LAMPORTS_PER_SOL, executable: false, data: Buffer.alloc(0) })
    expect(info?.owner.toBase58()).toBe(SystemProgram.programId.toBase58())
    const many = await connection.getMultipleAccountsInfo([keypair.publicKey, Keypair.generate().publicKey])
    expect([many[0]?.lamports, many[1]]).toEqual([LAMPORTS_PER_SOL, null])
  })

  test('behavior: getAccountInfo in base58, and jsonParsed falls back to base64 for a system account', async () => {
    const keypair = await funded(1)
    const params = (encoding: string) => ({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [keypair.publicKey.toBase58(), { encoding }] })
    expect((await rpc(params('base58'))).body.result.value).toMatchObject({ data: ['', 'base58'], lamports: LAMPORTS_PER_SOL, space: 0 })
    expect((await rpc(params('jsonParsed'))).body.result.value).toMatchObject({ data: ['', 'base64'], owner: SystemProgram.programId.toBase58() })
  })

  test('behavior: rent exemption and the latest blockhash with its last valid block height', async () => {
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890880)
    const latest = await connection.getLatestBlockhash()
    expect(latest.lastValidBlockHeight).toBe((await connection.getBlockHeight()) + 150)
    expect((await connection.isBlockhashValid(latest.blockhash)).value).toBe(true)
    expect(await connection.getRecentPrioritizationFees()).toEqual([])
  })
})

describe('SOL transfers', () => {
  test('behavior: the fee estimate is what the sender pays; the transfer lands finalized', async () => {
    const sender = await funded(10)
    const receiver = Keypair.generate().publicKey
    const { blockhash } = await connection.getLatestBlockhash()
    const transfer = SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver, lamports: 1.5 * LAMPORTS_PER_SOL })
    const message = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(transfer).compileMessage()
    const fee = (await connection.getFeeForMessage(message)).value
    expect(fee).toBe(5000)
    const signature = await send(sender, [transfer], { blockhash })
    expect(await finalized(signature)).toMatchObject({ err: null, confirmationStatus: 'finalized', confirmations: null })
    expect(await connection.getBalance(sender.publicKey)).toBe(10 * LAMPORTS_PER_SOL - 1.5 * LAMPORTS_PER_SOL - fee!)
    expect(await connection.getBalance(receiver)).toBe(1.5 * LAMPORTS_PER_SOL)
  })

  test('behavior: sendTransaction takes base58 (its default encoding) as well as base64', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: (await funded(1)).publicKey, lamports: 1000 }),
    )
    transaction.sign(sender)
    const { body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [base58.encode(transaction.serialize())] })
    expect(body.result).toBe(base58.encode(transaction.signature!))
    expect((await finalized(body.result)).err).toBeNull()
  })

  test('behavior: a priority fee is charged as price × limit, and meta.fee says so', async () => {
    const sender = await funded(1)
    const receiver = await funded(1)
    const signature = await send(sender, [
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 }),
      SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver.publicKey, lamports: 1000 }),
    ])
    await finalized(signature)
    const paid = LAMPORTS_PER_SOL - 1000 - (await connection.getBalance(sender.publicKey))
    expect(paid).toBeGreaterThan(5000)
    expect((await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.meta?.fee).toBe(paid)
  })

  test('behavior: the same transfer sent twice lands twice, with two signatures (a new blockhash every block)', async () => {
    const sender = await funded(1)
    const receiver = await funded(1)
    const transfer = () => SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver.publicKey, lamports: 1000 })
    const first = await send(sender, [transfer()])
    const second = await send(sender, [transfer()])
    expect(first).not.toBe(second)
    expect(await connection.getBalance(receiver.publicKey)).toBe(LAMPORTS_PER_SOL + 2000)
  })

  test('behavior: a blockhash fetched before other transactions landed still works', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    await funded(1)
    await funded(1)
    const signature = await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: LAMPORTS_PER_SOL / 10 })], { blockhash })
    expect((await finalized(signature)).err).toBeNull()
  })

  test('behavior: a v0 transaction lands; getTransaction needs maxSupportedTransactionVersion for it', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    const message = new TransactionMessage({
      payerKey: sender.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: LAMPORTS_PER_SOL / 10 })],
    }).compileToV0Message()
    const transaction = new VersionedTransaction(message)
    transaction.sign([sender])
    const signature = await connection.sendTransaction(transaction)
    await finalized(signature)
    await expect(connection.getTransaction(signature, {} as never)).rejects.toThrow(/Transaction version \(0\) is not supported/)
    expect((await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 }))?.version).toBe(0)
  })

  test('behavior: web3.js confirmTransaction hears the landed signature on the websocket', async () => {
    const sender = await funded(1)
    const latest = await connection.getLatestBlockhash()
    const signature = await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: LAMPORTS_PER_SOL / 10 })], latest)
    expect((await connection.confirmTransaction({ signature, ...latest })).value.err).toBeNull()
  })
})

describe('failures', () => {
  test('error: 1000 lamports to a fresh account fails preflight with InsufficientFundsForRent and the logs; nothing is charged', async () => {
    const sender = await funded(1)
    const attempt = send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1000 })])
    const error = await attempt.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendTransactionError)
    expect((error as Error).message).toMatch(/Transaction simulation failed: Transaction results in an account \(1\) with insufficient funds for rent/)
    expect(await (error as SendTransactionError).getLogs(connection)).toEqual(['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'])
    expect(await connection.getBalance(sender.publicKey)).toBe(LAMPORTS_PER_SOL)
  })

  test('error: the JSON-RPC error is -32002 with data.err and data.logs, as a node sends it', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 * LAMPORTS_PER_SOL }),
    )
    transaction.sign(sender)
    const { body } = await rpc({ jsonrpc: '2.0', id: 7, method: 'sendTransaction', params: [transaction.serialize().toString('base64'), { encoding: 'base64' }] })
    expect(body.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
      data: { err: { InstructionError: [0, { Custom: 1 }] } },
    })
    expect(body.error.data.logs).toContain(`Transfer: insufficient lamports ${LAMPORTS_PER_SOL - 5000}, need ${5 * LAMPORTS_PER_SOL}`)
  })

  test('behavior: with skipPreflight a failing transaction lands with its error, and its fee is paid', async () => {
    const sender = await funded(1)
    const signature = await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1000 })], { skipPreflight: true })
    expect(await finalized(signature)).toMatchObject({ err: { InsufficientFundsForRent: { account_index: 1 } } })
    expect(await connection.getBalance(sender.publicKey)).toBe(LAMPORTS_PER_SOL - 5000)
  })

  test('error: after expireBlockhash the old blockhash is "Blockhash not found", and is no longer valid', async () => {
    const sender = await funded(1)
    const old = await connection.getLatestBlockhash()
    chain.expireBlockhash()
    const transfer = SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: (await funded(1)).publicKey, lamports: 1000 })
    await expect(send(sender, [transfer], { blockhash: old.blockhash })).rejects.toThrow(/Transaction simulation failed: Blockhash not found/)
    expect((await connection.isBlockhashValid(old.blockhash)).value).toBe(false)
    expect(await connection.getBlockHeight()).toBeGreaterThan(old.lastValidBlockHeight)
    const message = new Transaction({ feePayer: sender.publicKey, recentBlockhash: old.blockhash }).add(transfer).compileMessage()
    expect((await connection.getFeeForMessage(message)).value).toBeNull()
    expect((await finalized(await send(sender, [transfer]))).err).toBeNull()
  })

  test('error: a bad signature is refused with -32003, even without preflight', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: (await funded(1)).publicKey, lamports: 1000 }),
    )
    transaction.sign(sender)
    const bytes = transaction.serialize()
    bytes[1]! ^= 0xff // the first byte of the first signature
    const forged = bytes.toString('base64')
    for (const skipPreflight of [false, true]) {
      const { body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [forged, { encoding: 'base64', skipPreflight }] })
      expect(body.error).toEqual({ code: -32003, message: 'Transaction signature verification failure' })
    }
  })

  test('behavior: simulateTransaction runs without keeping anything, signed or not', async () => {
    const sender = await funded(1)
    const receiver = Keypair.generate().publicKey
    const { blockhash } = await connection.getLatestBlockhash()
    const message = new TransactionMessage({
      payerKey: sender.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver, lamports: LAMPORTS_PER_SOL / 2 })],
    }).compileToV0Message()
    const unsigned = new VersionedTransaction(message)
    const result = await connection.simulateTransaction(unsigned, { accounts: { addresses: [receiver.toBase58()], encoding: 'base64' } })
    expect(result.value).toMatchObject({ err: null, logs: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'] })
    expect(result.value.accounts?.[0]?.lamports).toBe(LAMPORTS_PER_SOL / 2)
    expect(await connection.getBalance(receiver)).toBe(0)
    const { body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'simulateTransaction', params: [Buffer.from(unsigned.serialize()).toString('base64'), { encoding: 'base64', sigVerify: true }] })
    expect(body.error.code).toBe(-32003)
  })
})

describe('SPL tokens', () => {
  let payer: Keypair
  let mint: PublicKey

  beforeAll(async () => {
    payer = await funded(10)
    // spl-token's helpers confirm over the websocket (signatureSubscribe)
    mint = await createMint(connection, payer, payer.publicKey, null, 6)
    const account = await getOrCreateAssociatedTokenAccount(connection, payer, mint, payer.publicKey)
    await mintTo(connection, payer, mint, account.address, payer, 1000_000000n)
  })

  test('behavior: getParsedTokenAccountsByOwner and getParsedAccountInfo of the mint', async () => {
    const { value } = await connection.getParsedTokenAccountsByOwner(payer.publicKey, { programId: TOKEN_PROGRAM_ID })
    expect(value).toHaveLength(1)
    expect(value[0]!.account.data).toEqual({
      program: 'spl-token',
      parsed: { type: 'account', info: { isNative: false, mint: mint.toBase58(), owner: payer.publicKey.toBase58(), state: 'initialized', tokenAmount: { amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' } } },
      space: 165,
    })
    const parsedMint = await connection.getParsedAccountInfo(mint)
    expect(parsedMint.value?.data).toMatchObject({ program: 'spl-token', parsed: { type: 'mint', info: { decimals: 6, supply: '1000000000', mintAuthority: payer.publicKey.toBase58(), freezeAuthority: null } } })
  })

  test('behavior: an SPL transfer that creates the receiver’s associated account, then balances and history', async () => {
    const receiver = Keypair.generate().publicKey
    const from = getAssociatedTokenAddressSync(mint, payer.publicKey)
    const to = getAssociatedTokenAddressSync(mint, receiver)
    expect(await connection.getAccountInfo(to)).toBeNull()
    const signature = await send(payer, [
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, to, receiver, mint),
      createTransferCheckedInstruction(from, mint, to, payer.publicKey, 250_000000n, 6),
    ])
    expect((await finalized(signature)).err).toBeNull()
    expect((await connection.getTokenAccountBalance(to)).value).toEqual({ amount: '250000000', decimals: 6, uiAmount: 250, uiAmountString: '250' })
    const byMint = await connection.getTokenAccountsByOwner(receiver, { mint })
    expect(byMint.value.map((entry) => [entry.pubkey.toBase58(), AccountLayout.decode(entry.account.data).amount])).toEqual([[to.toBase58(), 250_000000n]])

    const history = await connection.getSignaturesForAddress(receiver)
    expect(history).toMatchObject([{ signature, err: null, confirmationStatus: 'finalized' }])
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(parsed?.meta).toMatchObject({ err: null, fee: 5000 })
    expect(parsed?.meta?.preTokenBalances?.map((b) => b.uiTokenAmount.uiAmountString)).toEqual(['1000'])
    expect(parsed?.meta?.postTokenBalances?.map((b) => [b.owner, b.uiTokenAmount.uiAmountString]).sort()).toEqual([
      [payer.publicKey.toBase58(), '750'],
      [receiver.toBase58(), '250'],
    ].sort())
    expect(parsed?.transaction.message.instructions[1]).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'transferChecked', info: { source: from.toBase58(), destination: to.toBase58(), mint: mint.toBase58(), authority: payer.publicKey.toBase58(), tokenAmount: { uiAmountString: '250' } } },
    })
    expect(parsed?.transaction.message.accountKeys[0]).toMatchObject({ pubkey: payer.publicKey, signer: true, writable: true })
    expect(parsed?.meta?.innerInstructions?.[0]?.instructions.some((ix) => 'parsed' in ix && (ix.parsed as { type: string }).type === 'createAccount')).toBe(true)
  })

  test('error: a token transfer over the balance fails preflight with the token program’s logs', async () => {
    const receiver = await funded(1)
    const from = getAssociatedTokenAddressSync(mint, payer.publicKey)
    const to = (await getOrCreateAssociatedTokenAccount(connection, payer, mint, receiver.publicKey)).address
    const error = await send(payer, [createTransferCheckedInstruction(from, mint, to, payer.publicKey, 10_000_000000n, 6)]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendTransactionError)
    expect((error as Error).message).toMatch(/Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/)
    expect(await (error as SendTransactionError).getLogs(connection)).toContain('Program log: Error: insufficient funds')
  })
})

describe('history', () => {
  test('behavior: getSignaturesForAddress lists newest first, with limit and before', async () => {
    const sender = await funded(5)
    const receiver = Keypair.generate().publicKey
    const signatures = [(await connection.getSignaturesForAddress(sender.publicKey))[0]!.signature]
    for (let i = 0; i < 3; i++) signatures.push(await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver, lamports: LAMPORTS_PER_SOL })]))
    const all = await connection.getSignaturesForAddress(sender.publicKey)
    expect(all.map((entry) => entry.signature)).toEqual([...signatures].reverse())
    expect(all[0]!.slot).toBeGreaterThan(all[1]!.slot)
    expect(all[0]!.blockTime).toBeGreaterThan(1_700_000_000)
    expect((await connection.getSignaturesForAddress(sender.publicKey, { limit: 2 })).map((e) => e.signature)).toEqual([signatures[3], signatures[2]])
    expect((await connection.getSignaturesForAddress(sender.publicKey, { before: signatures[2], limit: 5 })).map((e) => e.signature)).toEqual([signatures[1], signatures[0]])
    expect(await connection.getSignaturesForAddress(Keypair.generate().publicKey)).toEqual([])
  })

  test('behavior: getTransaction (json) has the fee, balances, account keys, block time and error', async () => {
    const sender = await funded(1)
    const receiver = await funded(1)
    const signature = await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: receiver.publicKey, lamports: 1234 })])
    const transaction = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })
    expect(transaction?.meta).toMatchObject({
      err: null,
      fee: 5000,
      preBalances: [LAMPORTS_PER_SOL, LAMPORTS_PER_SOL, 1],
      postBalances: [LAMPORTS_PER_SOL - 5000 - 1234, LAMPORTS_PER_SOL + 1234, 1],
      preTokenBalances: [],
      postTokenBalances: [],
    })
    expect(transaction?.transaction.message.staticAccountKeys.map((key) => key.toBase58())).toEqual([sender.publicKey.toBase58(), receiver.publicKey.toBase58(), SystemProgram.programId.toBase58()])
    expect(transaction?.blockTime).toBeGreaterThan(1_700_000_000)
    expect(await connection.getTransaction(base58.encode(new Uint8Array(64).fill(7)), { maxSupportedTransactionVersion: 0 })).toBeNull()
  })
})

describe('websocket', () => {
  test('behavior: signatureSubscribe notifies a landed signature at once, then signatureUnsubscribe refuses the spent id', async () => {
    const sender = await funded(1)
    const signature = await send(sender, [SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: (await funded(1)).publicKey, lamports: 1 })])
    const socket = new WebSocket(chain.wsUrl)
    const frames: any[] = []
    const next = () => new Promise<any>((resolve) => (frames.length ? resolve(frames.shift()) : socket.once('message', () => resolve(frames.shift()))))
    socket.on('message', (data) => frames.push(JSON.parse(data.toString())))
    await new Promise((resolve) => socket.once('open', resolve))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: [signature, { commitment: 'confirmed' }] }))
    const subscribed = await next()
    expect(subscribed).toMatchObject({ id: 1, result: expect.any(Number) })
    expect(await next()).toMatchObject({ method: 'signatureNotification', params: { subscription: subscribed.result, result: { value: { err: null } } } })
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'signatureUnsubscribe', params: [subscribed.result] }))
    expect(await next()).toMatchObject({ id: 2, error: { code: -32602 } })
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'accountSubscribe', params: [] }))
    expect(await next()).toMatchObject({ id: 3, error: { code: -32601 } })
    socket.close()
  })

  test('behavior: a subscription to a signature still to land is notified when it lands', async () => {
    const sender = await funded(1)
    const { blockhash } = await connection.getLatestBlockhash()
    const transaction = new Transaction({ feePayer: sender.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: (await funded(1)).publicKey, lamports: 1 }),
    )
    transaction.sign(sender)
    const heard = new Promise((resolve) => connection.onSignature(base58.encode(transaction.signature!), resolve, 'confirmed'))
    await connection.sendRawTransaction(transaction.serialize())
    expect(await heard).toEqual({ err: null })
  })
})

describe('HTTP', () => {
  test('behavior: a batch gets one answer per request, in order', async () => {
    const { body } = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'getHealth' },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
      { jsonrpc: '2.0', id: 3, method: 'getGenesisHash' },
    ])
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'ok' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 3, result: chain.genesisHash },
    ])
  })

  test('error: an unknown method is -32601, also for names on Object.prototype', async () => {
    for (const method of ['getNothing', 'constructor', 'toString', '__proto__'])
      expect((await rpc({ jsonrpc: '2.0', id: 1, method })).body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })
  })

  test.each([
    ['a bad address', 'getBalance', ['not-base58!']],
    ['a short address', 'getBalance', ['1111']],
    ['no address', 'getAccountInfo', []],
    ['an unknown encoding', 'getAccountInfo', ['11111111111111111111111111111111', { encoding: 'base64+zstd' }]],
    ['params as an object', 'getBalance', { address: '11111111111111111111111111111111' }],
    ['a transaction that does not decode', 'sendTransaction', ['AAAA', { encoding: 'base64' }]],
    ['a negative lamports', 'requestAirdrop', ['11111111111111111111111111111111', -1]],
    ['both token filters', 'getTokenAccountsByOwner', ['11111111111111111111111111111111', { mint: '11111111111111111111111111111111', programId: TOKEN_PROGRAM_ID.toBase58() }]],
    ['a limit over 1000', 'getSignaturesForAddress', ['11111111111111111111111111111111', { limit: 1001 }]],
    ['a bad signature', 'getSignatureStatuses', [['abc']]],
  ])('error: %s is -32602', async (_, method, params) => {
    const { status, body } = await rpc({ jsonrpc: '2.0', id: 9, method, params })
    expect(status).toBe(200)
    expect(body.error.code).toBe(-32602)
  })

  test('error: a body that is not JSON is 400 with -32700', async () => {
    expect(await rpc('{"jsonrpc": "2.0", "id": 1,')).toMatchObject({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700 } } })
  })

  test.each([
    ['not an object', 42],
    ['no method', { jsonrpc: '2.0', id: 1 }],
    ['an old version', { jsonrpc: '1.0', id: 1, method: 'getHealth' }],
    ['an empty batch', []],
  ])('error: a request with %s is -32600', async (_, body) => {
    expect((await rpc(body)).body).toMatchObject({ error: { code: -32600 } })
  })

  test('behavior: a notification gets no answer', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'getHealth' })).toMatchObject({ status: 204, body: undefined })
  })

  test('error: a body over 1 MB is 413; another content type is 415; GET is 405; never 5xx', async () => {
    expect((await rpc('x'.repeat(SolanaRpc.limits.maxBodyBytes + 1))).status).toBe(413)
    expect((await rpc('{}', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await fetch(chain.url)).status).toBe(405)
    expect(await (await fetch(`${chain.url}/health`)).text()).toBe('ok')
  })

  test('behavior: CORS: any origin, and a preflight that allows web3.js’s headers', async () => {
    const preflight = await fetch(chain.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5174', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,solana-client' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,solana-client')
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'getSlot' })).headers.get('access-control-allow-origin')).toBe('*')
  })

  test('error: a Host header off loopback is refused (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(chain.url)
      const req = request({ host: url.hostname, port: url.port, method: 'POST', path: '/', headers: { host: 'evil.example', 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end('{"jsonrpc":"2.0","id":1,"method":"getHealth"}')
    })
    expect(status).toBe(403)
  })
})
