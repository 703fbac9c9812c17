/**
 * Connecting a wallet on the host page: asks it through the host, so the wallet's own prompt names
 * the dapp's origin. Waiting, declined (4001, with retry) and failed states (spec §2 ConnectingExternal).
 */
import * as Errors from '@doorway/shared/Errors'
import { format, ui } from '@doorway/shared/Texts'
import { useAtomValue, useSetAtom } from 'jotai'
import { useCallback, useEffect, useState } from 'react'
import { WalletIcon } from '../../components/WalletIcon.js'
import { connectAtom, connectorsAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'
import type { RouteOf } from '../../core/routes.js'
import { connectedHomeAtom } from '../../features/siwx/siwx.js'

type Attempt = { state: 'waiting' } | { state: 'declined' } | { state: 'failed'; message: string }

export function ConnectingExternal({ route }: { route: RouteOf<'ConnectingExternal'> }) {
  const connector = useAtomValue(connectorsAtom).find((c) => c.id === route.connectorId)
  const connect = useSetAtom(connectAtom)
  const network = useAtomValue(activeNetworkAtom)
  const connected = useSetAtom(connectedHomeAtom)
  const [attempt, setAttempt] = useState<Attempt>({ state: 'waiting' })

  const start = useCallback(() => {
    if (!connector) return
    setAttempt({ state: 'waiting' })
    connect(connector, network?.caipNetworkId).then(
      () => connected(),
      (error: Errors.DoorwayError) =>
        setAttempt(error.code === Errors.codes.userRejected ? { state: 'declined' } : { state: 'failed', message: error.message }),
    )
  }, [connector, connect, connected, network])
  useEffect(start, [connector?.id])

  if (!connector) return <p className="placeholder" role="alert">{ui.connect.walletMissing}</p>
  const wallet = { wallet: connector.name }
  return (
    <div className="stack center">
      <WalletIcon src={connector.imageUrl} size={72} />
      {attempt.state === 'waiting' && (
        <div role="status">
          <h2>{format(ui.connect.waiting, wallet)}</h2>
          <p className="muted">{ui.connect.waitingHint}</p>
          <span className="spinner" aria-hidden="true" />
        </div>
      )}
      {attempt.state !== 'waiting' && (
        <div role="alert">
          <h2>{attempt.state === 'declined' ? ui.connect.declined : ui.connect.failed}</h2>
          <p className="muted">{attempt.state === 'declined' ? format(ui.connect.declinedHint, wallet) : attempt.message}</p>
        </div>
      )}
      {attempt.state !== 'waiting' && (
        <button type="button" className="primary-button" onClick={start}>
          {ui.connect.retry}
        </button>
      )}
    </div>
  )
}
