/**
 * A submitted transaction: its hash, a link to the network's explorer when the dapp configured one,
 * and pending → confirmed (or failed) as its receipt tells (features/send/send.ts trackTransactionAtom).
 * A Solana transfer whose blockhash expired unlanded says so and offers Try again, the same send rebuilt.
 */
import { sendText } from '@doorway/shared/texts/send'
import { useAtomValue, useSetAtom } from 'jotai'
import { Icon } from '../../components/Icon.js'
import { TransactionHash } from '../../components/TransactionHash.js'
import { configAtom } from '../../core/config.js'
import { goBackAtom } from '../../core/modal.js'
import { replaceFromAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'
import { sendAgainAtom, transactionsAtom } from '../../features/send/send.js'

export function SendResult({ route }: { route: RouteOf<'SendResult'> }) {
  const status = useAtomValue(transactionsAtom)[route.hash] ?? 'pending'
  const network = useAtomValue(configAtom)?.networks.find((n) => n.caipNetworkId === route.chainId)
  const done = useSetAtom(goBackAtom)
  const again = useAtomValue(sendAgainAtom)[route.hash]
  const replace = useSetAtom(replaceFromAtom)
  return (
    <div className="stack center">
      <div className="result-status" role="status" data-status={status}>
        {status === 'pending' ? <span className="spinner" aria-hidden="true" /> : <Icon name={status === 'confirmed' ? 'check' : 'alert'} />}
        <h2>{sendText[status]}</h2>
        {status === 'expired' && <p>{sendText.expiredDetail}</p>}
      </div>
      <TransactionHash hash={route.hash} explorerUrl={network?.explorerUrl} />
      {status === 'expired' && again && (
        <button type="button" className="secondary-button" onClick={() => replace('Send', { view: 'Send', prefill: again })}>
          {sendText.tryAgain}
        </button>
      )}
      <button type="button" className="primary-button" onClick={done}>
        {sendText.done}
      </button>
    </div>
  )
}
