/** The blockchain API of spec §7 (and beside it the NFT holdings and each network’s smart-account configuration), one module per group of paths. */
import { Hono } from 'hono'
import type { Deps } from '../deps.js'
import * as Balance from './balance.js'
import * as Convert from './convert.js'
import * as History from './history.js'
import * as Nfts from './nfts.js'
import * as Onramp from './onramp.js'
import * as Profile from './profile.js'
import * as Sessions from './sessions.js'
import * as SmartAccounts from './smartAccounts.js'

export function routes(deps: Deps) {
  const app = new Hono()
  for (const group of [Balance, History, Nfts, Convert, Onramp, Profile, Sessions, SmartAccounts]) app.route('/', group.routes(deps))
  return app
}
