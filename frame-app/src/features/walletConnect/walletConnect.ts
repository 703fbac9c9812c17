/**
 * WalletConnect in the frame's state: loading the connector chunk (warmed once the frame is idle),
 * restoring a stored session, adopting a session as the connection, and the spec §4 wallet-connect
 * events. The pairing that ConnectingWalletConnect shows is walletConnectPairing.ts.
 */
import * as Address from '@doorway/shared/Address'
import * as Errors from '@doorway/shared/Errors'
import { alerts } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import { type Connector, walletConnectId } from '../../core/connectors/Connector.js'
import type * as WalletConnect from './walletConnectConnector.js'
import { raiseAlertAtom } from '../../core/alerts.js'
import type { Wallet } from '../catalogue/catalogue.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import {
  type Account,
  accountAtom,
  accountEventAtom,
  accountsAtom,
  activeNamespaceAtom,
  chainChangedAtom,
  establishAtom,
  forgetAtom,
  namespaceOf,
  statusAtom,
  storedConnectorId,
  toChainId,
} from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'

declare const __DOORWAY_RELAY_URL__: string

// Per store (one per modal instance), never module state.
export const clientSlotAtom = atom(() => ({
  promise: undefined as Promise<WalletConnect.WalletConnect> | undefined,
  loaded: false,
  attempt: 0,
}))

/** The connector chunk and its provider, created once per modal; a failure lets the next call retry. */
export const loadWalletConnectAtom = atom(null, (get, set) => {
  const slot = get(clientSlotAtom)
  if (slot.promise) return slot.promise
  const config = get(configAtom)
  if (!config) return Promise.reject(Errors.notInitialized())
  const origin = get(hostOriginAtom) ?? location.origin
  const promise = import('./walletConnectConnector.js').then((module) =>
    module.create({
      projectId: config.projectId ?? '',
      relayUrl: __DOORWAY_RELAY_URL__,
      networks: config.networks,
      // The wallet shows who asks: the dapp's metadata, else its origin (pinned at the handshake).
      metadata: config.metadata ?? { name: new URL(origin).host, description: '', url: origin, icons: [] },
    }),
  )
  slot.promise = promise
  promise.then(
    (client) => {
      // A load given up on (relay timeout) is not this modal's client: it must not feed its events.
      if (slot.promise !== promise) return
      slot.loaded = true
      client.subscribe((event) => set(walletConnectEventAtom, { client, event }))
    },
    (error: unknown) => {
      if (slot.promise === promise) slot.promise = undefined
      set(providerErrorAtom, error)
    },
  )
  return promise
})

/** Loads the chunk and reaches the relay, so the QR appears fast (issue 5); host/connect.ts calls it when idle. */
export const warmWalletConnectAtom = atom(null, (_get, set) => void set(loadWalletConnectAtom).catch(() => {}))

/** How long reaching the relay (for a pairing, or to restore a session) may take before giving up. */
export const relayTimeoutMs = 15_000

/** A stored WalletConnect connection comes back from the frame's storage, without a new pairing. */
export const restoreWalletConnectAtom = atom(null, async (get, set) => {
  if (storedConnectorId() !== walletConnectId || get(accountAtom)) return
  const namespace = get(activeNamespaceAtom)
  set(statusAtom, (s) => ({ ...s, [namespace]: 'connecting' }))
  // spec §4: connecting is then synced. A relay that does not answer leaves the stored session for
  // the next load rather than forgetting it.
  const timer = setTimeout(() => {
    if (!get(accountAtom)) set(statusAtom, (s) => ({ ...s, [namespace]: 'disconnected' }))
  }, relayTimeoutMs)
  try {
    const client = await set(loadWalletConnectAtom)
    if (!client.peer()) return set(forgetAtom)
    await set(adoptSessionAtom, { client, restored: true })
  } catch {
    set(forgetAtom)
  } finally {
    clearTimeout(timer)
  }
})

/**
 * The session's wallet becomes the account's connector. Its logo comes from the catalogue when the
 * person chose a wallet (served by the api); else the wallet's own https or data icon.
 */
type Adopt = { client: WalletConnect.WalletConnect; restored: boolean; wallet?: Wallet | undefined }
export const adoptSessionAtom = atom(null, async (get, set, { client, restored, wallet }: Adopt) => {
  const peer = client.peer()
  const icon = wallet?.imageUrl ?? (peer?.icon && /^(https:|data:image\/)/.test(peer.icon) ? peer.icon : undefined)
  const connector: Connector = { ...client.connector, name: peer?.name ?? client.connector.name, ...(icon && { imageUrl: icon }) }
  const accounts: Account[] = []
  if (connector.namespaces.includes('eip155')) {
    const [address] = (await connector.request({ method: 'eth_accounts' })) as unknown[]
    const chainId = toChainId(await connector.request({ method: 'eth_chainId' }))
    // What crosses from the wallet is checked like any other payload.
    if (!Address.isEvmAddress(address)) throw Errors.disconnected()
    accounts.push({ connector, address, chainId })
  }
  // Other namespaces: the session's account on the network in use there, else on the dapp's first network it holds.
  const configured = get(configAtom)?.networks.map((n) => n.caipNetworkId) ?? []
  const active = get(activeNetworkAtom)?.caipNetworkId
  for (const namespace of connector.namespaces.filter((ns) => ns !== 'eip155')) {
    const held = client.accounts().filter((a) => a.namespace === namespace && configured.includes(a.chainId))
    const account = held.find((a) => a.chainId === active) ?? held[0]
    if (account) accounts.push({ connector, address: account.address, chainId: account.chainId })
  }
  const primary = accounts.find((a) => namespaceOf(a.chainId) === get(activeNamespaceAtom)) ?? accounts[0]
  if (!primary) throw Errors.disconnected()
  set(establishAtom, { account: primary, others: accounts.filter((a) => a !== primary), restored })
})

/** spec §4 wallet-connect events: disconnect resets the account, chain change, accounts resync. */
const walletConnectEventAtom = atom(
  null,
  (get, set, { event }: { client: WalletConnect.WalletConnect; event: WalletConnect.Event }) => {
    if (event.type === 'error') return set(providerErrorAtom, event.error)
    if (!Object.values(get(accountsAtom)).some((a) => a.connector.id === walletConnectId)) return
    if (event.type === 'disconnect') return set(accountEventAtom, { event: 'disconnect', data: null })
    if (event.type === 'chainChanged') return set(chainChangedAtom, event.chainId)
    const accounts = event.accounts.map((a) => String(a).split(':').pop() ?? '')
    set(accountEventAtom, { event: 'accountsChanged', data: accounts })
  },
)

/** spec §8: provider errors map to alert keys, each shown once. */
export const providerErrorAtom = atom(null, (_get, set, error: unknown) => {
  const key = alertKey(error)
  if (key) set(raiseAlertAtom, { key, ...alerts[key] })
})

export function alertKey(error: unknown): 'unverifiedDomain' | 'projectIdInvalid' | 'sessionExpired' | undefined {
  const message = error instanceof Error ? error.message : String((error as { message?: unknown } | null)?.message ?? error)
  if (/origin not allowed/i.test(message)) return 'unverifiedDomain'
  if (/invalid key|project id/i.test(message)) return 'projectIdInvalid'
  if (/JWT.*not yet valid|token.*expired/i.test(message)) return 'sessionExpired'
  return undefined
}
