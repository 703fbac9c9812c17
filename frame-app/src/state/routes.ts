/**
 * Typed routes: every view of spec §2 with its own arguments. No catch-all data bag.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { ViewName } from '@doorway/shared/Protocol'
import type { Prefill } from './sendArguments.js'
import type * as SwapArguments from './swapArguments.js'

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
  | { view: 'EmailVerifyOtp' }
  | { view: 'ExportWallet' }
  | { view: 'UnsupportedChain' }
  | { view: 'RegisterAccountName' }
  | { view: 'RegisterAccountNameSuccess'; name: string }
  | { view: 'Networks' }
  /** The send flow starts by choosing a token, unless `open()` gave one (state/sendArguments.ts). */
  | { view: 'Send'; prefill?: Prefill }
  | { view: 'SendAmount' }
  | { view: 'SendReceiver' }
  | { view: 'SendPreview' }
  | { view: 'SendConfirm' }
  | { view: 'SendResult'; hash: `0x${string}`; chainId: ChainId }
  | { view: 'Receive' }
  /** The swap form, prepared from `open()`'s arguments when given (state/swapArguments.ts). */
  | { view: 'Swap'; prefill?: SwapArguments.Prefill }
  /** The token picker of one side of the swap. */
  | { view: 'SwapSelectToken'; side: 'from' | 'to' }
  /** Approve (when the allowance is short), then swap; each asks the wallet. */
  | { view: 'SwapPreview' }
  | { view: 'SwapResult'; hash: `0x${string}`; chainId: ChainId }
  /** The buy form (issue 12): asset, currency, amount, payment method, and a live quote. */
  | { view: 'OnRamp' }
  /** The buy of `order` (state/onramp.ts ordersAtom): the provider's page is open, the order is followed. */
  | { view: 'OnRampProgress'; order: string }

// Both directions: every route is a protocol view and every protocol view has a route.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const routesMatchProtocol: Exact<Route['view'], ViewName> = true

export type RouteOf<V extends Route['view']> = Extract<Route, { view: V }>
