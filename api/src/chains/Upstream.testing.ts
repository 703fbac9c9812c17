/**
 * A stand-in for a misbehaving upstream (a node or an Esplora server) on loopback: busy, answering
 * garbage, or never answering. For the api's 502/503 tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function start(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number; stop(): Promise<void> }> {
  let requests = 0
  const server = createServer((req, res) => {
    requests++
    answer(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** HTTP `status` with `body` (JSON when not a string). */
export const answering = (status: number, body: unknown) => (_: IncomingMessage, res: ServerResponse) =>
  void res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body))
