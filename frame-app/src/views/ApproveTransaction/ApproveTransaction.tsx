/**
 * ApproveTransaction (spec §2, §4; notes/embedded-wallet.md §4.7): the frame only makes room and shows
 * the secure-site's iframe over it. What is asked, and the decision, are the secure-site's own. When
 * this view goes away (back, close, another view) the pending request is rejected with 4001.
 */
import { ui } from '@doorway/shared/Messages'
import { useSetAtom } from 'jotai'
import { useLayoutEffect, useRef } from 'react'
import { cancelApprovalAtom } from '../../state/embedded.js'
import type { RouteOf } from '../../state/routes.js'
import { secureSlotAtom } from '../../state/secure.js'

/** Frames the slot must hold still before the secure iframe shows over it. */
const stillFrames = 3

export default function ApproveTransaction({ route }: { route: RouteOf<'ApproveTransaction'> }) {
  const slotRef = useRef<HTMLDivElement>(null)
  const setSlot = useSetAtom(secureSlotAtom)
  const cancel = useSetAtom(cancelApprovalAtom)
  useLayoutEffect(() => {
    const slot = slotRef.current!
    // The view moves while the modal animates its height and the view transition (spec §2), which no
    // observer reports. The secure iframe is shown only once the slot has held still for a few frames,
    // and hidden again whenever it moves, so Approve is never clicked in flight, and each move restarts
    // the secure-site's 500 ms visibility gate.
    let last = ''
    let still = 0
    let frame = 0
    const place = () => {
      const rect = slot.getBoundingClientRect()
      const next = { top: rect.top, left: rect.left, width: rect.width, height: rect.height }
      const key = JSON.stringify(next)
      if (key !== last) {
        if (still >= stillFrames) setSlot(null)
        still = 0
      } else if (++still === stillFrames) setSlot(next)
      last = key
      frame = requestAnimationFrame(place)
    }
    place()
    return () => {
      cancelAnimationFrame(frame)
      setSlot(null)
      cancel(route.requestId)
    }
  }, [route.requestId, setSlot, cancel])
  return (
    <div className="stack">
      <p className="muted">{ui.embedded.approveHint}</p>
      <div ref={slotRef} className="secure-slot" />
    </div>
  )
}
