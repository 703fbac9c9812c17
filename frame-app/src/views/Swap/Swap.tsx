/**
 * The Swap form (issue 11): the token to pay and its amount, the token to receive with the quote's
 * amount (read-only: the api quotes exact input only, so a typed "receive" amount could not be honoured),
 * Max, flip, USD values, rate, price impact, fees, slippage. Every reason not to go on is a message.
 */
import * as Format from '@doorway/shared/Format'
import { errors, format } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { sendText } from '@doorway/shared/texts/send'
import { swapText } from '@doorway/shared/texts/swap'
import { useAtomValue, useSetAtom, useStore } from 'jotai'
import { useEffect, useId, useState } from 'react'
import type { SwapToken } from '../../api/client.js'
import { Placeholder } from '../../components/Placeholder.js'
import { type PrefillState, usePrefill } from '../../components/usePrefill.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { shakeModalAtom } from '../../core/modal.js'
import { pushAtom } from '../../core/router.js'
import type { RouteOf } from '../../core/routes.js'
import {
  flipAtom,
  loadSwapTokensAtom,
  maxPayAtom,
  priceOf,
  quoteAtom,
  requestQuoteAtom,
  setPayAmountAtom,
  swapCheckAtom,
  swapFormAtom,
  swapNoticeAtom,
  swapTokensAtom,
} from '../../features/swap/swap.js'
import type { Prefill } from '../../features/swap/swapArguments.js'
import * as Rules from '../../features/swap/swapRules.js'
import { loadTokensAtom, tokensAtom } from '../../features/balances/tokens.js'
import { Field } from '../Send/Field.js'
import { QuoteDetails, SlippageControl, TokenChip } from './parts.js'
import './Swap.css'

export function Swap({ route }: { route: RouteOf<'Swap'> }) {
  const account = useAtomValue(accountAtom)
  const swapTokens = useAtomValue(swapTokensAtom)
  const loadSwapTokens = useSetAtom(loadSwapTokensAtom)
  const loadBalances = useSetAtom(loadTokensAtom)
  const network = useAtomValue(configAtom)?.networks.find((n) => n.caipNetworkId === account?.chainId)
  const prefill = useSwapPrefill(route.prefill)
  useEffect(() => {
    // A swap needs the balances as they are now (spec §7 forceUpdate), and the chain's token list.
    void loadBalances({ force: true })
    void loadSwapTokens()
  }, [account?.address, account?.chainId, loadBalances, loadSwapTokens])

  if (!account) return <Placeholder>{accountText.notConnected}</Placeholder>
  // spec §8
  if (swapTokens.status === 'unsupported')
    return (
      <p className="error" role="alert">
        {errors.swapsNetworkNotSupported}
      </p>
    )
  if (swapTokens.status === 'error')
    return (
      <div className="stack" role="alert">
        <p className="error">{swapTokens.message}</p>
        <button type="button" className="secondary-button" onClick={() => void loadSwapTokens()}>
          {swapText.retry}
        </button>
      </div>
    )
  if (swapTokens.status !== 'ready' || prefill.state === 'working')
    return <span className="spinner" role="progressbar" aria-label={prefill.state === 'working' ? (prefill.switching ?? swapText.preparing) : swapText.loadingTokens} />
  if (swapTokens.tokens.length === 0) return <Placeholder>{format(swapText.noTokens, { network: network?.name ?? account.chainId })}</Placeholder>
  return <SwapForm prefillError={prefill.state === 'failed' ? prefill.message : undefined} />
}

