/**
 * An unsafe request, decided here (docs/embedded-wallet.md §7): validated and described by the
 * secure-site itself, shown in its own DOM, and signed only on the pending → approved transition of
 * the approval, so a late click after an abort signs nothing. The frame gets a signature, or for
 * eth_sendTransaction the signed raw transaction it broadcasts (this origin has no chain access); for
 * solana_signTransaction the whole transaction with the signature in place (base64), for
 * solana_signMessage the signature (base58). For the person's smart account (issue 25) the key signs as its
 * owner: messages and typed data as they are (the account checks them, ERC-1271), and the operations the
 * frame builds (eth_signUserOperation) as the account's EIP-712 PackedUserOperation. A smart session's
 * delegation (eth_signDelegation) is signed as its EIP-712 Delegation; its revoke (doorway_revokeSession) is
 * the disabling operation's signature and, in the same approval, the owner's signature of
 * `Revoke session {pci}` for the api's record (docs/embedded-wallet.md "Smart sessions").
 */
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import type { Hex, TypedDataDefinition } from 'viem'
import * as Approval from '../approval/Approval.js'
import * as Describe from '../approval/describe.js'
import * as Wallet from './Wallet.js'

export type Options = {
  wallet: Wallet.Wallet
  method: (typeof Protocol.secureSignMethods)[number]
  params: unknown[]
  chainId: string
  network?: Protocol.SecureParams['sign']['network']
  /** The Delegation Framework on this chain: the account signed for is the smart account this key owns. */
  smartAccount?: Protocol.SecureParams['sign']['smartAccount']
  host: { origin: string; attested: boolean }
  root: HTMLElement
  signal: AbortSignal
}

/** The `sign` answer (Protocol.secureResults.sign): `revoke` only for doorway_revokeSession. */
export type Signed = { result: string; revoke?: Hex }

export async function sign(options: Options): Promise<Signed> {
  const { method } = options
  // Solana's parsing and describing are a chunk of their own: the secure-site's first load goes without them.
  if (method === 'solana_signTransaction' || method === 'solana_signMessage') return { result: await (await import('./SignSolana.js')).sign({ ...options, method }) }
  return signEvm({ ...options, method })
}

async function signEvm(options: Options & { method: Describe.Method }): Promise<Signed> {
  const { wallet, method, params, chainId, signal } = options
  // Unlock first: the approval names the account that will sign, and a locked device without a
  // session has nothing to approve.
  const account = await Wallet.account(wallet, signal)
  let description: Describe.Description
  try {
    const { network, smartAccount } = options
    const fiat = network?.price !== undefined && network.currency ? { price: network.price, currency: network.currency } : undefined
    // The modal's locale, as `configure` set it on this document: a session's dates read in it.
    const locale = options.root.ownerDocument?.documentElement.lang || undefined
    description = Describe.describe({
      method,
      params,
      chainId,
      // The key's own address: the smart account is derived from it in describe, never taken from the frame.
      from: account.address,
      ...(smartAccount && { smartAccount }),
      ...(network && { chainName: network.name, nativeSymbol: network.symbol }),
      ...(fiat && { fiat }),
      ...(locale && { locale }),
    })
  } catch (error) {
    throw new Errors.ProviderRpcError(error instanceof Error ? error.message : String(error), { code: -32602 })
  }
  await approve(options, description)
  // What is signed is exactly what was shown: the description's own values, never the raw params.
  if (description.message !== undefined) return { result: await account.signMessage({ message: { raw: description.message } }) }
  if (description.typedData) return { result: await account.signTypedData(description.typedData as TypedDataDefinition) }
  if (description.transaction) return { result: await account.signTransaction(description.transaction) }
  if (description.delegation) return { result: await account.signTypedData(description.delegation.typedData) }
  if (description.userOperation) {
    const result = await account.signTypedData(description.userOperation.typedData)
    // The HybridDeleGator takes its owner's ECDSA for ERC-1271, which is how the api checks the revoke.
    if (description.revoke) return { result, revoke: await account.signMessage({ message: description.revoke.message }) }
    return { result }
  }
  throw Errors.userRejected()
}

/** Asks the person; resolves only on pending → approved with the request still live. */
export async function approve(options: Options, description: Approval.ask.Options['description']): Promise<void> {
  let decision: 'approved' | 'rejected'
  try {
    decision = await Approval.ask(options.root, { description, host: options.host, signal: options.signal })
  } catch {
    throw Errors.aborted()
  }
  if (decision !== 'approved' || options.signal.aborted) throw Errors.userRejected()
}
