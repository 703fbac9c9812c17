import * as Format from '@doorway/shared/Format'
import { ui } from '@doorway/shared/Texts'
import type * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'
import { useAtomValue, useSetAtom } from 'jotai'
import { Fragment, lazy, Suspense, useState } from 'react'
import { chosenWalletAtom } from '../../features/catalogue/catalogue.js'
import { configAtom, mobileAtom } from '../../core/config.js'
import { activeNamespaceAtom } from '../../core/connection.js'
import { socialsFor } from '../../features/embedded/telegram.js'
import { pushAtom } from '../../core/router.js'
import { CatalogueWallets, useCatalogueCount } from './CatalogueWallets.js'
import { InstalledWallets } from './InstalledWallets.js'
import './Connect.css'

// Optional interface parts (spec §1): fetched only when their feature is on, warmed at init.
export const loadEmailLogin = () => import('./EmailLogin.js')
export const loadSocialLogin = () => import('./SocialLogin.js')
const EmailLogin = lazy(loadEmailLogin)
const SocialLogin = lazy(loadSocialLogin)

/** The namespaces the embedded (email and social) wallet holds accounts in: it is offered only for these. */
export const embeddedNamespaces: readonly Caip.Namespace[] = ['eip155', 'solana']

/**
 * The connect methods in `connectMethodsOrder` whose feature is on (spec §2; wallets are always on). The
 * social row holds the OAuth providers and Farcaster (ConnectingFarcaster).
 */
export function methodsOf(features: Protocol.Features, namespace: Caip.Namespace = 'eip155', telegram = false): Protocol.Features['connectMethodsOrder'] {
  const order = features.connectMethodsOrder.includes('wallet')
    ? features.connectMethodsOrder
    : [...features.connectMethodsOrder, 'wallet' as const]
  const embedded = embeddedNamespaces.includes(namespace)
  return order.filter((m) => m === 'wallet' || (embedded && (m === 'email' ? features.email : socialsOf(features, telegram).length > 0)))
}

/** The dapp's social providers as this device may offer them (spec §5: Telegram's web view filters them). */
export function socialsOf(features: Protocol.Features, telegram = false): (typeof Protocol.socials)[number][] {
  return socialsFor(features.socials || [], telegram, navigator.userAgent)
}

export function Connect() {
  const config = useAtomValue(configAtom)!
  const methods = methodsOf(config.features, useAtomValue(activeNamespaceAtom), config.telegram)
  const collapse = config.features.collapseWallets && methods.length > 1
  return (
    <div className="stack">
      {methods.map((method, index) => (
        <Fragment key={method}>
          {index > 0 && <div className="separator">{ui.connect.or}</div>}
          <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
            {method === 'email' && <EmailLogin />}
            {method === 'social' && <SocialLogin providers={socialsOf(config.features, config.telegram)} />}
          </Suspense>
          {method === 'wallet' && <Wallets collapsed={collapse} />}
        </Fragment>
      ))}
      <Legal terms={config.termsConditionsUrl} privacy={config.privacyPolicyUrl} />
    </div>
  )
}

function Wallets({ collapsed }: { collapsed: boolean }) {
  const push = useSetAtom(pushAtom)
  const choose = useSetAtom(chosenWalletAtom)
  const mobile = useAtomValue(mobileAtom)
  const count = useCatalogueCount()
  const [expanded, setExpanded] = useState(!collapsed)
  if (!expanded)
    return (
      <button type="button" className="list-button" onClick={() => setExpanded(true)}>
        {ui.connect.continueWithWallet}
      </button>
    )
  return (
    <section className="stack" aria-label={ui.connect.wallets}>
      <InstalledWallets />
      <CatalogueWallets />
      {/* Any wallet by QR; a phone has no second screen to scan with, so it browses All Wallets. */}
      {!mobile && (
        <button
          type="button"
          className="list-button"
          onClick={() => {
            choose(null)
            push({ view: 'ConnectingWalletConnect' })
          }}
        >
          <span>{ui.walletConnect.entry}</span>
          <span className="badge">{ui.walletConnect.entryTag}</span>
        </button>
      )}
      <button type="button" className="list-button" onClick={() => push({ view: 'AllWallets' })}>
        <span>{ui.views.AllWallets}</span>
        {count !== undefined && <span className="badge">{Format.formatNumber(count, 0)}</span>}
      </button>
    </section>
  )
}

function Legal({ terms, privacy }: { terms?: string | undefined; privacy?: string | undefined }) {
  if (!terms && !privacy) return null
  return (
    <p className="legal">
      {ui.connect.legalPrefix}{' '}
      {terms && (
        <a href={terms} target="_blank" rel="noreferrer">
          {ui.connect.terms}
        </a>
      )}
      {terms && privacy && ` ${ui.connect.and} `}
      {privacy && (
        <a href={privacy} target="_blank" rel="noreferrer">
          {ui.connect.privacy}
        </a>
      )}
    </p>
  )
}
