/** The Send flow while the wallet asks the person: nothing is sent until they approve there. */
import { format, ui } from '@doorway/shared/Messages'
import { useAtomValue } from 'jotai'
import { WalletIcon } from '../../components/WalletIcon.js'
import { accountAtom } from '../../state/connection.js'

export function SendConfirm() {
  const account = useAtomValue(accountAtom)
  if (!account) return null
  return (
    <div className="stack center" role="status">
      <WalletIcon src={account.connector.imageUrl} size={72} />
      <h2>{format(ui.send.confirmIn, { wallet: account.connector.name })}</h2>
      <p className="muted">{ui.send.confirmHint}</p>
      <span className="spinner" aria-hidden="true" />
    </div>
  )
}
