/**
 * The Solana runtime of the namespace registry (registry.ts, issue 23): a lazy chunk, fetched when a
 * Solana account signs in or sends. Its transfer code (features/solana/SolanaSend.ts, with web3.js and
 * spl-token) is a chunk of its own again, so a sign-in fetches none of it.
 */
import * as Errors from '@doorway/shared/Errors'
import { errors } from '@doorway/shared/Texts'
import { base58 } from '@scure/base'
import type { Account } from '../../core/connection.js'
import { ExpiredError, RpcError, RpcUnavailableError, SendFailedError } from '../solana/SolanaErrors.js'
import type { Fee, Runtime, Sent, TransferRequest } from './registry.js'

/** Sign In With Solana: the wallet signs the message's UTF-8 bytes (ed25519); the signature goes base58, as Solana writes them. */
async function signIn(account: Account, message: string): Promise<string> {
  const signer = account.connector.solana
  if (!signer) throw Errors.unsupportedMethod()
  return base58.encode(await signer.signMessage(new TextEncoder().encode(message), account))
}

/**
 * The fee: the transaction as it would be sent, built and priced by the node; a rule the chain would
 * refuse (rent, funds) is said here, before the wallet asks. It stands as gas × a price of 1, in
 * lamports, so the spec §5 gas check reads it as it reads an EVM one.
 */
async function estimate(request: TransferRequest): Promise<Fee> {
  const Solana = await import('../solana/SolanaSend.js')
  const built = await Solana.build(request)
  return { gas: built.fee + built.rentLamports, gasPrice: 1n, ...(built.createsTokenAccount && { rent: built.rentLamports }) }
}

/** spec §4 sendToken, the Solana path: signed by the wallet, broadcast here, followed until confirmed or expired. */
async function send(request: TransferRequest): Promise<Sent> {
  const Solana = await import('../solana/SolanaSend.js')
  const { signature, confirmed } = await Solana.send(request)
  return { hash: signature, settled: () => confirmed().then(() => 'confirmed' as const, (error) => (error instanceof ExpiredError ? 'expired' : 'failed')) }
}

/**
 * The node unreachable or refusing the transaction, or the blockhash gone before it took it: nothing went
 * out. The send path wraps the node's errors in SendFailedError, their cause.
 */
const kept = (error: unknown): boolean =>
  error instanceof RpcUnavailableError || error instanceof RpcError || error instanceof ExpiredError || (error instanceof SendFailedError && error.cause !== undefined && kept(error.cause))

// spec §8: 'Failed to send transaction. Please try again.' on Solana failure.
export const runtime: Runtime = { signIn, transfer: { estimate, send, failed: errors.sendTransactionFailed, kept } }
