/**
 * A Solana wallet on the host page, found by the SDK's Wallet Standard chunk (docs/architecture.md §4).
 * Its features are called through the host (`standardRequest`), which swaps in the wallet's own account
 * object; bytes cross as Uint8Array, and every answer is checked here before use.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import * as Protocol from '@doorway/shared/Protocol'
import * as S from '@doorway/shared/Schema'
import type { Host } from '../host.js'
import type { Connector, SolanaSigner } from './Connector.js'

// A wallet prompt waits on a person; it still ends (docs/architecture.md §4: every call has a timeout).
const walletTimeoutMs = 300_000

/** Wallet Standard names clusters; the frame names networks by CAIP-2 (notes: solana:localnet is the local chain). */
export const clusterOf = (chainId: Caip.ChainId): string => Caip.solanaCluster(chainId)

const connected = S.object({ accounts: S.array(Protocol.standardAccount, 16) })
const signedTransaction = S.object({ signedTransaction: Protocol.bytes(1232 + 64 * 16) })
// Wallet Standard's SolanaSignMessageOutput: `signatureType` is optional and, when given, ed25519.
/** An ed25519 signature is exactly 64 bytes. */
const signature: S.Schema<Uint8Array> = (x): x is Uint8Array => x instanceof Uint8Array && x.length === 64
const signedMessage = S.object({ signedMessage: Protocol.bytes(65_536), signature, signatureType: S.optional(S.literal('ed25519')) })

export function fromWallet(wallet: Protocol.StandardWallet, host: Host): Connector {
  const call = async <T>(feature: Protocol.StandardFeature, input: Record<string, unknown>, check: S.Schema<T>): Promise<T> => {
    if (!wallet.features.includes(feature)) throw Errors.unsupportedMethod()
    const answer = await host.call('standardRequest', { id: wallet.id, feature, input }, { timeoutMs: walletTimeoutMs })
    if (!check(answer)) throw new Errors.ProviderRpcError(`The wallet answered ${feature} with something else`)
    return answer
  }
  const solana: SolanaSigner = {
    async signTransaction(transaction, account) {
      const input = { account: account.address, transaction, chain: clusterOf(account.chainId) }
      return (await call('solana:signTransaction', input, signedTransaction)).signedTransaction
    },
    async signMessage(message, account) {
      return (await call('solana:signMessage', { account: account.address, message }, signedMessage)).signature
    },
  }
  return {
    id: `standard:${wallet.name}`,
    name: wallet.name,
    type: 'ANNOUNCED',
    namespaces: ['solana'],
    imageUrl: wallet.icon,
    standardId: wallet.id,
    request: () => Promise.reject(Errors.unsupportedMethod()),
    async connect(_namespace, chainId, options = {}) {
      // Wallet Standard's silent connect reconnects a trusted site without a prompt, or answers no account.
      const { accounts } = await call('standard:connect', options.silent ? { silent: true } : {}, connected)
      const cluster = clusterOf(chainId)
      const account = accounts.find((a) => a.chains.length === 0 || a.chains.includes(cluster)) ?? accounts[0]
      if (!account) throw Errors.userRejected()
      return { address: account.address, chainId }
    },
    async disconnect() {
      if (wallet.features.includes('standard:disconnect')) await call('standard:disconnect', {}, S.unknown)
    },
    solana,
  }
}
