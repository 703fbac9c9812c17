// A lazy chunk: loaded only when features.history is on (spec §1).
import { format, ui } from '@doorway/shared/Texts'
import { activityText } from '@doorway/shared/texts/activity'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useId, useMemo, useState } from 'react'
import type { Transaction } from '../../api/client.js'
import { fetchHistoryAtom, hasPendingAtom, historyAtom, historyFailedAtom, monthGroups, pollPendingAtom, type MonthGroup } from '../../features/activity/activity.js'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'
import { explorerHref } from '../../components/TransactionHash.js'
import * as Rows from './activityRows.js'
import { LoadMore } from './LoadMore.js'

/** The Activity tab: the account's transactions on its chain by month, newest first (spec §2). */
export default function Activity() {
  const account = useAtomValue(accountAtom)
  const history = useAtomValue(historyAtom)
  const failed = useAtomValue(historyFailedAtom)
  const hasPending = useAtomValue(hasPendingAtom)
  const explorerUrl = useAtomValue(activeNetworkAtom)?.explorerUrl
  const fetch = useSetAtom(fetchHistoryAtom)
  const poll = useSetAtom(pollPendingAtom)
  // Whether the page being loaded is a next one (a refresh of the first page shows no loading row).
  const [loadingMore, setLoadingMore] = useState(false)
  const more = () => {
    setLoadingMore(true)
    void fetch('next').finally(() => setLoadingMore(false))
  }

  // Another account or chain is a fresh state (features/activity/activity.ts): its first page is fetched.
  useEffect(() => void fetch('first'), [account?.address, account?.chainId, fetch])
  // A failed refresh stops the polling; Retry, once it succeeds, starts it again.
  useEffect(() => (hasPending && !failed ? poll() : undefined), [hasPending, failed, account?.address, account?.chainId, poll])

  const groups = useMemo(() => monthGroups(history.transactionsByYear, new Date()), [history.transactionsByYear])
  const shown = history.transactions.length
  const waiting = history.loading ? !shown || loadingMore : !shown && !history.empty && !failed
  return (
    <div className="stack">
      {groups.map((group) => (
        <Month key={group.key} group={group} explorerUrl={explorerUrl} />
      ))}
      {waiting && <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}
      {history.empty && !shown && !history.loading && <p className="placeholder">{activityText.empty}</p>}
      {failed && !history.loading ? (
        <button type="button" className="secondary-button" onClick={() => (history.next && shown ? more() : void fetch('first'))}>
          {activityText.retry}
        </button>
      ) : (
        history.next && <LoadMore label={activityText.loadMore} loading={history.loading} shown={shown} onMore={more} />
      )}
    </div>
  )
}

function Month({ group, explorerUrl }: { group: MonthGroup; explorerUrl: string | undefined }) {
  const id = useId()
  return (
    <section className="activity-month" aria-labelledby={id}>
      <h3 id={id}>{group.title}</h3>
      <ul className="list" aria-labelledby={id}>
        {group.transactions.map((transaction) => (
          <li key={transaction.id}>
            <Entry transaction={transaction} explorerUrl={explorerUrl} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** One entry: image(s), title, description, amount(s), status and time; a link to the explorer when there is one. */
function Entry({ transaction, explorerUrl }: { transaction: Transaction; explorerUrl: string | undefined }) {
  const href = explorerHref(explorerUrl, transaction.metadata.hash)
  const status = Rows.statusText(transaction)
  const content = (
    <>
      <Images urls={Rows.images(transaction)} />
      <span className="activity-text">
        <span className="activity-title">
          {Rows.title(transaction)}
          {status && (
            <span className="badge" data-status={transaction.metadata.status}>
              {status}
            </span>
          )}
        </span>
        <span className="muted">{Rows.description(transaction)}</span>
        <time className="muted activity-time" dateTime={transaction.metadata.minedAt}>
          {Rows.time(transaction)}
        </time>
      </span>
      <span className="activity-amounts">
        {Rows.amounts(transaction).map((amount, i) => (
          <span key={i}>{amount}</span>
        ))}
      </span>
    </>
  )
  if (!href) return <div className="activity-entry">{content}</div>
  return (
    <a
      className="activity-entry"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={format(activityText.explorer, { entry: Rows.summary(transaction) })}
    >
      {content}
    </a>
  )
}

/** The entry's token or NFT image, two for a two-token swap (spec §2); decorative, as the text names them. */
function Images({ urls }: { urls: string[] }) {
  return (
    <span className="activity-images" data-count={Math.max(urls.length, 1)} aria-hidden="true">
      {urls.length ? urls.map((url, i) => <Image key={i} url={url} />) : <span className="activity-image generic" />}
    </span>
  )
}

function Image({ url }: { url: string }) {
  const [failed, setFailed] = useState(false)
  if (failed) return <span className="activity-image generic" />
  return <img className="activity-image" src={url} alt="" width={32} height={32} onError={() => setFailed(true)} />
}
