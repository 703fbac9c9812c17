/** The Send flow while the wallet asks the person: nothing is sent until they approve there. */
import { format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { useAtomValue } from 'jotai'
import { WalletIcon } from '../../components/WalletIcon.js'
import { accountAtom } from '../../core/connection.js'

export function SendConfirm() {
  const account = useAtomValue(accountAtom)
  if (!account) return null
  return (
    <div className="stack center" role="status">
      <WalletIcon src={account.connector.imageUrl} size={72} />
      <h2>{format(sendText.confirmIn, { wallet: account.connector.name })}</h2>
      <p className="muted">{sendText.confirmHint}</p>
      <span className="spinner" aria-hidden="true" />
    </div>
  )
}
