import {
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createTransferCheckedInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token'
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
import { format } from '@doorway/shared/Texts'
import { approveText } from '@doorway/shared/texts/approve'
import { base64 } from '@scure/base'
import { describe, expect, test } from 'vitest'
import * as DescribeSolana from './describeSolana.js'
import { InvalidRequest } from './internal/errors.js'

// Fixtures from web3.js and spl-token (tests only: the secure-site reads the bytes itself).
const key = (n: number) => Keypair.fromSeed(new Uint8Array(32).fill(n)).publicKey
const wallet = key(1)
const from = wallet.toBase58()
const recipient = key(2)
const mint = key(3)
const program = key(4)
const blockhash = new PublicKey(new Uint8Array(32).fill(9)).toBase58()
const chainId = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

function legacy(instructions: TransactionInstruction[], payer = wallet): string {
  const tx = new Transaction({ feePayer: payer, recentBlockhash: blockhash }).add(...instructions)
  return base64.encode(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))
}

function v0(instructions: TransactionInstruction[]): string {
  const message = new TransactionMessage({ payerKey: wallet, recentBlockhash: blockhash, instructions }).compileToV0Message()
  return base64.encode(new VersionedTransaction(message).serialize())
}

const signTransaction = (transaction: unknown, extra: Partial<DescribeSolana.Request> = {}) =>
  DescribeSolana.describe({ method: 'solana_signTransaction', params: [transaction], chainId, from, ...extra })
const values = (description: DescribeSolana.Description) => Object.fromEntries(description.rows.map((row) => [row.label, row.value]))

describe('describe: solana_signTransaction', () => {
  test('behavior: a SOL transfer reads "Send 1.5 SOL to {address}", with the fee payer and the most it can cost', () => {
    const description = signTransaction(legacy([SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 1_500_000_000 })]), { chainName: 'Solana Devnet' })
    expect(description.title).toBe(approveText.methods.solana_signTransaction)
    expect(description.rows).toEqual([
      { label: approveText.network, value: 'Solana Devnet' },
      { label: approveText.feePayer, value: from, mono: true },
      { label: approveText.fee, value: '0.000005 SOL' },
      { label: format(approveText.instruction, { n: 1 }), value: `Send 1.5 SOL to ${recipient.toBase58()}` },
    ])
    // What is signed: the very bytes described.
    expect(description.transaction!.message.accountKeys[0]).toBe(from)
  })

  test('behavior: a price in the dapp\'s currency is shown beside the exact amount', () => {
    const description = signTransaction(legacy([SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 2_000_000_000 })]), { fiat: { price: 150, currency: 'USD' } })
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toBe(`Send 2 SOL (≈ $300.00) to ${recipient.toBase58()}`)
    expect(values(description)[approveText.network]).toBe('Solana EtWT…xqa1')
  })

  test('behavior: an SPL transferChecked to a token account the transaction creates names its owner; the mint is shortened with its full value beside', () => {
    const destination = getAssociatedTokenAddressSync(mint, recipient)
    const source = getAssociatedTokenAddressSync(mint, wallet)
    const description = signTransaction(
      v0([
        createAssociatedTokenAccountIdempotentInstruction(wallet, destination, recipient, mint),
        createTransferCheckedInstruction(source, mint, destination, wallet, 12_500_000n, 6),
      ]),
    )
    const m = mint.toBase58()
    expect(description.rows.slice(3)).toEqual([
      { label: format(approveText.instruction, { n: 1 }), value: `Create a token account for ${recipient.toBase58()} (rent paid by you)` },
      { label: format(approveText.instruction, { n: 2 }), value: `Send 12.5 of token ${m.slice(0, 4)}…${m.slice(-4)} to ${recipient.toBase58()}` },
      { label: approveText.tokenMint, value: m, mono: true },
    ])
    expect(description.rows.some((row) => row.tone === 'warning')).toBe(false)
  })

  test('behavior: a transferChecked to an account it does not create names the token account, not an owner it cannot know', () => {
    const destination = key(5)
    const description = signTransaction(legacy([createTransferCheckedInstruction(key(6), mint, destination, wallet, 1n, 9)]))
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toMatch(new RegExp(`^Send 0\\.000000001 of token .+ to token account ${destination.toBase58()}$`))
  })

  test('behavior: a plain SPL transfer (no mint, no decimals) shows base units and the source account', () => {
    const source = key(6)
    const description = signTransaction(legacy([createTransferInstruction(source, key(5), wallet, 1_000_000n)]))
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toBe(`Send 1,000,000 base units of the token in ${source.toBase58().slice(0, 4)}…${source.toBase58().slice(-4)} to token account ${key(5).toBase58()}`)
    expect(values(description)[approveText.tokenSource]).toBe(source.toBase58())
  })

  test('behavior: an associated token account creation reads "Create a token account for {owner} (rent paid by you)"', () => {
    const description = signTransaction(legacy([createAssociatedTokenAccountInstruction(wallet, getAssociatedTokenAddressSync(mint, recipient), recipient, mint)]))
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toBe(`Create a token account for ${recipient.toBase58()} (rent paid by you)`)
  })

  test('behavior: compute budget instructions read in words, and the priority fee counts in the most it can cost', () => {
    const description = signTransaction(
      legacy([
        ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000 }),
        SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 1 }),
      ]),
    )
    const rows = values(description)
    expect(rows[format(approveText.instruction, { n: 1 })]).toBe('Set compute budget: at most 300,000 compute units')
    expect(rows[format(approveText.instruction, { n: 2 })]).toBe('Set compute budget: priority fee of 1,000 micro-lamports per compute unit')
    // 5000 lamports for the one signature + 300,000 units × 1,000 micro-lamports = 300 lamports.
    expect(rows[approveText.fee]).toBe('0.0000053 SOL')
  })

  test('behavior: without a limit, the priority fee is counted at 200,000 units an instruction', () => {
    const description = signTransaction(legacy([ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10 }), SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 1 })]))
    // 5000 + 200,000 × 10 / 10^6 = 5002 lamports.
    expect(values(description)[approveText.fee]).toBe('0.000005002 SOL')
  })

  test('behavior: an unknown program is "Call program {id} with {n} bytes of data", under a warning row shown first', () => {
    const call = { programId: program, keys: [{ pubkey: wallet, isSigner: true, isWritable: true }], data: Buffer.from([1, 2, 3, 4, 5]) }
    const description = signTransaction(legacy([call]))
    expect(description.rows[0]).toEqual({ label: approveText.warning, value: approveText.unknownProgram, tone: 'warning' })
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toBe(`Call program ${program.toBase58()} with 5 bytes of data`)
  })

  test('behavior: a Token-2022 transfer is not read (its fees and hooks need the chain): a program call with the warning', () => {
    const description = signTransaction(legacy([createTransferCheckedInstruction(key(6), mint, key(5), wallet, 1n, 0, [], TOKEN_2022_PROGRAM_ID)]))
    expect(description.rows[0]?.tone).toBe('warning')
    expect(values(description)[format(approveText.instruction, { n: 1 })]).toBe(`Call program ${TOKEN_2022_PROGRAM_ID.toBase58()} with 10 bytes of data`)
  })

  test('error: a transaction whose fee payer is not this wallet is refused before anyone is asked', () => {
    const other = key(7)
    expect(() => signTransaction(legacy([SystemProgram.transfer({ fromPubkey: other, toPubkey: recipient, lamports: 1 })], other))).toThrow(
      new InvalidRequest(`solana_signTransaction: the fee payer ${other.toBase58()} is not this wallet's address`),
    )
  })

  test('error: a transaction that needs another signer besides this wallet is refused', () => {
    const transfer = SystemProgram.transfer({ fromPubkey: key(7), toPubkey: recipient, lamports: 1 })
    expect(() => signTransaction(legacy([transfer]))).toThrow(/needs 2 signers/)
  })

  test.each([
    ['not a string', 42, /not base64/],
    ['empty', '', /not base64/],
    ['not base64', 'not base64!', /not base64/],
    ['base64 without its padding', 'AQI', /base64/],
    ['base64 with stray bits (another spelling of the same bytes)', 'AQJ=', /base64/],
    ['bytes that are not a transaction', base64.encode(new Uint8Array([1, 2, 3])), /^solana_signTransaction: the bytes end/],
  ])('error: a transaction that is %s is refused', (_, transaction, message) => {
    expect(() => signTransaction(transaction)).toThrow(InvalidRequest)
    expect(() => signTransaction(transaction)).toThrow(message)
  })

  test('error: a budget set twice (the runtime would refuse it) is refused', () => {
    const twice = legacy([ComputeBudgetProgram.setComputeUnitLimit({ units: 1 }), ComputeBudgetProgram.setComputeUnitLimit({ units: 2 })])
    expect(() => signTransaction(twice)).toThrow(/same compute budget twice/)
  })

  test.each([
    ['an EVM chain', 'eip155:1'],
    ['not CAIP-2', 'solana'],
  ])('param: a chainId that is %s is refused', (_, id) => {
    const transfer = legacy([SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 1 })])
    expect(() => signTransaction(transfer, { chainId: id })).toThrow(/is not a Solana network/)
  })

  test('param: more than one param is refused', () => {
    expect(() => DescribeSolana.describe({ method: 'solana_signTransaction', params: ['a', 'b'], chainId, from })).toThrow(/expected 1 param, got 2/)
  })
})

