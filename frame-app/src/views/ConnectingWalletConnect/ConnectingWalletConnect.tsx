import { ui } from '@doorway/shared/Messages'
import { Placeholder } from '../../components/Placeholder.js'
import type { RouteOf } from '../../state/routes.js'

/** The WalletConnect view of a chosen wallet. The QR and deep-link flow land with the connector. */
export function ConnectingWalletConnect(_: { route: RouteOf<'ConnectingWalletConnect'> }) {
  return <Placeholder>{ui.later.walletConnect}</Placeholder>
}
