import { ui } from '@doorway/shared/Texts'
import { useAtomValue } from 'jotai'
import { loadable } from 'jotai/utils'
import { WalletIcon } from '../../components/WalletIcon.js'
import { connectListsAtom, recentCatalogueWalletsAtom, type Wallet } from '../../features/catalogue/catalogue.js'
import { useChooseWallet } from './useChooseWallet.js'

const listsAtom = loadable(connectListsAtom)

/** Featured then recommended wallets from the catalogue (spec §9: 4 each). Quietly absent if the api is. */
export function CatalogueWallets() {
  const lists = useAtomValue(listsAtom)
  const recent = useAtomValue(recentCatalogueWalletsAtom)
  const choose = useChooseWallet()
  if (lists.state !== 'hasData') return <WalletList label={ui.connect.recent} wallets={recent} onChoose={choose} badge={ui.connect.recent} />
  const { featured, recommended } = lists.data
  return (
    <>
      <WalletList label={ui.connect.recent} wallets={recent} onChoose={choose} badge={ui.connect.recent} />
      <WalletList label={ui.connect.featured} wallets={featured} onChoose={choose} />
      <WalletList label={ui.connect.recommended} wallets={recommended} onChoose={choose} />
    </>
  )
}

/** The All Wallets entry's count, once the catalogue answered. */
export function useCatalogueCount(): number | undefined {
  const lists = useAtomValue(listsAtom)
  return lists.state === 'hasData' ? lists.data.count : undefined
}

function WalletList(props: { label: string; wallets: readonly Wallet[]; onChoose(wallet: Wallet): void; badge?: string }) {
  const { label, wallets, onChoose, badge } = props
  if (!wallets.length) return null
  return (
    <ul className="list" aria-label={label}>
      {wallets.map((wallet) => (
        <li key={wallet.id}>
          <button type="button" className="list-button" onClick={() => onChoose(wallet)}>
            <WalletIcon src={wallet.imageUrl} />
            <span>{wallet.name}</span>
            {badge && <span className="badge">{badge}</span>}
          </button>
        </li>
      ))}
    </ul>
  )
}
