/**
 * The devnet's Solana chain (docs/architecture.md §3): litesvm in process behind a JSON-RPC 2.0 server
 * on loopback (batches too), with the WebSocket web3.js opens on port + 1. Browsers on the frame's
 * origin call it, so it answers CORS for any origin; it holds no secret, only the dev chain.
 * `import * as SolanaRpc from './solana/rpc.js'` → `const chain = await SolanaRpc.start({ port: ports.solana })`.
 *
 * Proven design: the namespaces notes (shared notes/namespaces.md §1). Methods: methods.ts; transactions: execute.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LiteSVM } from 'litesvm'
import { HttpError, isLoopbackHost, listenLoopback, readText, sendJson } from '../httpServer.js'
import { codes, RpcError } from './errors.js'
import * as Execute from './execute.js'
import * as Ledger from './ledger.js'
import { methods } from './methods.js'
import * as Ws from './ws.js'

export type Chain = {
  url: string
  wsUrl: string
  genesisHash: string
  /** CAIP-2: `solana:` + the first 32 characters of the genesis hash. */
  chainId: `solana:${string}`
  svm: LiteSVM
  /** Sends `lamports` from the faucet to `address`; resolves with the landed transaction's signature. */
  airdrop(address: string, lamports: bigint): Promise<string>
  /** Every blockhash handed out so far stops working ("Blockhash not found"), as when they grow too old. */
  expireBlockhash(): void
  stop(): Promise<void>
}

export const limits = {
  maxBodyBytes: 1024 * 1024,
  /** Requests in one batch. */
  maxBatch: 100,
}

/** Serves a fresh chain. Port 0 picks a free port whose next one is free too, for the websocket. */
export async function start(options: { port: number; host?: string }): Promise<Chain> {
  const host = options.host ?? '127.0.0.1'
  const ledger = Ledger.create()
  // Port 0: the system picks the HTTP port, and the next one may be taken; a few tries find a free pair.
  for (let attempt = 0; ; attempt++) {
    const http = await listenLoopback({ name: 'Solana RPC', port: options.port, host, handle: (req, res) => void handle(ledger, req, res), finish: async () => {} })
    const port = Number(new URL(http.url).port)
    try {
      const ws = await Ws.start(ledger, { port: port + 1, host })
      return chain(ledger, http, ws)
    } catch (error) {
      await http.stop()
      if (options.port !== 0 || attempt >= 4) throw error
    }
  }
}

function chain(ledger: Ledger.Ledger, http: { url: string; stop(): Promise<void> }, ws: { url: string; stop(): Promise<void> }): Chain {
  return {
    url: http.url,
    wsUrl: ws.url,
    genesisHash: ledger.genesisHash,
    chainId: `solana:${ledger.genesisHash.slice(0, 32)}`,
    svm: ledger.svm,
    airdrop: async (address, lamports) => Execute.airdrop(ledger, address, lamports),
    expireBlockhash: () => Ledger.expireBlockhash(ledger),
    stop: async () => {
      await Promise.all([http.stop(), ws.stop()])
    },
  }
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-max-age': '600',
}

async function handle(ledger: Ledger.Ledger, req: IncomingMessage, res: ServerResponse) {
  for (const [name, value] of Object.entries(cors)) res.setHeader(name, value)
  try {
    if (req.method === 'OPTIONS') return preflight(req, res)
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Call the devnet through a loopback host name')
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (req.method === 'GET' && path === '/health') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    if (req.method !== 'POST') throw new HttpError(405, 'Send JSON-RPC requests with POST')
    if (path !== '/') throw new HttpError(404, 'JSON-RPC is served at /')
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new HttpError(415, 'Send a JSON body with content-type: application/json')
    const text = await readText(req, limits.maxBodyBytes)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return sendJson(res, 400, failure(null, codes.parse, 'Parse error'))
    }
    const answer = dispatch(ledger, body)
    if (answer === undefined) return void res.writeHead(204).end()
    sendJson(res, 200, answer)
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 400
    if (!res.headersSent) sendJson(res, status, failure(null, codes.invalidRequest, (error as Error).message))
  }
}

// Any origin may call (the frame's, in a browser); the headers it asks for are echoed when well-formed
// (web3.js adds `solana-client`).
function preflight(req: IncomingMessage, res: ServerResponse) {
  const asked = req.headers['access-control-request-headers']
  const headers = asked && /^[\w-]+(\s*,\s*[\w-]+)*$/.test(asked) ? asked : 'content-type'
  res.writeHead(204, { 'access-control-allow-headers': headers }).end()
}


type Response = { jsonrpc: '2.0'; id: string | number | null } & ({ result: unknown } | { error: { code: number; message: string; data?: unknown } })

const failure = (id: string | number | null, code: number, message: string, data?: unknown): Response => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
})

/** The answer to a request or a batch; undefined when all were notifications. */
export function dispatch(ledger: Ledger.Ledger, body: unknown): Response | Response[] | undefined {
  if (!Array.isArray(body)) return call(ledger, body)
  if (!body.length) return failure(null, codes.invalidRequest, 'Invalid Request: empty batch')
  if (body.length > limits.maxBatch) return failure(null, codes.invalidRequest, `Invalid Request: at most ${limits.maxBatch} requests in a batch`)
  const answers = body.map((request) => call(ledger, request)).filter((answer) => answer !== undefined)
  return answers.length ? answers : undefined
}

function call(ledger: Ledger.Ledger, request: unknown): Response | undefined {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return failure(null, codes.invalidRequest, 'Invalid Request')
  const { jsonrpc, id, method, params } = request as Record<string, unknown>
  const validId = id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
  if (!validId) return failure(null, codes.invalidRequest, 'Invalid Request: id must be a string, a number or null')
  const answerId = (id ?? null) as string | number | null
  if (jsonrpc !== '2.0' || typeof method !== 'string') return failure(answerId, codes.invalidRequest, 'Invalid Request')
  const answer = run(ledger, answerId, method, params)
  // JSON-RPC 2.0: a notification (no id) gets no answer
  return 'id' in request ? answer : undefined
}

function run(ledger: Ledger.Ledger, id: string | number | null, method: string, params: unknown): Response {
  if (!Object.hasOwn(methods, method)) return failure(id, codes.methodNotFound, 'Method not found')
  if (params !== undefined && params !== null && !Array.isArray(params)) return failure(id, codes.invalidParams, 'Invalid params: params must be an array')
  try {
    return { jsonrpc: '2.0', id, result: methods[method]!(ledger, (params ?? []) as unknown[]) }
  } catch (error) {
    if (error instanceof RpcError) return failure(id, error.code, error.message, error.data)
    return failure(id, codes.internal, `Internal error: ${(error as Error).message}`)
  }
}
