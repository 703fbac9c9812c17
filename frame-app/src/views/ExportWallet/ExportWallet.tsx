/**
 * ExportWallet (docs/embedded-wallet.md §8): key export happens only inside the secure-site, over
 * this view's slot: a fresh code, a hold to reveal, the phrase and key in its own DOM. This side learns
 * only that the person is done. Leaving the view ends the export there.
 */
import { embeddedText } from '@doorway/shared/texts/embedded'
import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { useSecureSlot } from '../../features/embedded/useSecureSlot.js'
import { exportKeyAtom } from '../../features/embedded/embeddedSession.js'

export default function ExportWallet() {
  const slotRef = useSecureSlot()
  const exportKey = useSetAtom(exportKeyAtom)
  useEffect(() => {
    const leaving = new AbortController()
    void exportKey(leaving.signal)
    return () => leaving.abort()
  }, [exportKey])
  return (
    <div className="stack">
      <p className="muted">{embeddedText.exportHint}</p>
      <div ref={slotRef} className="secure-slot" />
    </div>
  )
}
