/**
 * The devnet's Bitcoin stand-in (docs/architecture.md §9a "Other namespaces", port 8794): Esplora's
 * HTTP API (the one Blockstream and mempool.space serve) over an in-memory regtest chain (chain.ts)
 * that checks every transaction's signatures (validation.ts). Debian ships no bitcoind and npm no
 * regtest node (shared/notes/namespaces.md §4), so this is what the frame and the test wallet read and
 * broadcast to; production points the same client code at a hosted Esplora. Dev only, never shipped.
 * `import * as Esplora from './bitcoin/esplora.js'` → `await Esplora.start({ port })`.
 *
 * Routes: GET /address/:address, /address/:address/utxo, /address/:address/txs (and
 * /txs/chain[/:last_seen_txid], /txs/mempool), /fee-estimates, /blocks/tip/height, /blocks/tip/hash,
 * /block-height/:height, /tx/:txid, /tx/:txid/status, /tx/:txid/hex, /tx/:txid/outspends; POST /tx
 * (the raw transaction's hex as text → its txid as text). CORS `*`: a browser frame calls it directly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError, isLoopbackHost, listenLoopback, readText, securityHeaders } from '../httpServer.js'
import * as Chain from './chain.js'
import * as Keys from './keys.js'
import * as Validation from './validation.js'

export const chainId = Keys.chainId

export const limits = {
  /** Largest POST /tx body: the hex of the largest transaction accepted, and some whitespace. */
  bodyBytes: 2 * Validation.maxTxBytes + 1024,
}

/**
 * GET /fee-estimates: sat/vB by confirmation target in blocks, Esplora's targets (1–25, 144, 504,
 * 1008). Fixed: every transaction is mined at once whatever it pays, so these only need to be plausible
 * and at least the 1 sat/vB minimum relay fee.
 */
export const feeEstimates: Readonly<Record<string, number>> = Object.fromEntries(
  [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008].map((target) => [String(target), target <= 2 ? 3 : target <= 6 ? 2 : 1]),
)

/** What the devnet faucet gives each dev key (fundDevKeys): 1 BTC. */
export const devKeyFunding = 100_000_000n

export type Server = {
  /** http://127.0.0.1:port, no trailing slash: clients append Esplora's paths. */
  url: string
  chainId: typeof chainId
  /** Mints `sats` to a regtest address in a block of its own; resolves with the txid. */
  faucet(address: string, sats: bigint): Promise<string>
  /** The tip's height (the genesis block is 0; each faucet and accepted transaction adds one). */
  height(): number
  stop(): Promise<void>
}

export async function start(options: start.Options): Promise<Server> {
  const chain = Chain.create()
  const { url, stop } = await listenLoopback({
    name: 'Esplora stand-in',
    port: options.port,
    host: options.host,
    handle: (req, res) => void handle(chain, req, res),
    // Every answer is computed synchronously: nothing is left under way on stop.
    finish: () => Promise.resolve(),
  })
  return {
    url,
    chainId,
    // async: a bad address or amount rejects rather than throws.
    faucet: async (address, sats) => Chain.faucet(chain, address, sats),
    height: () => Chain.tip(chain).height,
    stop,
  }
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `url` says which. */
    port: number
    /** A loopback address. Default 127.0.0.1. */
    host?: string
  }
}

/** Funds the dev payment keys m/84'/1'/0'/0/0…count-1 (keys.ts) with `sats` each; the faucet txids. */
export async function fundDevKeys(server: Pick<Server, 'faucet'>, options: { count?: number; sats?: bigint } = {}): Promise<string[]> {
  const { count = 4, sats = devKeyFunding } = options
  const txids: string[] = []
  for (let i = 0; i < count; i++) txids.push(await server.faucet(Keys.payment(i).address, sats))
  return txids
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
}

/** Esplora answers text for heights, hashes, txids and errors, JSON for the rest. */
function send(res: ServerResponse, status: number, body: string | object) {
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8'
  res.writeHead(status, { ...securityHeaders, ...cors, 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body))
}

async function handle(chain: Chain.Chain, req: IncomingMessage, res: ServerResponse) {
  try {
    // A page on another name that resolves to loopback (DNS rebinding) is refused.
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Only loopback host names are served')
    if (req.method === 'OPTIONS') return void res.writeHead(204, { ...securityHeaders, ...cors }).end()
    const path = new URL(req.url ?? '/', 'http://esplora').pathname
    if (req.method === 'POST' && path === '/tx') return send(res, 200, Chain.submit(chain, (await readText(req, limits.bodyBytes)).trim()))
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'Method not allowed')
    const [status, body] = route(chain, path.split('/').slice(1).map(segment))
    send(res, status, body)
  } catch (error) {
    if (error instanceof Validation.Rejection) return send(res, 400, error.message)
    if (error instanceof HttpError) return send(res, error.status, error.message)
    send(res, 500, 'Internal error')
  }
}

function segment(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new HttpError(400, 'Invalid path')
  }
}

/** The GET routes, by path segments: [status, text or JSON]. */
function route(chain: Chain.Chain, parts: string[]): [number, string | object] {
  const [first, id, second, third, fourth, ...rest] = parts
  if (rest.length > 0) throw notFound()
  if (first === 'address' && id !== undefined) return [200, addressRoute(chain, address(id), [second, third, fourth])]
  if (first === 'tx' && id !== undefined && third === undefined) return [200, txRoute(chain, txid(id), second)]
  if (first === 'fee-estimates' && id === undefined) return [200, feeEstimates]
  if (first === 'blocks' && id === 'tip' && third === undefined) {
    if (second === 'height') return [200, String(Chain.tip(chain).height)]
    if (second === 'hash') return [200, Chain.tip(chain).hash]
  }
  if (first === 'block-height' && id !== undefined && second === undefined) {
    const block = /^\d{1,9}$/.test(id) ? chain.blocks[Number(id)] : undefined
    if (!block) throw new HttpError(404, 'Block not found')
    return [200, block.hash]
  }
  throw notFound()
}

const notFound = () => new HttpError(404, 'Not found')

function address(value: string): string {
  try {
    Chain.scriptOf(value)
  } catch {
    throw new HttpError(400, 'Invalid Bitcoin address')
  }
  return value
}

function txid(value: string): string {
  if (!/^[0-9a-f]{64}$/i.test(value)) throw new HttpError(400, 'Invalid hex string')
  return value.toLowerCase()
}

function addressRoute(chain: Chain.Chain, a: string, [what, which, lastSeen]: (string | undefined)[]): object {
  if (what === undefined) return Chain.addressInfo(chain, a)
  if (what === 'utxo' && which === undefined) return Chain.utxos(chain, a)
  if (what !== 'txs') throw notFound()
  // Nothing waits in a mempool: every transaction is mined as it is accepted.
  if (which === 'mempool' && lastSeen === undefined) return []
  if (which !== undefined && which !== 'chain') throw notFound()
  const page = Chain.addressTxs(chain, a, lastSeen === undefined ? undefined : txid(lastSeen))
  if (!page) throw new HttpError(400, 'Transaction not found in the address history')
  return page
}

function txRoute(chain: Chain.Chain, id: string, what: string | undefined): string | object {
  const tx = Chain.tx(chain, id)
  if (!tx) throw new HttpError(404, 'Transaction not found')
  if (what === undefined) return tx
  if (what === 'status') return tx.status
  if (what === 'hex') return Chain.rawHex(chain, id)!
  if (what === 'outspends') return Chain.outspends(chain, id)!
  throw notFound()
}

