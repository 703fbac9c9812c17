import * as S from '@doorway/shared/Schema'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RpcError, RpcUnavailableError } from './SolanaErrors.js'
import * as SolanaRpc from './SolanaRpc.js'
import { closedUrl, startChain } from './solana.testing.js'

let chain: Awaited<ReturnType<typeof startChain>>
beforeAll(async () => {
  chain = await startChain()
})
afterAll(() => chain.chain.stop())

/** A loopback server that answers each request as `answer` says (or never, when it returns undefined). */
async function fakeNode(answer: (body: { id: string }) => { status: number; body: string } | undefined): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => {
      const reply = answer(JSON.parse(text) as { id: string })
      if (reply) res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}
const servers: Server[] = []
afterAll(() => {
  for (const server of servers) server.closeAllConnections()
  return Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})
async function node(answer: Parameters<typeof fakeNode>[0]) {
  const fake = await fakeNode(answer)
  servers.push(fake.server)
  return fake.url
}

const isString = S.string()

describe('create', () => {
  test('behavior: calls a method and checks its result', async () => {
    await expect(chain.rpc.call('getHealth', [], isString)).resolves.toBe('ok')
  })

  test('error: the node error object keeps its code and message', async () => {
    const error = await chain.rpc.call('getBalance', ['not an address'], S.unknown).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    expect(error).toMatchObject({ rpcCode: -32602, message: expect.stringMatching(/^Invalid params/) as unknown })
  })

  test('error: a port nothing listens on is a network failure', async () => {
    const rpc = SolanaRpc.create(await closedUrl())
    await expect(rpc.call('getHealth', [], isString)).rejects.toMatchObject({
      name: 'SolanaRpcUnavailableError',
      reason: 'network',
      method: 'getHealth',
      message: 'The Solana network did not answer. Check your connection and try again.',
    })
  })

  test('error: a node that does not answer in time', async () => {
    const rpc = SolanaRpc.create(await node(() => undefined), { timeoutMs: 50 })
    await expect(rpc.call('getHealth', [], isString)).rejects.toMatchObject({ reason: 'timeout' })
  })

  test('behavior: the caller cancels with its own reason, not a failure of the node', async () => {
    const rpc = SolanaRpc.create(await node(() => undefined))
    const controller = new AbortController()
    const call = rpc.call('getHealth', [], isString, controller.signal)
    controller.abort(new Error('left the view'))
    await expect(call).rejects.toThrowError('left the view')
  })

  test('behavior: an already cancelled call asks nothing', async () => {
    let asked = 0
    const rpc = SolanaRpc.create(await node(() => void asked++))
    await expect(rpc.call('getHealth', [], isString, AbortSignal.abort(new Error('gone')))).rejects.toThrowError('gone')
    expect(asked).toBe(0)
  })

  test.each([
    ['an HTTP error without a JSON-RPC body', 'http', () => ({ status: 502, body: 'Bad Gateway' })],
    ['an answer to another request', 'invalid', () => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 'other', result: 'ok' }) })],
    ['a result the guard refuses', 'invalid', ({ id }: { id: string }) => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: 42 }) })],
    ['a body that is not JSON', 'invalid', () => ({ status: 200, body: '<html>' })],
  ] as const)('error: %s', async (_, reason, answer) => {
    const rpc = SolanaRpc.create(await node(answer))
    const error = await rpc.call('getHealth', [], isString).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcUnavailableError)
    expect(error).toMatchObject({ reason })
  })

  test('behavior: an HTTP error carrying a JSON-RPC error is that error', async () => {
    const rpc = SolanaRpc.create(await node(({ id }) => ({ status: 429, body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: 429, message: 'Too many requests' } }) })))
    await expect(rpc.call('getHealth', [], isString)).rejects.toMatchObject({ name: 'SolanaRpcError', rpcCode: 429, message: 'Too many requests' })
  })

  test('behavior: each request has its own random 128-bit id', async () => {
    const ids: string[] = []
    const rpc = SolanaRpc.create(await node(({ id }) => (ids.push(id), { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: 'ok' }) })))
    await Promise.all([rpc.call('getHealth', [], isString), rpc.call('getHealth', [], isString)])
    expect(ids).toHaveLength(2)
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(ids[0]).not.toBe(ids[1])
  })

  test.each([['ftp://127.0.0.1/'], ['127.0.0.1:8899']])('param: refuses the URL %s', (url) => {
    expect(() => SolanaRpc.create(url)).toThrowError(TypeError)
  })

  test.each([[0], [-1], [Number.NaN]])('param: refuses the timeout %s', (timeoutMs) => {
    expect(() => SolanaRpc.create('http://127.0.0.1/', { timeoutMs })).toThrowError(RangeError)
  })
})
