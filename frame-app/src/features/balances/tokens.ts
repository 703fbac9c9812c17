/**
 * Token balances of the connected account from the api (spec §3 token balance). A failure, or a
 * network the dapp does not support, shows 'Token Balance Unavailable' (spec §8); a retry is allowed
 * only 30 s after the last failure (spec §5, §9).
 */
import * as Constants from '@doorway/shared/Constants'
import { errors } from '@doorway/shared/Texts'
import { atom } from 'jotai'
import type { Balance } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'
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
