/** The api server: `tsx api/src/main.ts` (started by `npm start` and the e2e stack). */
import { serve } from '@hono/node-server'
import * as App from './app.js'
import * as Config from './config.js'
import * as Rpc from './rpc.js'
import * as Storage from './storage/Storage.js'

const config = Config.load()
const storage = await Storage.open(config.storage)
const app = App.create({ config, rpc: Rpc.create(config), storage, now: Date.now })
const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () =>
  console.log(`[doorway:api] listening on ${config.publicUrl}`),
)

const stop = () => server.close(() => void storage.close().then(() => process.exit(0)))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
