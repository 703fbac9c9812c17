// A lazy chunk: loaded when the NFTs tab opens.
import * as Format from '@doorway/shared/Format'
import { format, ui } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { nftsText } from '@doorway/shared/texts/nfts'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import type { Nft } from '../../api/client.js'
import { accountAtom } from '../../core/connection.js'
import { fetchNftsAtom, nftsAtom } from '../../features/nfts/nfts.js'
import { LoadMore } from './LoadMore.js'

/** The NFTs tab: what the account holds on its chain, spam hidden, a page at a time. */
export default function Nfts() {
  const account = useAtomValue(accountAtom)
  const { status, nfts, next } = useAtomValue(nftsAtom)
  const fetch = useSetAtom(fetchNftsAtom)
  useEffect(() => void fetch('first'), [account?.address, account?.chainId, fetch])

  const loading = status === 'loading'
  return (
    <div className="stack">
      {nfts.length > 0 && (
        <ul className="nft-grid" aria-label={accountText.nfts}>
          {nfts.map((nft) => (
            <li key={nft.id} className="nft-card">
              <NftCard nft={nft} />
            </li>
          ))}
        </ul>
      )}
      {(status === 'idle' || loading) && <span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}
      {status === 'ready' && !nfts.length && <p className="placeholder">{nftsText.empty}</p>}
      {status === 'error' ? (
        <>
          <p className="placeholder" role="alert">
            {nftsText.failed}
          </p>
          <button type="button" className="secondary-button" onClick={() => void fetch(nfts.length && next ? 'next' : 'first')}>
            {nftsText.retry}
          </button>
        </>
      ) : (
        next && <LoadMore label={nftsText.loadMore} loading={loading} shown={nfts.length} onMore={() => void fetch('next')} />
      )}
    </div>
  )
}

function NftCard({ nft }: { nft: Nft }) {
  const count = BigInt(nft.amount)
  return (
    <>
      <NftImage nft={nft} />
      <span className="nft-name">{nft.name}</span>
      <span className="muted nft-collection">{nft.collection.name}</span>
      {nft.standard === 'erc1155' && count > 1n && (
        <span className="badge nft-count">
          <span aria-hidden="true">{format(nftsText.count, { n: Format.formatNumber(nft.amount, 0) })}</span>
          <span className="visually-hidden">{format(nftsText.owned, { n: Format.formatNumber(nft.amount, 0) })}</span>
        </span>
      )}
    </>
  )
}

/** The preview, named by the NFT's name; a placeholder when there is none or it fails to load. */
function NftImage({ nft }: { nft: Nft }) {
  const [failed, setFailed] = useState(false)
  const url = nft.content?.preview.url
  if (!url || failed) return <span className="nft-image placeholder-image" role="img" aria-label={nft.name} />
  return <img className="nft-image" src={url} alt={nft.name} loading="lazy" onError={() => setFailed(true)} />
}