function SwapForm({ prefillError }: { prefillError: string | undefined }) {
  const store = useStore()
  const form = useAtomValue(swapFormAtom)
  const quote = useAtomValue(quoteAtom)
  const check = useAtomValue(swapCheckAtom)
  const notice = useAtomValue(swapNoticeAtom)
  const balances = useAtomValue(tokensAtom).balances
  useAtomValue(swapTokensAtom)
  const push = useSetAtom(pushAtom)
  const shake = useSetAtom(shakeModalAtom)
  const [maxing, setMaxing] = useState(false)
  const [maxError, setMaxError] = useState<string>()
  const [tried, setTried] = useState(false)
  const { from, to } = form
  const ready = quote.status === 'ready' ? quote : undefined

  // A form kept from before (e.g. after a reverted swap) quotes again when shown.
  useEffect(() => {
    if (store.get(quoteAtom).status === 'idle') void store.set(requestQuoteAtom, { delayMs: 0 })
  }, [store])

  const fromBalance = from && Rules.balanceFor(from, balances)
  const parsed = from && Rules.parseAmount(form.amount, from)
  const payUsd = from && parsed && !('error' in parsed) ? Rules.usdOf(parsed.value, from.decimals, priceOf(store.get, from)) : undefined
  const type = (amount: string) => {
    setMaxError(undefined)
    void store.set(setPayAmountAtom, amount)
  }
  const fillMax = () => {
    setMaxing(true)
    setMaxError(undefined)
    store
      .set(maxPayAtom)
      .catch((e: Error) => setMaxError(e.message))
      .finally(() => setMaxing(false))
  }
  const review = () => {
    setTried(true)
    if (!check.ready) return shake()
    push({ view: 'SwapPreview' })
  }
  const shownError = maxError ?? check.error ?? (tried && !check.ready && !check.loading ? (!from || !to ? swapText.errors.chooseTokens : swapText.errors.amountRequired) : undefined)
  const amountError = parsed && 'error' in parsed && form.amount.trim() ? check.error : undefined
  return (
    <form className="stack swap" onSubmit={(event) => (event.preventDefault(), review())} noValidate>
      {prefillError && (
        <p className="error" role="alert">
          {prefillError}
        </p>
      )}
      {notice && (
        <p className="error" role="alert">
          {notice}
        </p>
      )}
      <PaySide from={from} amount={form.amount} error={amountError} usd={payUsd} balance={fromBalance?.quantity.numeric} onType={type} onMax={fillMax} maxing={maxing} />
      <button type="button" className="swap-flip" aria-label={swapText.flip} onClick={() => void store.set(flipAtom)} disabled={!from && !to}>
        <span aria-hidden="true">⇅</span>
      </button>
      <ReceiveSide to={to} />
      <QuoteAnnouncement from={from} to={to} />
      {quote.status === 'loading' && <span className="spinner" role="progressbar" aria-label={swapText.quoting} />}
      {ready && from && to && <QuoteDetails quote={ready.quote} from={from} to={to} slippage={form.slippage} gasPrice={ready.gasPrice} />}
      <SlippageControl />
      {shownError && (
        <div className="stack" role="alert">
          <p className="error">{shownError}</p>
          {check.retry && (
            <button type="button" className="secondary-button" onClick={() => void store.set(requestQuoteAtom, { delayMs: 0 })}>
              {swapText.retry}
            </button>
          )}
        </div>
      )}
      <button type="submit" className="primary-button" disabled={check.loading}>
        {swapText.review}
      </button>
    </form>
  )
}

/** The pay side: the token, the amount typed (or Max), its value in USD and the token's balance. */
function PaySide(props: {
  from: SwapToken | undefined
  amount: string
  error: string | undefined
  usd: number | undefined
  balance: string | undefined
  onType(amount: string): void
  onMax(): void
  maxing: boolean
}) {
  const { from, usd, balance, maxing } = props
  const hint = (
    <>
      <span aria-label={swapText.inUsd}>{usd === undefined ? Format.invalid : Format.formatMoney(usd)}</span>
      {from && (
        <>
          {' · '}
          {format(swapText.balance, { amount: `${Format.formatQuantity(balance ?? '0')} ${from.symbol}` })}
        </>
      )}
    </>
  )
  return (
    <section className="swap-side" aria-label={swapText.pay}>
      <div className="swap-side-head">
        <h2 className="swap-side-title">{swapText.pay}</h2>
        <TokenChip side="from" token={from} />
      </div>
      <Field
        label={from ? `${swapText.payAmount} (${from.symbol})` : swapText.payAmount}
        value={props.amount}
        onChange={props.onType}
        inputMode="decimal"
        error={props.error}
        hint={hint}
      >
        <button type="button" className="secondary-button" onClick={props.onMax} disabled={maxing || balance === undefined} title={from && Rules.isNative(from) ? swapText.maxHint : undefined}>
          {maxing ? <span className="spinner" role="progressbar" aria-label={sendText.estimating} /> : swapText.max}
        </button>
      </Field>
    </section>
  )
}

