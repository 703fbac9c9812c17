/**
 * The Send flow's first step (issue 8): choose a token, from the account's balances (spec §3, §9).
 * When `open({ view: 'Send', arguments })` gave the token and more, it prepares the form from them,
 * switching the wallet's network first when asked, and moves on to the first step still open.
 */
import * as Format from '@doorway/shared/Format'
import { format, ui } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { sendText } from '@doorway/shared/texts/send'
import { tokensText } from '@doorway/shared/texts/tokens'
import { useAtomValue, useSetAtom, useStore } from 'jotai'
import { useEffect } from 'react'
import type { Balance } from '../../api/client.js'
import { BalancesUnavailable } from '../../components/BalancesUnavailable.js'
import { Placeholder } from '../../components/Placeholder.js'
import { TokenRow } from '../../components/TokenRow.js'
import { type PrefillState, usePrefill } from '../../components/usePrefill.js'
import { configAtom } from '../../core/config.js'
import { accountAtom, namespaceOf } from '../../core/connection.js'
import { pushAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'
import { chooseTokenAtom, draftAtom, sendAtom, setAmountAtom, setReceiverAtom } from '../../features/send/send.js'
import type { Prefill } from '../../features/send/sendArguments.js'
import * as Rules from '../../features/send/sendRules.js'
import { loadTokensAtom, tokensAtom } from '../../features/balances/tokens.js'
import './Send.css'

export function Send({ route }: { route: RouteOf<'Send'> }) {
  const account = useAtomValue(accountAtom)
  const tokens = useAtomValue(tokensAtom)
  const { tokenBalances } = useAtomValue(sendAtom)
  const load = useSetAtom(loadTokensAtom)
  const choose = useSetAtom(chooseTokenAtom)
  const push = useSetAtom(pushAtom)
  const prefill = useSendPrefill(route.prefill)
  // A send needs the balances as they are now, not as the api cached them (spec §7 forceUpdate).
  useEffect(() => void load({ force: true }), [account?.address, account?.chainId, load])

  if (!account) return <Placeholder>{accountText.notConnected}</Placeholder>
  if (prefill.state === 'working')
    return <span className="spinner" role="progressbar" aria-label={prefill.switching ?? sendText.preparing} />
  if (tokens.status === 'error') return <BalancesUnavailable />
  if (tokens.status !== 'ready') return <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />
  const pick = (token: Balance) => {
    choose(token)
    push({ view: 'SendAmount' })
  }
  return (
    <div className="stack">
      {prefill.state === 'failed' && (
        <p className="error" role="alert">
          {prefill.message}
        </p>
      )}
      {tokenBalances.length === 0 ? (
        <p className="placeholder">{sendText.noTokens}</p>
      ) : (
        <ul className="list" aria-label={sendText.tokens}>
          {tokenBalances.map((token) => (
            <li key={token.address ?? token.symbol}>
              <button type="button" className="list-button token-button" onClick={() => pick(token)}>
                <TokenRow token={token} />
                <span className="muted">{token.value === undefined ? '' : Format.formatMoney(token.value)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Applies open()'s arguments once: network, token, amount and receiver, then the next open step. */
function useSendPrefill(prefill: Prefill | undefined): PrefillState {
  const store = useStore()
  const tokens = useAtomValue(tokensAtom)
  const config = useAtomValue(configAtom)
  return usePrefill(
    prefill,
    (prefill, account) => {
      if (tokens.status === 'error') return { state: 'failed', message: tokensText.unavailable }
      // Balances of this chain (after a switch, the last chain's may still be on screen for a moment).
      if (tokens.status !== 'ready' || tokens.balances[0]?.chainId !== account.chainId) return undefined
      const token = store.get(sendAtom).tokenBalances.find((t) =>
        prefill.asset === 'native' ? Rules.isNative(t) : !Rules.isNative(t) && Rules.contractOf(t).toLowerCase() === prefill.asset.toLowerCase(),
      )
      const where = config?.networks.find((n) => n.caipNetworkId === account.chainId)?.name ?? account.chainId
      if (!token) return { state: 'failed', message: format(sendText.assetNotHeld, { token: prefill.asset === 'native' ? where : prefill.asset, network: where }) }
      store.set(chooseTokenAtom, token)
      store.set(draftAtom, { amount: prefill.amount ?? '', receiver: prefill.to ?? '' })
      const amount = prefill.amount === undefined ? undefined : Rules.checkAmount(prefill.amount, token)
      const receiver = prefill.to === undefined ? undefined : Rules.parseReceiver(prefill.to, namespaceOf(account.chainId))
      store.set(pushAtom, { view: 'SendAmount' })
      if (!amount || 'error' in amount) return { state: 'done' }
      store.set(setAmountAtom, amount.amount)
      store.set(pushAtom, { view: 'SendReceiver' })
      if (receiver?.kind !== 'address') return { state: 'done' }
      store.set(setReceiverAtom, { address: receiver.address })
      store.set(pushAtom, { view: 'SendPreview' })
      return { state: 'done' }
    },
    [tokens.status],
  )
}
