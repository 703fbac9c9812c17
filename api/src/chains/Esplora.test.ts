import { describe, expect, test } from 'vitest'
import type { Config } from '../config.js'
import { HttpError } from '../http.js'
import * as Rpc from '../rpc.js'
import * as Esplora from './Esplora.js'
import * as Upstream from './Upstream.testing.js'

const bitcoin = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const solana = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const currency = { name: 'X', symbol: 'X', decimals: 8 }
const configFor = (url: string): Pick<Config, 'networks'> => ({
  networks: {
    [bitcoin]: { kind: 'bip122', esploraUrl: `${url}/api/`, name: 'Bitcoin', nativeCurrency: currency, testnet: true, tokens: [] },
    [solana]: { kind: 'solana', rpcUrl: url, name: 'Solana', nativeCurrency: { ...currency, decimals: 9 }, testnet: true, tokens: [] },
  },
})

/** An upstream that takes requests and never answers; `arrived` resolves at the first. */
async function hanging() {
  let arrived!: () => void
  const first = new Promise<void>((resolve) => (arrived = resolve))
  const server = await Upstream.start(() => arrived())
  return { ...server, first }
}

describe('create', () => {
  test('behavior: GET {esploraUrl}{path}, the base URL’s trailing slash dropped, the answer as JSON', async () => {
    const seen: string[] = []
    const server = await Upstream.start((req, res) => {
      seen.push(req.url!)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    try {
      expect(await Esplora.create(configFor(server.url))(bitcoin, '/address/x')).toEqual({ ok: true })
      expect(seen).toEqual(['/api/address/x'])
    } finally {
      await server.stop()
    }
  })

  test('behavior: the caller’s cancellation ends a request the server never answers', async () => {
    const server = await hanging()
    try {
      const controller = new AbortController()
      const asked = Esplora.create(configFor(server.url))(bitcoin, '/address/x', controller.signal)
      await server.first
      controller.abort()
      await expect(asked).rejects.toEqual(new HttpError(502, `The Esplora server for ${bitcoin} did not answer`))
    } finally {
      await server.stop()
    }
  })

  test('error: a network that is not a Bitcoin one has no Esplora server (the api’s own bug: no HTTP status)', async () => {
    await expect(Esplora.create(configFor('http://127.0.0.1:1'))(solana, '/x')).rejects.not.toBeInstanceOf(HttpError)
  })
})

describe('Rpc.create', () => {
  test('behavior: the caller’s cancellation ends a JSON-RPC request the node never answers', async () => {
    const server = await hanging()
    try {
      const controller = new AbortController()
      const asked = Rpc.create(configFor(server.url))(solana, 'getBalance', [], controller.signal)
      await server.first
      controller.abort()
      await expect(asked).rejects.toEqual(new HttpError(502, `The node for ${solana} did not answer`))
    } finally {
      await server.stop()
    }
  })

  test('error: a Bitcoin network has no JSON-RPC node (the api’s own bug: no HTTP status)', async () => {
    await expect(Rpc.create(configFor('http://127.0.0.1:1'))(bitcoin, 'getbalance')).rejects.not.toBeInstanceOf(HttpError)
  })
})
