import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, createPublicClient, createTestClient, erc20Abi, formatUnits, http, parseAbi, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from './anvil.js'
import * as ApiConfig from './apiConfig.js'
import * as Exchange from './exchange.js'
import * as Tokens from './tokens.js'

// Ports apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chains = [
  { id: 31337, port: 18641, rpcUrl: 'http://127.0.0.1:18641' },
  { id: 31338, port: 18642, rpcUrl: 'http://127.0.0.1:18642' },
]
const [chain] = chains as [Anvil.Chain]
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-exchange-'))
const manifest = join(dir, 'devnet.json')
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const client = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 50 })

// The hash UniswapV2Library.pairFor carries in the mainnet sources; the npm build differs (see below).
const mainnetInitCodeHash = '0x96e8ac42782006f8894161745b24916fe9339b629bc3e7ca895b7c575c1d9c5f'

let anvil: Anvil.start.ReturnType
let tokens: Tokens.Manifest['tokens']
let deployed: Exchange.deploy.ReturnType
let dusd: Address
let dwt: Address
beforeAll(async () => {
  anvil = await Anvil.start({ chains })
  ;({ tokens } = await Tokens.deploy({ chains, manifest }))
  deployed = await Exchange.deploy({ chains, tokens, manifest })
  const symbol = (s: string) => tokens['eip155:31337']!.find((t) => t.symbol === s)!.address
  ;[dusd, dwt] = [symbol('DUSD'), symbol('DWT')]
}, 120_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('pairInitCodeHash', () => {
  test('behavior: the router is compiled with the hash of the pair the factory deploys', () => {
    const { pair, factory, router } = Exchange.artifacts()
    const hash = Exchange.pairInitCodeHash()
    expect(hash).toMatchInlineSnapshot(`"0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"`)
    // the factory's `type(UniswapV2Pair).creationCode` is this artifact's bytecode
    expect(factory.bytecode.includes(pair.bytecode.slice(2))).toBe(true)
    // pairFor's constant, a PUSH32 (0x7f) in the router's code
    expect(router.bytecode.includes(`7f${hash.slice(2)}`)).toBe(true)
    // v2-periphery 1.1.0-beta.0 ships UniswapV2Library with the npm build's hash, not mainnet's
    expect(router.bytecode.includes(mainnetInitCodeHash.slice(2))).toBe(false)
  })

  test('behavior: a pair the factory created is where the router looks for it', async () => {
    const { factory } = deployed.exchange['eip155:31337']!
    const getPair = parseAbi(['function getPair(address, address) view returns (address)'])
    const pair = await client.readContract({ address: factory, abi: getPair, functionName: 'getPair', args: [dusd, dwt] })
    expect(Exchange.pairFor(factory, dwt, dusd)).toBe(pair)
  })
})

describe('deploy', () => {
  test('behavior: WETH9, the factory and the router at account 7 nonce 0, 1 and 2 addresses on every chain', () => {
    expect(deployed).toEqual({ exchange: { 'eip155:31337': Exchange.predicted, 'eip155:31338': Exchange.predicted } })
    expect(Exchange.predicted).toMatchInlineSnapshot(`
      {
        "factory": "0x39dD11C243Ac4Ac250980FA3AEa016f73C509f37",
        "router": "0x76ca03a67C049477FfB09694dFeF00416dB69746",
        "weth": "0xef11D1c2aA48826D4c41e54ab82D1Ff5Ad8A64Ca",
      }
    `)
  })

  test('behavior: writes `exchange` into the manifest and keeps its `tokens`', () => {
    expect(read(manifest)).toEqual({ tokens, ...deployed })
  })

  test.each(chains.map((c) => [c.id, c] as const))('behavior: on chain %i the pools price ETH, DUSD and DWT as the api does', async (_, on) => {
    const { prices } = ApiConfig.local({ port: 0, chains: [], origins: [], tokens: {} }, {})
    const list = tokens[`eip155:${on.id}`]!
    const exchange = deployed.exchange[`eip155:${on.id}`]!
    const asset = (symbol: string) => (symbol === 'ETH' ? { address: exchange.weth, decimals: 18 } : list.find((t) => t.symbol === symbol)!)
    for (const pool of Exchange.pools) {
      const [a, b] = [asset(pool.a), asset(pool.b)]
      const { reserveA, reserveB } = await Exchange.reserves({ chain: on, tokenA: a.address, tokenB: b.address, exchange })
      expect([reserveA, reserveB]).toEqual([parseUnits(pool.amountA, a.decimals), parseUnits(pool.amountB, b.decimals)])
      // the value of one side in the other's units: B per A = price(A) / price(B)
      const price = Number(formatUnits(reserveB, b.decimals)) / Number(formatUnits(reserveA, a.decimals))
      expect(price).toBeCloseTo(prices[pool.a]! / prices[pool.b]!, 9)
    }
  })

  test('behavior: account 4 paid the pools’ tokens; accounts 0–3 keep their supply', async () => {
    const balance = (token: Address, account: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    expect(await balance(dusd, Exchange.funder)).toBe(parseUnits('175000', 6))
    expect(await balance(dwt, Exchange.funder)).toBe(parseUnits('100000', 18))
    expect(await balance(dusd, Tokens.holders[3]!)).toBe(parseUnits('1000000', 6))
  })

  test('behavior: a second deploy reuses the exchange and its pools and sends nothing', async () => {
    const nonces = () => Promise.all([Exchange.deployer.address, Exchange.funder].map((address) => client.getTransactionCount({ address })))
    const before = await nonces()
    expect(await Exchange.deploy({ chains, tokens, manifest })).toEqual(deployed)
    expect(await nonces()).toEqual(before)
  })

  test('error: without the devnet tokens there are no pools to make', async () => {
    const other = { id: 31339, port: 18643, rpcUrl: 'http://127.0.0.1:18643' }
    const extra = await Anvil.start({ chains: [other] })
    try {
      await expect(Exchange.deploy({ chains: [other], tokens: {}, manifest: join(dir, 'other.json') })).rejects.toThrow(
        'The exchange on chain 31339 needs DUSD: deploy the devnet tokens first',
      )
    } finally {
      await extra.stop()
    }
  })
})

describe('swapExact', () => {
  // On chain 31338, so the price checks on 31337 are not moved by these swaps.
  const [, other] = chains as [Anvil.Chain, Anvil.Chain]
  const exchange = Exchange.predicted
  const on31338 = (symbol: string) => tokens['eip155:31338']!.find((t) => t.symbol === symbol)!.address

  test('behavior: ETH in moves the ETH/DUSD price; the output is what the pool paid', async () => {
    const token = on31338('DUSD')
    const before = await Exchange.reserves({ chain: other, tokenA: exchange.weth, tokenB: token })
    const { amountOut } = await Exchange.swapExact({ chain: other, from: 5, path: [exchange.weth, token], amountIn: parseEther('10') })
    const after = await Exchange.reserves({ chain: other, tokenA: exchange.weth, tokenB: token })
    expect(after.reserveA - before.reserveA).toBe(parseEther('10'))
    expect(before.reserveB - after.reserveB).toBe(amountOut)
    // 10 ETH into 250: about 3.9 % less than the mid price, fee included
    expect(Number(formatUnits(amountOut, 6))).toBeCloseTo((3000 * 10 * 0.997 * 250) / (250 + 10 * 0.997), 0)
  })

  test('behavior: tokens out through WETH, from an impersonated address', async () => {
    const stranger = '0x000000000000000000000000000000000000dEaD'
    const [token, dwt31338] = [on31338('DUSD'), on31338('DWT')]
    const otherClient = createPublicClient({ transport: http(other.rpcUrl) })
    await createTestClient({ mode: 'anvil', transport: http(other.rpcUrl) }).setBalance({ address: stranger, value: parseEther('100') })
    const bought = await Exchange.swapExact({ chain: other, from: stranger, path: [exchange.weth, token], amountIn: parseEther('1') })
    const { amountOut } = await Exchange.swapExact({ chain: other, from: stranger, path: [token, exchange.weth, dwt31338], amountIn: bought.amountOut })
    expect(await otherClient.readContract({ address: dwt31338, abi: erc20Abi, functionName: 'balanceOf', args: [stranger] })).toBe(amountOut)
  })

  test('error: a path of one token', async () => {
    await expect(Exchange.swapExact({ chain: other, from: 5, path: [exchange.weth], amountIn: 1n })).rejects.toThrow('at least two tokens')
  })
})
