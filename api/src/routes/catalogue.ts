/** The wallet catalogue API of spec §7: GET /getWallets and the image blob paths. */
import * as Api from '@doorway/shared/contracts/api'
import { type Context, Hono } from 'hono'
import * as Catalogue from '../catalogue/catalogue.js'
import * as Images from '../catalogue/images.js'
import data from '../catalogue/wallets.json' with { type: 'json' }
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

export function routes(deps: Deps) {
  // Checked once at start: a broken data file fails the server, not a request.
  const wallets = Catalogue.parse(data)
  const byId = new Map(wallets.map((wallet) => [wallet.id, wallet]))
  const app = new Hono()
  const on = Http.register(app, deps.config.projects)

  on(Api.table.wallets, ({ query }) => Catalogue.query(wallets, params(query), { publicUrl: deps.config.publicUrl }))

  on(Api.table.walletImage, ({ params }, c) => {
    const wallet = byId.get(params.id as string)
    if (!wallet) throw new Http.HttpError(404, 'Unknown wallet')
    return image(c, Images.wallet(wallet))
  })
  on(Api.table.tokenImage, ({ params }, c) => image(c, Images.token(params.id)))
  on(Api.table.currencyImage, ({ params }, c) => image(c, Images.currency(params.id)))
  on(Api.table.assetImage, ({ params }, c) => image(c, Images.asset(params.id)))

  return app
}

/** The query of GET /getWallets, its fields checked by the table; unknown parameters are ignored. */
function params(query: Http.Input<typeof Api.table.wallets>['query']): Catalogue.query.Params {
  const list = (text: string | undefined) => Api.listOf(text ?? '')
  return {
    page: query.page === undefined ? 1 : Number(query.page),
    entries: query.entries === undefined ? Catalogue.defaultEntries : Number(query.entries),
    chains: list(query.chains) as Catalogue.query.Params['chains'],
    include: list(query.include),
    exclude: list(query.exclude),
    // An empty search is no search: the modal sends the box's contents as they are.
    search: query.search?.trim() || undefined,
    badge: query.badge_type || undefined,
  }
}

function image(c: Context, svg: string) {
  return c.body(svg, 200, Images.headers)
}
