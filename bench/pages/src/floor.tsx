/**
 * The floor (issue 14): the same page with a wallet chooser hand-rolled in the page itself, a native
 * <dialog> listing wallet rows. Nothing is faster than this: no frame, no message, no other process.
 */
import { useLayoutEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { markShown, mount } from './page.js'

const wallets = ['WalletConnect', 'MetaMask', 'Rainbow', 'Coinbase Wallet', 'Trust Wallet']
const icon = (hue: number) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" rx=".25" fill="hsl(${hue} 70% 50%)"/></svg>`)}`

let setOpen: (open: boolean) => void = () => {}

function WalletModal() {
  const [open, set] = useState(false)
  setOpen = set
  const dialog = useRef<HTMLDialogElement>(null)
  useLayoutEffect(() => {
    if (!open) return
    dialog.current?.showModal()
    markShown()
  }, [open])
  if (!open) return null
  return (
    <dialog ref={dialog} aria-label="Connect Wallet" onClose={() => set(false)} style={{ width: 360, borderRadius: 24 }}>
      <h2>Connect Wallet</h2>
      <ul style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 8 }}>
        {wallets.map((name, i) => (
          <li key={name}>
            <button type="button" style={{ display: 'flex', gap: 12, alignItems: 'center', width: '100%' }}>
              <img src={icon(i * 70)} alt="" width={40} height={40} />
              {name}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  )
}

// A click renders the modal at once, as a dapp's own state update would.
mount(<WalletModal />, () => flushSync(() => setOpen(true)))
