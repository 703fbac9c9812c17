import * as DevKeys from '@doorway/devnet/solana/keys'
import * as SolanaRpc from '@doorway/devnet/solana/rpc'
import { ed25519 } from '@noble/curves/ed25519'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type * as EvmWallet from '../Wallet.js'
import * as Wallet from './Wallet.js'

const origin = 'http://localhost:5173'
const icon = 'data:image/svg+xml;base64,PHN2Zy8+' as const

let chain: SolanaRpc.Chain
let connection: Connection
beforeAll(async () => {
  chain = await SolanaRpc.start({ port: 0 })
  connection = new Connection(chain.url, 'confirmed')
})
afterAll(() => chain?.stop())

function memoryStorage(): EvmWallet.Storage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

function setup(answers: { approve?: boolean } = {}) {
  const approve = vi.fn(async (_: Wallet.Approval) => answers.approve ?? true)
  const created = Wallet.create({ approve, storage: memoryStorage(), origin, rpcUrl: chain.url, icon })
  const { features } = created.wallet
  const changes: string[][] = []
  features['standard:events'].on('change', ({ accounts }) => changes.push(accounts.map((a) => a.address)))
  const connect = () => features['standard:connect'].connect()
  return { ...created, approve, features, changes, connect }
}

/** A transfer of `lamports` from `from` to a fresh key, unsigned, in its wire form (legacy or v0). */
async function transfer(from: string, lamports: number, version: 'legacy' | 0 = 'legacy') {
  const to = Keypair.generate().publicKey
  const { blockhash } = await connection.getLatestBlockhash()
  const instruction = SystemProgram.transfer({ fromPubkey: new PublicKey(from), toPubkey: to, lamports })
  const bytes =
    version === 'legacy'
      ? new Transaction({ feePayer: new PublicKey(from), recentBlockhash: blockhash }).add(instruction).serialize({ requireAllSignatures: false })
      : new VersionedTransaction(new TransactionMessage({ payerKey: new PublicKey(from), recentBlockhash: blockhash, instructions: [instruction] }).compileToV0Message()).serialize()
  return { to, bytes: Uint8Array.from(bytes) }
}

describe('create', () => {
  test('behavior: the account is dev key 0 of the test mnemonic, as the devnet funds it', () => {
    const { wallet, address, account } = setup()
    expect(address).toBe(DevKeys.address(0))
    expect(account.publicKey).toEqual(new PublicKey(address).toBytes())
    expect(wallet.chains).toEqual(['solana:localnet'])
    // A ReadonlyWalletAccount: its data is behind getters (the host chunk must serialise it field by field).
    expect(structuredClone(account)).toEqual({})
    expect(wallet.accounts).toEqual([])
  })
})

describe('standard:connect', () => {
  test('behavior: asks the person once; approved, answers the account and tells the listeners', async () => {
    const { connect, approve, account, changes, address, wallet } = setup()
    await expect(connect()).resolves.toEqual({ accounts: [account] })
    expect(approve).toHaveBeenCalledExactlyOnceWith({ method: 'standard:connect', origin, chain: 'solana:localnet', description: `Connect to ${origin}` })
    expect(changes).toEqual([[address]])
    await connect()
    expect(approve).toHaveBeenCalledOnce()
    expect(wallet.accounts).toEqual([account])
  })

  test('error: rejected by the person, answers 4001 and stays disconnected', async () => {
    const { connect, wallet } = setup({ approve: false })
    await expect(connect()).rejects.toMatchObject({ code: 4001 })
    expect(wallet.accounts).toEqual([])
  })

  test('param: silent never asks, and answers no account before the person allowed one', async () => {
    const { features, approve } = setup()
    await expect(features['standard:connect'].connect({ silent: true })).resolves.toEqual({ accounts: [] })
    expect(approve).not.toHaveBeenCalled()
  })

  test('behavior: disconnect forgets the permission and tells the listeners', async () => {
    const { connect, features, changes, wallet } = setup()
    await connect()
    await features['standard:disconnect'].disconnect()
    expect(wallet.accounts).toEqual([])
    expect(changes.at(-1)).toEqual([])
  })
})

