/**
 * One interface for every kind of connector (docs/architecture.md §9): injected (relayed from the host page),
 * and later WalletConnect, embedded and custom wallets. Views use capabilities, never the kind.
 */
import type * as Protocol from '@doorway/shared/Protocol'

/** spec §3 connector types. */
export type ConnectorType = 'WALLET_CONNECT' | 'INJECTED' | 'ANNOUNCED' | 'EXTERNAL' | 'MULTI_CHAIN' | 'AUTH'

export type Connector = {
  /** Stable across reloads: the wallet's rdns for injected wallets. */
  id: string
  name: string
  type: ConnectorType
  chain: 'eip155'
  imageUrl?: string
  info?: { rdns: string }
  /** For host wallets: the uuid the host announced, which its forwarded events carry. */
  hostUuid?: string
  /** spec §3 account types: undefined is an EOA; smart accounts skip the gas check (spec §6). */
  accountType?: 'eoa' | 'smartAccount'
  /** spec §3 Account.user: the embedded wallet's login. */
  user?: { email: string }
  request(request: Protocol.RpcRequest): Promise<unknown>
  /** Ends the connection on the wallet's side too (a WalletConnect session); else EIP-2255 revoke. */
  disconnect?(): Promise<void>
}

/** The WalletConnect connector's id (its module is a lazy chunk; this constant is not). */
export const walletConnectId = 'walletConnect'
/** The embedded (email) wallet's connector id; its module is a lazy chunk too. */
export const embeddedId = 'embedded'
