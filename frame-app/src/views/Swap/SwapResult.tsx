/**
 * A submitted swap (issue 11): pending → confirmed or failed as its receipt tells
 * (features/swap/swap.ts trackSwapAtom), with its hash, the explorer link, and what came in. A swap
 * that reverted did nothing: it says why and goes back to the kept form, which quotes again.
 */
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { swapText } from '@doorway/shared/texts/swap'
import { useAtomValue, useSetAtom } from 'jotai'
import { Icon } from '../../components/Icon.js'
import { TransactionHash } from '../../components/TransactionHash.js'
import { configAtom } from '../../core/config.js'
import { goBackAtom } from '../../core/modal.js'
import { replaceFromAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'
import { swapsAtom } from '../../features/swap/swap.js'
import * as Rules from '../../features/swap/swapRules.js'

export function SwapResult({ route }: { route: RouteOf<'SwapResult'> }) {
  const record = useAtomValue(swapsAtom)[route.hash]
  const network = useAtomValue(configAtom)?.networks.find((n) => n.caipNetworkId === route.chainId)
  const done = useSetAtom(goBackAtom)
  const replaceFrom = useSetAtom(replaceFromAtom)
  const status = record?.status ?? 'pending'
  return (
    <div className="stack center">
      <div className="result-status" role="status" data-status={status}>
        {status === 'pending' ? <span className="spinner" aria-hidden="true" /> : <Icon name={status === 'confirmed' ? 'check' : 'alert'} />}
        <h2>{swapText[status]}</h2>
      </div>
      {record && (
        <dl className="details">
          <dt>{swapText.sent}</dt>
          <dd>{`${Rules.formatAmount(record.paid, record.from.decimals)} ${record.from.symbol}`}</dd>
          {status === 'confirmed' && (
            <>
              <dt>{swapText.received}</dt>
              <dd>{`${Rules.formatAmount(record.received ?? record.minimum, record.to.decimals)} ${record.to.symbol}`}</dd>
            </>
          )}
          {status === 'pending' && (
            <>
              <dt>{swapText.minimum}</dt>
              <dd>{`${Rules.formatAmount(record.minimum, record.to.decimals)} ${record.to.symbol}`}</dd>
            </>
          )}
        </dl>
      )}
      {status === 'failed' && record && (
        <p className="error" role="alert">
          {format(swapText.reverted, { slippage: Rules.formatPercent(record.slippage) })}
        </p>
      )}
      <TransactionHash hash={route.hash} explorerUrl={network?.explorerUrl} />
      {status === 'failed' ? (
        <button type="button" className="primary-button" onClick={() => replaceFrom('SwapResult', { view: 'Swap' })}>
          {swapText.backToSwap}
        </button>
      ) : (
        <button type="button" className="primary-button" onClick={done}>
          {sendText.done}
        </button>
      )}
    </div>
  )
}
