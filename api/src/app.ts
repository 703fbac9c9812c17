/**
 * The api (spec §7): the blockchain API, the wallet catalogue and analytics, as one Hono app that
 * runs on Node here and on edge runtimes elsewhere. Every route is declared once in its table
 * (shared/src/contracts/api.ts), published at GET /openapi.json.
 */
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import type { Deps } from './deps.js'
import { HttpError } from './http.js'
import * as OpenApi from './openapi.js'
import * as Analytics from './routes/analytics.js'
import * as Blockchain from './routes/blockchain.js'
import * as Catalogue from './routes/catalogue.js'

export function create(deps: Deps) {
  const app = new Hono()
  // The modal calls from its own origin; responses carry no credentials.
  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'PUT', 'DELETE'], allowHeaders: ['content-type'] }))
  app.route('/', Blockchain.routes(deps))
  app.route('/', Catalogue.routes(deps))
  app.route('/', Analytics.routes(deps))
  app.route('/', OpenApi.routes(deps))
  app.notFound((c) => c.json({ message: 'Not found' }, 404))
  // Answers say what was wrong with the request; they never carry stack traces.
  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ message: error.message }, error.status)
    console.error('[doorway:api]', error)
    return c.json({ message: 'Internal error' }, 500)
  })
  return app
}
