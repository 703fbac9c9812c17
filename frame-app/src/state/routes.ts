/**
 * Typed routes: every view of spec §2 with its own arguments. No catch-all data bag.
 */
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
  | { view: 'UnsupportedChain' }
  | { view: 'RegisterAccountName' }
  | { view: 'RegisterAccountNameSuccess'; name: string }
  | { view: 'Networks' }
  | { view: 'Send' }
  | { view: 'Receive' }
  | { view: 'Swap' }
  | { view: 'OnRamp' }

// Both directions: every route is a protocol view and every protocol view has a route.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
export const routesMatchProtocol: Exact<Route['view'], ViewName> = true

export type RouteOf<V extends Route['view']> = Extract<Route, { view: V }>
