/**
 * The api server on its own: `tsx api/src/main.ts`, configured by the JSON file DOORWAY_API_CONFIG
 * names, else as in the local stack (its ports, its sandbox onramp provider, and the tokens, NFT
 * collections and exchange devnet last deployed).
 */
import { apiStack, urls } from '../../devnet/src/stack.js'
import * as Tokens from '../../devnet/src/tokens.js'
import * as Config from './config.js'
import * as Server from './server.js'

const manifest = Tokens.readManifest()
const api = await Server.start(Config.load(() => Config.local({ ...apiStack, tokens: manifest?.tokens ?? {}, nfts: manifest?.nfts ?? {}, exchange: manifest?.exchange ?? {}, onrampUrl: urls.onramp })))
console.log(`[doorway:api] listening on ${api.url}`)
const stop = () => void api.stop().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
