import * as Protocol from '@doorway/shared/Protocol'
import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type * as Approval from '../approval/Approval.js'
import * as Device from './Device.js'
import * as Signer from './Signer.js'
import * as Solana from './Solana.js'
import * as Wallet from './Wallet.js'

// The person's decision is played by the test: what was shown and what was decided (Approval.test.ts tests the screen).
const asked: Approval.ask.Options['description'][] = []
let decide: (wallet: Wallet.Wallet) => 'approved' | 'rejected' = () => 'approved'
let current: Wallet.Wallet
vi.mock('../approval/Approval.js', () => ({
  ask: async (_root: HTMLElement, options: Approval.ask.Options) => {
    asked.push(options.description)
    return decide(current)
  },
}))

const chainId = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const entropy = () => Uint8Array.from({ length: 16 }, (_, i) => i * 3)
const keyOf = () => Solana.fromEntropy(entropy())
const address = keyOf().address

/** A wallet unlocked in memory, as after a sign-in: no server is asked (no enrolled device). */
function unlockedWallet(): Wallet.Wallet {
  const wallet = Wallet.create({ store: Device.memoryStore(), base: 'http://127.0.0.1:1', vaultPublicKey: new Uint8Array(), vaultSigningKey: new Uint8Array(), serverPublicKey: new Uint8Array() })
  wallet.unlocked = { account: undefined as never, solana: keyOf(), email: 'person@example.com', timer: setTimeout(() => {}, 0) }
  return (current = wallet)
}

const sign = (method: 'solana_signTransaction' | 'solana_signMessage', param: string) =>
  Signer.sign({ wallet: unlockedWallet(), method, params: [param], chainId, host: { origin: 'https://dapp.example', attested: true }, root: {} as HTMLElement, signal: new AbortController().signal })

const someoneElse = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey

/** A SOL transfer from `payer`, unsigned, as the frame sends it. */
function transfer(payer = new PublicKey(address)): string {
  const tx = new Transaction({ feePayer: payer, recentBlockhash: base58.encode(new Uint8Array(32).fill(9)) }).add(
    SystemProgram.transfer({ fromPubkey: payer, toPubkey: someoneElse, lamports: 1_000_000 }),
  )
  return base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))
}

beforeEach(() => {
  asked.length = 0
  decide = () => 'approved'
})
afterEach(() => Wallet.lock(current))

describe('sign: Solana', () => {
  test('behavior: an approved solana_signTransaction answers the whole transaction, signature in slot 0 over exactly the message described', async () => {
    const input = transfer()
    const result = await sign('solana_signTransaction', input)
    expect(Protocol.secureResults.sign({ result })).toBe(true)
    expect(asked).toHaveLength(1)
    const signed = VersionedTransaction.deserialize(base64.decode(result))
    const unsigned = VersionedTransaction.deserialize(base64.decode(input))
    expect([...signed.message.serialize()]).toEqual([...unsigned.message.serialize()])
    expect(ed25519.verify(signed.signatures[0]!, signed.message.serialize(), base58.decode(address))).toBe(true)
    expect(Transaction.from(base64.decode(result)).verifySignatures()).toBe(true)
  })

  test('behavior: an approved solana_signMessage answers the base58 signature of exactly those bytes', async () => {
    const message = new TextEncoder().encode('Sign in to dapp.example')
    const result = await sign('solana_signMessage', base64.encode(message))
    expect(Protocol.secureResults.sign({ result })).toBe(true)
    expect(ed25519.verify(base58.decode(result), message, base58.decode(address))).toBe(true)
  })

  test('error: a transaction whose fee payer is not this wallet is refused with -32602, and the person is never asked', async () => {
    await expect(sign('solana_signTransaction', transfer(someoneElse))).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/fee payer .* is not this wallet's address/) })
    expect(asked).toHaveLength(0)
  })

  test('error: a rejected request is 4001 and signs nothing', async () => {
    decide = () => 'rejected'
    await expect(sign('solana_signMessage', base64.encode(new Uint8Array([1, 2])))).rejects.toMatchObject({ code: 4001 })
  })

  test('error: a wallet that locked while the person decided signs nothing: 4100', async () => {
    decide = (wallet) => (Wallet.lock(wallet), 'approved')
    await expect(sign('solana_signTransaction', transfer())).rejects.toMatchObject({ code: 4100 })
  })
})
