/**
 * The connection (spec §4): status per namespace, the account, and the actions that change them.
 * A stored status of connected at start-up goes to connecting, then is synced to connected or
 * disconnected without a prompt. What happened is published on core/events.ts (connected, account
 * changed, disconnected) for the features that follow the connection, sign-in among them.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { type Connector, embeddedId, walletConnectId } from './connectors/Connector.js'
import * as Injected from './connectors/injected.js'
import { configAtom } from './config.js'
import { publishAtom } from './events.js'
import { hostAtom, notifyAtom } from './host.js'
import * as Storage from './storage.js'
import { installedWalletsAtom, recentWalletsAtom, standardWalletsAtom } from './wallets.js'

export type Status = 'connecting' | 'connected' | 'disconnected'
/** spec §4: connection status per namespace. */
export const statusAtom = atom<Partial<Record<Caip.Namespace, Status>>>({})
export const connectedAtom = atom((get) => Object.values(get(statusAtom)).includes('connected'))

export type Account = { connector: Connector; address: string; chainId: Caip.ChainId }
/** spec §3 allAccounts: the connected account of each namespace (one wallet may hold several: WalletConnect). */
export const accountsAtom = atom<Partial<Record<Caip.Namespace, Account>>>({})

const pickedNamespaceAtom = atom<Caip.Namespace | null>(null)
/**
 * The namespace in use: the one the person last picked in Networks, else the dapp's default network's,
 * else its first network's. Views, balances and the host's state follow it.
 */
export const activeNamespaceAtom = atom(
  (get): Caip.Namespace => {
    const picked = get(pickedNamespaceAtom)
    const config = get(configAtom)
    // Some tests give a partial config: no networks is eip155.
    const networks = config?.networks ?? []
    if (picked && networks.some((n) => namespaceOf(n.caipNetworkId) === picked)) return picked
    const first = config?.defaultNetwork ?? networks[0]?.caipNetworkId
    return first ? namespaceOf(first) : 'eip155'
  },
  (_get, set, namespace: Caip.Namespace) => set(pickedNamespaceAtom, namespace),
)

/** The status of the namespace in use. */
export const activeStatusAtom = atom((get) => get(statusAtom)[get(activeNamespaceAtom)] ?? 'disconnected')

/**
 * The account of the namespace in use. Setting an account files it under its own namespace; setting
 * null forgets every namespace's (a disconnect ends the whole connection).
 */
export const accountAtom = atom(
  (get): Account | null => get(accountsAtom)[get(activeNamespaceAtom)] ?? null,
  (_get, set, account: Account | null) =>
    set(accountsAtom, (all) => (account ? { ...all, [namespaceOf(account.chainId)]: account } : {})),
)

export const namespaceOf = (chainId: string): Caip.Namespace => Caip.parseChainId(chainId).namespace

export function toProtocol(account: Account): Protocol.Account {
  return { address: account.address, caipAddress: `${account.chainId}:${account.address}`, chainId: account.chainId }
}

/**
 * Connectors for the wallets the host page has, recent ones first; one per wallet across namespaces
 * once Wallet Standard wallets join (core/standardWallets.ts).
 */
export const connectorsAtom = atom((get) => {
  const { host } = get(hostAtom)
  if (!host) return []
  const evm = get(installedWalletsAtom).map((wallet) => Injected.fromWallet(wallet, host))
  return get(standardWalletsAtom)?.join(evm) ?? evm
})

/** The host page's wallets that connect in the namespace in use: a wallet that lacks it is not offered. */
export const offeredConnectorsAtom = atom((get) => {
  const namespace = get(activeNamespaceAtom)
  return get(connectorsAtom).filter((c) => c.namespaces.includes(namespace))
})

