/**
 * The Send flow's preview: what goes where, and the network fee from the api's gas price and a real
 * eth_estimateGas, in the native token and in US dollars. The spec §5 gas check blocks the send with
 * a clear message. Send asks the wallet once: the button is off while a request is out.
 */
import * as Format from '@doorway/shared/Format'
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { useAtomValue, useSetAtom, useStore } from 'jotai'
import { useEffect, useState } from 'react'
import { accountAtom } from '../../core/connection.js'
import { paysNoGas } from '../../core/connectors/Connector.js'
import { activeNetworkAtom } from '../../core/network.js'
import { popAtom, pushAtom, routeAtom } from '../../core/router.js'
import { type Estimate, estimateAtom, estimateFeeAtom, insufficientGasAtom, sendAtom, sendErrorAtom, sendTokenAtom } from '../../features/send/send.js'
import * as Rules from '../../features/send/sendRules.js'
import { ReceiverCard } from './SendReceiver.js'
import { useSendStep } from './useSendStep.js'

/** Send: the wallet asks once, on the SendConfirm view; a send that left nothing behind comes back here. */
async function submitSend(store: ReturnType<typeof useStore>, setThrown: (message: string | undefined) => void) {
  setThrown(undefined)
  store.set(pushAtom, { view: 'SendConfirm' })
  const leaveConfirm = () => store.get(routeAtom).view === 'SendConfirm' && store.set(popAtom)
  try {
    const outcome = await store.set(sendTokenAtom)
    if (outcome.status === 'timedOut' || outcome.status === 'kept') leaveConfirm()
  } catch (error) {
    leaveConfirm()
    setThrown((error as Error).message)
  }
}

export function SendPreview() {
  const store = useStore()
  const send = useAtomValue(sendAtom)
  const account = useAtomValue(accountAtom)
  const network = useAtomValue(activeNetworkAtom)
  const estimate = useAtomValue(estimateAtom)
  const insufficient = useAtomValue(insufficientGasAtom)
  const sendError = useAtomValue(sendErrorAtom)
  const estimateFee = useSetAtom(estimateFeeAtom)
  const [thrown, setThrown] = useState<string>()
  const { token, sendTokenAmount: amount, receiverAddress } = send
  useSendStep(!!token && !!amount && !!receiverAddress)
  useEffect(() => {
    if (estimate.status === 'idle') void estimateFee()
  }, [estimate.status, estimateFee])
  if (!token || !amount || !receiverAddress || !account) return null

  const native = send.tokenBalances.find(Rules.isNative)
  const symbol = native?.symbol ?? network?.nativeCurrency.symbol ?? ''
  const warnings = Rules.receiverWarnings(receiverAddress, { from: account.address, tokens: send.tokenBalances })
  const ready = estimate.status === 'ready' && !insufficient && !send.loading

  const submit = () => ready && submitSend(store, setThrown)
  return (
    <div className="stack">
      <div className="preview-amount">
        <img src={token.iconUrl} alt="" width={40} height={40} />
        <strong>{`${Format.formatQuantity(amount)} ${token.symbol}`}</strong>
        <span className="muted">{Format.formatMoney(Number(amount) * token.price)}</span>
      </div>
      <dl className="details">
        <dt>{sendText.to}</dt>
        <dd className="wide">
          <ReceiverCard receiver={{ address: receiverAddress, name: send.receiverProfileName, imageUrl: send.receiverProfileImageUrl }} />
        </dd>
        <dt>{sendText.network}</dt>
        <dd>{network?.name}</dd>
        <dt>{sendText.fee}</dt>
        {/* A sponsored smart account (issue 25): the app's paymaster pays, nothing of the account's. */}
        {paysNoGas(account.connector) ? <dd>{sendText.sponsoredFee}</dd> : <Fee estimate={estimate} gasPrice={send.gasPrice} decimals={Number(native?.quantity.decimals ?? 18)} symbol={symbol} usd={send.gasPriceInUSD ?? 0} />}
      </dl>
      {estimate.status === 'ready' && estimate.rent !== undefined && <RentNote lamports={estimate.rent} />}
      {warnings.map((warning) => (
        <p key={warning} className="warning" role="note">
          {sendText[warning]}
        </p>
      ))}
      {estimate.status === 'error' && (
        <div className="stack" role="alert">
          <p className="error">{estimate.message}</p>
          <button type="button" className="secondary-button" onClick={() => void estimateFee()}>
            {sendText.tryAgain}
          </button>
        </div>
      )}
      {insufficient && (
        <p className="error" role="alert">
          {format(sendText[insufficient], { symbol })}
        </p>
      )}
      {(sendError ?? thrown) && (
        <p className="error" role="alert">
          {sendError ?? thrown}
        </p>
      )}
      <button type="button" className="primary-button" disabled={!ready} onClick={() => void submit()}>
        {sendText.send}
      </button>
    </div>
  )
}

/** The network fee: a spinner while estimating, then the fee in the native token and in US dollars. */
function Fee({ estimate, gasPrice, decimals, symbol, usd }: { estimate: Estimate; gasPrice: bigint | undefined; decimals: number; symbol: string; usd: number }) {
  const fee = estimate.status === 'ready' && gasPrice !== undefined ? estimate.gas * gasPrice : undefined
  return (
    <dd aria-busy={estimate.status === 'loading'}>
      {estimate.status === 'loading' && <span className="spinner" role="progressbar" aria-label={sendText.estimating} />}
      {fee !== undefined && (
        <>
          {`${atLeast(fee, decimals)} ${symbol}`}
          <span className="muted">{` ${money(usd)}`}</span>
        </>
      )}
    </dd>
  )
}

/** spec §9 quantities show 3 decimals; a fee too small for them says so instead of '0.000'. */
function atLeast(value: bigint, decimals: number) {
  const text = Format.formatQuantity(Format.formatUnits(value, decimals))
  return value > 0n && /^0\.0+$/.test(text) ? `< ${Format.formatQuantity('0.001')}` : text
}

function money(usd: number) {
  return usd > 0 && usd < 0.01 ? `< ${Format.formatMoney(0.01)}` : Format.formatMoney(usd)
}

/** Solana: the send opens the receiver's token account, whose rent the sender pays (issue 23). */
function RentNote({ lamports }: { lamports: bigint }) {
  return (
    <p className="muted" role="note">
      {format(sendText.rentNote, { rent: Format.formatQuantity(Format.formatUnits(lamports, 9)) })}
    </p>
  )
}
