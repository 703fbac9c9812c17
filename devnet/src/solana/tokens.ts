/**
 * The devnet's Solana funds: the DUSD mint (classic SPL Token, 6 decimals; Token-2022 is not loaded in
 * litesvm) at the same address on every start, and dev keys 0–9 holding 100 SOL and 10,000 DUSD each
 * (DUSD in their associated token accounts). Everything goes through the chain's own JSON-RPC, as a
 * wallet's transactions would. `import * as SolanaTokens from './solana/tokens.js'` →
 * `await SolanaTokens.deploy(chain)`.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Connection, type Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js'
import { parseUnits } from 'viem'
import * as Keys from './keys.js'
import type { Chain } from './rpc.js'

export const dusd = { symbol: 'DUSD', name: 'Doorway USD', decimals: 6 } as const

/** Key indexes of the test mnemonic: the mint's own key (its address) and its mint authority, which pays. */
export const keyIndexes = { mint: 999, authority: 998 } as const

/** What deploy tops each dev key up to, in whole units. */
export const funding = { keys: 10, sol: '100', dusd: '10000' } as const

/** Each call to the chain gives up after this long (a stuck devnet fails the start, it does not hang it). */
export const requestTimeoutMs = 10_000

/** A client of the chain's JSON-RPC whose every request has a timeout. */
function connect(chain: Chain): Connection {
  return new Connection(chain.url, { commitment: 'confirmed', fetchMiddleware: (info, init, next) => next(info, { ...init, signal: AbortSignal.timeout(requestTimeoutMs) }) })
}

/** DUSD's mint address: the same on every start, as it derives from the test mnemonic. */
export const mintAddress = () => Keys.address(keyIndexes.mint)

export type Deployed = { dusd: { mint: string; decimals: 6; symbol: 'DUSD'; name: 'Doorway USD' } }

/**
 * Creates the DUSD mint unless it exists, then tops dev keys 0–9 up to `funding` (so a second call
 * changes nothing).
 */
export async function deploy(chain: Chain): Promise<Deployed> {
  const connection = connect(chain)
  await ensureMint(chain, connection)
  for (let index = 0; index < funding.keys; index++) {
    const owner = new PublicKey(Keys.address(index))
    const lamports = BigInt(await connection.getBalance(owner))
    const wantLamports = parseUnits(funding.sol, 9)
    if (lamports < wantLamports) await chain.airdrop(owner.toBase58(), wantLamports - lamports)
    const units = await dusdBalance(connection, owner)
    const wantUnits = parseUnits(funding.dusd, dusd.decimals)
    if (units < wantUnits) await mintDusd(connection, owner, wantUnits - units)
  }
  return { dusd: { mint: mintAddress(), ...dusd } }
}

/** Adds `sol` and `dusd` (whole units, e.g. '1.5') to `address`, creating its DUSD account if needed. */
export async function fund(chain: Chain, address: string, amounts: { sol?: string; dusd?: string }): Promise<void> {
  const owner = new PublicKey(address)
  const sol = amounts.sol === undefined ? undefined : units(amounts.sol, 9, 'sol')
  const dusdUnits = amounts.dusd === undefined ? undefined : units(amounts.dusd, dusd.decimals, 'dusd')
  if (sol !== undefined) await chain.airdrop(owner.toBase58(), sol)
  if (dusdUnits === undefined) return
  const connection = connect(chain)
  await ensureMint(chain, connection)
  await mintDusd(connection, owner, dusdUnits)
}

function units(amount: string, decimals: number, name: string): bigint {
  if (!new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`).test(amount)) throw new Error(`${name} must be a positive amount with at most ${decimals} decimals, not "${amount}"`)
  const value = parseUnits(amount, decimals)
  if (value <= 0n) throw new Error(`${name} must be more than 0`)
  return value
}

async function ensureMint(chain: Chain, connection: Connection) {
  const mint = Keys.keypair(keyIndexes.mint)
  const authority = Keys.keypair(keyIndexes.authority)
  // The authority pays every fee: enough for thousands of transactions.
  if ((await connection.getBalance(authority.publicKey)) < 1e9) await chain.airdrop(authority.publicKey.toBase58(), 10n ** 10n)
  if (await connection.getAccountInfo(mint.publicKey)) return
  const lamports = await connection.getMinimumBalanceForRentExemption(MINT_SIZE)
  await send(connection, authority, [mint], [
    SystemProgram.createAccount({ fromPubkey: authority.publicKey, newAccountPubkey: mint.publicKey, lamports, space: MINT_SIZE, programId: TOKEN_PROGRAM_ID }),
    createInitializeMint2Instruction(mint.publicKey, dusd.decimals, authority.publicKey, null),
  ])
}

async function dusdBalance(connection: Connection, owner: PublicKey): Promise<bigint> {
  const account = getAssociatedTokenAddressSync(new PublicKey(mintAddress()), owner, true)
  if (!(await connection.getAccountInfo(account))) return 0n
  return BigInt((await connection.getTokenAccountBalance(account)).value.amount)
}

async function mintDusd(connection: Connection, owner: PublicKey, units: bigint) {
  const authority = Keys.keypair(keyIndexes.authority)
  const mint = new PublicKey(mintAddress())
  const account = getAssociatedTokenAddressSync(mint, owner, true)
  await send(connection, authority, [], [
    createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, account, owner, mint),
    createMintToCheckedInstruction(mint, account, authority.publicKey, units, dusd.decimals),
  ])
}

/** Sends and checks the landed status (the devnet executes a transaction as it receives it). */
async function send(connection: Connection, payer: Keypair, signers: Keypair[], instructions: TransactionInstruction[]) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash()
  const transaction = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(...instructions)
  transaction.sign(payer, ...signers)
  const signature = await connection.sendRawTransaction(transaction.serialize())
  const { value } = await connection.getSignatureStatuses([signature])
  if (!value[0] || value[0].err) throw new Error(`Funding transaction ${signature} did not land: ${JSON.stringify(value[0]?.err ?? 'not found')}`)
}
