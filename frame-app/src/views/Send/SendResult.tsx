/**
 * A submitted transaction: its hash, a link to the network's explorer when the dapp configured one,
 * and pending → confirmed (or failed) as its receipt tells (state/send.ts trackTransactionAtom).
 */
import * as Address from '@doorway/shared/Address'
import { ui } from '@doorway/shared/Messages'
import { useAtomValue, useSetAtom } from 'jotai'
import { Icon } from '../../components/Icon.js'
import { IconButton } from '../../components/IconButton.js'
import { useCopy } from '../../components/useCopy.js'
import { configAtom } from '../../state/config.js'
import { goBackAtom } from '../../state/modal.js'
import type { RouteOf } from '../../state/routes.js'
import { transactionsAtom } from '../../state/send.js'

export function SendResult({ route }: { route: RouteOf<'SendResult'> }) {
  const status = useAtomValue(transactionsAtom)[route.hash] ?? 'pending'
  const network = useAtomValue(configAtom)?.networks.find((n) => n.caipNetworkId === route.chainId)
  const copy = useCopy()
  const done = useSetAtom(goBackAtom)
  return (
    <div className="stack center">
      <div className="result-status" role="status" data-status={status}>
        {status === 'pending' ? <span className="spinner" aria-hidden="true" /> : <Icon name={status === 'confirmed' ? 'check' : 'alert'} />}
        <h2>{ui.send[status]}</h2>
      </div>
      <div className="identity-address">
        <span aria-label={ui.send.hash} title={route.hash}>
          {Address.truncate(route.hash, { start: 6, end: 6 })}
        </span>
        <IconButton label={ui.send.copyHash} icon="copy" onClick={() => copy(route.hash, { copied: ui.send.hashCopied, failed: ui.send.copyFailed })} />
      </div>
      {network?.explorerUrl && (
        <a className="secondary-button" href={`${network.explorerUrl.replace(/\/$/, '')}/tx/${route.hash}`} target="_blank" rel="noopener noreferrer">
          {ui.send.explorer}
        </a>
      )}
      <button type="button" className="primary-button" onClick={done}>
        {ui.send.done}
      </button>
    </div>
  )
}
