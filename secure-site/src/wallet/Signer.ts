/**
 * An unsafe request, decided here (docs/embedded-wallet.md §7): validated and described by the
 * secure-site itself, shown in its own DOM, and signed only on the pending → approved transition of
 * the approval, so a late click after an abort signs nothing. The frame gets a signature, or for
 * eth_sendTransaction the signed raw transaction it broadcasts (this origin has no chain access); for
 * solana_signTransaction the whole transaction with the signature in place (base64), for
 * solana_signMessage the signature (base58).
 */
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { base58, base64 } from '@scure/base'
import type { Hex, TypedDataDefinition } from 'viem'
import * as Approval from '../approval/Approval.js'
import * as Describe from '../approval/describe.js'
import * as DescribeSolana from '../approval/describeSolana.js'
import * as Solana from './Solana.js'
import * as SolanaTransaction from './SolanaTransaction.js'
import * as Wallet from './Wallet.js'

export type Options = {
  wallet: Wallet.Wallet
  method: (typeof Protocol.embeddedUnsafeMethods)[number]
  params: unknown[]
  chainId: string
  network?: Protocol.SecureParams['sign']['network']
  host: { origin: string; attested: boolean }
  root: HTMLElement
  signal: AbortSignal
}

export async function sign(options: Options): Promise<string> {
  const { method } = options
  if (DescribeSolana.isMethod(method)) return signSolana({ ...options, method })
  return signEvm({ ...options, method })
}

async function signEvm(options: Options & { method: Describe.Method }): Promise<Hex> {
  const { wallet, method, params, chainId, signal } = options
  // Unlock first: the approval names the account that will sign, and a locked device without a
  // session has nothing to approve.
  const account = await Wallet.account(wallet, signal)
  let description: Describe.Description
  try {
    const { network } = options
    const fiat = network?.price !== undefined && network.currency ? { price: network.price, currency: network.currency } : undefined
    description = Describe.describe({ method, params, chainId, from: account.address, ...(network && { chainName: network.name, nativeSymbol: network.symbol }), ...(fiat && { fiat }) })
  } catch (error) {
    throw new Errors.ProviderRpcError(error instanceof Error ? error.message : String(error), { code: -32602 })
  }
  await approve(options, description)
  // What is signed is exactly what was shown: the description's own values, never the raw params.
  if (description.message !== undefined) return account.signMessage({ message: { raw: description.message } })
  if (description.typedData) return account.signTypedData(description.typedData as TypedDataDefinition)
  if (description.transaction) return account.signTransaction(description.transaction)
  throw Errors.userRejected()
}

/**
 * A Solana request: the key is this wallet's SLIP-0010 key; a transaction it should not sign (another
 * fee payer, another signer) is refused before the person is asked (describeSolana.ts).
 */
async function signSolana(options: Options & { method: DescribeSolana.Method }): Promise<string> {
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

/** Asks the person; resolves only on pending → approved with the request still live. */
async function approve(options: Options, description: Approval.ask.Options['description']): Promise<void> {
  let decision: 'approved' | 'rejected'
  try {
    decision = await Approval.ask(options.root, { description, host: options.host, signal: options.signal })
  } catch {
    throw Errors.aborted()
  }
  if (decision !== 'approved' || options.signal.aborted) throw Errors.userRejected()
}
