/**
 * A virtualised grid of wallets: only the rows in view (plus a few) are in the DOM, so the whole
 * catalogue scrolls smoothly. Near the end it asks for more (infinite scroll).
 */
import { allWalletsText } from '@doorway/shared/texts/allWallets'
import { useState } from 'react'
import type { Wallet } from '../features/catalogue/catalogue.js'
import { WalletIcon } from './WalletIcon.js'
import './WalletGrid.css'

const columns = 4
const rowHeight = 96
const viewHeight = 384
const overscan = 2

export function WalletGrid(props: { wallets: Wallet[]; total: number; onChoose(wallet: Wallet): void; onNearEnd(): void }) {
  const { wallets, total, onChoose, onNearEnd } = props
  const [scrollTop, setScrollTop] = useState(0)
  const rows = Math.ceil(wallets.length / columns)
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan)
  const last = Math.min(rows, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan)
  const visible = wallets.slice(first * columns, last * columns)
  return (
    <div
      className="wallet-grid"
      style={{ height: Math.min(viewHeight, rows * rowHeight) }}
      onScroll={(event) => {
        const target = event.currentTarget
        setScrollTop(target.scrollTop)
        if (target.scrollTop + target.clientHeight >= target.scrollHeight - 2 * rowHeight) onNearEnd()
      }}
    >
      <ul aria-label={allWalletsText.list} style={{ height: rows * rowHeight, paddingTop: first * rowHeight }}>
        {visible.map((wallet, i) => (
          <li key={wallet.id} aria-setsize={total} aria-posinset={first * columns + i + 1}>
            <button type="button" className="wallet-card" onClick={() => onChoose(wallet)}>
              <WalletIcon src={wallet.imageUrl} size={48} />
              <span>{wallet.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
