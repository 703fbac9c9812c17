/**
 * WalletConnect's client in the frame's state: loading the connector chunk and its provider (once per
 * modal), a session's accounts in every namespace becoming the connection, its spec §4 events, and the
 * provider's errors as alerts. A chunk of its own: walletConnect.ts loads it when the frame is idle or
 * to restore a stored session, and ConnectingWalletConnect's pairing (walletConnectPairing.ts) with its view.
 */
import * as Address from '@doorway/shared/Address'
import * as Errors from '@doorway/shared/Errors'
import { alerts } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import { raiseAlertAtom } from '../../core/alerts.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { type Connector, walletConnectId } from '../../core/connectors/Connector.js'
import {
  type Account,
  accountEventAtom,
  accountsAtom,
  activeNamespaceAtom,
  chainChangedAtom,
  establishAtom,
  forgetAtom,
  namespaceOf,
  toChainId,
} from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'
import type { Wallet } from '../catalogue/catalogue.js'
import type * as WalletConnect from './walletConnectConnector.js'

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
      client.subscribe((event) => set(walletConnectEventAtom, event))
    },
    (error: unknown) => {
      if (slot.promise === promise) slot.promise = undefined
      set(providerErrorAtom, error)
    },
  )
  return promise
})

/** The stored session of a loaded client becomes the connection again (walletConnect.ts restores with it). */
export const restoreSessionAtom = atom(null, async (_get, set) => {
  const client = await set(loadWalletConnectAtom)
  if (!client.peer()) return set(forgetAtom)
  await set(adoptSessionAtom, { client, restored: true })
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
const walletConnectEventAtom = atom(null, (get, set, event: WalletConnect.Event) => {
  if (event.type === 'error') return set(providerErrorAtom, event.error)
  if (!Object.values(get(accountsAtom)).some((a) => a.connector.id === walletConnectId)) return
  if (event.type === 'disconnect') return set(accountEventAtom, { event: 'disconnect', data: null })
  if (event.type === 'chainChanged') return set(chainChangedAtom, event.chainId)
  const accounts = event.accounts.map((a) => String(a).split(':').pop() ?? '')
  set(accountEventAtom, { event: 'accountsChanged', data: accounts })
})

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
