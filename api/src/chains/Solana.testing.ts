/**
 * Test helpers for the Solana routes: fresh ed25519 accounts and the two transfers a wallet makes (SOL
 * by the System program, SPL by transferChecked), built and signed by hand (node:crypto) and sent to the
 * devnet's chain, which verifies the signatures. The api itself never builds a transaction.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto'
import * as Base58 from './Base58.js'

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

export function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`)
  let text = ''
  for (; n > 0n; n /= 58n) text = alphabet[Number(n % 58n)] + text
  for (const byte of bytes) {
    if (byte !== 0) break
    text = `1${text}`
  }
  return text
}

export type Account = { address: string; key: KeyObject }

/** A new account nobody else uses, so a test owns its balances and history. */
export function account(): Account {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32)
  return { address: base58(raw), key: privateKey }
}

/** A keypair of the devnet's (its 64-byte secret key: seed, then public key) as an Account. */
export function fromSecretKey(secretKey: Uint8Array, address: string): Account {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), secretKey.subarray(0, 32)])
  return { address, key: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }) }
}

export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

const systemProgram = '11111111111111111111111111111111'
const tokenProgram = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

const u64 = (n: bigint) => {
  const bytes = Buffer.alloc(8)
  bytes.writeBigUInt64LE(n)
  return bytes
}
const key = (address: string) => Buffer.from(Base58.decode(address)!)

/**
 * A legacy transaction paid and signed by `payer` (account 0): `keys` in the message's order (signer,
 * then writable, then read-only; `header` counts them) and one instruction over them.
 */
type Message = { header: [number, number, number]; keys: string[]; program: number; accounts: number[]; data: Buffer }

async function send(url: string, payer: Account, message: Message, options: { skipPreflight?: boolean } = {}) {
  const { value } = (await rpc(url, 'getLatestBlockhash', [{ commitment: 'confirmed' }])) as { value: { blockhash: string } }
  const bytes = Buffer.concat([
    Buffer.from(message.header),
    Buffer.from([message.keys.length]),
    ...message.keys.map(key),
    key(value.blockhash),
    Buffer.from([1, message.program, message.accounts.length, ...message.accounts, message.data.length]),
    message.data,
  ])
  const signature = sign(null, bytes, payer.key)
  const wire = Buffer.concat([Buffer.from([1]), signature, bytes])
  return (await rpc(url, 'sendTransaction', [wire.toString('base64'), { encoding: 'base64', skipPreflight: options.skipPreflight ?? false }])) as string
}

/** System transfer of `lamports` from `from` to `to`; its signature. With skipPreflight a failing one lands, failed. */
export function sendSol(url: string, from: Account, to: string, lamports: bigint, options: { skipPreflight?: boolean } = {}): Promise<string> {
  const data = Buffer.concat([Buffer.from([2, 0, 0, 0]), u64(lamports)])
  return send(url, from, { header: [1, 0, 1], keys: [from.address, to, systemProgram], program: 2, accounts: [0, 1], data }, options)
}

/** The owner's token account of `mint` (the first the node lists). */
export async function tokenAccount(url: string, owner: string, mint: string): Promise<string> {
  const { value } = (await rpc(url, 'getTokenAccountsByOwner', [owner, { mint }, { encoding: 'jsonParsed' }])) as { value: { pubkey: string }[] }
  if (!value[0]) throw new Error(`${owner} holds no ${mint} account`)
  return value[0].pubkey
}

/**
 * transferChecked of `amount` base units from `from`'s token account to `to`'s (both must exist). The
 * recipient's wallet is named in the message too, read-only, as a wallet's idempotent account opening
 * names it, so the recipient's history lists the transfer.
 */
export async function sendToken(url: string, from: Account, to: string, token: { mint: string; decimals: number; amount: bigint }): Promise<string> {
  const [source, destination] = await Promise.all([tokenAccount(url, from.address, token.mint), tokenAccount(url, to, token.mint)])
  const data = Buffer.concat([Buffer.from([12]), u64(token.amount), Buffer.from([token.decimals])])
  const keys = [from.address, source, destination, token.mint, to, tokenProgram]
  return send(url, from, { header: [1, 0, 3], keys, program: 5, accounts: [1, 3, 2, 0], data })
}
