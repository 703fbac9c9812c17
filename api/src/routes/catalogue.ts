/** The wallet catalogue API of spec §7: GET /getWallets and the image blob paths. */
import { type Context, Hono } from 'hono'
import * as Catalogue from '../catalogue/catalogue.js'
import * as Images from '../catalogue/images.js'
import data from '../catalogue/wallets.json' with { type: 'json' }
import type { Deps } from '../deps.js'
import * as Http from '../http.js'

const maxPage = 10_000
const maxListItems = 100
const maxImageId = 128

export function routes(deps: Deps) {
  // Checked once at start: a broken data file fails the server, not a request.
  const wallets = Catalogue.parse(data)
  const byId = new Map(wallets.map((wallet) => [wallet.id, wallet]))
  const app = new Hono()

  app.get('/getWallets', (c) => {
    Http.project(c, deps.config.projects)
    return c.json(Catalogue.query(wallets, params(c), { publicUrl: deps.config.publicUrl }))
  })

  app.get('/getWalletImage/:id', (c) => {
    const wallet = byId.get(c.req.param('id'))
    if (!wallet) throw new Http.HttpError(404, 'Unknown wallet')
    return image(c, Images.wallet(wallet))
  })
  app.get('/public/getTokenImage/:id', (c) => image(c, Images.token(imageId(c))))
  app.get('/public/getCurrencyImage/:id', (c) => image(c, Images.currency(imageId(c))))
  app.get('/public/getAssetImage/:id', (c) => image(c, Images.asset(imageId(c))))

  return app
}

/** The query of GET /getWallets, each parameter checked; unknown parameters are ignored. */
function params(c: Context): Catalogue.query.Params {
  return {
    page: Http.integer(c.req.query('page'), 'page', { min: 1, max: maxPage, fallback: 1 }),
    entries: Http.integer(c.req.query('entries'), 'entries', { min: 1, max: Catalogue.maxEntries, fallback: Catalogue.defaultEntries }),
    chains: list(c.req.query('chains'), 'chains').map((chain) => Http.chainId(chain, 'chains')),
    include: ids(c.req.query('include'), 'include'),
    exclude: ids(c.req.query('exclude'), 'exclude'),
    search: search(c.req.query('search')),
    badge: badge(c.req.query('badge_type')),
  }
}

function list(value: string | undefined, name: string): string[] {
  if (value === undefined || value === '') return []
  const items = value.split(',')
  if (items.length > maxListItems) throw Http.badRequest(`Invalid ${name}: expected at most ${maxListItems} items`)
  return items
}

function ids(value: string | undefined, name: string): string[] {
  const items = list(value, name)
  for (const id of items) if (!Catalogue.idPattern.test(id)) throw Http.badRequest(`Invalid ${name}: expected comma-separated wallet ids of a-z, 0-9 and -`)
  return items
}

// An empty search is no search: the modal sends the box's contents as they are.
function search(value: string | undefined): string | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if ([...text].length > Catalogue.maxSearch) throw Http.badRequest(`Invalid search: expected at most ${Catalogue.maxSearch} characters`)
  return text
}

function badge(value: string | undefined): Catalogue.Badge | undefined {
  if (value === undefined || value === '') return undefined
  if (value === 'certified' || value === 'none') return value
  throw Http.badRequest("Invalid badge_type: expected 'certified' or 'none'")
}

function imageId(c: Context): string {
  const id = c.req.param('id') ?? ''
  if (id.length === 0 || id.length > maxImageId) throw Http.badRequest(`Invalid image id: expected 1 to ${maxImageId} characters`)
  return id
}

function image(c: Context, svg: string) {
  return c.body(svg, 200, Images.headers)
}
