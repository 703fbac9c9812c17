/**
 * The token picker of one side (issue 11): a search by name or symbol, the person's tokens with their
 * balances first, then the rest of the chain's swappable tokens (GET /v1/convert/tokens).
 */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useId, useState } from 'react'
import type { SwapToken } from '../../api/client.js'
import { popAtom, replaceFromAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'
import { chooseSwapTokenAtom, swapFormAtom, swapTokensAtom } from '../../features/swap/swap.js'
import * as Rules from '../../features/swap/swapRules.js'
import { tokensAtom } from '../../features/balances/tokens.js'

export function SwapSelectToken({ route }: { route: RouteOf<'SwapSelectToken'> }) {
  const swapTokens = useAtomValue(swapTokensAtom)
  const balances = useAtomValue(tokensAtom).balances
  const form = useAtomValue(swapFormAtom)
  const choose = useSetAtom(chooseSwapTokenAtom)
  const pop = useSetAtom(popAtom)
  const restart = useSetAtom(replaceFromAtom)
  const [query, setQuery] = useState('')
  const searchId = useId()
  const ready = swapTokens.status === 'ready'
  // Without the token list (the chain changed, or a reload) the picker has nothing to offer: back to the form.
  useEffect(() => {
    if (!ready) restart('Swap', { view: 'Swap' })
  }, [ready, restart])
  if (!ready) return null

  const { held, rest } = Rules.pickerTokens(swapTokens.tokens, balances, query)
  const current = route.side === 'from' ? form.from : form.to
  const pick = (token: SwapToken) => {
    void choose(route.side, token)
    pop()
  }
  const row = (token: SwapToken, amount?: string, usd?: number) => (
    <li key={token.address}>
      <button type="button" className="list-button token-button" aria-current={Rules.sameToken(token, current) || undefined} onClick={() => pick(token)}>
        {token.logoUri ? <img src={token.logoUri} alt="" width={32} height={32} /> : <span className="receiver-avatar" aria-hidden="true" />}
        <span className="token-name">
          <span>{token.symbol}</span>
          <span className="muted">{token.name}</span>
        </span>
        {amount !== undefined && (
          <span className="token-amount">
            <span>{`${Format.formatQuantity(amount)} ${token.symbol}`}</span>
            {usd !== undefined && <span className="muted">{Format.formatMoney(usd)}</span>}
          </span>
        )}
      </button>
    </li>
  )
  return (
    <div className="stack">
      <label htmlFor={searchId} className="visually-hidden">
        {swapText.search}
      </label>
      <input
        id={searchId}
        className="search"
        type="search"
        placeholder={swapText.search}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        autoComplete="off"
        spellCheck={false}
        autoFocus
      />
      {held.length > 0 && (
        <section aria-labelledby={`${searchId}-held`}>
          <h2 id={`${searchId}-held`} className="list-title">
            {swapText.yourTokens}
          </h2>
          <ul className="list">{held.map(({ token, balance }) => row(token, balance.quantity.numeric, balance.value))}</ul>
        </section>
      )}
      {rest.length > 0 && (
        <section aria-labelledby={`${searchId}-rest`}>
          <h2 id={`${searchId}-rest`} className="list-title">
            {swapText.allTokens}
          </h2>
          <ul className="list">{rest.map((token) => row(token))}</ul>
        </section>
      )}
      {held.length === 0 && rest.length === 0 && (
        <p className="placeholder" role="status">
          {format(swapText.noMatch, { query: query.trim() })}
        </p>
      )}
    </div>
  )
}
