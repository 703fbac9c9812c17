/**
 * One connector per wallet across namespaces (docs/architecture.md §4). Only needed once the host's
 * chunk reports Wallet Standard wallets, so it loads with their connectors (core/standardWallets.ts).
 */
import type { Connector } from './Connector.js'

/**
 * One connector per wallet: a wallet found both by EIP-6963 and by Wallet Standard (the same name)
 * becomes one connector in both namespaces, as people know it.
 */
export function merge(evm: readonly Connector[], solana: readonly Connector[]): Connector[] {
  const merged = evm.map((e) => {
    const twin = solana.find((s) => s.name === e.name)
    if (!twin) return e
    return {
      ...twin,
      ...e,
      namespaces: ['eip155', 'solana'] as const,
      connect: twin.connect!,
      solana: twin.solana!,
      standardId: twin.standardId!,
      // Both faces forget this site: Wallet Standard's disconnect, and EIP-2255 revocation where supported.
      async disconnect() {
        await twin.disconnect?.().catch(() => {})
        await e.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }).catch(() => {})
      },
    }
  })
  return [...merged, ...solana.filter((s) => !evm.some((e) => e.name === s.name))]
}
