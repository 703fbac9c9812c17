/** A wallet on the host page (EIP-6963 or window.ethereum), reached through the SDK by its uuid. */
import type * as Protocol from '@doorway/shared/Protocol'
import type { Host } from '../host.js'
import type { Connector } from './Connector.js'

// A wallet prompt waits on a person; it still ends (docs/architecture.md §4: every call has a timeout).
const walletTimeoutMs = 300_000

// The SDK sends this empty image for a legacy window.ethereum: the frame draws its own icon.
const emptyIcon = 'data:image/svg+xml,'

export function fromWallet(wallet: Protocol.WalletInfo, host: Host): Connector {
  return {
    id: wallet.rdns,
    name: wallet.name,
    type: wallet.type,
    namespaces: ['eip155'],
    ...(wallet.icon !== emptyIcon && { imageUrl: wallet.icon }),
    info: { rdns: wallet.rdns },
    hostUuid: wallet.uuid,
    request: (request) => host.call('walletRequest', { uuid: wallet.uuid, request }, { timeoutMs: walletTimeoutMs }),
  }
}
