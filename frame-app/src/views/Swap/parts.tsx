/** Pieces the Swap form and its preview share: the token buttons, the quote's details, the slippage. */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import { useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import type { Quote, SwapToken } from '../../api/client.js'
import { activeNetworkAtom } from '../../core/network.js'
import { pushAtom } from '../../core/router.js'
import * as SendRules from '../../features/send/sendRules.js'
import { setSlippageAtom, swapFormAtom } from '../../features/swap/swap.js'
import * as Rules from '../../features/swap/swapRules.js'
import { tokensAtom } from '../../features/balances/tokens.js'
import { Field } from '../Send/Field.js'

/** The token of one side; opens that side's picker. Its name says the side and the token. */
export function TokenChip({ side, token }: { side: 'from' | 'to'; token: SwapToken | undefined }) {
  const push = useSetAtom(pushAtom)
  const label = format(side === 'from' ? swapText.payToken : swapText.receiveToken, { symbol: token?.symbol ?? swapText.chooseToken })
  return (
    <button type="button" className="secondary-button token-chip" aria-label={label} onClick={() => push({ view: 'SwapSelectToken', side })}>
      {token?.logoUri && <img src={token.logoUri} alt="" width={20} height={20} />}
      <span>{token?.symbol ?? swapText.chooseToken}</span>
      <span aria-hidden="true">▾</span>
    </button>
  )
}

/** The quote as the person checks it: rate, price impact (warned above 5 %), fees, the minimum received. */
export function QuoteDetails(props: { quote: Quote; from: SwapToken; to: SwapToken; slippage: string; gasPrice: bigint | undefined }) {
  const { quote, from, to } = props
  const network = useAtomValue(activeNetworkAtom)
  const native = useAtomValue(tokensAtom).balances.find(SendRules.isNative)
  const slippage = Rules.parseSlippage(props.slippage)
  const feeToken = typeof quote.fee.token === 'string' && quote.fee.token.toLowerCase() === to.address.toLowerCase() ? to : from
  const networkFee = quote.networkFee && BigInt(quote.networkFee.amount)
  const nativeDecimals = network?.nativeCurrency.decimals ?? 18
  const feeUsd = networkFee === undefined ? undefined : Rules.usdOf(networkFee, nativeDecimals, native?.price)
  const high = Rules.isHighImpact(quote.priceImpact)
  return (
    <>
      <dl className="details">
        <dt>{swapText.rate}</dt>
        <dd>{Rules.formatRate(quote, from, to)}</dd>
        <dt>{swapText.priceImpact}</dt>
        <dd className={high ? 'danger-text' : undefined}>{Rules.formatPercent(Number(quote.priceImpact.toFixed(2)))}</dd>
        <dt>{swapText.fee}</dt>
        <dd>{`${Rules.formatPercent(quote.fee.percent)} · ${Rules.formatAmount(BigInt(quote.fee.amount), feeToken.decimals)} ${feeToken.symbol}`}</dd>
        <dt>{swapText.networkFee}</dt>
        <dd>
          {networkFee === undefined
            ? Format.invalid
            : `${Rules.formatAmount(networkFee, nativeDecimals)} ${network?.nativeCurrency.symbol ?? ''}${feeUsd === undefined ? '' : ` (${money(feeUsd)})`}`}
        </dd>
        <dt>{swapText.minimum}</dt>
        <dd>{'error' in slippage ? Format.invalid : `${Rules.formatAmount(Rules.amountOutMin(BigInt(quote.toAmount), slippage.bps), to.decimals)} ${to.symbol}`}</dd>
      </dl>
      {high && (
        <p className="warning" role="note">
          {format(swapText.highImpact, { impact: Rules.formatPercent(Number(quote.priceImpact.toFixed(2))) })}
        </p>
      )}
    </>
  )
}

function money(usd: number) {
  return usd > 0 && usd < 0.01 ? `< ${Format.formatMoney(0.01)}` : Format.formatMoney(usd)
}

/** Slippage tolerance: three presets and a custom value, 0.01 % to 50 % (spec §9: 1 % by default). */
export function SlippageControl() {
  const { slippage } = useAtomValue(swapFormAtom)
  const set = useSetAtom(setSlippageAtom)
  const preset = Rules.slippagePresets.find((p) => p === slippage)
  const checked = Rules.parseSlippage(slippage)
  // What the person types stays as typed ('1.' on the way to '1.5'), whatever it matches.
  const [custom, setCustom] = useState(preset ? '' : slippage)
  const type = (text: string) => {
    setCustom(text)
    set(text.trim() === '' ? Rules.defaultSlippage : text)
  }
  return (
    <fieldset className="slippage">
      <legend>{swapText.slippage}</legend>
      <div className="slippage-presets">
        {Rules.slippagePresets.map((p) => (
          <button key={p} type="button" className="secondary-button" aria-pressed={p === preset} onClick={() => (setCustom(''), set(p))}>
            {Rules.formatPercent(Number(p))}
          </button>
        ))}
      </div>
      <Field
        label={swapText.slippageCustom}
        value={custom}
        onChange={type}
        inputMode="decimal"
        error={'error' in checked ? swapText.errors.slippage : undefined}
        hint={swapText.slippageHint}
      />
    </fieldset>
  )
}
