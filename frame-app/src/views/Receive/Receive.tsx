/**
 * Receive (issue 8): the connected address as a QR code and in full, copy with a toast, and the
 * networks on which it receives: the dapp's networks of the same namespace. A lazy chunk, loaded
 * only when features.receive is on (spec §1).
 */
import * as Caip from '@doorway/shared/Caip'
import { accountText } from '@doorway/shared/texts/account'
import { receiveText } from '@doorway/shared/texts/receive'
import { useAtomValue } from 'jotai'
import { Placeholder } from '../../components/Placeholder.js'
import { QrCode } from '../../components/QrCode.js'
import { useCopy } from '../../components/useCopy.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'

export default function Receive() {
  const account = useAtomValue(accountAtom)
  const config = useAtomValue(configAtom)!
  const copy = useCopy()
  if (!account) return <Placeholder>{accountText.notConnected}</Placeholder>
  const namespace = Caip.parseChainId(account.chainId).namespace
  const networks = config.networks.filter((n) => Caip.parseChainId(n.caipNetworkId).namespace === namespace)

  return (
    <div className="stack">
      <QrCode value={account.address} label={receiveText.qr} logo={account.connector.imageUrl} />
      <p className="address center" aria-label={receiveText.address}>
        {account.address}
      </p>
      <button type="button" className="secondary-button" onClick={() => copy(account.address, { copied: accountText.copied, failed: accountText.copyFailed })}>
        {receiveText.copy}
      </button>
      <section className="stack" aria-label={receiveText.networks}>
        <ul className="chips">
          {networks.map((n) => (
            <li key={n.caipNetworkId} className="badge">
              {n.name}
            </li>
          ))}
        </ul>
        <p className="warning" role="note">
          {receiveText.warning}
        </p>
      </section>
    </div>
  )
}
