/**
 * Solana over a WalletConnect session (WalletConnect's Solana payloads): the transaction crosses as
 * base64 wire bytes and the wallet answers the signature in base58, and the signed transaction when it
 * chooses to; a message crosses in base58.
 */
import * as Errors from '@doorway/shared/Errors'
import { base58, base64 } from '@scure/base'
import type { Connector, SolanaSigner } from '../../core/connectors/Connector.js'

export function signer(request: Connector['request']): SolanaSigner {
  return {
    async signTransaction(bytes, account) {
      const answer = await request({ method: 'solana_signTransaction', params: { transaction: base64.encode(bytes) } }, account.chainId)
      const { signature, transaction } = (answer ?? {}) as { signature?: unknown; transaction?: unknown }
      if (typeof transaction === 'string') return base64.decode(transaction)
      if (typeof signature !== 'string') throw new Errors.ProviderRpcError('The wallet answered without a signature')
      return withSignature(bytes, base58.decode(signature))
    },
    async signMessage(bytes, account) {
      const answer = await request({ method: 'solana_signMessage', params: { message: base58.encode(bytes), pubkey: account.address } }, account.chainId)
      const { signature } = (answer ?? {}) as { signature?: unknown }
      if (typeof signature !== 'string') throw new Errors.ProviderRpcError('The wallet answered without a signature')
      return base58.decode(signature)
    },
  }
}

/**
 * The wire transaction with the fee payer's signature in its first slot: a compact-u16 count of
 * signatures (one byte below 128), then 64 bytes each, then the message.
 */
export function withSignature(transaction: Uint8Array, signature: Uint8Array): Uint8Array {
  if (signature.length !== 64 || transaction[0] === undefined || transaction[0] < 1 || transaction[0] > 127)
    throw new Errors.ProviderRpcError('The wallet answered with a signature that does not fit the transaction')
  const signed = transaction.slice()
  signed.set(signature, 1)
  return signed
}
