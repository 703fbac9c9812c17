/** The blockchain API of spec §7 (and the NFT holdings beside it), one module per group of paths. */
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Balance from './balance.js'
import * as Convert from './convert.js'
import * as History from './history.js'
import * as Nfts from './nfts.js'
import * as Onramp from './onramp.js'
import * as Profile from './profile.js'
import * as Sessions from './sessions.js'

export function routes(deps: Deps) {
  const app = new Hono()
  for (const group of [Balance, History, Nfts, Convert, Onramp, Profile, Sessions]) app.route('/', group.routes(deps))
  return app
}
