/**
 * What the devnet's small web apps (the WalletConnect test wallet page, the sandbox onramp) share:
 * errors with a status, a bounded JSON body, loopback checks against DNS rebinding, and their answers'
 * security headers, and listening on loopback only. `import * as HttpServer from './httpServer.js'`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export type Body = Record<string, unknown>

/**
 * The body as a JSON object (an empty body is `{}`), at most `maxBytes`. Requiring application/json
 * also keeps other sites out: a cross-origin fetch with that type needs a CORS preflight, which these
 * servers never grant.
 */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<Body> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
    throw new HttpError(415, 'Send a JSON body with content-type: application/json')
  let body: unknown
  try {
    body = JSON.parse((await readText(req, maxBytes)) || '{}')
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'The body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'The body must be a JSON object')
  return body as Body
}

/** The body as UTF-8 text, at most `maxBytes`: 413 beyond, before it is all read when the length says so. */
export function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = new HttpError(413, `The body must be under ${maxBytes} bytes`)
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) reject(tooLarge)
      else chunks.push(chunk)
    })
    req.on('error', reject)
    req.on('end', () => {
      if (size <= maxBytes) resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}

/** A host name or address on loopback, to listen on. */
export const isLoopback = (host: string) => /^(127(\.\d{1,3}){3}|::1|localhost)$/i.test(host)
/** A Host header naming loopback: a page on another name that resolves to loopback (DNS rebinding) is refused. */
export const isLoopbackHost = (header: string | undefined) => header !== undefined && /^(127(\.\d{1,3}){3}|localhost|\[::1\])(:\d{1,5})?$/i.test(header)

export const securityHeaders = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' }

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { ...securityHeaders, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
}

/**
 * Serves `handle` on a loopback host only (`name` says who refused another). `stop` drops every
 * connection, idle or kept alive by a polling page, then waits for `finish` (work under way, such as a
 * delivery that must not be left half-told). Port 0 picks a free port; `url` says which.
 */
export function listenLoopback(options: {
  name: string
  port: number
  host?: string | undefined
  handle(req: IncomingMessage, res: ServerResponse): void
  finish(): Promise<unknown>
}): Promise<{ url: string; stop(): Promise<void> }> {
  const { name, port, host = '127.0.0.1', handle, finish } = options
  if (!isLoopback(host)) return Promise.reject(new Error(`The ${name} listens on loopback only, not ${host}`))
  const server = createServer(handle)
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const bound = (server.address() as AddressInfo).port
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        async stop() {
          const closed = new Promise((done) => server.close(done))
          server.closeAllConnections()
          await Promise.all([closed, finish()])
        },
      })
    })
  })
}
