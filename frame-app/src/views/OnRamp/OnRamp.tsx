/**
 * The buy form (issue 12): what to buy (on the dapp's networks), the currency, the amount (presets or
 * typed), the payment method with its limits (spec §5), and a live quote. Sample options and the mocked
 * quote (spec §8) say so plainly, and Buy is not offered on them.
 */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { onrampText } from '@doorway/shared/texts/onramp'
import { useAtomValue, useSetAtom, useStore } from 'jotai'
import { useEffect, useId } from 'react'
import type { PaymentMethod } from '../../api/client.js'
import { Placeholder } from '../../components/Placeholder.js'
import { accountAtom } from '../../core/connection.js'
import { shakeModalAtom } from '../../core/modal.js'
import {
  buyAtom,
  buyStateAtom,
  canBuyAtom,
  currentQuoteAtom,
  loadOnrampOptionsAtom,
  onrampAssetsAtom,
  onrampCheckAtom,
  onrampFormAtom,
  onrampOptionsAtom,
  onrampQuoteAtom,
  requestOnrampQuoteAtom,
  setOnrampAmountAtom,
  setOnrampAssetAtom,
  setOnrampCurrencyAtom,
  setOnrampMethodAtom,
} from '../../features/onramp/onramp.js'
import * as Rules from '../../features/onramp/onrampRules.js'
import './OnRamp.css'

export function OnRamp() {
  const account = useAtomValue(accountAtom)
  const options = useAtomValue(onrampOptionsAtom)
  const load = useSetAtom(loadOnrampOptionsAtom)
  useEffect(() => void load(), [load])
  if (!account) return <Placeholder>{accountText.notConnected}</Placeholder>
  if (options.status !== 'ready') return <span className="spinner" role="progressbar" aria-label={onrampText.loading} />
  return <OnRampForm />
}

