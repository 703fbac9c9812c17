/**
 * WalletSecurity (docs/embedded-wallet.md §10): the person's devices and the wallet's activity are shown
 * only by the secure-site, over this view's slot: removing a device, the activity log and its check
 * against the vault, all in its own DOM. This side learns only that the person is done. Leaving the view
 * ends the screen there.
 */
import { embeddedText } from '@doorway/shared/texts/embedded'
import { useSetAtom } from 'jotai'
import { SecureScreen } from '../../features/embedded/SecureScreen.js'
import { manageWalletAtom } from '../../features/embedded/embeddedSession.js'

export default function WalletSecurity() {
  return <SecureScreen start={useSetAtom(manageWalletAtom)} hint={embeddedText.securityHint} />
}