describe('signing', () => {
  test.each(['legacy', 0] as const)('behavior: signTransaction signs a %s transaction with dev key 0', async (version) => {
    const { connect, features, account, address } = setup()
    await connect()
    const { bytes } = await transfer(address, 1000, version)
    const [output] = await features['solana:signTransaction'].signTransaction({ account, transaction: bytes, chain: 'solana:localnet' })
    const signed = VersionedTransaction.deserialize(output!.signedTransaction)
    expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), account.publicKey)).toBe(true)
  })

  test('behavior: signAndSendTransaction lands the transaction on the local chain and answers its signature', async () => {
    const { connect, features, account, address } = setup()
    await connect()
    await chain.airdrop(address, BigInt(LAMPORTS_PER_SOL))
    const { to, bytes } = await transfer(address, LAMPORTS_PER_SOL / 10, 0)
    const [output] = await features['solana:signAndSendTransaction'].signAndSendTransaction({ account, transaction: bytes })
    expect(output!.signature).toHaveLength(64)
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL / 10)
  })

  test('error: a transaction the node refuses rejects with the node\'s error', async () => {
    const { connect, features, account, address } = setup()
    await connect()
    // More than dev key 0 holds: the node's preflight refuses it.
    const { bytes } = await transfer(address, 1000 * LAMPORTS_PER_SOL)
    await expect(features['solana:signAndSendTransaction'].signAndSendTransaction({ account, transaction: bytes })).rejects.toMatchObject({
      name: 'ProviderError',
      code: expect.any(Number),
    })
  })

  test('behavior: signMessage answers an ed25519 signature of the message', async () => {
    const { connect, features, account, approve } = setup()
    await connect()
    const message = new TextEncoder().encode('hello solana')
    const [output] = await features['solana:signMessage'].signMessage({ account, message })
    expect(ed25519.verify(output!.signature, message, account.publicKey)).toBe(true)
    expect(output!.signedMessage).toEqual(message)
    expect(approve).toHaveBeenLastCalledWith(expect.objectContaining({ method: 'solana:signMessage', description: 'Sign message: hello solana' }))
  })

  test('error: signing before connecting, or for another account, or on another chain, is refused without asking', async () => {
    const { connect, features, account, approve } = setup()
    const message = new Uint8Array([1])
    await expect(features['solana:signMessage'].signMessage({ account, message })).rejects.toMatchObject({ code: 4100 })
    await connect()
    approve.mockClear()
    const stranger = { ...account, address: Keypair.generate().publicKey.toBase58() } as typeof account
    await expect(features['solana:signMessage'].signMessage({ account: stranger, message })).rejects.toMatchObject({ code: 4100 })
    await expect(features['solana:signMessage'].signMessage({ account, message, chain: 'solana:mainnet' })).rejects.toMatchObject({ code: -32602 })
    expect(approve).not.toHaveBeenCalled()
  })

  test('behavior: one prompt at a time; the next waits for the answer to the one before', async () => {
    const { connect, features, account, approve } = setup()
    await connect()
    let answer: (yes: boolean) => void = () => {}
    approve.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)))
    const first = features['solana:signMessage'].signMessage({ account, message: new Uint8Array([1]) })
    const second = features['solana:signMessage'].signMessage({ account, message: new Uint8Array([2]) })
    await vi.waitFor(() => expect(approve).toHaveBeenCalledTimes(2))
    answer(false)
    await expect(first).rejects.toMatchObject({ code: 4001 })
    await vi.waitFor(() => expect(approve).toHaveBeenCalledTimes(3))
    await expect(second).resolves.toHaveLength(1)
  })
})

describe('solana:signIn', () => {
  test('behavior: writes the SIWS message with the page\'s domain and this account, signs it and connects', async () => {
    const { features, account, address, wallet, changes } = setup()
    const [output] = await features['solana:signIn'].signIn({ statement: 'Sign in to the demo', nonce: 'abcdef12', issuedAt: '2026-01-01T00:00:00.000Z' })
    const text = new TextDecoder().decode(output!.signedMessage)
    expect(text).toBe(`localhost:5173 wants you to sign in with your Solana account:\n${address}\n\nSign in to the demo\n\nNonce: abcdef12\nIssued At: 2026-01-01T00:00:00.000Z`)
    expect(ed25519.verify(output!.signature, output!.signedMessage, account.publicKey)).toBe(true)
    expect(output!.account).toBe(account)
    expect(wallet.accounts).toEqual([account])
    expect(changes).toEqual([[address]])
  })

  test('error: a sign-in for another address is refused', async () => {
    const { features, approve } = setup()
    await expect(features['solana:signIn'].signIn({ address: Keypair.generate().publicKey.toBase58() })).rejects.toMatchObject({ code: 4100 })
    expect(approve).not.toHaveBeenCalled()
  })
})