describe('describe: solana_signMessage', () => {
  const signMessage = (message: unknown) => DescribeSolana.describe({ method: 'solana_signMessage', params: [message], chainId, from })

  test('behavior: readable UTF-8 is shown as text, and exactly those bytes are signed', () => {
    const bytes = new TextEncoder().encode('Sign in to dapp.example')
    const description = signMessage(base64.encode(bytes))
    expect(description.title).toBe(approveText.methods.solana_signMessage)
    expect(values(description)).toMatchObject({ [approveText.account]: from, [approveText.message]: 'Sign in to dapp.example' })
    expect([...description.message!]).toEqual([...bytes])
  })

  test('behavior: other bytes are shown as hex', () => {
    expect(values(signMessage(base64.encode(new Uint8Array([0xff, 0x00, 0x10]))))[approveText.messageHex]).toBe('0xff0010')
  })

  test('error: a message that is a Solana transaction or its message is refused: it would be a transaction signed blind', () => {
    const wire = base64.decode(legacy([SystemProgram.transfer({ fromPubkey: wallet, toPubkey: recipient, lamports: 1 })]))
    expect(() => signMessage(base64.encode(wire))).toThrow(/is a Solana transaction/)
    expect(() => signMessage(base64.encode(wire.slice(65)))).toThrow(/is a Solana transaction/)
  })

  test('error: a message over 64 KiB is refused', () => {
    expect(() => signMessage(base64.encode(new Uint8Array(DescribeSolana.maxMessageBytes + 1)))).toThrow(/at most 65536 bytes|over 65536 bytes/)
  })
})
