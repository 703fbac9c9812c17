/**
 * The embedded (email) wallet's session with the secure-site (spec §4 embedded-wallet requests, §7 30 s
 * timeouts): its requests, the account it connects, the approval of unsafe requests and key export.
 * Every request names an `op`; a timeout or the person leaving aborts it there too, and a late answer
 * changes nothing here. Loaded by the email login, a restore, and the views that need it: the first
 * chunk carries only embedded.ts.
 */
import type * as Caip from '@doorway/shared/Caip'
import type * as Channels from '@doorway/shared/Channel'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import * as Ids from '@doorway/shared/Ids'
import * as Logger from '@doorway/shared/Logger'
import { format, somethingWentWrong } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { embeddedText } from '@doorway/shared/texts/embedded'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom, type Getter, type Setter } from 'jotai'
import { apiAtom } from '../../core/api.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { type Account, accountAtom, accountsAtom, activeNamespaceAtom, establishAtom, toProtocol } from '../../core/connection.js'
import { publishAtom } from '../../core/events.js'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import { type AccountType, preferredAccountTypeAtom, smartFor, smartUnavailableAtom } from './accountType.js'
import { operationLandedAtom } from './deployed.js'
import { approvalAtom } from './embedded.js'
import { notifyAtom } from '../../core/host.js'
import { openAtom } from '../../core/modal.js'
import { activeNetworkAtom } from '../../core/network.js'
import { historyAtom, popAtom, pushAtom, resetAtom } from '../../core/router.js'
import { secureStatusAtom } from './secure.js'
import { tokensAtom } from '../balances/tokens.js'
import { showToastAtom } from '../../core/toasts.js'

const log = Logger.create({ scope: 'frame:embedded' })

type Channel = Channels.Channel<Protocol.SecureApi>
function readyChannel(get: Getter): Channel | undefined {
  const secure = get(secureStatusAtom)
  return secure.state === 'ready' ? secure.channel : undefined
}

/**
 * One request to the secure-site under a fresh op id, timing out at 30 s (spec §7). On a timeout or
 * abort the secure-site is told to abort too, so its fetch ends and a late success is dropped.
 */
export async function secureCall<T>(get: Getter, run: (channel: Channel, op: string) => Promise<T>): Promise<T> {
  const channel = readyChannel(get)
  if (!channel) throw new Errors.DoorwayError(get(secureStatusAtom).state === 'error' ? emailText.unavailable : emailText.timedOut)
  const op = Ids.random()
  try {
    return await run(channel, op)
  } catch (error) {
    if (error instanceof Errors.DoorwayError && (error.message === Errors.timedOut().message || error.message === Errors.aborted().message))
      void channel.call('abort', { op }).catch(() => {})
    throw error
  }
}

/** spec §7: a request to the secure-site gives up after 30 s. */
export const requestTimeout = { timeoutMs: Constants.embeddedRequestTimeoutMs }

/** The embedded account as the secure-site gave it at the last connect: the Account view's switch reconnects it. */
const embeddedAccountAtom = atom<Protocol.EmbeddedAccount | undefined>(undefined)

/**
 * The embedded account becomes the connection, through the same connector interface as any wallet. The
 * account type is decided here, once per connect (spec §4): its smart account when the person prefers it
 * and the chain has smart accounts (accountType.ts), else the key's own address.
 */
export const adoptAtom = atom(null, async (get, set, { account, restored }: { account: Protocol.EmbeddedAccount; restored: boolean }) => {
  const networks = get(configAtom)!.networks
  const active = get(activeNetworkAtom)?.caipNetworkId
  const evm = networks.find((n) => n.caipNetworkId === active && active.startsWith('eip155:')) ?? networks.find((n) => n.caipNetworkId.startsWith('eip155:'))
  const chainId = evm?.caipNetworkId ?? networks[0]!.caipNetworkId
  const { connector, address } = await connectorFor(get, set, account, chainId)
  // The same seed holds a Solana key (docs/embedded-wallet.md): the account on the dapp's Solana network in use, if it has one.
  const solana = networks.find((n) => n.caipNetworkId === active && active.startsWith('solana:')) ?? networks.find((n) => n.caipNetworkId.startsWith('solana:'))
  const accounts: Account[] = [
    ...(evm || !solana ? [{ connector, address, chainId }] : []),
    ...(solana ? [{ connector, address: account.solanaAddress, chainId: solana.caipNetworkId }] : []),
  ]
  const primary = accounts.find((a) => a.chainId.split(':')[0] === get(activeNamespaceAtom)) ?? accounts[0]!
  set(establishAtom, { account: primary, others: accounts.filter((a) => a !== primary), restored })
})

