/**
 * One interface for every kind of connector (docs/architecture.md §9): injected (relayed from the host page),
 * and later WalletConnect, embedded and custom wallets. Views use capabilities, never the kind.
 */
import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'

/** spec §3 connector types. */
export type ConnectorType = 'WALLET_CONNECT' | 'INJECTED' | 'ANNOUNCED' | 'EXTERNAL' | 'MULTI_CHAIN' | 'AUTH'

export type Connector = {
  /** Stable across reloads: the wallet's rdns for injected wallets. */
  id: string
  name: string
  type: ConnectorType
  /** spec §3: the namespaces this wallet connects in; a wallet is offered only for these. */
  namespaces: readonly Caip.Namespace[]
  imageUrl?: string
  info?: { rdns: string }
  /** For host wallets: the uuid the host announced, which its forwarded events carry. */
  hostUuid?: string
  /** For Wallet Standard wallets: the id the host's chunk gave the wallet, which its events carry. */
  standardId?: string
  /** spec §3 account types: undefined is an EOA; smart accounts skip the gas check (spec §6). */
  accountType?: 'eoa' | 'smartAccount'
  /** A smart account whose network fees a paymaster pays (issue 25): spec §5's gas check does not apply to it. */
  gasless?: boolean
  /**
   * Revokes one of the smart account's sessions (issue 25): the on-chain disable as a user operation and
   * the api's record, in one approval. Only the embedded wallet's smart account has it, with features.smartSessions on.
   */
  revokeSession?(chainId: Caip.ChainId, delegation: unknown): Promise<void>
  /** spec §3 Account.user: the embedded wallet's login. */
  /** spec §3 Account user: the embedded wallet's login, with a social sign-in's name and picture. */
  user?: { email: string; username?: string; avatar?: string }
  /**
   * A JSON-RPC request to the wallet: EIP-1193 for eip155. A WalletConnect session routes another
   * namespace's wallet methods by `chainId` (CAIP-2).
   */
  request(request: Protocol.RpcRequest, chainId?: Caip.ChainId): Promise<unknown>
  /** Connects the wallet in a namespace other than eip155 (a Wallet Standard wallet's standard:connect). */
  connect?(namespace: Caip.Namespace, chainId: Caip.ChainId, options?: { silent?: boolean }): Promise<{ address: string; chainId: Caip.ChainId }>
  /** The networks the wallet holds accounts on (a WalletConnect session's); undefined: any it can switch to. */
  chains?(): Caip.ChainId[]
  /** Solana signing over wire bytes (features/solana), for wallets whose `namespaces` has solana. */
  solana?: SolanaSigner
  /** Ends the connection on the wallet's side too (a WalletConnect session); else EIP-2255 revoke. */
  disconnect?(): Promise<void>
}

/**
 * spec §5/§6 "smart accounts skip the gas check", read as the README says: a smart account whose fees a
 * paymaster pays. An unsponsored one pays its own fees, so its balance is checked like an EOA's.
 */
export const paysNoGas = (connector: Connector | undefined): boolean => connector?.accountType === 'smartAccount' && connector.gasless === true

/** The WalletConnect connector's id (its module is a lazy chunk; this constant is not). */
export const walletConnectId = 'walletConnect'
/** The embedded (email) wallet's connector id; its module is a lazy chunk too. */
export const embeddedId = 'embedded'

/** What a Solana wallet does with a transaction's or a message's bytes, whatever its connector. */
export type SolanaSigner = {
  /** The signed transaction's wire bytes; the frame broadcasts them. */
  signTransaction(bytes: Uint8Array, account: { address: string; chainId: Caip.ChainId }): Promise<Uint8Array>
  /** The ed25519 signature of the message bytes. */
  signMessage(bytes: Uint8Array, account: { address: string; chainId: Caip.ChainId }): Promise<Uint8Array>
}
