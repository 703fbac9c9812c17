/**
 * The host page's Wallet Standard (Solana) wallets in the connection (issue 23, docs/architecture.md §4):
 * their connectors joined to the EVM ones, the start-up sync of a stored connection with one, and their
 * account changes. A chunk of its own, loaded when the SDK's host chunk reports such wallets or their
 * events (host/connect.ts): an EVM-only dapp never loads it.
 */
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { configAtom } from './config.js'
import { accountAtom, accountsAtom, connectorsAtom, establishAtom, forgetAtom, namespaceOf, setStatusAtom, storedSession, toProtocol } from './connection.js'
import { merge } from './connectors/merge.js'
import * as Standard from './connectors/standard.js'
import { publishAtom } from './events.js'
import { hostAtom, notifyAtom } from './host.js'
import { standardWalletsAtom } from './wallets.js'

/**
 * The wallets the host chunk found (the whole list, each time it changes): their connectors join the
 * EVM ones, then a stored connection with one of them is restored. Settles once that restore has.
 */
export const reportWalletsAtom = atom(null, (get, set, wallets: readonly Protocol.StandardWallet[]) => {
  const { host } = get(hostAtom)
  if (host) {
    const standard = wallets.map((wallet) => Standard.fromWallet(wallet, host))
    set(standardWalletsAtom, { join: (evm) => merge(evm, standard) })
  }
  return set(restoreStandardAtom)
})

/**
 * spec §4 start-up sync for a Wallet Standard wallet: once the SDK's chunk has listed the page's
 * wallets, the stored one reconnects silently (its own connect answers without a prompt once this
 * site is trusted), or the connection is forgotten.
 */
export const restoreStandardAtom = atom(null, async (get, set) => {
  const session = storedSession()
  if (!session || session.namespace !== 'solana' || get(accountsAtom).solana) return
  const connector = get(connectorsAtom).find((c) => c.id === session.connectorId)
  const chainId = get(configAtom)?.networks.find((n) => namespaceOf(n.caipNetworkId) === 'solana')?.caipNetworkId
  if (!connector?.connect || !chainId) return
  set(setStatusAtom, 'connecting', 'solana')
  try {
    set(establishAtom, { account: { connector, ...(await connector.connect('solana', chainId, { silent: true })) }, restored: true })
  } catch {
    set(forgetAtom)
  }
})

/** A Wallet Standard wallet's accounts changed: none left is a disconnect of its namespace (spec §4 resync). */
export const standardEventAtom = atom(null, (get, set, event: { id: string; accounts: readonly Protocol.StandardAccount[] }) => {
  const account = get(accountsAtom).solana
  if (!account || account.connector.standardId !== event.id) return
  if (event.accounts.length === 0) {
    set(accountsAtom, ({ solana: _gone, ...rest }) => rest)
    set(setStatusAtom, 'disconnected', 'solana')
    return Object.keys(get(accountsAtom)).length ? undefined : (set(forgetAtom), set(notifyAtom, { type: 'disconnect' }))
  }
  const [first] = event.accounts
  if (!first || event.accounts.some((a) => a.address === account.address)) return
  const next = { ...account, address: first.address }
  set(accountAtom, next)
  set(notifyAtom, { type: 'accountChanged', account: toProtocol(next) })
  set(publishAtom, { type: 'accountChanged', account: next })
})
