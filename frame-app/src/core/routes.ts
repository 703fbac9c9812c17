/**
 * Typed routes: every view of spec §2 with its own arguments. No catch-all data bag.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { SocialProvider } from '@doorway/shared/Constants'
import type { ViewName } from '@doorway/shared/Protocol'

export type Route =
  | { view: 'Connect' }
  | { view: 'Account' }
  | { view: 'AllWallets' }
  | { view: 'ConnectingWalletConnectBasic' }
  | { view: 'ApproveTransaction'; requestId: string }
  | { view: 'SIWXSignMessage' }
  | { view: 'ConnectingExternal'; connectorId: string }
  | { view: 'ConnectingWalletConnect'; walletId?: string }
  | { view: 'ConnectingSiwe' }
  | { view: 'ConnectingFarcaster' }
  /** A social sign-in: the popup is at the provider, the flow is redeemed (features/embedded/socialLogin.ts). */
  | { view: 'ConnectingSocial'; provider: SocialProvider }
  /** The email and code steps: the secure-site draws both over the view (docs/embedded-wallet.md §4). */
  | { view: 'EmailLogin' }
  | { view: 'EmailVerifyOtp' }
  /** A new browser for an existing wallet: waiting for the approval from the mailed link (VERIFY_DEVICE). */
  | { view: 'EmailVerifyDevice' }
  | { view: 'ExportWallet' }
  /** The embedded wallet's devices and activity, shown by the secure-site (docs/embedded-wallet.md §10). */
  | { view: 'WalletSecurity' }
  /** The smart account's sessions (issue 25), when the dapp turned features.smartSessions on. */
  | { view: 'SmartSessionList' }
  | { view: 'UnsupportedChain' }
  | { view: 'RegisterAccountName' }
  | { view: 'RegisterAccountNameSuccess'; name: string }
  | { view: 'Networks' }
  /** The send flow starts by choosing a token, unless `open()` gave one (features/send/sendArguments.ts). */
  | { view: 'Send'; prefill?: SendPrefill }
  | { view: 'SendAmount' }
  | { view: 'SendReceiver' }
  | { view: 'SendPreview' }
  | { view: 'SendConfirm' }
  | { view: 'SendResult'; hash: string; chainId: ChainId }
  | { view: 'Receive' }
  /** The swap form, prepared from `open()`'s arguments when given (features/swap/swapArguments.ts). */
  | { view: 'Swap'; prefill?: SwapPrefill }
  /** The token picker of one side of the swap. */
  | { view: 'SwapSelectToken'; side: 'from' | 'to' }
  /** Approve (when the allowance is short), then swap; each asks the wallet. */
  | { view: 'SwapPreview' }
  | { view: 'SwapResult'; hash: `0x${string}`; chainId: ChainId }
  /** The buy form (issue 12): asset, currency, amount, payment method, and a live quote. */
  | { view: 'OnRamp' }
  /** The buy of `order` (features/onramp/onramp.ts ordersAtom): the provider's page is open, the order is followed. */
  | { view: 'OnRampProgress'; order: string }

// The arguments open() may give a view are part of its route; the features check them (…Arguments.ts).

/** What the Send flow starts from: the token (native or a contract), and what else was given. */
export type SendPrefill = {
  asset: 'native' | string
  amount?: string
  to?: string
  chainId?: ChainId
}

/** A token as the dapp named it: the native token, a contract, or a symbol to find in the list. */
export type TokenRef = { kind: 'native' } | { kind: 'address'; address: string } | { kind: 'symbol'; symbol: string }

/** What the Swap form starts from. `chainId` when a CAIP-10 token named the network. */
export type SwapPrefill = { from?: TokenRef; to?: TokenRef; amount?: string; chainId?: ChainId }

// Both directions: every route is a protocol view and every protocol view has a route.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const routesMatchProtocol: Exact<Route['view'], ViewName> = true

export type RouteOf<V extends Route['view']> = Extract<Route, { view: V }>
