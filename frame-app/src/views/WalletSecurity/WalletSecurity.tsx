/**
 * WalletSecurity (docs/embedded-wallet.md §10): the person's devices and the wallet's activity are shown
 * only by the secure-site, over this view's slot: removing a device, the activity log and its check
 * against the vault, all in its own DOM. This side learns only that the person is done. Leaving the view
 * ends the screen there.
 */
import { embeddedText } from '@doorway/shared/texts/embedded'
import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { manageWalletAtom } from '../../features/embedded/embeddedSession.js'
import { useSecureSlot } from '../../features/embedded/useSecureSlot.js'

export default function WalletSecurity() {
  const slotRef = useSecureSlot()
  const manageWallet = useSetAtom(manageWalletAtom)
  useEffect(() => {
    const leaving = new AbortController()
    void manageWallet(leaving.signal)
    return () => leaving.abort()
  }, [manageWallet])
  return (
    <div className="stack">
      <p className="muted">{embeddedText.securityHint}</p>
      <div ref={slotRef} className="secure-slot" />
    </div>
  )
}
