/**
 * Token balances of the connected account from the api (spec §3 token balance). A failure, or a
 * network the dapp does not support, shows 'Token Balance Unavailable' (spec §8); a retry is allowed
 * only 30 s after the last failure (spec §5, §9). Also the account's native balance, which balance.ts
 * loads from here: the views that show it load this chunk anyway.
 */
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import type * as Protocol from '@doorway/shared/Protocol'
import { errors } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import type { Balance } from '../../api/client.js'
import type * as Native from './balance.js'
import { apiAtom } from '../../core/api.js'
import { type Account, accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'
import { showToastAtom } from '../../core/toasts.js'

export type Tokens = { status: 'idle' | 'loading' | 'ready' | 'error'; balances: Balance[]; lastFailure: number | null }
export const tokensAtom = atom<Tokens>({ status: 'idle', balances: [], lastFailure: null })

/** When a retry becomes allowed, or null when it is allowed now. */
export function retryAt(tokens: Tokens, now: number): number | null {
  const at = tokens.lastFailure === null ? null : tokens.lastFailure + Constants.tokenBalanceRetryLockoutMs
  return at !== null && at > now ? at : null
}

export const loadTokensAtom = atom(null, async (get, set, options: { force?: boolean } = {}) => {
  const account = get(accountAtom)
  const tokens = get(tokensAtom)
  if (!account || retryAt(tokens, Date.now()) !== null) return
  set(tokensAtom, { ...tokens, status: 'loading' })
  const fail = () => {
    set(tokensAtom, { status: 'error', balances: [], lastFailure: Date.now() })
    set(showToastAtom, { variant: 'error', message: errors.tokenBalanceUnavailable })
  }
  const network = get(activeNetworkAtom)
  if (!network) return fail()
  try {
    const balances = await get(apiAtom).balances(account.address, { chainId: network.caipNetworkId, forceUpdate: options.force })
    // The account may have moved on while the answer travelled: keep only answers for the current one.
    if (get(accountAtom) !== account) return
    set(tokensAtom, { status: 'ready', balances, lastFailure: null })
  } catch {
    fail()
  }
})

/** Namespaces whose balances nothing reads yet (issue 23: no Polkadot chain runs locally; the UI says so). */
export const unreadNamespaces: readonly string[] = ['polkadot']

type Api = ReturnType<typeof apiAtom.read>

/**
 * The account's native balance on the network in use: an EVM wallet answers eth_getBalance; other
 * namespaces' wallets answer no reads, so theirs is the api's, as their tokens are.
 */
export async function nativeBalance(account: Account, network: Protocol.Network, api: Api): Promise<Native.Balance> {
  const [namespace] = network.caipNetworkId.split(':')
  if (unreadNamespaces.includes(namespace!)) return { state: 'notSupported', network: network.name }
  try {
    if (namespace !== 'eip155') {
      const native = (await api.balances(account.address, { chainId: network.caipNetworkId })).find((b) => b.address === undefined)
      return native ? ready(native.quantity.numeric, network) : { state: 'unavailable' }
    }
    const hex = await account.connector.request({ method: 'eth_getBalance', params: [account.address, 'latest'] })
    if (typeof hex !== 'string' || !/^0x[0-9a-f]+$/i.test(hex)) return { state: 'unavailable' }
    return ready(Format.formatUnits(BigInt(hex), network.nativeCurrency.decimals), network)
  } catch {
    return { state: 'unavailable' }
  }
}

// spec §9: quantities show 3 decimals.
const ready = (amount: string, network: Protocol.Network): Native.Balance => ({
  state: 'ready',
  formatted: `${Format.formatQuantity(amount)} ${network.nativeCurrency.symbol}`,
})
