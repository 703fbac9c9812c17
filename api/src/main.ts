/**
 * The api server on its own: `DOORWAY_API_CONFIG=api.json npx tsx api/src/main.ts`, configured by that
 * JSON file only (its shape: config.ts). The local stack starts the api in-process with the configuration
 * devnet builds (devnet/src/start.ts); `npx tsx devnet/src/api.ts` runs it alone against the devnet.
 */
import * as Config from './config.js'
import * as Server from './server.js'

let config: Config.Config
try {
  config = Config.load()
} catch (error) {
  console.error(`[doorway:api] ${error instanceof Error ? error.message : String(error)}`)
  process.exit(2)
}
const api = await Server.start(config)
console.log(`[doorway:api] listening on ${api.url}`)
const stop = () => void api.stop().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
