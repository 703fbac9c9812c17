import { describe, expect, test } from 'vitest'
import * as App from '../app.js'
import type { Rpc } from '../rpc.js'
import { projectId, testConfig, testDeps } from '../testing.js'

const token = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', name: 'Doorway USD', symbol: 'DUSD', decimals: 6 }
const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const eth = 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const dusd = `eip155:31337:${token.address}`

function setup(tokens = [token]) {
  const rpc: Rpc = async (_, method) => (method === 'eth_gasPrice' ? '0x3b9aca00' : null)
  const { deps, calls } = testDeps(testConfig({ 'eip155:31337': 'http://127.0.0.1:1' }, { 'eip155:31337': tokens }), { rpc })
  const app = App.create(deps)
  const get = async (path: string, query: Record<string, string>) => {
    const res = await app.request(`${path}?${new URLSearchParams({ projectId, ...query })}`)
    return { status: res.status, body: await res.json() }
  }
  const post = async (path: string, body: unknown, query: Record<string, string> = {}) => {
    const res = await app.request(`${path}?${new URLSearchParams(query)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  return { calls, get, post }
}

describe('GET /v1/convert/tokens', () => {
  test('behavior: the native currency and the configured tokens, as CAIP-10 ids', async () => {
    const { get } = setup()
    expect(await get('/v1/convert/tokens', { chainId: 'eip155:31337' })).toMatchInlineSnapshot(`
      {
        "body": {
          "tokens": [
            {
              "address": "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
              "decimals": 18,
              "eip2612": false,
              "logoUri": "http://api.test/public/getTokenImage/ETH",
              "name": "Ether",
              "symbol": "ETH",
            },
            {
              "address": "eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3",
              "decimals": 6,
              "eip2612": false,
              "logoUri": "http://api.test/public/getTokenImage/DUSD",
              "name": "Doorway USD",
              "symbol": "DUSD",
            },
          ],
        },
        "status": 200,
      }
    `)
  })

  test('behavior: an unsupported network is an empty list without a node call', async () => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/tokens', { chainId: 'eip155:1' })).toEqual({ status: 200, body: { tokens: [] } })
    expect(calls).toEqual([])
  })

  test('behavior: a token with 0 decimals is not listed (spec §9)', async () => {
    const whole = { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', name: 'Whole', symbol: 'WHL', decimals: 0 }
    const { get } = setup([token, whole])
    const { body } = await get('/v1/convert/tokens', { chainId: 'eip155:31337' })
    expect(body.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['ETH', 'DUSD'])
  })

  test.each([[{}], [{ chainId: '31337' }], [{ chainId: 'eip155:31337:0x1' }]])('param: chainId %o is 400', async (query) => {
    const { get } = setup()
    expect((await get('/v1/convert/tokens', query)).status).toBe(400)
  })
})

describe('GET /v1/convert/quotes', () => {
  const valid = { amount: '1000000', userAddress: user, from: dusd, to: eth, gasPrice: '1000000000' }

  test('behavior: no exchange yet, so no quotes', async () => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/quotes', valid)).toEqual({ status: 200, body: { quotes: [] } })
    expect(await get('/v1/convert/quotes', { ...valid, userAddress: `eip155:31337:${user}` })).toEqual({ status: 200, body: { quotes: [] } })
    expect(calls).toEqual([])
  })

  test.each([
    ['amount 0', { amount: '0' }, 'Invalid amount'],
    ['amount decimal', { amount: '1.5' }, 'Invalid amount'],
    ['amount negative', { amount: '-1' }, 'Invalid amount'],
    ['userAddress', { userAddress: '0x12' }, 'Invalid userAddress'],
    ['from not CAIP-10', { from: token.address }, 'Invalid from: Invalid CAIP-10 address'],
    ['to on another chain', { to: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' }, 'same network'],
    ['to equal to from', { to: dusd }, 'different tokens'],
    ['a solana token', { from: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112' }, 'eip155'],
    ['gasPrice', { gasPrice: 'fast' }, 'Invalid gasPrice'],
  ])('param: %s is 400', async (_, change, message) => {
    const { get } = setup()
    const res = await get('/v1/convert/quotes', { ...valid, ...change })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(message)
  })
})

describe('GET /v1/convert/allowance', () => {
  test('behavior: allowance 0 until the exchange exists; params checked', async () => {
    const { get } = setup()
    expect(await get('/v1/convert/allowance', { tokenAddress: dusd, userAddress: user })).toEqual({ status: 200, body: { allowance: '0' } })
    expect(await get('/v1/convert/allowance', { tokenAddress: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', userAddress: user })).toEqual({ status: 200, body: { allowance: '0' } })
    expect((await get('/v1/convert/allowance', { tokenAddress: 'x', userAddress: user })).status).toBe(400)
    expect((await get('/v1/convert/allowance', { tokenAddress: dusd })).status).toBe(400)
  })
})

describe('GET /v1/convert/gas-price', () => {
  test('behavior: the node’s gas price, with faster tiers above it', async () => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/gas-price', { chainId: 'eip155:31337' })).toEqual({
      status: 200,
      body: { standard: '1000000000', fast: '1100000000', instant: '1250000000' },
    })
    expect(calls).toEqual([{ chainId: 'eip155:31337', method: 'eth_gasPrice' }])
  })

  test('error: an unsupported network is 400 with the spec’s message, without a node call', async () => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/gas-price', { chainId: 'eip155:10' })).toEqual({ status: 400, body: { message: 'Network not supported for Gas Price' } })
    expect(calls).toEqual([])
  })
})

describe('POST /v1/convert/build-transaction', () => {
  const body = { amount: '1000000', eip155: { slippage: '1' }, projectId, from: dusd, to: eth, userAddress: `eip155:31337:${user}`, disableEstimate: true }

  test('behavior: { tx: null } until swaps land; projectId from the body or the query', async () => {
    const { post } = setup()
    expect(await post('/v1/convert/build-transaction', body)).toEqual({ status: 200, body: { tx: null } })
    const { projectId: _, ...rest } = body
    expect(await post('/v1/convert/build-transaction', { ...rest, eip155: { slippage: 0.5 } }, { projectId })).toEqual({ status: 200, body: { tx: null } })
  })

  test.each([
    ['no projectId', { projectId: undefined }, 400],
    ['an unknown projectId', { projectId: 'other' }, 403],
    ['no slippage', { eip155: undefined }, 400],
    ['slippage 0', { eip155: { slippage: '0' } }, 400],
    ['slippage 101', { eip155: { slippage: 101 } }, 400],
    ['a bad amount', { amount: 5 }, 400],
    ['a bad userAddress', { userAddress: 'me' }, 400],
    ['a bad disableEstimate', { disableEstimate: 'yes' }, 400],
  ])('param: %s', async (_, change, status) => {
    const { post } = setup()
    expect((await post('/v1/convert/build-transaction', { ...body, ...change })).status).toBe(status)
  })

  test('param: a non-JSON body is 400', async () => {
    const { post } = setup()
    expect((await post('/v1/convert/build-transaction', 'text')).status).toBe(400)
  })
})

describe('GET /v1/convert/build-approve', () => {
  test('behavior: { tx: null } until swaps land; params checked', async () => {
    const { get } = setup()
    expect(await get('/v1/convert/build-approve', { userAddress: user, from: dusd, to: eth, amount: '5' })).toEqual({ status: 200, body: { tx: null } })
    expect((await get('/v1/convert/build-approve', { userAddress: user, from: dusd, to: eth, amount: 'x' })).status).toBe(400)
    expect((await get('/v1/convert/build-approve', { userAddress: user, from: dusd })).status).toBe(400)
  })
})
