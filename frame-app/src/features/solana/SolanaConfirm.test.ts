import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as SolanaConfirm from './SolanaConfirm.js'
import { ExpiredError, FailedError, RentError, SendFailedError } from './SolanaErrors.js'
import * as SolanaRpc from './SolanaRpc.js'
import * as SolanaTransfer from './SolanaTransfer.js'
import * as SolanaWire from './SolanaWire.js'
import { closedUrl, freshAddress, funded, lamportsOf, sign, startChain } from './solana.testing.js'

let setup: Awaited<ReturnType<typeof startChain>>
let sender: Keypair
beforeAll(async () => {
  setup = await startChain()
  sender = await funded(setup.chain, 1)
})
afterAll(() => setup.chain.stop())

/** A transfer SolanaTransfer would refuse to build, signed by the sender: what a broken wallet might send. */
async function raw(to: string, lamports: bigint): Promise<{ signed: Uint8Array; lastValidBlockHeight: number }> {
  const { blockhash, lastValidBlockHeight } = await setup.rpc.call('getLatestBlockhash', [], (x): x is { value: { blockhash: string; lastValidBlockHeight: number } } => typeof x === 'object' && x !== null).then((r) => r.value)
  const transaction = new Transaction({ feePayer: sender.publicKey, blockhash, lastValidBlockHeight })
  transaction.add(SystemProgram.transfer({ fromPubkey: sender.publicKey, toPubkey: new PublicKey(to), lamports }))
  transaction.sign(sender)
  return { signed: new Uint8Array(transaction.serialize()), lastValidBlockHeight }
}

describe('broadcast and confirm', () => {
  test('behavior: a signed transfer lands and confirms with its slot', async () => {
    const to = freshAddress()
    const built = await SolanaTransfer.sol({ rpc: setup.rpc, from: sender.publicKey.toBase58(), to, lamports: 2_000_000n })
    const signed = sign(built.bytes, sender)
    const signature = await SolanaConfirm.broadcast(setup.rpc, signed)
    expect(signature).toBe(SolanaWire.signatureOf(signed))
    const { slot } = await SolanaConfirm.confirm(setup.rpc, signature, built.lastValidBlockHeight, { intervalMs: 10 })
    expect(slot).toBeGreaterThan(0)
    expect(await lamportsOf(setup.rpc, to)).toBe(2_000_000n)
  })

  test('error: a failed simulation keeps the program logs', async () => {
    const { signed } = await raw(freshAddress(), 1_000_000n * 1_000_000_000n)
    const error = await SolanaConfirm.broadcast(setup.rpc, signed).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendFailedError)
    expect((error as SendFailedError).message).toBe('Failed to send transaction. Please try again.')
    expect((error as SendFailedError).logs.join('\n')).toMatch(/insufficient lamports/)
  })

  test('error: a new account below the rent-exempt minimum is a RentError', async () => {
    const { signed } = await raw(freshAddress(), 1_000n)
    await expect(SolanaConfirm.broadcast(setup.rpc, signed)).rejects.toBeInstanceOf(RentError)
  })

  test('error: a blockhash the node no longer knows is an ExpiredError', async () => {
    const { signed } = await raw(freshAddress(), 2_000_000n)
    setup.chain.expireBlockhash()
    await expect(SolanaConfirm.broadcast(setup.rpc, signed)).rejects.toThrowError(
      new ExpiredError().message,
    )
  })

  test('error: a transaction that lands and fails is a FailedError with its err', async () => {
    // Sent past preflight, it lands and fails in the System program: the fee is paid, nothing moves.
    const { signed, lastValidBlockHeight } = await raw(freshAddress(), 1_000_000n * 1_000_000_000n)
    const signature = await setup.rpc.call('sendTransaction', [SolanaWire.toBase64(signed), { encoding: 'base64', skipPreflight: true }], (x): x is string => typeof x === 'string')
    const error = await SolanaConfirm.confirm(setup.rpc, signature, lastValidBlockHeight, { intervalMs: 10 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FailedError)
    expect(error).toMatchObject({ err: { InstructionError: [0, { Custom: 1 }] }, message: 'The transaction failed on chain: InstructionError 0: Custom 1' })
  })

  test('error: a transaction that never lands expires once the chain is past its last valid block height', async () => {
    const { signed, lastValidBlockHeight } = await raw(freshAddress(), 2_000_000n)
    setup.chain.expireBlockhash()
    await expect(SolanaConfirm.confirm(setup.rpc, SolanaWire.signatureOf(signed), lastValidBlockHeight, { intervalMs: 10 })).rejects.toBeInstanceOf(ExpiredError)
  })

  test('behavior: confirm is cancelled by its signal', async () => {
    const { signed, lastValidBlockHeight } = await raw(freshAddress(), 2_000_000n)
    const controller = new AbortController()
    const confirming = SolanaConfirm.confirm(setup.rpc, SolanaWire.signatureOf(signed), lastValidBlockHeight, { signal: controller.signal, intervalMs: 10 })
    controller.abort(new Error('closed'))
    await expect(confirming).rejects.toThrowError('closed')
  })

  test('error: RPC down is the spec §8 send failure, for broadcast and for confirm', async () => {
    const down = SolanaRpc.create(await closedUrl())
    const { signed, lastValidBlockHeight } = await raw(freshAddress(), 2_000_000n)
    await expect(SolanaConfirm.broadcast(down, signed)).rejects.toThrowError('Failed to send transaction. Please try again.')
    await expect(SolanaConfirm.confirm(down, SolanaWire.signatureOf(signed), lastValidBlockHeight, { intervalMs: 1, retries: 2 })).rejects.toBeInstanceOf(SendFailedError)
  })

  test('error: unsigned bytes are not broadcast', async () => {
    const built = await SolanaTransfer.sol({ rpc: setup.rpc, from: sender.publicKey.toBase58(), to: Keypair.generate().publicKey.toBase58(), lamports: 2_000_000n })
    await expect(SolanaConfirm.broadcast(setup.rpc, built.bytes)).rejects.toMatchObject({ name: 'SolanaWalletAnswerError' })
  })
})
