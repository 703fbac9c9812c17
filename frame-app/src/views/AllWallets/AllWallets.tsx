import * as Constants from '@doorway/shared/Constants'
import { ui } from '@doorway/shared/Texts'
import { allWalletsText } from '@doorway/shared/texts/allWallets'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { WalletGrid } from '../../components/WalletGrid.js'
import { allWalletsAtom, customWalletsAtom, loadMoreAtom, searchAtom } from '../../features/catalogue/allWallets.js'
import { useChooseWallet } from '../Connect/useChooseWallet.js'

/** Every wallet of the catalogue: pages of 40 as you scroll, a search of up to 100 (spec §9). */
export function AllWallets() {
  const state = useAtomValue(allWalletsAtom)
  const custom = useAtomValue(customWalletsAtom)
  const loadMore = useSetAtom(loadMoreAtom)
  const search = useSetAtom(searchAtom)
  const choose = useChooseWallet()
  const [text, setText] = useState(state.search)

  useEffect(() => {
    if (!state.pages.length && !state.loading) void loadMore()
  }, [])
  // spec §9: at least 300 ms between the last keystroke and the request.
  useEffect(() => {
    if (text.trim() === state.search) return
    const timer = setTimeout(() => void search(text.trim()), Constants.walletSearchMinDelayMs)
    return () => clearTimeout(timer)
  }, [text, state.search, search])

  const wallets = [...custom, ...state.pages.flat()]
  return (
    <div className="stack">
      <input
        type="search"
        className="search"
        aria-label={allWalletsText.search}
        placeholder={allWalletsText.search}
        value={text}
        maxLength={64}
        onChange={(event) => setText(event.target.value)}
      />
      {wallets.length > 0 && (
        <WalletGrid wallets={wallets} total={(state.count ?? 0) + custom.length} onChoose={choose} onNearEnd={() => void loadMore()} />
      )}
      <div role="status">
        {state.loading && <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}
        {!state.loading && state.count === 0 && custom.length === 0 && <p className="placeholder">{allWalletsText.empty}</p>}
      </div>
      {state.failed && (
        <div role="alert" className="stack">
          <p className="error">{allWalletsText.failed}</p>
          <button type="button" className="list-button" onClick={() => void loadMore()}>
            {ui.connect.retry}
          </button>
        </div>
      )}
    </div>
  )
}
