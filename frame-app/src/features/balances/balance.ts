/**
 * The native balance of the connected account, for the Account view. What reads it (the wallet for an
 * EVM account, the api for another) is in tokens.ts, a chunk the Account view loads with its tokens:
 * the first chunk holds only what asks for a read again.
 */
import { atom } from 'jotai'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'

export type Balance = { state: 'loading' } | { state: 'ready'; formatted: string } | { state: 'unavailable' } | { state: 'notSupported'; network: string }

/** Bumped to read the balance again (e.g. after a transaction sent through the modal). */
export const balanceRefreshAtom = atom(0)

/** Re-read whenever the account, its chain or the refresh counter changes. */
export const nativeBalanceAtom = atom(async (get): Promise<Balance> => {
  get(balanceRefreshAtom)
  const account = get(accountAtom)
  const network = get(activeNetworkAtom)
  if (!account || !network) return { state: 'unavailable' }
  const api = get(apiAtom)
  return (await import('./tokens.js')).nativeBalance(account, network, api)
})
