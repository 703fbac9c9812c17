/**
 * ExportWallet (docs/embedded-wallet.md §8): key export happens only inside the secure-site, over
 * this view's slot: a fresh code, a hold to reveal, the phrase and key in its own DOM. This side learns
 * only that the person is done. Leaving the view ends the export there.
 */
import { embeddedText } from '@doorway/shared/texts/embedded'
import { useSetAtom } from 'jotai'
import { SecureScreen } from '../../features/embedded/SecureScreen.js'
import { exportKeyAtom } from '../../features/embedded/embeddedSession.js'

export default function ExportWallet() {
  return <SecureScreen start={useSetAtom(exportKeyAtom)} hint={embeddedText.exportHint} />
}
