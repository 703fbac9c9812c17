/**
 * The swap's preview (issue 11): what goes out, what comes in at least, and the quote's details. An
 * ERC-20 the exchange may not take yet makes two steps, Approve then Swap, each with its own wallet
 * prompt and its progress shown; the approval is read back from the chain, never assumed.
 */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import { useAtomValue, useSetAtom, useStore } from 'jotai'
import { useEffect } from 'react'
import type { SwapToken } from '../../api/client.js'
import { accountAtom } from '../../core/connection.js'
import { replaceFromAtom } from '../../core/router.js'
import { approveAtom, preparePreviewAtom, previewAtom, priceOf, quoteAtom, swapAtom, swapCheckAtom, swapFormAtom } from '../../features/swap/swap.js'
import * as Rules from '../../features/swap/swapRules.js'
import { QuoteDetails } from './parts.js'

export function SwapPreview() {
  const store = useStore()
  const account = useAtomValue(accountAtom)
  const form = useAtomValue(swapFormAtom)
  const quote = useAtomValue(quoteAtom)
  const check = useAtomValue(swapCheckAtom)
  const preview = useAtomValue(previewAtom)
  const prepare = useSetAtom(preparePreviewAtom)
  const restart = useSetAtom(replaceFromAtom)
  const { from, to } = form
  const complete = !!from && !!to && (check.ready || check.loading || preview.busy !== undefined)
  useEffect(() => {
    if (!complete) restart('Swap', { view: 'Swap' })
  }, [complete, restart])
  useEffect(() => {
    void prepare()
  }, [prepare])
  if (!complete || !from || !to || !account) return null
  if (preview.status === 'checking' || preview.status === 'idle') return <span className="spinner" role="progressbar" aria-label={swapText.preparing} />
  if (preview.status === 'error')
    return (
      <div className="stack" role="alert">
        <p className="error">{preview.message}</p>
        <button type="button" className="secondary-button" onClick={() => void prepare()}>
          {swapText.retry}
        </button>
      </div>
    )

  const parsed = Rules.parseAmount(form.amount, from)
  const paid = 'error' in parsed ? 0n : parsed.value
  const ready = quote.status === 'ready' ? quote : undefined
  const slippage = Rules.parseSlippage(form.slippage)
  const minimum = ready && !('error' in slippage) ? Rules.amountOutMin(BigInt(ready.quote.toAmount), slippage.bps) : undefined
  const usd = (value: bigint | undefined, token: typeof from) => {
    const amount = value === undefined ? undefined : Rules.usdOf(value, token.decimals, priceOf(store.get, token))
    return amount === undefined ? Format.invalid : Format.formatMoney(amount)
  }
  const progress =
    preview.busy === 'wallet' ? format(swapText.confirmIn, { wallet: account.connector.name }) : preview.busy === 'mining' ? swapText.approving : ''
  const act = () => void (preview.step === 'approve' ? store.set(approveAtom) : store.set(swapAtom))
  return (
    <div className="stack">
      <div className="swap-preview-amounts">
        <div className="preview-amount">
          <span className="muted">{swapText.pay}</span>
          {from.logoUri && <img src={from.logoUri} alt="" width={32} height={32} />}
          <strong>{`${Rules.formatAmount(paid, from.decimals)} ${from.symbol}`}</strong>
          <span className="muted">{usd(paid, from)}</span>
        </div>
        <div className="preview-amount">
          <span className="muted">{swapText.minimum}</span>
          {to.logoUri && <img src={to.logoUri} alt="" width={32} height={32} />}
          <strong>{minimum === undefined ? Format.invalid : `${Rules.formatAmount(minimum, to.decimals)} ${to.symbol}`}</strong>
          <span className="muted">{usd(minimum, to)}</span>
        </div>
      </div>
      {ready && <QuoteDetails quote={ready.quote} from={from} to={to} slippage={form.slippage} gasPrice={ready.gasPrice} />}
      {preview.notice && (
        <p className="warning" role="status">
          {preview.notice}
        </p>
      )}
      <Steps steps={preview.steps} step={preview.step} from={from} to={to} />
      <p className="muted" role="status" aria-live="polite">
        {progress}
        {preview.busy && <span className="spinner" aria-hidden="true" />}
      </p>
      {preview.message && (
        <p className="error" role="alert">
          {preview.message}
        </p>
      )}
      <button type="button" className="primary-button" disabled={!!preview.busy || !ready} onClick={act}>
        {preview.step === 'approve' ? format(swapText.approveButton, { symbol: from.symbol }) : swapText.swapButton}
      </button>
    </div>
  )
}

/** Approve (when the allowance is short) then Swap: the step at hand, and those done. */
function Steps({ steps, step: current, from, to }: { steps: readonly Rules.Step[]; step: Rules.Step; from: SwapToken; to: SwapToken }) {
  const total = steps.length
  const index = steps.indexOf(current)
  return (
    <ol className="swap-steps" aria-label={swapText.review}>
      {steps.map((step, i) => (
        <li key={step} aria-current={i === index ? 'step' : undefined} data-done={i < index || undefined}>
          <span className="muted">{format(swapText.steps, { n: i + 1, total })}</span>{' '}
          <strong>{step === 'approve' ? format(swapText.approveTitle, { symbol: from.symbol }) : format(swapText.swapTitle, { from: from.symbol, to: to.symbol })}</strong>
          {step === 'approve' && i === index && <p className="muted">{format(swapText.approveHint, { symbol: from.symbol })}</p>}
        </li>
      ))}
    </ol>
  )
}
