/**
 * GET /v1/smart-accounts/:chainId (issue 25): a network's ERC-4337 bundler, its optional ERC-7677
 * paymaster and the Delegation Framework's addresses, as the operator configured them (config.ts
 * `SmartAccounts`). The frame reads them here and nowhere else, so production points at any hosted
 * bundler and paymaster by configuration only. A network not configured, or configured without smart
 * accounts, answers 404.
 */
import * as Api from '@doorway/shared/contracts/api'
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export function routes(deps: Deps) {
  const { config } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.smartAccounts, ({ params: { chainId } }) => {
    const smartAccounts = config.networks[chainId]?.smartAccounts
    if (!smartAccounts) throw new Http.HttpError(404, `No smart accounts on ${chainId}`)
    const { bundlerUrl, paymasterUrl, environment } = smartAccounts
    return { chainId, bundlerUrl, ...(paymasterUrl !== undefined && { paymasterUrl }), environment }
  })

  return app
}
