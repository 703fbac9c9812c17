import type * as Protocol from '@doorway/shared/Protocol'
import { networksText } from '@doorway/shared/texts/networks'
import { useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import { configAtom } from '../../core/config.js'
import { goBackAtom } from '../../core/modal.js'
import { activeNetworkAtom, needsWalletAtom, switchNetworkAtom } from '../../core/network.js'
import { pushAtom } from '../../core/router.js'
import { showToastAtom } from '../../core/toasts.js'

/** The configured networks with the active one marked; picking one switches the wallet (spec §4). */
export function Networks({ onSwitched }: { onSwitched?: () => void }) {
  const config = useAtomValue(configAtom)!
  const active = useAtomValue(activeNetworkAtom)
  const switchNetwork = useSetAtom(switchNetworkAtom)
  const goBack = useSetAtom(goBackAtom)
  const push = useSetAtom(pushAtom)
  const needsWallet = useAtomValue(needsWalletAtom)
  const toast = useSetAtom(showToastAtom)
  const [pending, setPending] = useState<string>()
  const [error, setError] = useState<string>()

  const pick = (network: Protocol.Network) => {
    setPending(network.caipNetworkId)
    setError(undefined)
    // Another namespace that the connected wallet lacks: the person connects a wallet for it (issue 23).
    const connectFirst = needsWallet(network)
    switchNetwork(network).then(
      () => (connectFirst ? push({ view: 'Connect' }) : (onSwitched ?? goBack)()),
      (e: Error) => {
        setError(e.message)
        toast({ variant: 'error', message: e.message })
      },
    ).finally(() => setPending(undefined))
  }

  return (
    <div className="stack">
      <ul className="list" aria-label={networksText.list} aria-busy={!!pending}>
        {config.networks.map((network) => {
          const current = network.caipNetworkId === active?.caipNetworkId
          return (
            <li key={network.caipNetworkId}>
              <button
                type="button"
                className="list-button"
                aria-current={current}
                disabled={!!pending || (!config.enableNetworkSwitch && !current)}
                onClick={() => pick(network)}
              >
                <span>{network.name}</span>
                {pending === network.caipNetworkId && <span className="spinner" role="progressbar" aria-label={networksText.switching} />}
                {network.testnet && <span className="badge">{networksText.testnet}</span>}
                {current && <span className="badge accent">{networksText.active}</span>}
              </button>
            </li>
          )
        })}
      </ul>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
