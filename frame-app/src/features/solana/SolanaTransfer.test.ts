import * as SolanaTokens from '@doorway/devnet/solana/tokens'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Keypair, PublicKey } from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as SolanaConfirm from './SolanaConfirm.js'
import { ExpiredError, InsufficientFundsError, InvalidSendError, RentError, SendFailedError } from './SolanaErrors.js'
import * as SolanaRpc from './SolanaRpc.js'
import * as SolanaTransfer from './SolanaTransfer.js'
import { closedUrl, freshAddress, funded, lamportsOf, lamportsPerSol, sign, startChain } from './solana.testing.js'

let setup: Awaited<ReturnType<typeof startChain>>
let dusd: { mint: string; decimals: number }
let sender: Keypair
let from: string
beforeAll(async () => {
  setup = await startChain()
  ;({ dusd } = await SolanaTokens.deploy(setup.chain))
  sender = await funded(setup.chain, 2)
  // deploy gave dev key 2 its DUSD
  from = sender.publicKey.toBase58()
})
afterAll(() => setup.chain.stop())

/** The wallet signs, the frame broadcasts and follows: the built transaction lands. */
async function land(built: SolanaTransfer.Built, signer = sender) {
  const signature = await SolanaConfirm.broadcast(setup.rpc, sign(built.bytes, signer))
  return SolanaConfirm.confirm(setup.rpc, signature, built.lastValidBlockHeight, { intervalMs: 10 })
}
const rentExempt = (size: number) => setup.rpc.call('getMinimumBalanceForRentExemption', [size], (x): x is number => typeof x === 'number').then(BigInt)
/** What the node says `owner` holds of DUSD (its token accounts of that mint, summed). */
async function tokensOf(owner: string): Promise<bigint> {
  const parsed = { commitment: 'confirmed', encoding: 'jsonParsed' }
  const held = (x: unknown): x is { value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] } => typeof x === 'object' && x !== null
  const { value } = await setup.rpc.call('getTokenAccountsByOwner', [owner, { mint: dusd.mint }, parsed], held)
  return value.reduce((sum, { account }) => sum + BigInt(account.data.parsed.info.tokenAmount.amount), 0n)
}

describe('sol', () => {
  test('behavior: a SOL send lands; the sender pays amount and fee, the receiver gets the amount', async () => {
    const to = freshAddress()
    const before = await lamportsOf(setup.rpc, from)
    const built = await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: lamportsPerSol / 2n })
    expect(built).toMatchObject({ fee: 5_000n, createsTokenAccount: false, rentLamports: 0n })
    await land(built)
    expect(await lamportsOf(setup.rpc, to)).toBe(lamportsPerSol / 2n)
    expect(await lamportsOf(setup.rpc, from)).toBe(before - lamportsPerSol / 2n - built.fee)
  })

  test('error: less than the rent-exempt minimum to a new account', async () => {
    const minimum = await rentExempt(0)
    const error = await SolanaTransfer.sol({ rpc: setup.rpc, from, to: freshAddress(), lamports: minimum - 1n }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RentError)
    expect(error).toMatchObject({ kind: 'receiver', minimum })
    expect((error as Error).message).toBe('A new Solana account must receive at least 0.00089088 SOL (the rent-exempt minimum).')
  })

  test('behavior: a small amount to an existing account is fine', async () => {
    const to = freshAddress()
    await land(await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: await rentExempt(0) }))
    await land(await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: 1n }))
    expect(await lamportsOf(setup.rpc, to)).toBe((await rentExempt(0)) + 1n)
  })

  test('error: more than the balance with the fee', async () => {
    const poor = Keypair.generate()
    await setup.chain.airdrop(poor.publicKey.toBase58(), lamportsPerSol)
    const error = await SolanaTransfer.sol({ rpc: setup.rpc, from: poor.publicKey.toBase58(), to: from, lamports: lamportsPerSol }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InsufficientFundsError)
    expect(error).toMatchObject({ asset: 'SOL', needed: lamportsPerSol + 5_000n, available: lamportsPerSol })
    expect((error as Error).message).toBe('Not enough SOL: this send needs 1.000005 SOL with the network fee, and your account holds 1 SOL.')
  })

  test('error: leaving the sender below the rent-exempt minimum; sending it all is fine', async () => {
    const payer = Keypair.generate()
    await setup.chain.airdrop(payer.publicKey.toBase58(), lamportsPerSol)
    const parameters = { rpc: setup.rpc, from: payer.publicKey.toBase58(), to: from }
    await expect(SolanaTransfer.sol({ ...parameters, lamports: lamportsPerSol - 5_000n - 100n })).rejects.toMatchObject({ name: 'SolanaRentError', kind: 'sender' })
    await land(await SolanaTransfer.sol({ ...parameters, lamports: lamportsPerSol - 5_000n }), payer)
    expect(await lamportsOf(setup.rpc, parameters.from)).toBe(0n)
  })

  test('error: an expired blockhash between build and broadcast, then a rebuilt send lands', async () => {
    const to = freshAddress()
    const built = await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: lamportsPerSol / 10n })
    setup.chain.expireBlockhash()
    await expect(SolanaConfirm.broadcast(setup.rpc, sign(built.bytes, sender))).rejects.toBeInstanceOf(ExpiredError)
    const rebuilt = await SolanaTransfer.sol({ rpc: setup.rpc, from, to, lamports: lamportsPerSol / 10n })
    expect(rebuilt.blockhash).not.toBe(built.blockhash)
    await land(rebuilt)
    expect(await lamportsOf(setup.rpc, to)).toBe(lamportsPerSol / 10n)
  })

  test('error: RPC down is the spec §8 send failure', async () => {
    const rpc = SolanaRpc.create(await closedUrl())
    const error = await SolanaTransfer.sol({ rpc, from, to: freshAddress(), lamports: 1n }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SendFailedError)
    expect((error as Error).message).toBe('Failed to send transaction. Please try again.')
    expect((error as Error).cause).toMatchObject({ name: 'SolanaRpcUnavailableError', reason: 'network' })
  })

  test('behavior: a cancelled build rejects with the signal reason', async () => {
    const built = SolanaTransfer.sol({ rpc: setup.rpc, from, to: freshAddress(), lamports: lamportsPerSol, signal: AbortSignal.abort(new Error('closed')) })
    await expect(built).rejects.toThrowError('closed')
  })
})

