import { ui } from '@doorway/shared/Messages'
import { useAtomValue, useSetAtom } from 'jotai'
import { lazy, Suspense, useState } from 'react'
import { Placeholder } from '../../components/Placeholder.js'
import { Tabs } from '../../components/Tabs.js'
import { configAtom } from '../../state/config.js'
import { connectedAtom } from '../../state/connection.js'
import { activeNetworkAtom } from '../../state/network.js'
import { pushAtom } from '../../state/router.js'

// A lazy chunk: loaded only when features.history is on (spec §1).
const Activity = lazy(() => import('./Activity.js'))

type TabKey = 'tokens' | 'nfts' | 'activity'

export function Account() {
  const config = useAtomValue(configAtom)!
  const connected = useAtomValue(connectedAtom)
  const network = useAtomValue(activeNetworkAtom)
  const push = useSetAtom(pushAtom)
  const [tab, setTab] = useState<TabKey>('tokens')
  return (
    <div className="stack">
      {!connected && (
        <>
          <Placeholder>{ui.account.notConnected}</Placeholder>
          <button type="button" className="primary-button" onClick={() => push({ view: 'Connect' })}>
            {ui.account.connect}
          </button>
        </>
      )}
      {config.enableNetworkSwitch && (
        <button type="button" className="list-button" onClick={() => push({ view: 'Networks' })}>
          <span>{ui.account.network}</span>
          <span className="muted">{network?.name}</span>
        </button>
      )}
      <Tabs<TabKey>
        label={ui.account.sections}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: 'tokens', label: ui.account.tokens, panel: () => <Placeholder>{ui.later.tokens}</Placeholder> },
          { key: 'nfts', label: ui.account.nfts, panel: () => <Placeholder>{ui.later.nfts}</Placeholder> },
          {
            key: 'activity',
            label: ui.account.activity,
            panel: () =>
              config.features.history ? (
                <Suspense fallback={<span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}>
                  <Activity />
                </Suspense>
              ) : (
                <Placeholder>{ui.account.historyOff}</Placeholder>
              ),
          },
        ]}
      />
    </div>
  )
}
