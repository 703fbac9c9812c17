import { embeddedText } from '@doorway/shared/texts/embedded'
import { useAtomValue, useSetAtom } from 'jotai'
import { useId, useState } from 'react'
import { accountAtom } from '../../core/connection.js'
import { smartUnavailableAtom } from '../../features/embedded/accountType.js'
import { smartAccountDeployedAtom } from '../../features/embedded/deployed.js'
import { switchAccountTypeAtom } from '../../features/embedded/embeddedSession.js'

/**
 * The embedded wallet's account type in the Account view (issue 25, spec §3 preferredAccountType and
 * smartAccountDeployed): which account the dapp sees, and an explained switch to the other one. A lazy
 * chunk: only the embedded wallet's Account view loads it.
 */
export default function AccountType() {
  const account = useAtomValue(accountAtom)
  const unavailable = useAtomValue(smartUnavailableAtom)
  const switchType = useSetAtom(switchAccountTypeAtom)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState<string>()
  const deployed = useAtomValue(smartAccountDeployedAtom)
  const title = useId()
  const note = useId()
  if (!account) return null
  const smart = account.connector.accountType === 'smartAccount'
  const toggle = async () => {
    setBusy(true)
    setFailed(undefined)
    try {
      await switchType(smart ? 'eoa' : 'smartAccount')
    } catch (error) {
      // The wallet stays connected as it was; the person reads why and may try again.
      setFailed(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="account-type" aria-labelledby={title}>
      <h3 id={title}>{embeddedText.accountType}</h3>
      <p className="account-type-name">{smart ? embeddedText.smartAccount : embeddedText.eoa}</p>
      <p className="muted">{smart ? embeddedText.smartHint : embeddedText.eoaHint}</p>
      {smart && deployed === false && <p className="muted">{embeddedText.notDeployed}</p>}
      {smart && account.connector.gasless && <p className="muted">{embeddedText.sponsored}</p>}
      {!smart && unavailable && <p className="muted" role="status">{unavailable}</p>}
      {failed && (
        <p className="error" role="alert">
          {failed}
        </p>
      )}
      <button type="button" className="list-button" aria-describedby={note} disabled={busy} onClick={() => void toggle()}>
        {busy ? embeddedText.switching : smart ? embeddedText.switchToEoa : embeddedText.switchToSmart}
      </button>
      <p id={note} className="muted">
        {embeddedText.switchNote}
      </p>
    </section>
  )
}