/** The receive side: what the quote gives, read-only, and its value in USD. */
function ReceiveSide({ to }: { to: SwapToken | undefined }) {
  const store = useStore()
  const quote = useAtomValue(quoteAtom)
  const outputId = useId()
  const received = quote.status === 'ready' && to ? BigInt(quote.quote.toAmount) : undefined
  const receiveUsd = to && received !== undefined ? Rules.usdOf(received, to.decimals, priceOf(store.get, to)) : undefined
  // The exact amount lives in the quote (and moves to the pay side on a flip); the field shows it at 3 decimals (spec §9).
  const receiveText = received !== undefined && to ? Rules.formatAmount(received, to.decimals) : ''
  return (
    <section className="swap-side" aria-label={swapText.receive}>
      <div className="swap-side-head">
        <h2 className="swap-side-title">{swapText.receive}</h2>
        <TokenChip side="to" token={to} />
      </div>
      <div className="field">
        <label htmlFor={outputId}>{to ? `${swapText.receiveAmount} (${to.symbol})` : swapText.receiveAmount}</label>
        <input id={outputId} className="search" value={receiveText} readOnly aria-describedby={`${outputId}-hint`} aria-busy={quote.status === 'loading'} />
        <div id={`${outputId}-hint`} className="muted">
          <span aria-label={swapText.inUsd}>{receiveUsd === undefined ? Format.invalid : Format.formatMoney(receiveUsd)}</span>
          {' · '}
          {swapText.receiveHint}
        </div>
      </div>
    </section>
  )
}

/** A polite live region: the quote, once it arrives, is read out (issue 11: quote updates are announced). */
function QuoteAnnouncement({ from, to }: { from: SwapToken | undefined; to: SwapToken | undefined }) {
  const quote = useAtomValue(quoteAtom)
  const text =
    quote.status === 'ready' && from && to
      ? format(swapText.quoteFor, {
          amount: `${Rules.formatAmount(BigInt(quote.quote.toAmount), to.decimals)} ${to.symbol}`,
          pay: `${Rules.formatAmount(BigInt(quote.quote.fromAmount), from.decimals)} ${from.symbol}`,
        })
      : quote.status === 'loading'
        ? swapText.quoting
        : ''
  return (
    <p className="visually-hidden" role="status" aria-live="polite">
      {text}
    </p>
  )
}

/** Applies open()'s arguments once: the network of a CAIP-10 token, the tokens, the amount (as Send does). */
function useSwapPrefill(prefill: Prefill | undefined): PrefillState {
  const store = useStore()
  const swapTokens = useAtomValue(swapTokensAtom)
  const config = useAtomValue(configAtom)
  return usePrefill(
    prefill,
    (prefill, account) => {
      if (swapTokens.status === 'error' || swapTokens.status === 'unsupported') return { state: 'done' }
      if (swapTokens.status !== 'ready' || swapTokens.chainId !== account.chainId) return undefined
      const where = config?.networks.find((n) => n.caipNetworkId === account.chainId)?.name ?? account.chainId
      const find = (ref: NonNullable<Prefill['from']>) => Rules.findToken(swapTokens.tokens, ref)
      const named = (ref: NonNullable<Prefill['from']>) => (ref.kind === 'symbol' ? ref.symbol : ref.kind === 'address' ? ref.address : where)
      const from = prefill.from && find(prefill.from)
      const to = prefill.to && find(prefill.to)
      const missing = (prefill.from && !from && prefill.from) || (prefill.to && !to && prefill.to)
      store.set(swapFormAtom, (f) => ({ ...f, from: from ?? f.from, to: to ?? f.to, amount: prefill.amount ?? f.amount }))
      void store.set(requestQuoteAtom, { delayMs: 0 })
      return missing ? { state: 'failed', message: format(swapText.tokenNotFound, { token: named(missing), network: where }) } : { state: 'done' }
    },
    [swapTokens],
  )
}
