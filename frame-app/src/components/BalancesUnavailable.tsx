import { format } from '@doorway/shared/Texts'
import { tokensText } from '@doorway/shared/texts/tokens'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { loadTokensAtom, retryAt, tokensAtom } from '../features/balances/tokens.js'

/** Balances could not be loaded: a retry, allowed only 30 s after the last failure (spec §5, §9). */
export function BalancesUnavailable() {
  const tokens = useAtomValue(tokensAtom)
  const load = useSetAtom(loadTokensAtom)
  const now = useNow(tokens.lastFailure !== null)
  const at = retryAt(tokens, now)
  return (
    <div className="stack">
      <p className="placeholder">{tokensText.unavailable}</p>
      <button type="button" className="list-button" disabled={at !== null} onClick={() => void load({ force: true })}>
        <span>{tokensText.retry}</span>
        {at !== null && <span className="muted">{format(tokensText.retryIn, { seconds: Math.ceil((at - now) / 1000) })}</span>}
      </button>
    </div>
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
