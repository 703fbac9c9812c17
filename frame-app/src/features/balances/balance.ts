/** The native balance of the connected account, read through its wallet (the api replaces this later). */
import * as Format from '@doorway/shared/Format'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom } from 'jotai'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'

export type Balance = { state: 'loading' } | { state: 'ready'; formatted: string } | { state: 'unavailable' } | { state: 'notSupported'; network: string }

/** Namespaces whose balances nothing reads yet (issue 23: no Polkadot chain runs locally; the UI says so). */
export const unreadNamespaces: readonly string[] = ['polkadot']

/** Bumped to read the balance again (e.g. after a transaction sent through the modal). */
export const balanceRefreshAtom = atom(0)

/** Re-read whenever the account, its chain or the refresh counter changes. */
export const nativeBalanceAtom = atom(async (get): Promise<Balance> => {
  get(balanceRefreshAtom)
  const account = get(accountAtom)
  const network = get(activeNetworkAtom)
  if (!account || !network) return { state: 'unavailable' }
  const [namespace] = network.caipNetworkId.split(':')
  if (unreadNamespaces.includes(namespace!)) return { state: 'notSupported', network: network.name }
  // Other namespaces' wallets answer no reads: their native balance comes from the api, as the tokens do.
  if (namespace !== 'eip155') return nativeFromApi(get(apiAtom), account.address, network)
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

type Api = ReturnType<typeof apiAtom.read>

async function nativeFromApi(api: Api, address: string, network: Protocol.Network): Promise<Balance> {
  try {
    const balances = await api.balances(address, { chainId: network.caipNetworkId })
    const native = balances.find((b) => b.address === undefined)
    if (!native) return { state: 'unavailable' }
    return { state: 'ready', formatted: `${Format.formatQuantity(native.quantity.numeric)} ${network.nativeCurrency.symbol}` }
  } catch {
    return { state: 'unavailable' }
  }
}
