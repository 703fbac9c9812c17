import { ui } from '@doorway/shared/Texts'
import { useAtomValue, useSetAtom } from 'jotai'
import { WalletIcon } from '../../components/WalletIcon.js'
import { offeredConnectorsAtom } from '../../core/connection.js'
import { pushAtom } from '../../core/router.js'
import { recentWalletsAtom } from '../../core/wallets.js'

/** Wallets the host page has, recent ones first (spec §3, at most 2 recent), each opening ConnectingExternal. */
export function InstalledWallets() {
  const connectors = useAtomValue(offeredConnectorsAtom)
  const recent = useAtomValue(recentWalletsAtom)
  const push = useSetAtom(pushAtom)
  if (!connectors.length) return null
  return (
    <ul className="list" aria-label={ui.connect.installed}>
      {connectors.map((connector) => (
        <li key={connector.id}>
          <button type="button" className="list-button" onClick={() => push({ view: 'ConnectingExternal', connectorId: connector.id })}>
            <WalletIcon src={connector.imageUrl} />
            <span>{connector.name}</span>
            <span className="badge">{recent.includes(connector.id) ? ui.connect.recent : ui.connect.installed}</span>
          </button>
        </li>
      ))}
    </ul>
  )
}
