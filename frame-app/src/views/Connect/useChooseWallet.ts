import { useAtomValue, useSetAtom } from 'jotai'
import { type Wallet, chosenWalletAtom } from '../../features/catalogue/catalogue.js'
import { offeredConnectorsAtom } from '../../core/connection.js'
import { pushAtom } from '../../core/router.js'

/** A wallet the host page has connects as an extension; any other goes to its WalletConnect view. */
export function useChooseWallet() {
  const connectors = useAtomValue(offeredConnectorsAtom)
  const push = useSetAtom(pushAtom)
  const choose = useSetAtom(chosenWalletAtom)
  return (wallet: Wallet) => {
    choose(wallet)
    const installed = wallet.rdns ? connectors.find((c) => c.id === wallet.rdns) : undefined
    push(installed ? { view: 'ConnectingExternal', connectorId: installed.id } : { view: 'ConnectingWalletConnect', walletId: wallet.id })
  }
}