/**
 * The Account view's switch (issue 25): the other account type becomes the person's choice and the wallet
 * reconnects with it at once; the dapp sees accountsChanged. A chain without smart accounts keeps the EOA,
 * and the view says why.
 */
export const switchAccountTypeAtom = atom(null, async (get, set, type: AccountType) => {
  const account = get(embeddedAccountAtom)
  const current = get(accountsAtom).eip155
  set(preferredAccountTypeAtom, type)
  if (!account || !current || current.connector.id !== embeddedId) return
  const { connector, address } = await connectorFor(get, set, account, current.chainId)
  const solana = get(accountsAtom).solana
  if (solana?.connector.id === embeddedId) set(accountAtom, { ...solana, connector })
  const next = { ...current, connector, address }
  set(accountAtom, next)
  // The same address when this chain has no smart account: the connector changes, the dapp hears nothing.
  if (address === current.address) return
  set(notifyAtom, { type: 'accountChanged', account: toProtocol(next) })
  set(publishAtom, { type: 'accountChanged', account: next })
})

/** The embedded wallet's connector for this connect, and the EVM address the dapp sees (its smart account's, if it has one). */
async function connectorFor(get: Getter, set: Setter, account: Protocol.EmbeddedAccount, chainId: Caip.ChainId): Promise<{ connector: Connector; address: string }> {
  const channel = readyChannel(get)!
  const { create } = await import('./embeddedConnector.js')
  set(embeddedAccountAtom, account)
  const { smart, unavailable } = await smartFor(get, account.address as `0x${string}`, chainId)
  set(smartUnavailableAtom, unavailable)
  const describe = (id: Caip.ChainId) => {
    const network = get(configAtom)?.networks.find((n) => n.caipNetworkId === id)
    // The api prices balances in USD; the approval shows the native coin's value beside its amount.
    const price = get(tokensAtom).balances.find((b) => b.chainId === id && b.symbol === network?.nativeCurrency.symbol)?.price
    return { rpcUrl: network?.rpcUrl, named: network && { name: network.name, symbol: network.nativeCurrency.symbol, ...(price !== undefined && { price, currency: 'USD' }) } }
  }
  const connector = create({
    secure: channel,
    account,
    host: get(hostOriginAtom) ?? location.origin,
    chain: () => {
      const id = get(accountsAtom).eip155?.chainId ?? chainId
      const { rpcUrl, named } = describe(id)
      return { chainId: id, rpcUrl, ...(named && { network: named }) }
    },
    network: (id) => describe(id).named,
    chainIds: () => get(configAtom)?.networks.map((n) => n.caipNetworkId) ?? [],
    approve: (op, sign) => set(approveAtom, { op, sign }) as Promise<never>,
    refused: (method) =>
      setTimeout(() => set(showToastAtom, { variant: 'error', message: format(embeddedText.notAllowed, { method }) }), refusalToastDelayMs),
    smart,
    landed: () => set(operationLandedAtom, (n) => n + 1),
    // Smart sessions (issue 25) only where the dapp turned them on, as the incumbents ship them.
    ...(smart &&
      get(configAtom)?.features.smartSessions && {
        sessions: {
          record: (chainId, address, delegation) => get(apiAtom).createSession(address, { chainId, delegation: delegation as Record<string, unknown> }).then(() => undefined),
          revoke: (address, pci, signature) => get(apiAtom).revokeSession(address, { pci, signature }).then(() => undefined),
        },
      }),
  })
  return { connector, address: smart?.address ?? account.address }
}