const sessionKey = 'connection'
/** The stored connection: the connector and the namespace it was made in (it restores its other namespaces itself). */
type Session = { namespace: Caip.Namespace; connectorId: string }
/** The stored connection, if any (each kind of connector restores its own). */
export const storedSession = () => Storage.read(sessionKey, isSession)
/** The connector of the stored connection, if any: a WalletConnect one restores on its own. */
export const storedConnectorId = () => storedSession()?.connectorId
const isSession = (x: unknown): x is Session =>
  typeof x === 'object' &&
  x !== null &&
  (Caip.namespaces as readonly unknown[]).includes((x as Session).namespace) &&
  typeof (x as Session).connectorId === 'string'

export const setStatusAtom = atom(null, (get, set, status: Status, namespace: Caip.Namespace = get(activeNamespaceAtom)) =>
  set(statusAtom, (s) => ({ ...s, [namespace]: status })),
)

/**
 * Asks the wallet to connect in the namespace in use (its own prompt names the dapp's origin) and makes
 * the connection. `chainId` is the network in use there (a Solana wallet connects for its cluster).
 */
export const connectAtom = atom(null, async (get, set, connector: Connector, chainId?: Caip.ChainId) => {
  const namespace = chainId ? namespaceOf(chainId) : get(activeNamespaceAtom)
  set(setStatusAtom, 'connecting', namespace)
  try {
    if (namespace === 'eip155') {
      const address = firstAccount(await connector.request({ method: 'eth_requestAccounts' }))
      const chainId = toChainId(await connector.request({ method: 'eth_chainId' }))
      return set(establishAtom, { account: { connector, address, chainId }, restored: false })
    }
    if (!connector.connect || !chainId) throw Errors.chainNotSupported()
    set(establishAtom, { account: { connector, ...(await connector.connect(namespace, chainId)) }, restored: false })
  } catch (error) {
    set(setStatusAtom, 'disconnected', namespace)
    throw error
  }
})

/**
 * A connector answered with its accounts: their namespaces are connected (spec §4), and the one the
 * person connected for (`account`) becomes the namespace in use. `others` are the same wallet's
 * accounts in other namespaces (a WalletConnect session's).
 */
export const establishAtom = atom(null, (_get, set, options: { account: Account; others?: Account[]; restored: boolean }) => {
  const { account, others = [], restored } = options
  for (const each of [...others, account]) {
    set(accountAtom, each)
    set(setStatusAtom, 'connected', namespaceOf(each.chainId))
  }
  set(activeNamespaceAtom, namespaceOf(account.chainId))
  Storage.write(sessionKey, { namespace: namespaceOf(account.chainId), connectorId: account.connector.id } satisfies Session)
  if (account.connector.info) set(recentWalletsAtom, account.connector.info.rdns)
  set(notifyAtom, { type: 'connect', account: toProtocol(account) })
  // With sign-in on, open() settles once the person signed in or cancelled (features/siwx/siwxFlow.ts).
  const signingIn = set(publishAtom, { type: 'connected', account, restored })
  if (!restored && !signingIn) set(notifyAtom, { type: 'result', result: { status: 'connected', ...toProtocol(account) } })
})

/**
 * spec §4 start-up sync. Called at init and whenever the host's wallet list changes, until the stored
 * wallet answers or the deadline passes.
 */
export const restoreAtom = atom(null, async (get, set) => {
  const session = storedSession()
  // WalletConnect, the embedded wallet and Wallet Standard wallets restore on their own
  // (features/walletConnect/walletConnect.ts, features/embedded/embedded.ts, core/standardWallets.ts).
  if (!session || session.namespace !== 'eip155' || get(accountAtom)) return
  if (session.connectorId === walletConnectId || session.connectorId === embeddedId) return
  const connector = get(connectorsAtom).find((c) => c.id === session.connectorId)
  if (get(statusAtom).eip155 !== 'connecting') {
    set(setStatusAtom, 'connecting', 'eip155')
    setTimeout(() => get(statusAtom).eip155 === 'connecting' && !get(accountsAtom).eip155 && set(forgetAtom), restoreDeadlineMs)
  }
  if (!connector) return
  try {
    const accounts = await connector.request({ method: 'eth_accounts' })
    if (!Array.isArray(accounts) || accounts.length === 0) return set(forgetAtom)
    const chainId = toChainId(await connector.request({ method: 'eth_chainId' }))
    set(establishAtom, { account: { connector, address: firstAccount(accounts), chainId }, restored: true })
  } catch {
    set(forgetAtom)
  }
})
/** How long a stored connection waits for its wallet to be announced again. */
export const restoreDeadlineMs = 3_000