describe('validation (spec §5)', () => {
  const valid = () => ({ rpc: setup.rpc, from, to: freshAddress(), lamports: 1_000_000n, mint: dusd.mint, amount: 1n, decimals: dusd.decimals })
  test.each([
    ['receiver', 'an EVM address', { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }],
    ['receiver', 'empty', { to: '' }],
    ['receiver', '45 characters', { to: '1'.repeat(45) }],
    ['receiver', 'fewer than 32 bytes in base58', { to: '2'.repeat(32) }],
    ['sender', 'not base58', { from: 'not base58 0OIl' }],
    ['amount', '0', { lamports: 0n, amount: 0n }],
    ['amount', 'negative', { lamports: -1n, amount: -1n }],
    ['amount', 'not a bigint', { lamports: 1.5, amount: 1.5 }],
  ] as const)('param: the %s (%s) is refused with the spec message', async (field, _, change) => {
    const parameters = { ...valid(), ...change } as SolanaTransfer.sol.Parameters & SolanaTransfer.spl.Parameters
    for (const build of [SolanaTransfer.sol, SolanaTransfer.spl]) {
      const error = await build(parameters).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidSendError)
      expect(error).toMatchObject({ field, message: 'Please enter a valid amount and receiver address' })
    }
  })

  test.each([[-1], [1.5], [256]])('param: spl refuses %s decimals', async (decimals) => {
    await expect(SolanaTransfer.spl({ ...valid(), decimals })).rejects.toMatchObject({ field: 'decimals' })
  })

  test('param: spl refuses decimals other than the mint’s', async () => {
    await expect(SolanaTransfer.spl({ ...valid(), decimals: dusd.decimals + 1 })).rejects.toMatchObject({ field: 'decimals' })
  })

  test('param: spl refuses a receiver no key holds (a token account, say)', async () => {
    const tokenAccount = getAssociatedTokenAddressSync(new PublicKey(dusd.mint), sender.publicKey).toBase58()
    await expect(SolanaTransfer.spl({ ...valid(), to: tokenAccount })).rejects.toMatchObject({
      field: 'receiver',
      detail: 'This address belongs to a program, not a wallet: tokens sent to it are usually lost.',
    })
  })
})

describe('spl', () => {
  const units = (n: bigint) => n * 10n ** BigInt(dusd.decimals)

  test('behavior: a send to a fresh owner opens their token account, reports its rent, and lands', async () => {
    const to = freshAddress()
    const before = { lamports: await lamportsOf(setup.rpc, from), tokens: await tokensOf(from) }
    const built = await SolanaTransfer.spl({ rpc: setup.rpc, from, to, mint: dusd.mint, amount: units(25n), decimals: dusd.decimals })
    const rent = await rentExempt(165)
    expect(built).toMatchObject({ createsTokenAccount: true, rentLamports: rent, fee: 5_000n })
    await land(built)
    expect(await tokensOf(to)).toBe(units(25n))
    expect(await tokensOf(from)).toBe(before.tokens - units(25n))
    expect(await lamportsOf(setup.rpc, from)).toBe(before.lamports - rent - built.fee)
  })

  test('behavior: a second send to the same owner opens nothing', async () => {
    const to = freshAddress()
    await land(await SolanaTransfer.spl({ rpc: setup.rpc, from, to, mint: dusd.mint, amount: 1n, decimals: dusd.decimals }))
    const built = await SolanaTransfer.spl({ rpc: setup.rpc, from, to, mint: dusd.mint, amount: 2n, decimals: dusd.decimals })
    expect(built).toMatchObject({ createsTokenAccount: false, rentLamports: 0n })
    await land(built)
    expect(await tokensOf(to)).toBe(3n)
  })

  test('error: more tokens than held', async () => {
    const held = await tokensOf(from)
    const error = await SolanaTransfer.spl({ rpc: setup.rpc, from, to: freshAddress(), mint: dusd.mint, amount: held + 1n, decimals: dusd.decimals, symbol: 'DUSD' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InsufficientFundsError)
    expect(error).toMatchObject({ asset: dusd.mint, needed: held + 1n, available: held })
    expect((error as Error).message).toMatch(/^Not enough DUSD: your account holds [\d,.]+ DUSD\.$/)
  })

  test('error: tokens but no SOL for the fee and the new token account', async () => {
    const holder = Keypair.generate()
    const address = holder.publicKey.toBase58()
    await SolanaTokens.fund(setup.chain, address, { sol: '0.001', dusd: '5' })
    const error = await SolanaTransfer.spl({ rpc: setup.rpc, from: address, to: freshAddress(), mint: dusd.mint, amount: units(1n), decimals: dusd.decimals }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InsufficientFundsError)
    expect((error as Error).message).toMatch(/^Not enough SOL: this send needs 0\.00204428 SOL for the network fee and the receiver's new token account/)
  })
})
