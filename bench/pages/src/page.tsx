/**
 * The dapp both bench pages share (issue 14): a React page with a header and a "Connect Wallet"
 * button. The bench reads `window.bench`: when the pointer went down (capture phase, before React's
 * handler) and the first animation frame after the wallet options were put on screen; the button
 * carries Element Timing so its first paint is known. Times are on the cross-frame clock
 * (performance.timeOrigin + performance.now()).
 */
import type { ReactNode } from 'react'
import { createRoot } from 'react-dom/client'

export type Bench = { clickAt?: number; shownAt?: number }
declare global {
  var bench: Bench
}

export const now = () => performance.timeOrigin + performance.now()

/** Notes the first frame from now on: the one that presents what was just put on screen. */
export const markShown = () => requestAnimationFrame(() => (globalThis.bench.shownAt ??= now()))

export function mount(modal: ReactNode, onOpen: () => void) {
  globalThis.bench = {}
  addEventListener('pointerdown', () => (globalThis.bench = { clickAt: now() }), { capture: true })
  createRoot(document.getElementById('root')!).render(
    <main style={{ font: '16px system-ui', padding: 24 }}>
      <h1>Example dapp</h1>
      <p>A page with one button that opens a wallet chooser.</p>
      {/* Element Timing: the bench's "button visible" */}
      <button type="button" onClick={onOpen} {...{ elementtiming: 'connect' }}>
        Connect Wallet
      </button>
      {modal}
    </main>,
  )
}
