/**
 * A Solana request (docs/embedded-wallet.md §7), loaded by Signer.ts only when one comes: the key is
 * this wallet's SLIP-0010 key; a transaction it should not sign (another fee payer, another signer) is
 * refused before the person is asked (describeSolana.ts).
 */
import * as Errors from '@doorway/shared/Errors'
import { base58, base64 } from '@scure/base'
import * as DescribeSolana from '../approval/describeSolana.js'
import { approve, type Options } from './Signer.js'
import * as Solana from './Solana.js'
import * as SolanaTransaction from './SolanaTransaction.js'
import * as Wallet from './Wallet.js'

export async function sign(options: Options & { method: DescribeSolana.Method }): Promise<string> {
  const { wallet, method, params, chainId, signal, network } = options
  const key = await Wallet.solana(wallet, signal)
  let description: DescribeSolana.Description
  try {
    const fiat = network?.price !== undefined && network.currency ? { price: network.price, currency: network.currency } : undefined
    description = DescribeSolana.describe({ method, params, chainId, from: key.address, ...(network && { chainName: network.name }), ...(fiat && { fiat }) })
  } catch (error) {
    throw new Errors.ProviderRpcError(error instanceof Error ? error.message : String(error), { code: -32602 })
  }
  await approve(options, description)
  // What is signed is exactly the bytes described: the message, or the parsed transaction's message bytes.
  const signed = (bytes: Uint8Array) => {
    try {
      return Solana.sign(key, bytes)
    } catch {
      throw Errors.unauthorized() // locked or signed out while the person decided
    }
  }
  if (description.message) return base58.encode(signed(description.message))
  if (description.transaction) return base64.encode(SolanaTransaction.withSignature(description.transaction, signed(description.transaction.messageBytes)))
  throw Errors.userRejected()
}