/** spec §4: an unknown method's error toast comes 300 ms after the refusal. */
export const refusalToastDelayMs = 300

/**
 * spec §4: an unsafe request opens ApproveTransaction, where the secure-site shows it and decides.
 * On error the view is popped or the modal closed; on success too (the dapp's request then refreshes
 * the balance, host/requests.ts).
 * Leaving the view or closing the modal rejects with 4001 and aborts the request in the secure-site.
 */
const approveAtom = atom(null, async (get, set, { op, sign }: { op: string; sign: (signal: AbortSignal) => Promise<unknown> }) => {
  get(approvalAtom)?.controller.abort()
  const controller = new AbortController()
  set(approvalAtom, { op, controller })
  const wasOpen = get(openAtom)
  if (wasOpen) set(pushAtom, { view: 'ApproveTransaction', requestId: op })
  else {
    set(resetAtom, { view: 'ApproveTransaction', requestId: op })
    set(openAtom, true)
    set(notifyAtom, { type: 'show' })
  }
  const finish = () => {
    if (get(approvalAtom)?.op === op) set(approvalAtom, null)
    if (get(historyAtom).at(-1)?.view !== 'ApproveTransaction') return
    if (wasOpen && get(historyAtom).length > 1) set(popAtom)
    else {
      set(openAtom, false)
      set(notifyAtom, { type: 'close', result: { status: 'closed' } })
    }
  }
  try {
    const result = await sign(controller.signal)
    finish()
    return result
  } catch (error) {
    const aborted = controller.signal.aborted
    finish()
    if (aborted) {
      void readyChannel(get)?.call('abort', { op }).catch(() => {})
      throw Errors.userRejected()
    }
    throw error
  }
})

/** A screen of the secure-site waits on a person (reading their phrase, finding a code in their mail); it still ends. */
const screenTimeoutMs = 600_000

/**
 * A screen the secure-site draws in its own DOM over the current view's slot (the email and code steps,
 * key export, devices and activity), until the person is done there: its answer, or undefined when it
 * failed (a toast says why) or the view was left (`signal`), which ends the screen there too.
 */
export async function onSecureScreen<T>(
  get: Getter,
  set: Setter,
  signal: AbortSignal,
  run: (channel: Channel, op: string, options: { signal: AbortSignal; timeoutMs: number }) => Promise<T>,
): Promise<T | undefined> {
  const channel = readyChannel(get)
  if (!channel) {
    if (!signal.aborted) set(showToastAtom, { variant: 'error', message: emailText.unavailable })
    return undefined
  }
  const op = Ids.random()
  try {
    return await run(channel, op, { signal, timeoutMs: screenTimeoutMs })
  } catch (error) {
    void channel.call('abort', { op }).catch(() => {})
    if (signal.aborted) return undefined
    log.warn('a secure screen ended', error)
    set(showToastAtom, { variant: 'error', message: error instanceof Errors.DoorwayError ? error.message : somethingWentWrong })
    return undefined
  }
}

/**
 * Key export (docs/embedded-wallet.md §8) runs in the secure-site over the ExportWallet view; this side learns only
 * that the person is done, and pops the view. Leaving the view (`signal`) ends it there too.
 */
export const exportKeyAtom = atom(null, async (get, set, signal: AbortSignal) => {
  await onSecureScreen(get, set, signal, (channel, op, options) => channel.call('exportKey', { op, host: get(hostOriginAtom) ?? location.origin }, options))
  if (get(historyAtom).at(-1)?.view === 'ExportWallet') set(popAtom)
})

/**
 * The devices and activity screen (docs/embedded-wallet.md §10) runs in the secure-site over the
 * WalletSecurity view, as the export does: this side learns only that the person is done, and pops the
 * view. Leaving the view (`signal`) ends it there too.
 */
export const manageWalletAtom = atom(null, async (get, set, signal: AbortSignal) => {
  await onSecureScreen(get, set, signal, (channel, op, options) => channel.call('manageWallet', { op, host: get(hostOriginAtom) ?? location.origin }, options))
  if (get(historyAtom).at(-1)?.view === 'WalletSecurity') set(popAtom)
})
