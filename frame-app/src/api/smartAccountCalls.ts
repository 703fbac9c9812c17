/**
 * The api call of the embedded wallet's smart account (issue 25): a network's bundler, ERC-7677 paymaster
 * and Delegation Framework (GET /v1/smart-accounts/{chainId}), asked at a connect that prefers a smart
 * account. A module of its own, as accountPages.ts is: most connections never ask.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as SmartAccounts from '@doorway/shared/contracts/api/smartAccounts'
import { call, type Context } from './client.js'

/** 404 when the network has no smart accounts (the api's configuration has none for it). */
export function smartAccounts(context: Context, chainId: ChainId, signal?: AbortSignal) {
  return call<'GET /v1/smart-accounts/:chainId'>(context, 'GET', `/v1/smart-accounts/${encodeURIComponent(chainId)}`, SmartAccounts.smartAccounts, { signal })
}
