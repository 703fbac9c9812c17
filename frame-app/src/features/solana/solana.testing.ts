/**
 * What the Solana chunk's tests share: a fresh devnet chain (litesvm behind its JSON-RPC server) with a
 * client to it, the wallet's part (signing with a devnet key), and a node that is down.
 */
import * as SolanaKeys from '@doorway/devnet/solana/keys'
import * as DevnetRpc from '@doorway/devnet/solana/rpc'
import { Keypair, VersionedTransaction } from '@solana/web3.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as SolanaRpc from './SolanaRpc.js'

export const lamportsPerSol = 1_000_000_000n

export async function startChain() {
  const chain = await DevnetRpc.start({ port: 0 })
  return { chain, rpc: SolanaRpc.create(chain.url) }
}

/** Devnet key `index`, funded with `sol` SOL on `chain`. */
export async function funded(chain: DevnetRpc.Chain, index: number, sol = 10n): Promise<Keypair> {
  const keypair = SolanaKeys.keypair(index)
  await chain.airdrop(keypair.publicKey.toBase58(), sol * lamportsPerSol)
  return keypair
}

/** A fresh account nobody has used: it does not exist on chain yet. */
export const freshAddress = () => Keypair.generate().publicKey.toBase58()

/** What the wallet does with the bytes it is asked to sign (the devnet test wallets sign so too). */
export function sign(bytes: Uint8Array, keypair: Keypair): Uint8Array {
  const transaction = VersionedTransaction.deserialize(bytes)
  transaction.sign([keypair])
  return transaction.serialize()
}

/** The URL of a port nothing listens on: a server was there and is gone. */
export async function closedUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
  return `http://127.0.0.1:${port}/`
}

export async function lamportsOf(rpc: SolanaRpc.Rpc, address: string): Promise<bigint> {
  const { value } = await rpc.call('getBalance', [address], (x): x is { value: number } => typeof x === 'object' && x !== null)
  return BigInt(value)
}
