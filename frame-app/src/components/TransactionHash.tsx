import * as Address from '@doorway/shared/Address'
import { ui } from '@doorway/shared/Messages'
import { IconButton } from './IconButton.js'
import { useCopy } from './useCopy.js'

/** The transaction on the network's explorer, when the dapp configured one (a viem chain's blockExplorers). */
export function explorerHref(explorerUrl: string | undefined, hash: string): string | undefined {
  return explorerUrl && hash ? `${explorerUrl.replace(/\/$/, '')}/tx/${hash}` : undefined
}

/** A submitted transaction's hash (truncated, with copy) and its explorer link: Send, Swap and Buy results. */
export function TransactionHash({ hash, explorerUrl }: { hash: string; explorerUrl: string | undefined }) {
  const copy = useCopy()
  const href = explorerHref(explorerUrl, hash)
  return (
    <>
      <div className="identity-address">
        <span aria-label={ui.send.hash} title={hash}>
          {Address.truncate(hash, { start: 6, end: 6 })}
        </span>
        <IconButton label={ui.send.copyHash} icon="copy" onClick={() => copy(hash, { copied: ui.send.hashCopied, failed: ui.send.copyFailed })} />
      </div>
      {href && (
        <a className="secondary-button" href={href} target="_blank" rel="noopener noreferrer">
          {ui.send.explorer}
        </a>
      )}
    </>
  )
}
