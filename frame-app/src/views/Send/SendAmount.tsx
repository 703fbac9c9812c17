/** The Send flow's amount step: the token's balance, Max, and the value in US dollars (spec §9 decimals). */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { useAtom, useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import { TokenRow } from '../../components/TokenRow.js'
import { shakeModalAtom } from '../../core/modal.js'
import { pushAtom } from '../../core/router.js'
import { draftAtom, maxAmountAtom, sendAtom, setAmountAtom } from '../../features/send/send.js'
import * as Rules from '../../features/send/sendRules.js'
import { Field, InvalidSend } from './Field.js'
import { useSendStep } from './useSendStep.js'

export function SendAmount() {
  const { token } = useAtomValue(sendAtom)
  const [draft, setDraft] = useAtom(draftAtom)
  const setAmount = useSetAtom(setAmountAtom)
  const max = useSetAtom(maxAmountAtom)
  const push = useSetAtom(pushAtom)
  const shake = useSetAtom(shakeModalAtom)
  const [error, setError] = useState<string>()
  const [maxing, setMaxing] = useState(false)
  useSendStep(!!token)
  if (!token) return null

  const checked = Rules.checkAmount(draft.amount, token)
  const usd = 'error' in checked ? undefined : Number(checked.amount) * token.price
  const messageOf = (key: Rules.AmountError) => format(sendText.errors[key], { symbol: token.symbol, decimals: token.quantity.decimals })
  const type = (amount: string) => {
    setDraft((d) => ({ ...d, amount }))
    setError(undefined)
  }
  const fillMax = () => {
    setMaxing(true)
    max().then(
      (amount) => amount !== undefined && type(amount),
      (e: Error) => setError(e.message),
    ).finally(() => setMaxing(false))
  }
  const next = () => {
    if ('error' in checked) {
      setError(messageOf(checked.error))
      return shake()
    }
    setAmount(checked.amount)
    push({ view: 'SendReceiver' })
  }
  return (
    <form className="stack" onSubmit={(event) => (event.preventDefault(), next())} noValidate>
      <div className="token-row">
        <TokenRow token={token} />
      </div>
      <Field
        label={`${sendText.amount} (${token.symbol})`}
        value={draft.amount}
        onChange={type}
        inputMode="decimal"
        error={error}
        hint={
          <>
            <span aria-label={sendText.inUsd}>{usd === undefined ? Format.formatMoney(0) : Format.formatMoney(usd)}</span>
            {' · '}
            {format(sendText.balance, { amount: `${Format.formatQuantity(token.quantity.numeric)} ${token.symbol}` })}
          </>
        }
      >
        <button type="button" className="secondary-button" onClick={fillMax} disabled={maxing} title={Rules.isNative(token) ? sendText.maxHint : undefined}>
          {maxing ? <span className="spinner" role="progressbar" aria-label={sendText.estimating} /> : sendText.max}
        </button>
      </Field>
      <button type="submit" className="primary-button">
        {sendText.continue}
      </button>
      <InvalidSend shown={!!error} />
    </form>
  )
}
