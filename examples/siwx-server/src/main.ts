/**
 * The sign-in server on its own: `npx tsx --conditions=source examples/siwx-server/src/main.ts [port]` (or SIWX_PORT; 8799 by
 * default), on 127.0.0.1. The messages it accepts name SIWX_DOMAIN (default `localhost:<port>`), and it
 * verifies eip155 signatures on the local anvil chains of `npm start` (devnet/src/stack.ts) and Solana ones,
 * which need no chain, on any cluster. In the local stack
 * the demo origin serves the same routes itself (devnet/src/start.ts), so the page and the cookie share
 * one origin.
 */
import { createServer } from 'node:http'
import { chains } from '@doorway/devnet/stack'
import { createSiwxServer, prefix } from './server.js'

const port = Number(process.argv[2] ?? process.env.SIWX_PORT ?? 8799)
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('usage: tsx --conditions=source examples/siwx-server/src/main.ts [port]')
  process.exit(2)
}
const domain = process.env.SIWX_DOMAIN ?? `localhost:${port}`
const handle = createSiwxServer({ domain, rpcUrls: Object.fromEntries(chains.map((chain) => [`eip155:${chain.id}`, chain.rpcUrl])) })

const server = createServer((req, res) => {
  if (!handle(req, res)) res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
})
server.listen(port, '127.0.0.1', () => {
  console.log(`Sign-in server on http://127.0.0.1:${port}${prefix} for ${domain}; chains ${chains.map((c) => `${c.id} ${c.rpcUrl}`).join(', ')} (Solana and Polkadot sign-ins need no chain)`)
})
