/**
 * ConnectingWalletConnect (spec §2): the pairing as a QR code and a copyable link, or, on a phone, a
 * button that opens the wallet app with it; tabs for the other places the chosen wallet lives (web,
 * desktop, browser extension). A lazy chunk: the QR encoder is here, not in the frame's initial JS.
 */
import * as Constants from '@doorway/shared/Constants'
import { format, ui } from '@doorway/shared/Texts'
import { walletConnectText } from '@doorway/shared/texts/walletConnect'
import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { Tabs } from '../../components/Tabs.js'
import { WalletIcon } from '../../components/WalletIcon.js'
import { type Wallet, chosenWalletAtom } from '../../features/catalogue/catalogue.js'
import { mobileAtom } from '../../core/config.js'
import { notifyAtom } from '../../core/host.js'
import { pushAtom } from '../../core/router.js'
import { connectedHomeAtom } from '../../features/siwx/siwx.js'
import type { RouteOf } from '../../core/routes.js'
import { accountAtom } from '../../core/connection.js'
import {
  type Pairing,
  cancelPairingAtom,
  pairAtom,
  pairingAtom,
  refreshPairingAtom,
} from '../../features/walletConnect/walletConnectPairing.js'
import * as Links from './links.js'
import { CatalogueWallets } from '../Connect/CatalogueWallets.js'
import { QrCode } from '../../components/QrCode.js'
import { useCopy } from '../../components/useCopy.js'
import './ConnectingWalletConnect.css'

export default function ConnectingWalletConnect({ route }: { route: RouteOf<'ConnectingWalletConnect'> }) {
  const chosen = useAtomValue(chosenWalletAtom)
  const wallet = route.walletId && chosen?.id === route.walletId ? chosen : undefined
  return <WalletConnectPairing wallet={wallet} />
}

/** The pairing for one wallet, or for any wallet (Connect's WalletConnect entry and the basic view). */
export function WalletConnectPairing({ wallet }: { wallet?: Wallet | undefined }) {
  const mobile = useAtomValue(mobileAtom)
  const pairing = usePairing(wallet)
  const pair = useSetAtom(pairAtom)
  const tabs = Links.platforms(wallet?.links, mobile)
  const [platform, setPlatform] = useState<Links.Platform>(tabs[0]!)
  const name = wallet?.name ?? walletConnectText.anyWallet

  if (pairing.status === 'rejected' || pairing.status === 'failed')
    return (
      <div className="stack center">
        <WalletIcon src={wallet?.imageUrl} size={72} />
        <div role="alert">
          <h2>{pairing.status === 'rejected' ? ui.connect.declined : ui.connect.failed}</h2>
          <p className="muted">{pairing.status === 'rejected' ? format(walletConnectText.declinedHint, { wallet: name }) : pairing.message}</p>
        </div>
        <button type="button" className="primary-button" onClick={() => void pair(wallet)}>
          {ui.connect.retry}
        </button>
      </div>
    )

  const panel = (key: Links.Platform) => () => <Panel platform={key} wallet={wallet} name={name} pairing={pairing} />
  if (tabs.length === 1) return panel(tabs[0]!)()
  return (
    <Tabs<Links.Platform>
      label={walletConnectText.ways}
      tabs={tabs.map((key) => ({ key, label: walletConnectText.tabs[key], panel: panel(key) }))}
      selected={platform}
      onSelect={setPlatform}
    />
  )
}

/** Starts a pairing while the view is shown, replaces it near expiry (spec §9), ends it on leaving. */
function usePairing(wallet: Wallet | undefined): Pairing {
  const pairing = useAtomValue(pairingAtom)
  const pair = useSetAtom(pairAtom)
  const cancel = useSetAtom(cancelPairingAtom)
  const refresh = useSetAtom(refreshPairingAtom)
  const connected = useAtomValue(accountAtom)
  const home = useSetAtom(connectedHomeAtom)
  useEffect(() => {
    void pair(wallet)
    const timer = setInterval(() => refresh(), Constants.pairingRetryMs)
    return () => {
      clearInterval(timer)
      cancel()
    }
  }, [pair, cancel, refresh, wallet])
  // Connected through this pairing: on to the account, as with an extension.
  useEffect(() => {
    if (connected) home()
  }, [connected, home])
  return pairing
}

function Panel({ platform, wallet, name, pairing }: { platform: Links.Platform; wallet?: Wallet | undefined; name: string; pairing: Pairing }) {
  const notify = useSetAtom(notifyAtom)
  const copy = useCopy()
  const uri = pairing.status === 'ready' ? pairing.uri : undefined
  const links = wallet?.links
  // The host opens links from the top window, inside this tap (issue 5; frame-src CSP and iOS).
  const open = (url: string) => notify({ type: 'navigate', url })
  const values = { wallet: name }

  if (platform === 'qrcode') {
    const copyLink = () => uri && copy(uri, { copied: walletConnectText.copied, failed: walletConnectText.copyFailed })
    return (
      <div className="stack center">
        {uri ? (
          <QrCode value={uri} label={format(walletConnectText.qr, values)} logo={wallet?.imageUrl} />
        ) : (
          <div className="qr qr-loading" role="status" aria-label={walletConnectText.creating}>
            <span className="spinner" aria-hidden="true" />
          </div>
        )}
        <p>{walletConnectText.scan}</p>
        <button type="button" className="secondary-button" onClick={copyLink} disabled={!uri}>
          {walletConnectText.copyLink}
        </button>
      </div>
    )
  }

  const appUrl = platform === 'mobile' ? links?.mobile : platform === 'desktop' ? links?.desktop : platform === 'web' ? links?.webapp : null
  const install = Links.installLink(links, platform === 'browser' ? 'other' : Links.devicePlatform(navigator.userAgent))
  const hint = { mobile: ui.connect.waitingHint, desktop: walletConnectText.desktopHint, web: walletConnectText.webHint, browser: walletConnectText.browserHint }[platform]
  return (
    <div className="stack center">
      <WalletIcon src={wallet?.imageUrl} size={72} />
      <h2>{format(ui.connect.waiting, values)}</h2>
      <p className="muted">{format(hint, values)}</p>
      {appUrl && (
        <button type="button" className="primary-button" disabled={!uri} onClick={() => uri && open(Links.walletLink(appUrl, uri))}>
          {uri ? format(walletConnectText.open, values) : walletConnectText.creating}
        </button>
      )}
      {platform === 'browser' && install && (
        <button type="button" className="primary-button" onClick={() => open(install)}>
          {walletConnectText.getExtension}
        </button>
      )}
      {platform === 'mobile' && install && (
        <p className="muted">
          {format(walletConnectText.noWallet, values)}{' '}
          <button type="button" className="link-button" onClick={() => open(install)}>
            {walletConnectText.get}
          </button>
        </p>
      )}
    </div>
  )
}

/**
 * ConnectingWalletConnectBasic (spec §2 opening rule 1, the "WalletConnect only" mode of docs/architecture.md
 * §10): the QR for any wallet, then the catalogue's wallets and All Wallets.
 */
export function ConnectingWalletConnectBasic() {
  const push = useSetAtom(pushAtom)
  return (
    <div className="stack">
      <WalletConnectPairing />
      <section className="stack" aria-label={walletConnectText.otherWallets}>
        <CatalogueWallets />
        <button type="button" className="list-button" onClick={() => push({ view: 'AllWallets' })}>
          {ui.views.AllWallets}
        </button>
      </section>
    </div>
  )
}