function OnRampForm() {
  const store = useStore()
  const check = useAtomValue(onrampCheckAtom)
  const form = useAtomValue(onrampFormAtom)
  const assets = useAtomValue(onrampAssetsAtom)
  const canBuy = useAtomValue(canBuyAtom)
  const buyState = useAtomValue(buyStateAtom)
  const shake = useSetAtom(shakeModalAtom)
  const ids = { asset: useId(), currency: useId(), amount: useId(), method: useId() }

  // A form kept from before (e.g. Try again after a failed order) is quoted again when shown.
  useEffect(() => {
    if (store.get(onrampQuoteAtom).status === 'idle') void store.set(requestOnrampQuoteAtom, { delayMs: 0 })
  }, [store])

  if (!check) return null
  const sample = check.fallback && (
    <div className="warning stack" role="note">
      <p>{onrampText.sample}</p>
      <button type="button" className="secondary-button" onClick={() => void store.set(loadOnrampOptionsAtom, { retry: true })}>
        {onrampText.retry}
      </button>
    </div>
  )
  if (!check.asset) return <div className="stack">{sample}<Placeholder>{onrampText.nothing}</Placeholder></div>

  const buy = async () => {
    if ((await store.set(buyAtom)) === 'refused') shake()
  }
  const amountError = check.amount.ok ? undefined : check.amount.error
  const limits = check.limits ? Rules.limitsMessage(check.method, form.currency, check.limits) : Format.invalid
  return (
    <form className="stack onramp" onSubmit={(event) => (event.preventDefault(), void buy())} noValidate>
      {sample}
      <div className="field">
        <label htmlFor={ids.asset}>{onrampText.asset}</label>
        <select id={ids.asset} className="search" value={check.asset.key} onChange={(e) => void store.set(setOnrampAssetAtom, e.target.value)}>
          {assets.map((a) => (
            <option key={a.key} value={a.key}>
              {format(onrampText.assetOption, { symbol: a.currency.symbol, name: a.currency.name, network: a.networkName })}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.currency}>{onrampText.currency}</label>
        <select id={ids.currency} className="search" value={form.currency} onChange={(e) => void store.set(setOnrampCurrencyAtom, e.target.value)}>
          {check.currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <AmountField id={ids.amount} amount={form.amount} currency={form.currency} error={amountError} limits={limits} />
      <Methods methods={check.methods} method={check.method} currency={form.currency} />
      <Quote />
      {buyState.error && (
        <p className="error" role="alert">
          {buyState.error}
        </p>
      )}
      {canBuy.offered && (
        <button type="submit" className="primary-button" disabled={!canBuy.ready || buyState.busy} aria-busy={buyState.busy}>
          {buyState.busy ? <span className="spinner" role="progressbar" aria-label={onrampText.opening} /> : onrampText.buy}
        </button>
      )}
    </form>
  )
}

/** The amount, typed or a preset. The limits read under the field; an amount outside them turns that line into the error. */
function AmountField({ id, amount, currency, error, limits }: { id: string; amount: string; currency: string; error: string | undefined; limits: string }) {
  const store = useStore()
  const described = error ? `${id}-error` : `${id}-hint`
  return (
    <div className="field">
      <label htmlFor={id}>{format(onrampText.amount, { currency })}</label>
      <input
        id={id}
        className="search"
        value={amount}
        onChange={(e) => void store.set(setOnrampAmountAtom, e.target.value)}
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={!!error}
        aria-describedby={described}
      />
      <div className="onramp-presets" role="group" aria-label={onrampText.presets}>
        {Rules.presets.map((p) => (
          <button key={p} type="button" className="secondary-button" aria-pressed={Rules.cents(amount) === Rules.cents(p)} onClick={() => void store.set(setOnrampAmountAtom, p)}>
            {Rules.money(p, currency)}
          </button>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="muted">
          {limits}
        </p>
      )}
    </div>
  )
}

/** The payment methods as radio buttons, each with its limits in the chosen currency (spec §5). */
function Methods({ methods, method, currency }: { methods: readonly PaymentMethod[]; method: PaymentMethod; currency: string }) {
  const store = useStore()
  const state = useAtomValue(onrampOptionsAtom)
  const name = useId()
  if (state.status !== 'ready') return null
  return (
    <fieldset className="onramp-methods">
      <legend>{onrampText.method}</legend>
      {methods.map((m) => {
        const limits = Rules.limitsOf(state.options, currency, m)
        const id = `${name}-${m}`
        return (
          <div key={m} className="onramp-method">
            <input id={id} type="radio" name={name} value={m} checked={m === method} onChange={() => void store.set(setOnrampMethodAtom, m)} aria-describedby={`${id}-limits`} />
            <label htmlFor={id}>{onrampText.methods[Rules.methodKey(m)]}</label>
            <span id={`${id}-limits`} className="muted">
              {limits ? `${Rules.money(limits.min, currency)} – ${Rules.money(limits.max, currency)}` : ''}
            </span>
          </div>
        )
      })}
    </fieldset>
  )
}

/** The quote of the form as it is: you pay, fees, you get; an estimate says so. Announced when it changes. */
function Quote() {
  const quote = useAtomValue(currentQuoteAtom)
  const { estimate } = useAtomValue(canBuyAtom)
  const lines = quote?.status === 'ready' ? Rules.quoteLines(quote.quote) : undefined
  // A live quote is read out here; an estimate is read out by its own note (one text, one place).
  const announced = lines && !estimate ? format(onrampText.quoteFor, { get: lines.get, pay: lines.pay }) : quote?.status === 'loading' ? onrampText.quoting : ''
  return (
    <section className="onramp-quote stack" aria-label={onrampText.quote}>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announced}
      </p>
      {quote?.status === 'loading' && <span className="spinner" role="progressbar" aria-label={onrampText.quoting} />}
      {quote?.status === 'error' && (
        <p className="error" role="alert">
          {quote.message}
        </p>
      )}
      {lines && (
        <dl className="details">
          <dt>{onrampText.pay}</dt>
          <dd>{lines.pay}</dd>
          <dt>{onrampText.fees}</dt>
          <dd>{lines.fees}</dd>
          <dt>{onrampText.get}</dt>
          <dd>{lines.get}</dd>
        </dl>
      )}
      {estimate && (
        <p className="warning" role="status">
          {onrampText.estimate}
        </p>
      )}
    </section>
  )
}
