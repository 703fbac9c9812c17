/**
 * spec §2 SIWXSignMessage and ConnectingSiwe (issue 13): the pinned host origin asks the connected
 * account to sign in. Sign, or Cancel (which disconnects when sign-in is required, spec §4); a declined
 * signature is said and asked again.
 */
import * as Address from '@doorway/shared/Address'
import { format } from '@doorway/shared/Texts'
import { siwxText } from '@doorway/shared/texts/siwx'
import { useAtomValue, useSetAtom } from 'jotai'
import { WalletIcon } from '../../components/WalletIcon.js'
import { hostOriginAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { signInAtom } from '../../features/siwx/siwx.js'
import { cancelAtom, signAtom } from '../../features/siwx/siwxFlow.js'

export default function SIWXSignMessage() {
  const signIn = useAtomValue(signInAtom)
  const account = useAtomValue(accountAtom)
  const origin = useAtomValue(hostOriginAtom) ?? ''
  const sign = useSetAtom(signAtom)
  const cancel = useSetAtom(cancelAtom)
  const required = signIn.step !== 'idle' && signIn.required
  const busy = signIn.step === 'checking' || signIn.step === 'signing'
  return (
    <div className="stack center">
      <WalletIcon src={account?.connector.imageUrl} size={72} />
      <h2>{format(siwxText.ask, { origin })}</h2>
      <p className="muted">{siwxText.hint}</p>
      {account && (
        <p>
          {siwxText.account} <span title={account.address}>{Address.truncate(account.address)}</span>
        </p>
      )}
      {required && <p className="muted">{siwxText.required}</p>}
      {busy && (
        <div role="status">
          <span className="spinner" aria-hidden="true" />
          <p>{signIn.step === 'checking' ? siwxText.checking : siwxText.waiting}</p>
        </div>
      )}
      {signIn.step === 'ready' && signIn.error && (
        <p className="error" role="alert">
          {signIn.error}
        </p>
      )}
      <button type="button" className="primary-button" disabled={signIn.step !== 'ready'} onClick={() => void sign()}>
        {siwxText.sign}
      </button>
      <button type="button" className="secondary-button" disabled={signIn.step === 'idle'} onClick={() => void cancel()}>
        {required ? siwxText.disconnect : siwxText.cancel}
      </button>
    </div>
  )
}
