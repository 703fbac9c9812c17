import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChainId } from '@doorway/shared/Caip'
import { type Address, type Hex, createPublicClient, createWalletClient, decodeFunctionData, erc20Abi, http, maxUint256, parseAbi, parseEther, parseUnits } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from '@doorway/devnet/anvil'
import * as Exchange from '@doorway/devnet/exchange'
import * as Tokens from '@doorway/devnet/tokens'
import * as App from '../app.js'
import type { Config } from '../config.js'
import * as RpcClient from '../rpc.js'
import type { Rpc } from '../rpc.js'
import { projectId, testConfig, testDeps } from '../testing.js'
import * as Convert from './convert.js'

// One chain, on a port apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chain = { id: 31337, port: 18651, rpcUrl: 'http://127.0.0.1:18651' }
const local: ChainId = 'eip155:31337'
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-convert-'))
const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })
const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function approve(address spender, uint256 value) returns (bool)',
])

const eth = `${local}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`
const now = 1_700_000_000_000
// anvil's dev accounts (its node signs for them): 1–3 hold the devnet tokens, 5 and 6 only ETH
const account = (i: number) => mnemonicToAccount(Tokens.mnemonic, { addressIndex: i }).address

let anvil: Anvil.start.ReturnType
let tokens: Tokens.Token[]
let exchange: Exchange.Exchange
let config: Config
beforeAll(async () => {
  anvil = await Anvil.start({ chains: [chain] })
  const manifest = join(dir, 'devnet.json')
  const deployed = await Tokens.deploy({ chains: [chain], manifest })
  tokens = deployed.tokens[local]!
  exchange = (await Exchange.deploy({ chains: [chain], tokens: deployed.tokens, manifest })).exchange[local]!
  // 31338 is served but has no exchange; its node is never asked
  config = testConfig({ [local]: chain.rpcUrl, 'eip155:31338': 'http://127.0.0.1:1' }, deployed.tokens, { [local]: exchange })
}, 120_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const token = (symbol: string) => tokens.find((t) => t.symbol === symbol)!
const id = (symbol: string) => (symbol === 'ETH' ? eth : `${local}:${token(symbol).address}`)
const onChain = (symbol: string): Address => (symbol === 'ETH' ? exchange.weth : token(symbol).address)

/** The anvil chain's RPC with a fixed gas price, for answers that snapshot whole. */
const fixedGasPrice: Rpc = (chainId, method, params) => (method === 'eth_gasPrice' ? Promise.resolve('0x3b9aca00') : RpcClient.create(config)(chainId, method, params))

/** An app over the anvil chain (or the given config / RPC), with a fixed clock and a counting RPC. */
function setup(options: { config?: Config; rpc?: Rpc; now?: number } = {}) {
  const { deps, calls } = testDeps(options.config ?? config, { now: () => options.now ?? now, ...(options.rpc && { rpc: options.rpc }) })
  const app = App.create(deps)
  const get = async (path: string, query: Record<string, string | undefined>) => {
    const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>
    const res = await app.request(`${path}?${new URLSearchParams({ projectId, ...defined })}`)
    return { status: res.status, body: await res.json() }
  }
  const post = async (path: string, body: unknown, query: Record<string, string> = {}) => {
    const res = await app.request(`${path}?${new URLSearchParams(query)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: res.status, body: await res.json() }
  }
  return { calls, get, post }
}

const amountsOut = (amount: bigint, path: Address[]) => client.readContract({ address: exchange.router, abi: routerAbi, functionName: 'getAmountsOut', args: [amount, path] })
const balanceOf = (symbol: string, owner: Address) =>
  symbol === 'ETH' ? client.getBalance({ address: owner }) : client.readContract({ address: token(symbol).address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

type Tx = { from: Address; to: Address; data: Hex; amount?: string; value?: string; eip155: { gas: string; gasPrice: string } }

/** Sends a built transaction as the wallet would: its gas, its price, its value. */
async function execute(tx: Tx) {
  const wallet = createWalletClient({ transport: http(chain.rpcUrl), account: tx.from })
  const hash = await wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.amount ?? tx.value ?? '0'),
    gas: BigInt(tx.eip155.gas),
    gasPrice: BigInt(tx.eip155.gasPrice),
    chain: null,
  })
  return client.waitForTransactionReceipt({ hash })
}

/** A swap built for now (the router's deadline is read from the chain's clock). */
const build = (body: Record<string, unknown>) => setup({ now: Date.now() }).post('/v1/convert/build-transaction', { projectId, eip155: { slippage: '1' }, ...body })

// Every error answer is one plain message: no stack, no internals.
function expectError(answer: { status: number; body: unknown }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status)
  expect(Object.keys(answer.body as object)).toEqual(['message'])
  expect((answer.body as { message: string }).message).toMatch(message)
}

describe('GET /v1/convert/tokens', () => {
  test('behavior: the native currency and the configured tokens that have a pool (DUSDT has none)', async () => {
    const { get } = setup()
    const { status, body } = await get('/v1/convert/tokens', { chainId: local })
    expect(status).toBe(200)
    expect(body.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['ETH', 'DUSD', 'DWT'])
    expect(body.tokens.slice(0, 2)).toEqual([
      { name: 'Ether', symbol: 'ETH', address: eth, decimals: 18, logoUri: 'http://api.test/public/getTokenImage/ETH', eip2612: false },
      { name: 'Doorway USD', symbol: 'DUSD', address: id('DUSD'), decimals: 6, logoUri: 'http://api.test/public/getTokenImage/DUSD', eip2612: false },
    ])
  })

  test('behavior: a token with 0 decimals is not listed (spec §9)', async () => {
    // DWT's pools, configured as a token of 0 decimals
    const whole = { address: token('DWT').address, name: 'Whole', symbol: 'WHL', decimals: 0 }
    const withWhole = testConfig({ [local]: chain.rpcUrl }, { [local]: [token('DUSD'), whole] }, { [local]: exchange })
    const { body } = await setup({ config: withWhole }).get('/v1/convert/tokens', { chainId: local })
    expect(body.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['ETH', 'DUSD'])
  })

  test.each([
    ['an unsupported network', 'eip155:1'],
    ['a network without an exchange', 'eip155:31338'],
    ['a non-EVM network', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
  ])('behavior: %s is an empty list without a node call', async (_, chainId) => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/tokens', { chainId })).toEqual({ status: 200, body: { tokens: [] } })
    expect(calls).toEqual([])
  })

  test.each([[{}], [{ chainId: '31337' }], [{ chainId: 'eip155:31337:0x1' }]])('param: chainId %o is 400', async (query) => {
    const { get } = setup()
    expect((await get('/v1/convert/tokens', query)).status).toBe(400)
  })
})

describe('GET /v1/convert/quotes', () => {
  const quote = (from: string, to: string, amount: bigint, extra: Record<string, string> = {}) =>
    setup().get('/v1/convert/quotes', { amount: amount.toString(), userAddress: account(5), from: id(from), to: id(to), ...extra })

  test('behavior: 1 ETH to DUSD, the router’s own getAmountsOut, with fee, price impact and network fee', async () => {
    const [, expected] = await amountsOut(parseEther('1'), [exchange.weth, onChain('DUSD')])
    const answer = await quote('ETH', 'DUSD', parseEther('1'), { gasPrice: '1000000000' })
    expect(answer.body.quotes[0].toAmount).toBe(expected!.toString())
    // 1 ETH into 250 ETH / 750,000 DUSD: 2,979.12 DUSD, 0.4 % below the mid price beyond the 0.3 % fee
    expect(answer).toMatchInlineSnapshot(`
      {
        "body": {
          "quotes": [
            {
              "fee": {
                "amount": "3000000000000000",
                "percent": 0.3,
                "token": "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
              },
              "fromAccount": "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
              "fromAmount": "1000000000000000000",
              "id": null,
              "networkFee": {
                "amount": "220000000000000",
                "gas": "220000",
                "gasPrice": "1000000000",
              },
              "priceImpact": 0.4,
              "route": [
                "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                "eip155:31337:0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35",
              ],
              "toAccount": "eip155:31337:0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35",
              "toAmount": "2979119272",
            },
          ],
        },
        "status": 200,
      }
    `)
  })

  test('behavior: a small DUSD to DWT quote takes the direct pool', async () => {
    const amount = parseUnits('10', 6)
    const [, direct] = await amountsOut(amount, [onChain('DUSD'), onChain('DWT')])
    const [, , through] = await amountsOut(amount, [onChain('DUSD'), exchange.weth, onChain('DWT')])
    const { body } = await quote('DUSD', 'DWT', amount)
    expect(direct! > through!).toBe(true)
    expect(body.quotes[0]).toMatchObject({ toAmount: direct!.toString(), route: [id('DUSD'), id('DWT')], fee: { percent: 0.3, amount: '30000' } })
  })

  test('behavior: a large DUSD to DWT quote goes through WETH, where the pools are deeper', async () => {
    const amount = parseUnits('10000', 6)
    const [, direct] = await amountsOut(amount, [onChain('DUSD'), onChain('DWT')])
    const [, , through] = await amountsOut(amount, [onChain('DUSD'), exchange.weth, onChain('DWT')])
    const { body } = await quote('DUSD', 'DWT', amount)
    expect(through! > direct!).toBe(true)
    expect(body.quotes[0]).toMatchObject({
      toAmount: through!.toString(),
      route: [id('DUSD'), `${local}:${exchange.weth}`, id('DWT')],
      // 0.3 % in each of two pools
      fee: { percent: 0.6, amount: (amount - (((amount * 997n) / 1000n) * 997n) / 1000n).toString(), token: id('DUSD') },
    })
  })

  test('behavior: without a gasPrice the node’s is used for the network fee', async () => {
    const { body } = await quote('DWT', 'ETH', parseUnits('100', 18))
    const gasPrice = await client.getGasPrice()
    expect(body.quotes[0].networkFee).toEqual({ gas: '220000', gasPrice: gasPrice.toString(), amount: (220_000n * gasPrice).toString() })
  })

  test('error: a token without a pool is 400 No liquidity for this pair', async () => {
    expectError(await quote('DUSDT', 'ETH', 1_000_000n), 400, 'No liquidity for this pair')
    expectError(await quote('DWT', 'DUSDT', 1_000_000n), 400, 'No liquidity for this pair')
  })

  test.each([
    ['more ETH than the pool holds', 'ETH', 'DUSD', parseEther('251')],
    ['an amount the router overflows on', 'ETH', 'DUSD', 10n ** 70n],
    ['more DUSD than either route can take', 'DUSD', 'DWT', parseUnits('800000', 6)],
  ])('error: %s is 400 Amount exceeds the pool’s liquidity', async (_, from, to, amount) => {
    expectError(await quote(from, to, amount), 400, "Amount exceeds the pool's liquidity")
  })

  test('error: an amount that would receive nothing is 400', async () => {
    expectError(await quote('DWT', 'DUSD', 1n), 400, 'Amount too small to swap')
  })

  test('behavior: an unsupported network is an empty list without a node call', async () => {
    const { get, calls } = setup()
    const from = 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    const to = 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
    expect(await get('/v1/convert/quotes', { amount: '1000', userAddress: account(5), from, to })).toEqual({ status: 200, body: { quotes: [] } })
    expect(calls).toEqual([])
  })

  test('error: a network without an exchange is 400 Network not supported for Swaps, without a node call', async () => {
    const { get, calls } = setup()
    const from = 'eip155:31338:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
    const to = `eip155:31338:${token('DUSD').address}`
    expect(await get('/v1/convert/quotes', { amount: '1000', userAddress: account(5), from, to })).toEqual({ status: 400, body: { message: 'Network not supported for Swaps' } })
    expect(calls).toEqual([])
  })

  test('error: a node that does not answer is 502, and an exchange without code is 502', async () => {
    const down = testConfig({ [local]: 'http://127.0.0.1:1' }, { [local]: tokens }, { [local]: exchange })
    expectError(await setup({ config: down }).get('/v1/convert/quotes', { amount: '1000', userAddress: account(5), from: eth, to: id('DUSD') }), 502, /did not answer/)
    const nowhere = { ...exchange, factory: '0x0000000000000000000000000000000000000bad' }
    const misconfigured = testConfig({ [local]: chain.rpcUrl }, { [local]: tokens }, { [local]: nowhere })
    expectError(await setup({ config: misconfigured }).get('/v1/convert/quotes', { amount: '1000', userAddress: account(5), from: eth, to: id('DUSD') }), 502, /no answer for getPair/)
  })

  const valid = () => ({ amount: '1000000', userAddress: account(5), from: id('DUSD'), to: eth, gasPrice: '1000000000' })
  test.each([
    ['amount 0', { amount: '0' }, 'Invalid amount'],
    ['amount decimal', { amount: '1.5' }, 'Invalid amount'],
    ['amount negative', { amount: '-1' }, 'Invalid amount'],
    ['amount above uint256', { amount: '9'.repeat(78) }, 'Invalid amount'],
    ['userAddress', { userAddress: '0x12' }, 'Invalid userAddress'],
    ['from not CAIP-10', { from: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }, 'Invalid from: Invalid CAIP-10 address'],
    ['to on another chain', { to: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' }, 'same network'],
    ['to equal to from', { to: 'from' }, 'different tokens'],
    ['a solana token', { from: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112' }, 'eip155'],
    ['gasPrice', { gasPrice: 'fast' }, 'Invalid gasPrice'],
    ['ETH to its own WETH', { from: eth, to: 'weth' }, 'same token once the native currency is wrapped'],
  ])('param: %s is 400', async (_, change, message) => {
    const { get } = setup()
    const query = { ...valid(), ...change }
    if (query.to === 'from') query.to = query.from
    if (query.to === 'weth') query.to = `${local}:${exchange.weth}`
    expectError(await get('/v1/convert/quotes', query), 400, message)
  })
})

describe('GET /v1/convert/allowance', () => {
  test('behavior: a token’s allowance to the router; the native currency needs none', async () => {
    const { get } = setup()
    const owner = account(3)
    expect(await get('/v1/convert/allowance', { tokenAddress: id('DWT'), userAddress: owner })).toEqual({ status: 200, body: { allowance: '0' } })
    const wallet = createWalletClient({ transport: http(chain.rpcUrl), account: owner })
    const hash = await wallet.writeContract({ address: onChain('DWT'), abi: routerAbi, functionName: 'approve', args: [exchange.router, 12345n], chain: null })
    await client.waitForTransactionReceipt({ hash })
    expect(await get('/v1/convert/allowance', { tokenAddress: id('DWT'), userAddress: `${local}:${owner}` })).toEqual({ status: 200, body: { allowance: '12345' } })
    expect(await get('/v1/convert/allowance', { tokenAddress: eth, userAddress: owner })).toEqual({ status: 200, body: { allowance: maxUint256.toString() } })
  })

  test.each([
    ['an unsupported network', 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['a network without an exchange', 'eip155:31338:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
  ])('behavior: %s is allowance 0 without a node call', async (_, tokenAddress) => {
    const { get, calls } = setup()
    expect(await get('/v1/convert/allowance', { tokenAddress, userAddress: account(5) })).toEqual({ status: 200, body: { allowance: '0' } })
    expect(calls).toEqual([])
  })

  test.each([
    ['a bad tokenAddress', { tokenAddress: 'x' }],
    ['no userAddress', { userAddress: undefined }],
    ['a bad userAddress', { userAddress: 'me' }],
  ])('param: %s is 400', async (_, change) => {
    const { get } = setup()
    expect((await get('/v1/convert/allowance', { tokenAddress: id('DUSD'), userAddress: account(5), ...change })).status).toBe(400)
  })
})

describe('GET /v1/convert/gas-price', () => {
  const rpc: Rpc = async (_, method) => (method === 'eth_gasPrice' ? '0x3b9aca00' : null)

  test('behavior: the node’s gas price, with faster tiers above it', async () => {
    const { get, calls } = setup({ rpc })
    expect(await get('/v1/convert/gas-price', { chainId: local })).toEqual({
      status: 200,
      body: { standard: '1000000000', fast: '1100000000', instant: '1250000000' },
    })
    expect(calls).toEqual([{ chainId: local, method: 'eth_gasPrice' }])
  })

  test('error: an unsupported network is 400 with the spec’s message, without a node call', async () => {
    const { get, calls } = setup({ rpc })
    expect(await get('/v1/convert/gas-price', { chainId: 'eip155:10' })).toEqual({ status: 400, body: { message: 'Network not supported for Gas Price' } })
    expect(calls).toEqual([])
  })
})

describe('POST /v1/convert/build-transaction', () => {
  test('behavior: ETH to DUSD calls swapExactETHForTokens with the slippage bound and a 20-minute deadline', async () => {
    const user = account(6)
    const answer = await setup({ rpc: fixedGasPrice }).post('/v1/convert/build-transaction', {
      amount: parseEther('1').toString(),
      eip155: { slippage: '1' },
      projectId,
      from: eth,
      to: id('DUSD'),
      userAddress: `${local}:${user}`,
      disableEstimate: true,
    })
    const [, toAmount] = await amountsOut(parseEther('1'), [exchange.weth, onChain('DUSD')])
    const { functionName, args } = decodeFunctionData({ abi: routerAbi, data: answer.body.tx.data })
    expect(functionName).toBe('swapExactETHForTokens')
    expect(args).toEqual([(toAmount! * 99n) / 100n, [exchange.weth, onChain('DUSD')], user, BigInt(now / 1000 + 20 * 60)])
    expect(answer.body).toMatchObject({ toAmount: toAmount!.toString(), amountOutMin: ((toAmount! * 99n) / 100n).toString(), deadline: now / 1000 + 1200 })
    expect(answer).toMatchInlineSnapshot(`
      {
        "body": {
          "amountOutMin": "2949328079",
          "deadline": 1700001200,
          "toAmount": "2979119272",
          "tx": {
            "amount": "1000000000000000000",
            "data": "0x7ff36ab500000000000000000000000000000000000000000000000000000000afcb2ccf0000000000000000000000000000000000000000000000000000000000000080000000000000000000000000976ea74026e726554db657fa54763abd0c3a0aa9000000000000000000000000000000000000000000000000000000006553f5b00000000000000000000000000000000000000000000000000000000000000002000000000000000000000000ef11d1c2aa48826d4c41e54ab82d1ff5ad8a64ca000000000000000000000000700b6a60ce7eaaea56f065753d8dcb9653dbad35",
            "eip155": {
              "gas": "220000",
              "gasPrice": "1000000000",
            },
            "from": "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
            "to": "0x76ca03a67C049477FfB09694dFeF00416dB69746",
          },
        },
        "status": 200,
      }
    `)
  })

  test('behavior: ETH to DUSD executes on anvil and receives at least amountOutMin', async () => {
    const user = account(6)
    const { status, body } = await build({ amount: parseEther('2').toString(), from: eth, to: id('DUSD'), userAddress: user })
    expect(status).toBe(200)
    expect(body.tx).toMatchObject({ from: user, to: exchange.router, amount: parseEther('2').toString() })
    const before = await balanceOf('DUSD', user)
    expect((await execute(body.tx)).status).toBe('success')
    const received = (await balanceOf('DUSD', user)) - before
    expect(received >= BigInt(body.amountOutMin)).toBe(true)
    // nothing moved the pool between the build and the swap
    expect(received).toBe(BigInt(body.toAmount))
  })

  test('behavior: DUSD to DWT: the estimate falls back while the allowance is short; after build-approve it executes', async () => {
    const user = account(1)
    const amount = parseUnits('50', 6)
    const body = { amount: amount.toString(), from: id('DUSD'), to: id('DWT'), userAddress: user }
    const unapproved = await build(body)
    expect(unapproved.status).toBe(200)
    const { args } = decodeFunctionData({ abi: routerAbi, data: unapproved.body.tx.data })
    const hops = (args[2] as Address[]).length - 1
    expect(unapproved.body.tx.eip155.gas).toBe(Convert.fallbackSwapGas(hops).toString())
    const approve = await setup().get('/v1/convert/build-approve', { userAddress: user, from: id('DUSD'), to: id('DWT'), amount: amount.toString() })
    expect((await execute(approve.body.tx)).status).toBe('success')
    expect((await setup().get('/v1/convert/allowance', { tokenAddress: id('DUSD'), userAddress: user })).body).toEqual({ allowance: amount.toString() })
    const { body: built } = await build(body)
    // estimated now, with the price accumulators' margin
    expect(BigInt(built.tx.eip155.gas)).not.toBe(Convert.fallbackSwapGas(hops))
    const before = await balanceOf('DWT', user)
    expect((await execute(built.tx)).status).toBe('success')
    expect((await balanceOf('DWT', user)) - before >= BigInt(built.amountOutMin)).toBe(true)
    expect((await setup().get('/v1/convert/allowance', { tokenAddress: id('DUSD'), userAddress: user })).body).toEqual({ allowance: '0' })
  })

  test('behavior: DWT to ETH calls swapExactTokensForETH and pays at least amountOutMin in ETH', async () => {
    const user = account(2)
    const amount = parseUnits('1200', 18)
    const approve = await setup().get('/v1/convert/build-approve', { userAddress: user, from: id('DWT'), to: eth, amount: amount.toString() })
    await execute(approve.body.tx)
    // the fallback gas, as a wallet gets it when the estimate fails: it must be enough
    const { body } = await build({ amount: amount.toString(), from: id('DWT'), to: eth, userAddress: user, disableEstimate: true })
    expect(decodeFunctionData({ abi: routerAbi, data: body.tx.data }).functionName).toBe('swapExactTokensForETH')
    expect(body.tx.amount).toBe('0')
    const before = await balanceOf('ETH', user)
    const receipt = await execute(body.tx)
    expect(receipt.status).toBe('success')
    const received = (await balanceOf('ETH', user)) - before + receipt.gasUsed * receipt.effectiveGasPrice
    expect(received >= BigInt(body.amountOutMin)).toBe(true)
  })

  test('behavior: a swap through WETH executes with the fallback gas of two pools', async () => {
    const user = account(3)
    const amount = parseUnits('10000', 6)
    await execute((await setup().get('/v1/convert/build-approve', { userAddress: user, from: id('DUSD'), to: id('DWT') })).body.tx)
    const { body } = await build({ amount: amount.toString(), from: id('DUSD'), to: id('DWT'), userAddress: user, disableEstimate: true })
    expect(decodeFunctionData({ abi: routerAbi, data: body.tx.data }).args[2]).toEqual([onChain('DUSD'), exchange.weth, onChain('DWT')])
    expect(body.tx.eip155.gas).toBe(Convert.fallbackSwapGas(2).toString())
    const before = await balanceOf('DWT', user)
    expect((await execute(body.tx)).status).toBe('success')
    expect((await balanceOf('DWT', user)) - before).toBe(BigInt(body.toAmount))
  })

  test('behavior: a swap whose pool moved beyond its slippage reverts; one within it succeeds', async () => {
    const user = account(6)
    const swap = { amount: parseEther('1').toString(), from: eth, to: id('DUSD'), userAddress: user }
    const tight = await build({ ...swap, eip155: { slippage: '0.5' } })
    const loose = await build({ ...swap, eip155: { slippage: '20' } })
    // another trader buys DUSD with 10 ETH first: about 7.5 % less DUSD for the same ETH
    await Exchange.swapExact({ chain, from: 5, path: [exchange.weth, onChain('DUSD')], amountIn: parseEther('10'), exchange })
    expect((await execute(tight.body.tx)).status).toBe('reverted')
    const before = await balanceOf('DUSD', user)
    expect((await execute(loose.body.tx)).status).toBe('success')
    const received = (await balanceOf('DUSD', user)) - before
    expect(received >= BigInt(loose.body.amountOutMin)).toBe(true)
    expect(received < BigInt(loose.body.toAmount)).toBe(true)
  })

  test('behavior: with the accepted quote\'s toAmount the bound is what the person saw: built before the pool moves, the swap reverts; asked after, the build is refused with 409', async () => {
    const user = account(6)
    const swap = { amount: parseEther('1').toString(), from: eth, to: id('DUSD'), userAddress: user }
    const { body: quote } = await setup().get('/v1/convert/quotes', swap)
    const accepted = (quote as { quotes: { toAmount: string }[] }).quotes[0]!.toAmount
    const built = await build({ ...swap, toAmount: accepted })
    expect(built.body.amountOutMin).toBe(((BigInt(accepted) * 99n) / 100n).toString())
    await Exchange.swapExact({ chain, from: 5, path: [exchange.weth, onChain('DUSD')], amountIn: parseEther('10'), exchange })
    const before = await balanceOf('DUSD', user)
    expect((await execute(built.body.tx)).status).toBe('reverted')
    expect(await balanceOf('DUSD', user)).toBe(before)
    // Without the accepted amount the bound would follow the new, worse price; with it, nothing is built.
    expect(await build({ ...swap, toAmount: accepted })).toEqual({ status: 409, body: { message: 'The price moved beyond the slippage since the quote' } })
  })

  test('behavior: a swap past its deadline reverts', async () => {
    const user = account(6)
    const { body } = await setup({ now: Date.now() - 21 * 60 * 1000 }).post('/v1/convert/build-transaction', {
      amount: '1000000000000000',
      eip155: { slippage: 1 },
      projectId,
      from: eth,
      to: id('DUSD'),
      userAddress: user,
      disableEstimate: true,
    })
    expect((await execute(body.tx)).status).toBe('reverted')
  })

  test('behavior: an unsupported network is { tx: null } without a node call; one without an exchange is 400', async () => {
    const { post, calls } = setup()
    const base = { amount: '1000', eip155: { slippage: 1 }, projectId, userAddress: account(5) }
    const mainnet = { from: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', to: 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' }
    expect(await post('/v1/convert/build-transaction', { ...base, ...mainnet })).toEqual({ status: 200, body: { tx: null } })
    const noExchange = { from: 'eip155:31338:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', to: `eip155:31338:${token('DUSD').address}` }
    expect(await post('/v1/convert/build-transaction', { ...base, ...noExchange })).toEqual({ status: 400, body: { message: 'Network not supported for Swaps' } })
    expect(calls).toEqual([])
  })

  test('error: no pool, and more than the pool holds, are 400', async () => {
    const base = { eip155: { slippage: 1 }, userAddress: account(5) }
    expectError(await build({ ...base, amount: '1000', from: id('DUSDT'), to: eth }), 400, 'No liquidity for this pair')
    expectError(await build({ ...base, amount: parseEther('10000').toString(), from: eth, to: id('DUSD') }), 400, "Amount exceeds the pool's liquidity")
  })

  const body = () => ({ amount: '1000000', eip155: { slippage: '1' }, projectId, from: id('DUSD'), to: eth, userAddress: `${local}:${account(5)}`, disableEstimate: true })

  test('param: projectId from the body or the query', async () => {
    const { post } = setup()
    expect((await post('/v1/convert/build-transaction', body())).status).toBe(200)
    const { projectId: _, ...rest } = body()
    expect((await post('/v1/convert/build-transaction', { ...rest, eip155: { slippage: 0.5 } }, { projectId })).status).toBe(200)
  })

  test.each([
    ['no projectId', { projectId: undefined }, 400],
    ['an unknown projectId', { projectId: 'other' }, 403],
    ['no slippage', { eip155: undefined }, 400],
    ['slippage 0', { eip155: { slippage: '0' } }, 400],
    ['slippage 101', { eip155: { slippage: 101 } }, 400],
    ['slippage as text', { eip155: { slippage: 'one' } }, 400],
    ['a bad amount', { amount: 5 }, 400],
    ['an amount above uint256', { amount: `1${'0'.repeat(77)}` }, 400],
    ['a bad userAddress', { userAddress: 'me' }, 400],
    ['a bad disableEstimate', { disableEstimate: 'yes' }, 400],
    ['a bad toAmount', { toAmount: '-1' }, 400],
    ['a zero toAmount', { toAmount: '0' }, 400],
    ['from a solana token', { from: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112' }, 400],
  ])('param: %s', async (_, change, status) => {
    const { post } = setup()
    expect((await post('/v1/convert/build-transaction', { ...body(), ...change })).status).toBe(status)
  })

  test('param: a non-JSON body is 400', async () => {
    const { post } = setup()
    expect((await post('/v1/convert/build-transaction', 'text')).status).toBe(400)
  })
})

describe('GET /v1/convert/build-approve', () => {
  test('behavior: approve(router, amount) on the from token, estimated', async () => {
    const answer = await setup({ rpc: fixedGasPrice }).get('/v1/convert/build-approve', { userAddress: account(5), from: id('DUSD'), to: eth, amount: '5000000' })
    const { functionName, args } = decodeFunctionData({ abi: routerAbi, data: answer.body.tx.data })
    expect([functionName, args]).toEqual(['approve', [exchange.router, 5_000_000n]])
    expect(answer).toMatchInlineSnapshot(`
      {
        "body": {
          "tx": {
            "data": "0x095ea7b300000000000000000000000076ca03a67c049477ffb09694dfef00416db6974600000000000000000000000000000000000000000000000000000000004c4b40",
            "eip155": {
              "gas": "46103",
              "gasPrice": "1000000000",
            },
            "from": "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
            "to": "0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35",
            "value": "0",
          },
        },
        "status": 200,
      }
    `)
  })

  test('behavior: without an amount the approval is unlimited', async () => {
    const { body } = await setup().get('/v1/convert/build-approve', { userAddress: account(5), from: id('DWT'), to: id('DUSD') })
    expect(decodeFunctionData({ abi: routerAbi, data: body.tx.data }).args).toEqual([exchange.router, maxUint256])
  })

  test('behavior: an unsupported network is { tx: null } without a node call; one without an exchange is 400', async () => {
    const { get, calls } = setup()
    const mainnet = { from: 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', to: 'eip155:1:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' }
    expect(await get('/v1/convert/build-approve', { userAddress: account(5), ...mainnet })).toEqual({ status: 200, body: { tx: null } })
    const noExchange = { from: `eip155:31338:${token('DUSD').address}`, to: 'eip155:31338:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' }
    expect(await get('/v1/convert/build-approve', { userAddress: account(5), ...noExchange })).toEqual({ status: 400, body: { message: 'Network not supported for Swaps' } })
    expect(calls).toEqual([])
  })

  test.each([
    ['the native currency', () => ({ from: eth, to: id('DUSD') }), 'the native currency needs no approval'],
    ['a bad amount', () => ({ amount: 'x' }), 'Invalid amount'],
    ['no to', () => ({ to: undefined }), 'Invalid to'],
    ['a bad userAddress', () => ({ userAddress: '0x1' }), 'Invalid userAddress'],
  ])('param: %s is 400', async (_, change, message) => {
    const { get } = setup()
    expectError(await get('/v1/convert/build-approve', { userAddress: account(5), from: id('DUSD'), to: eth, ...change() }), 400, message)
  })
})
