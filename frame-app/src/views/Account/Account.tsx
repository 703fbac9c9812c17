import * as Address from '@doorway/shared/Address'
import { format, ui } from '@doorway/shared/Texts'
import { accountText } from '@doorway/shared/texts/account'
import { embeddedText } from '@doorway/shared/texts/embedded'
import { sessionsText } from '@doorway/shared/texts/sessions'
import { namesText } from '@doorway/shared/texts/names'
import type * as Protocol from '@doorway/shared/Protocol'
import { useAtomValue, useSetAtom } from 'jotai'
import { loadable } from 'jotai/utils'
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react'
import { IconButton } from '../../components/IconButton.js'
import { Placeholder } from '../../components/Placeholder.js'
import { Tabs } from '../../components/Tabs.js'
import { Tokens } from './Tokens.js'
import { User } from './User.js'
import { WalletIcon } from '../../components/WalletIcon.js'
import { nativeBalanceAtom } from '../../features/balances/balance.js'
import { configAtom } from '../../core/config.js'
import { accountAtom, activeNamespaceAtom, disconnectAtom } from '../../core/connection.js'
import { closeModalAtom } from '../../core/modal.js'
import { type User as Login, userOf } from '../../features/embedded/embedded.js'
import { accountIdentityAtom, refreshIdentityAtom } from '../../features/names/names.js'
import * as Namespaces from '../../features/namespaces/registry.js'
import { activeNetworkAtom } from '../../core/network.js'
import { pushAtom } from '../../core/router.js'
import { useCopy } from '../../components/useCopy.js'
import './Account.css'

// Lazy chunks: Activity only when features.history is on (spec §1), NFTs when its tab opens.
const Activity = lazy(() => import('./Activity.js'))
const Nfts = lazy(() => import('./Nfts.js'))
// The embedded wallet's account type and its switch (issue 25): only that wallet's Account view loads it.
const AccountType = lazy(() => import('./AccountType.js'))
const balanceAtom = loadable(nativeBalanceAtom)

type TabKey = 'tokens' | 'nfts' | 'activity'

export function Account() {
  const config = useAtomValue(configAtom)!
  const account = useAtomValue(accountAtom)
  const network = useAtomValue(activeNetworkAtom)
  const namespace = useAtomValue(activeNamespaceAtom)
  const push = useSetAtom(pushAtom)
  const [tab, setTab] = useState<TabKey>('tokens')
  return (
    <div className="stack">
      {account ? (
        <Identity address={account.address} walletImageUrl={account.connector.imageUrl} user={userOf(account.connector)} unread={Namespaces.registry[namespace].balances ? undefined : network?.name} />
      ) : (
        <>
          <Placeholder>{accountText.notConnected}</Placeholder>
          <button type="button" className="primary-button" onClick={() => push({ view: 'Connect' })}>
            {accountText.connect}
          </button>
        </>
      )}
      {account && <Actions features={config.features} />}
      {/* Names point at the addresses of some namespaces (EVM's, spec §7): another namespace's account has none to choose. */}
      {account && Namespaces.registry[namespace].names && <ChooseName />}
      {config.enableNetworkSwitch && (
        <button type="button" className="list-button" onClick={() => push({ view: 'Networks' })}>
          <span>{accountText.network}</span>
          <span className="muted">{network?.name ?? accountText.unsupportedNetwork}</span>
        </button>
      )}
      <Tabs<TabKey>
        label={accountText.sections}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: 'tokens', label: accountText.tokens, panel: () => (account ? <Tokens /> : <Placeholder>{accountText.notConnected}</Placeholder>) },
          { key: 'nfts', label: accountText.nfts, panel: () => (account ? <Lazy view={Nfts} /> : <Placeholder>{accountText.notConnected}</Placeholder>) },
          {
            key: 'activity',
            label: accountText.activity,
            panel: () =>
              !config.features.history ? (
                <Placeholder>{accountText.historyOff}</Placeholder>
              ) : account ? (
                <Lazy view={Activity} />
              ) : (
                <Placeholder>{accountText.notConnected}</Placeholder>
              ),
          },
        ]}
      />
      {account?.connector.user && (
        <>
          {namespace === 'eip155' && <Lazy view={AccountType} />}
          {config.features.smartSessions && account.connector.accountType === 'smartAccount' && (
            <button type="button" className="list-button" onClick={() => push({ view: 'SmartSessionList' })}>
              <span>{sessionsText.open}</span>
              <span className="muted">{sessionsText.openHint}</span>
            </button>
          )}
          <button type="button" className="list-button" onClick={() => push({ view: 'WalletSecurity' })}>
            {embeddedText.security}
          </button>
          <button type="button" className="list-button" onClick={() => push({ view: 'ExportWallet' })}>
            {embeddedText.export}
          </button>
        </>
      )}
      {account && <Disconnect signOut={!!account.connector.user} />}
    </div>
  )
}

