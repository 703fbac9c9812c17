import * as Address from '@doorway/shared/Address'
import { sendText } from '@doorway/shared/texts/send'
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
        <span aria-label={sendText.hash} title={hash}>
          {Address.truncate(hash, { start: 6, end: 6 })}
        </span>
        <IconButton label={sendText.copyHash} icon="copy" onClick={() => copy(hash, { copied: sendText.hashCopied, failed: sendText.copyFailed })} />
      </div>
      {href && (
        <a className="secondary-button" href={href} target="_blank" rel="noopener noreferrer">
          {sendText.explorer}
        </a>
      )}
    </>
  )
}