/** Forgets every namespace's account: they are all disconnected. */
export const forgetAtom = atom(null, (get, set) => {
  const connected = Object.keys(get(accountsAtom)).length > 0
  Storage.write(sessionKey, undefined)
  set(accountAtom, null)
  set(statusAtom, (s) => Object.fromEntries(Object.keys(s).map((ns) => [ns, 'disconnected'])))
  if (connected) set(publishAtom, { type: 'disconnected' })
})

export const disconnectAtom = atom(null, async (get, set) => {
  const connectors = new Set(Object.values(get(accountsAtom)).map((account) => account.connector))
  set(forgetAtom)
  if (connectors.size === 0) return
  set(notifyAtom, { type: 'disconnect' })
  await Promise.all(
    [...connectors].map((connector) =>
      connector.disconnect
        ? connector.disconnect().catch(() => {})
        : // Wallets that support EIP-2255 revocation forget this site too; others keep their own permission.
          connector.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }).catch(() => {}),
    ),
  )
})

/** Provider events from the host wallet in use (spec §4: accounts resync, chain change). */
export const walletEventAtom = atom(null, (get, set, event: Protocol.WalletEvent) => {
  if (get(accountsAtom).eip155?.connector.hostUuid === event.uuid) set(accountEventAtom, event)
})

/** A wallet event without the host's uuid: what every connector reports. */
export type AccountEvent = Protocol.WalletEvent extends infer E ? (E extends unknown ? Omit<E, 'uuid'> : never) : never

/** spec §4 events of the connected EVM wallet, whatever its connector: disconnect, accounts resync, chain. */
export const accountEventAtom = atom(null, (get, set, event: AccountEvent) => {
  const account = get(accountsAtom).eip155
  if (!account) return
  if (event.event === 'disconnect' || (event.event === 'accountsChanged' && event.data.length === 0)) {
    set(forgetAtom)
    return set(notifyAtom, { type: 'disconnect' })
  }
  if (event.event === 'accountsChanged') {
    const address = firstAccount(event.data)
    if (address === account.address) return
    const next = { ...account, address }
    set(accountAtom, next)
    set(notifyAtom, { type: 'accountChanged', account: toProtocol(next) })
    return void set(publishAtom, { type: 'accountChanged', account: next })
  }
  set(chainChangedAtom, toChainId(event.data))
})

/** The wallet moved to another network of a namespace it is connected in. */
export const chainChangedAtom = atom(null, (get, set, chainId: Caip.ChainId) => {
  const account = get(accountsAtom)[namespaceOf(chainId)]
  if (!account || account.chainId === chainId) return
  set(accountAtom, { ...account, chainId })
  set(notifyAtom, { type: 'chainChanged', chainId })
})

/** The connected wallet's chain; the modal watches it for the unsupported-chain rule. */
export const chainIdAtom = atom((get) => get(accountAtom)?.chainId)

/** The EIP-1193 hex chain id a wallet answers as CAIP-2; only hex is accepted here. */
export function toChainId(hex: unknown): Caip.ChainId {
  const chainId = typeof hex === 'string' && /^0x/i.test(hex) ? Caip.fromEip155(hex) : undefined
  if (!chainId) throw new Error(`Invalid chain id from wallet: ${String(hex)}`)
  return chainId
}

function firstAccount(accounts: unknown): string {
  const [address] = (Array.isArray(accounts) ? accounts : []) as unknown[]
  if (!Address.isEvmAddress(address)) throw new Error('The wallet returned no valid account')
  return address as string
}
