/**
 * The connection (spec §4): status per namespace, the account, and the actions that change them.
 * A stored status of connected at start-up goes to connecting, then is synced to connected or
 * disconnected without a prompt. What happened is published on core/events.ts (connected, account
 * changed, disconnected) for the features that follow the connection, sign-in among them.
 */
import * as Address from '@doorway/shared/Address'
import * as Caip from '@doorway/shared/Caip'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { type Connector, embeddedId, walletConnectId } from './connectors/Connector.js'
import * as Injected from './connectors/injected.js'
import { publishAtom } from './events.js'
import { hostAtom, notifyAtom } from './host.js'
import * as Storage from './storage.js'
import { installedWalletsAtom, recentWalletsAtom } from './wallets.js'

export type Status = 'connecting' | 'connected' | 'disconnected'
export const statusAtom = atom<Partial<Record<Caip.Namespace, Status>>>({})
export const connectedAtom = atom((get) => Object.values(get(statusAtom)).includes('connected'))
/** The status of the namespace in use (only eip155 has connectors so far). */
export const activeStatusAtom = atom((get) => get(statusAtom).eip155 ?? 'disconnected')

export type Account = { connector: Connector; address: string; chainId: Caip.ChainId }
export const accountAtom = atom<Account | null>(null)

export function toProtocol(account: Account): Protocol.Account {
  return { address: account.address, caipAddress: `${account.chainId}:${account.address}`, chainId: account.chainId }
}

/** Connectors for the wallets the host page has, recent ones first. */
export const connectorsAtom = atom((get) => {
  const { host } = get(hostAtom)
  return host ? get(installedWalletsAtom).map((wallet) => Injected.fromWallet(wallet, host)) : []
})

const sessionKey = 'connection'
type Session = { namespace: 'eip155'; connectorId: string }
/** The connector of the stored connection, if any: a WalletConnect one restores on its own. */
export const storedConnectorId = () => Storage.read(sessionKey, isSession)?.connectorId
const isSession = (x: unknown): x is Session =>
  typeof x === 'object' && x !== null && (x as Session).namespace === 'eip155' && typeof (x as Session).connectorId === 'string'

const setStatus = atom(null, (_get, set, status: Status) => set(statusAtom, (s) => ({ ...s, eip155: status })))

/** Asks the wallet to connect (its own prompt names the dapp's origin) and makes the connection. */
export const connectAtom = atom(null, async (_get, set, connector: Connector) => {
  set(setStatus, 'connecting')
  try {
    const address = firstAccount(await connector.request({ method: 'eth_requestAccounts' }))
    const chainId = toChainId(await connector.request({ method: 'eth_chainId' }))
    set(establishAtom, { account: { connector, address, chainId }, restored: false })
  } catch (error) {
    set(setStatus, 'disconnected')
    throw error
  }
})

/** A connector answered with an account: the namespace is connected (spec §4). */
export const establishAtom = atom(null, (_get, set, { account, restored }: { account: Account; restored: boolean }) => {
  set(accountAtom, account)
  set(setStatus, 'connected')
  Storage.write(sessionKey, { namespace: 'eip155', connectorId: account.connector.id } satisfies Session)
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
  const session = Storage.read(sessionKey, isSession)
  // WalletConnect and the embedded wallet restore on their own (features/walletConnect/walletConnect.ts,
  // features/embedded/embedded.ts).
  if (!session || get(accountAtom) || session.connectorId === walletConnectId || session.connectorId === embeddedId) return
  const connector = get(connectorsAtom).find((c) => c.id === session.connectorId)
  if (get(activeStatusAtom) !== 'connecting') {
    set(setStatus, 'connecting')
    setTimeout(() => get(activeStatusAtom) === 'connecting' && !get(accountAtom) && set(forgetAtom), restoreDeadlineMs)
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
const restoreDeadlineMs = 3_000

export const forgetAtom = atom(null, (get, set) => {
  const connected = get(accountAtom)
  Storage.write(sessionKey, undefined)
  set(accountAtom, null)
  set(setStatus, 'disconnected')
  if (connected) set(publishAtom, { type: 'disconnected' })
})

export const disconnectAtom = atom(null, async (get, set) => {
  const account = get(accountAtom)
  set(forgetAtom)
  if (!account) return
  set(notifyAtom, { type: 'disconnect' })
  if (account.connector.disconnect) return account.connector.disconnect().catch(() => {})
  // Wallets that support EIP-2255 revocation forget this site too; others keep their own permission.
  await account.connector.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }).catch(() => {})
})

/** Provider events from the host wallet in use (spec §4: accounts resync, chain change). */
export const walletEventAtom = atom(null, (get, set, event: Protocol.WalletEvent) => {
  if (get(accountAtom)?.connector.hostUuid === event.uuid) set(accountEventAtom, event)
})

/** A wallet event without the host's uuid: what every connector reports. */
export type AccountEvent = Protocol.WalletEvent extends infer E ? (E extends unknown ? Omit<E, 'uuid'> : never) : never

/** spec §4 events of the connected wallet, whatever its connector: disconnect, accounts resync, chain. */
export const accountEventAtom = atom(null, (get, set, event: AccountEvent) => {
  const account = get(accountAtom)
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

export const chainChangedAtom = atom(null, (get, set, chainId: Caip.ChainId) => {
  const account = get(accountAtom)
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
