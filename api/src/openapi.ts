/**
 * GET /openapi.json: the api's route table (shared/src/contracts/api.ts) as an OpenAPI 3.1 document,
 * its schemas in JSON Schema 2020-12. Generated from the table the handlers are registered from, so it
 * cannot drift from them; openapi.test.ts checks every route's real answers against it.
 */
import * as Api from '@doorway/shared/contracts/api'
import * as OpenApi from '@doorway/shared/contracts/OpenApi'
import { Hono } from 'hono'
import type { Deps } from './deps.js'
import * as Http from './http.js'

export const info = {
  title: 'Doorway api',
  version: '0.1.0',
  description:
    'The blockchain API, the wallet catalogue and analytics of the Doorway modal (spec §7). Every route but the images and this document takes projectId, st and sv. ' +
    'Balances and history serve every network the api configures: EVM (eip155:<chain id>), Solana (solana:<genesis hash prefix>, SOL and SPL tokens) and Bitcoin (bip122:<genesis block hash prefix>, through Esplora); GET /v1/supported-chains lists them.',
}

export function document(publicUrl: string): OpenApi.Document {
  return OpenApi.document(Api.table, info, { servers: [{ url: publicUrl }] })
}

export function routes(deps: Deps) {
  const app = new Hono()
  // Built at the first request: the table does not change while the api runs.
  let built: OpenApi.Document | undefined
  Http.register(app, deps.config.projects)(Api.table.openApi, () => (built ??= document(deps.config.publicUrl)))
  return app
}
