/**
 * The api alone against a running devnet: `npx tsx devnet/src/api.ts`, with the configuration the local
 * stack would pass it (apiConfig.ts lastDeployed: its ports, the sandbox onramp, the tokens, NFTs and
 * exchange last deployed). `--print` prints that configuration as JSON instead: a file for
 * DOORWAY_API_CONFIG and `npx tsx api/src/main.ts`, the api's own way to start.
 */
import * as Server from '@doorway/api/server'
import * as ApiConfig from './apiConfig.js'

const config = ApiConfig.lastDeployed()
if (process.argv.includes('--print')) {
  console.log(JSON.stringify(config, null, 2))
  process.exit(0)
}
const api = await Server.start(config)
console.log(`[doorway:api] listening on ${api.url} (the devnet's configuration)`)
const stop = () => void api.stop().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
