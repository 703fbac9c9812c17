import * as Format from '@doorway/shared/Format'
import { ui } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { tokensText } from '@doorway/shared/texts/tokens'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { BalancesUnavailable } from '../../components/BalancesUnavailable.js'
import { TokenRow } from '../../components/TokenRow.js'
import { accountAtom } from '../../core/connection.js'
import { loadTokensAtom, tokensAtom } from '../../features/balances/tokens.js'

/** The Tokens tab: balances from the api, quantities with 3 decimals and values with 2 (spec §9). */
export function Tokens() {
  const account = useAtomValue(accountAtom)
  const tokens = useAtomValue(tokensAtom)
  const load = useSetAtom(loadTokensAtom)
  useEffect(() => void load(), [account?.address, account?.chainId, load])

  if (tokens.status === 'error') return <BalancesUnavailable />
  if (tokens.status !== 'ready') return <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />
  if (!tokens.balances.length) return <p className="placeholder">{tokensText.empty}</p>
  return (
    <ul className="list" aria-label={accountText.tokens}>
      {tokens.balances.map((token) => (
        <li key={token.address ?? token.symbol} className="token-row">
          <TokenRow token={token} />
          <span>{token.value === undefined ? '' : Format.formatMoney(token.value)}</span>
        </li>
      ))}
    </ul>
  )
}
