/**
 * ApproveTransaction (spec §2, §4; docs/embedded-wallet.md §7): the frame only makes room and shows
 * the secure-site's iframe over it. What is asked, and the decision, are the secure-site's own. When
 * this view goes away (back, close, another view) the pending request is rejected with 4001.
 */
import { useSetAtom } from 'jotai'
import { useCallback } from 'react'
import { useSecureSlot } from '../../features/embedded/useSecureSlot.js'
import { cancelApprovalAtom } from '../../features/embedded/embedded.js'
import type { RouteOf } from '../../core/routes.js'

export default function ApproveTransaction({ route }: { route: RouteOf<'ApproveTransaction'> }) {
  const cancel = useSetAtom(cancelApprovalAtom)
  const slotRef = useSecureSlot(useCallback(() => cancel(route.requestId), [cancel, route.requestId]))
  // The request titles itself in the secure-site: all the room goes to it, so a simple send fits whole.
  return <div ref={slotRef} className="secure-slot approval-slot" />
}