/** A tab of its own chunk, with a spinner while the chunk loads. */
function Lazy({ view: View }: { view: ComponentType }) {
  return (
    <Suspense fallback={<span className="spinner" role="progressbar" aria-label={ui.modal.loading} />}>
      <View />
    </Suspense>
  )
}

type IdentityProps = { address: string; walletImageUrl?: string | undefined; user?: Login | undefined; unread?: string | undefined }

/**
 * The account's name (spec §3 profileName) and avatar (profileImage, else the wallet's icon) over its
 * address (truncated, with copy), the embedded wallet's login (spec §3 user), and the native balance; `unread` names a network whose namespace's
 * balances the frame does not read (features/namespaces/registry.ts), which is said instead.
 */
function Identity({ address, walletImageUrl, user, unread }: IdentityProps) {
  const balance = useAtomValue(balanceAtom)
  const named = useAccountName()
  const copy = useCopy()
  const data = balance.state === 'hasData' ? balance.data : undefined
  const text = unread !== undefined ? format(accountText.balanceNotSupported, { network: unread }) : data?.state === 'ready' ? data.formatted : undefined
  return (
    <div className="identity">
      {named?.imageUrl ? <img className="identity-avatar" src={named.imageUrl} alt="" width={56} height={56} /> : <WalletIcon src={walletImageUrl} size={56} />}
      {named && <p className="identity-name">{named.name}</p>}
      <div className={named ? 'identity-address named' : 'identity-address'}>
        <span title={address}>{Address.truncate(address)}</span>
        <IconButton label={accountText.copy} icon="copy" onClick={() => copy(address, { copied: accountText.copied, failed: accountText.copyFailed })} />
      </div>
      {user && <User user={user} />}
      <p className="balance" aria-label={accountText.balance}>
        {balance.state === 'loading' && unread === undefined ? <span className="spinner" aria-hidden="true" /> : (text ?? accountText.balanceUnavailable)}
      </p>
    </div>
  )
}

/** The account's name when it has one; its cache entry, if expired, is read again as Account shows. */
function useAccountName() {
  const identity = useAtomValue(accountIdentityAtom)
  const refresh = useSetAtom(refreshIdentityAtom)
  useEffect(() => refresh(), [refresh])
  return identity.status === 'ready' ? identity.identity : undefined
}

/** An account known to have no name is offered one (spec §2 RegisterAccountName). */
function ChooseName() {
  const identity = useAtomValue(accountIdentityAtom)
  const push = useSetAtom(pushAtom)
  if (identity.status !== 'ready' || identity.identity) return null
  return (
    <button type="button" className="list-button" onClick={() => push({ view: 'RegisterAccountName' })}>
      {namesText.choose}
    </button>
  )
}

// The view each wallet feature of walletFeaturesOrder opens (spec §1).
const featureViews = { onramp: 'OnRamp', swaps: 'Swap', receive: 'Receive', send: 'Send' } as const

/** The wallet features in walletFeaturesOrder, each only when its feature is on and the namespace has it (issue 23). */
function Actions({ features }: { features: Protocol.Features }) {
  const push = useSetAtom(pushAtom)
  const namespace = useAtomValue(activeNamespaceAtom)
  const shown = features.walletFeaturesOrder.filter((feature) => features[feature] && Namespaces.registry[namespace].features.includes(feature))
  if (!shown.length) return null
  return (
    <nav className="actions" aria-label={accountText.actions}>
      {shown.map((feature) => (
        <button key={feature} type="button" className="secondary-button" onClick={() => push({ view: featureViews[feature] })}>
          {accountText.features[feature]}
        </button>
      ))}
    </nav>
  )
}

/** A wallet is disconnected; the email wallet signs out of this device (its key share here is forgotten). */
function Disconnect({ signOut }: { signOut: boolean }) {
  const disconnect = useSetAtom(disconnectAtom)
  const close = useSetAtom(closeModalAtom)
  return (
    <button
      type="button"
      className="list-button"
      onClick={() => {
        void disconnect()
        close()
      }}
    >
      {signOut ? embeddedText.signOut : accountText.disconnect}
    </button>
  )
}
