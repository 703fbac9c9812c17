/**
 * The slot a view makes for the secure-site's iframe (ApproveTransaction, ExportWallet): the frame
 * only makes room and positions the iframe over it; what shows there is the secure-site's own DOM.
 */
import { useSetAtom } from 'jotai'
import { useLayoutEffect, useRef } from 'react'
import { secureSlotAtom } from './secure.js'

/** Frames the slot must hold still before the secure iframe shows over it. */
const stillFrames = 3

/** A ref for the slot element; `onGone` runs when the view goes away (keep it stable). */
export function useSecureSlot(onGone?: () => void) {
  const slotRef = useRef<HTMLDivElement>(null)
  const setSlot = useSetAtom(secureSlotAtom)
  useLayoutEffect(() => {
    const slot = slotRef.current!
    // The view moves while the modal animates its height and the view transition (spec §2), which no
    // observer reports. The secure iframe is shown only once the slot has held still for a few frames,
    // and hidden again whenever it moves, so nothing is clicked in flight, and each move restarts the
    // secure-site's 500 ms visibility gate.
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
      onGone?.()
    }
  }, [setSlot, onGone])
  return slotRef
}
