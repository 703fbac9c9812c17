import * as Format from '@doorway/shared/Format'
import { format, ui } from '@doorway/shared/Messages'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { accountAtom } from '../../state/connection.js'
import { loadTokensAtom, retryAt, tokensAtom } from '../../state/tokens.js'

/** The Tokens tab: balances from the api, quantities with 3 decimals and values with 2 (spec §9). */
export function Tokens() {
  const account = useAtomValue(accountAtom)
  const tokens = useAtomValue(tokensAtom)
  const load = useSetAtom(loadTokensAtom)
  const now = useNow(tokens.lastFailure !== null)
  useEffect(() => void load(), [account?.address, account?.chainId, load])

  if (tokens.status === 'error') {
    const at = retryAt(tokens, now)
    return (
      <div className="stack">
        <p className="placeholder">{ui.tokens.unavailable}</p>
        <button type="button" className="list-button" disabled={at !== null} onClick={() => void load({ force: true })}>
          <span>{ui.tokens.retry}</span>
          {at !== null && <span className="muted">{format(ui.tokens.retryIn, { seconds: Math.ceil((at - now) / 1000) })}</span>}
        </button>
      </div>
    )
  }
  if (tokens.status !== 'ready') return <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />
  if (!tokens.balances.length) return <p className="placeholder">{ui.tokens.empty}</p>
  return (
    <ul className="list" aria-label={ui.account.tokens}>
      {tokens.balances.map((token) => (
        <li key={token.address ?? token.symbol} className="token-row">
          <img src={token.iconUrl} alt="" width={32} height={32} />
          <span className="token-name">
            <span>{token.name}</span>
            <span className="muted">{`${Format.formatQuantity(token.quantity.numeric)} ${token.symbol}`}</span>
          </span>
          <span>{token.value === undefined ? '' : Format.formatMoney(token.value)}</span>
        </li>
      ))}
    </ul>
  )
}

/** The current time, ticking each second while `active` (for the retry countdown). */
function useNow(active: boolean) {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}
