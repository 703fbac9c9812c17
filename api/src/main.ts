/** The api server on its own: `tsx api/src/main.ts` (configured by DOORWAY_API_CONFIG or env). */
import * as Config from './config.js'
import * as Server from './server.js'

const api = await Server.start(Config.load())
console.log(`[doorway:api] listening on ${api.url}`)
const stop = () => void api.stop().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
