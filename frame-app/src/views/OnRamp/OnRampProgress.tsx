/**
 * A buy in progress (issue 12): the provider's page was opened from the top window; a link opens it
 * again (a blocked popup still has a way forward). The order is followed through the history every
 * 3 s while this view is shown (features/onramp/onramp.ts followOrderAtom) to 'Purchase complete',
 * with the amount and the transaction, or to the provider's reason for a failure and Try again.
 */
import * as Format from '@doorway/shared/Format'
import { core, format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { onrampText } from '@doorway/shared/texts/onramp'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { Icon } from '../../components/Icon.js'
import { Placeholder } from '../../components/Placeholder.js'
import { TransactionHash } from '../../components/TransactionHash.js'
import { configAtom } from '../../core/config.js'
import { goBackAtom } from '../../core/modal.js'
import { followOrderAtom, ordersAtom, retryOrderAtom } from '../../features/onramp/onramp.js'
import * as Rules from '../../features/onramp/onrampRules.js'
import type { RouteOf } from '../../core/routes.js'

export function OnRampProgress({ route }: { route: RouteOf<'OnRampProgress'> }) {
  const order = useAtomValue(ordersAtom)[route.order]
  const follow = useSetAtom(followOrderAtom)
  const retry = useSetAtom(retryOrderAtom)
  const done = useSetAtom(goBackAtom)
  const network = useAtomValue(configAtom)?.networks.find((n) => n.caipNetworkId === order?.chainId)
  useEffect(() => follow(route.order), [follow, route.order])
  if (!order) return <Placeholder>{core.somethingWentWrong}</Placeholder>

  const { status } = order
  const open = status === 'waiting' || status === 'sending'
  const title = open ? onrampText.progress : status === 'success' ? onrampText.complete : onrampText.failed
  const line = status === 'waiting' ? onrampText.waiting : status === 'sending' ? format(onrampText.sending, { symbol: order.asset.symbol }) : undefined
  return (
    <div className="stack center">
      <div className="result-status" role="status" data-status={status === 'success' ? 'confirmed' : status === 'failed' ? 'failed' : 'pending'}>
        {open ? <span className="spinner" aria-hidden="true" /> : <Icon name={status === 'success' ? 'check' : 'alert'} />}
        <h2>{title}</h2>
        {line && <p className="muted">{line}</p>}
      </div>
      {open && <p className="muted">{onrampText.progressHint}</p>}
      <section className="stack" aria-label={onrampText.order}>
        <dl className="details">
          <dt>{onrampText.pay}</dt>
          <dd>{Rules.money(order.amount, order.currency)}</dd>
          <dt>{onrampText.method}</dt>
          <dd>{onrampText.methods[Rules.methodKey(order.method)]}</dd>
          <dt>{onrampText.network}</dt>
          <dd>{order.asset.networkName}</dd>
          <dt>{status === 'success' ? onrampText.received : onrampText.get}</dt>
          <dd>{status === 'success' && order.received ? order.received : `${Format.formatQuantity(order.expected)} ${order.asset.symbol}`}</dd>
        </dl>
      </section>
      {status === 'failed' && (
        <p className="error" role="alert">
          {order.failureReason ?? onrampText.noReason}
        </p>
      )}
      {status === 'success' && order.hash && (
        <>
          <TransactionHash hash={order.hash} explorerUrl={network?.explorerUrl} />
        </>
      )}
      {open && (
        <a className="primary-button" href={order.url} target="_blank" rel="noopener noreferrer">
          {onrampText.continue}
        </a>
      )}
      {status === 'failed' && (
        <button type="button" className="primary-button" onClick={() => void retry(order.id)}>
          {onrampText.tryAgain}
        </button>
      )}
      {status === 'success' && (
        <button type="button" className="primary-button" onClick={done}>
          {sendText.done}
        </button>
      )}
    </div>
  )
}
