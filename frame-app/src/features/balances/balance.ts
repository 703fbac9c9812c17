/** The native balance of the connected account, read through its wallet (the api replaces this later). */
import * as Format from '@doorway/shared/Format'
import { atom } from 'jotai'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'

export type Balance = { state: 'loading' } | { state: 'ready'; formatted: string } | { state: 'unavailable' }

/** Bumped to read the balance again (e.g. after a transaction sent through the modal). */
export const balanceRefreshAtom = atom(0)

/** Re-read whenever the account, its chain or the refresh counter changes. */
export const nativeBalanceAtom = atom(async (get): Promise<Balance> => {
  get(balanceRefreshAtom)
  const account = get(accountAtom)
  const network = get(activeNetworkAtom)
  if (!account || !network) return { state: 'unavailable' }
  try {
    const hex = await account.connector.request({ method: 'eth_getBalance', params: [account.address, 'latest'] })
    if (typeof hex !== 'string' || !/^0x[0-9a-f]+$/i.test(hex)) return { state: 'unavailable' }
    const amount = Format.formatUnits(BigInt(hex), network.nativeCurrency.decimals)
    // spec §9: quantities show 3 decimals.
    return { state: 'ready', formatted: `${Format.formatQuantity(amount)} ${network.nativeCurrency.symbol}` }
  } catch {
    return { state: 'unavailable' }
  }
})
