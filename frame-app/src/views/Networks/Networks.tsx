import { ui } from '@doorway/shared/Messages'
import { useAtom, useAtomValue, useSetAtom } from 'jotai'
import { configAtom } from '../../state/config.js'
import { goBackAtom } from '../../state/modal.js'
import { activeNetworkAtom } from '../../state/network.js'

/** The configured networks with the active one marked. Switching a connected wallet comes with connectors. */
export function Networks() {
  const config = useAtomValue(configAtom)!
  const [active, setActive] = useAtom(activeNetworkAtom)
  const goBack = useSetAtom(goBackAtom)
  return (
    <ul className="list" aria-label={ui.networks.list}>
      {config.networks.map((network) => {
        const current = network.caipNetworkId === active?.caipNetworkId
        return (
          <li key={network.caipNetworkId}>
            <button
              type="button"
              className="list-button"
              aria-current={current}
              disabled={!config.enableNetworkSwitch && !current}
              onClick={() => {
                setActive(network.caipNetworkId)
                goBack()
              }}
            >
              <span>{network.name}</span>
              {network.testnet && <span className="badge">{ui.networks.testnet}</span>}
              {current && <span className="badge accent">{ui.networks.active}</span>}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
