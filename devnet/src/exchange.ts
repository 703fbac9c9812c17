/**
 * The devnet's exchange: Uniswap V2 (WETH9, UniswapV2Factory, UniswapV2Router02) on every anvil chain,
 * from the compiled artifacts `@uniswap/v2-core` and `@uniswap/v2-periphery` ship (docs/architecture.md §9a), with
 * ETH/DUSD, ETH/DWT and DUSD/DWT pools at the api's local prices (apiConfig.ts local). The manifest's
 * `exchange` tells the api where it is; `swapExact` and `reserves` move and read a pool's price for tests.
 * `import * as Exchange from './exchange.js'` → `await Exchange.deploy({ chains, tokens })`.
 */
import { createRequire } from 'node:module'
import type { ChainId } from '@doorway/shared/Caip'
import {
  type Address,
  type Hex,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  parseEventLogs,
  parseUnits,
  zeroAddress,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Chain } from './anvil.js'
import * as Anvil from './anvil.js'
import * as Tokens from './tokens.js'

/** Account 7 deploys, so WETH9, the factory and the router are at its nonces 0, 1 and 2 on every fresh chain. */
export const deployer = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 7 })

/**
 * Tokens.ts mints only to accounts 0–4, so account 4 hands the deployer what the pools need (825,000
 * DUSD and 900,000 DWT of its 1,000,000 each); accounts 0–3 keep their whole supply for the other tests.
 */
export const funder = Tokens.holders[4]!

export type Exchange = { factory: Address; router: Address; weth: Address }

/** What a pool's first trade in a new second may cost beyond an estimate made in the old one (see `send`). */
const accumulatorGas = 50_000n

/**
 * The pools and their first liquidity, at the api's local prices (ETH 3000, DUSD 1, DWT 0.25): ETH/DUSD
 * deepest, as deep as account 4's tokens allow, so a swap of a few ETH moves its price about 1 %.
 */
export const pools = [
  { a: 'ETH', b: 'DUSD', amountA: '250', amountB: '750000' },
  { a: 'ETH', b: 'DWT', amountA: '50', amountB: '600000' },
  { a: 'DUSD', b: 'DWT', amountA: '75000', amountB: '300000' },
] as const

export type Artifact = { abi: readonly unknown[]; bytecode: Hex }

const require = createRequire(import.meta.url)

/** The compiled contracts as the packages ship them (waffle's output: `bytecode` without 0x). */
export function artifacts(): Record<'weth' | 'factory' | 'router' | 'pair', Artifact> {
  const load = (path: string): Artifact => {
    const { abi, bytecode } = require(path) as { abi: unknown[]; bytecode: string }
    return { abi, bytecode: (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex }
  }
  return {
    weth: load('@uniswap/v2-periphery/build/WETH9.json'),
    factory: load('@uniswap/v2-core/build/UniswapV2Factory.json'),
    router: load('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    pair: load('@uniswap/v2-core/build/UniswapV2Pair.json'),
  }
}

/**
 * keccak256 of the pair's creation code, which the factory deploys with CREATE2: the router finds pairs
 * by this hash (UniswapV2Library.pairFor), so it must be the one compiled into the router.
 */
export function pairInitCodeHash(): Hex {
  return keccak256(artifacts().pair.bytecode)
}

/** Where the router looks for the pair of two tokens (UniswapV2Library.pairFor). */
export function pairFor(factory: Address, tokenA: Address, tokenB: Address): Address {
  const [token0, token1] = sort(tokenA, tokenB)
  const salt = keccak256(`0x${token0.slice(2)}${token1.slice(2)}`)
  return getAddress(getContractAddress({ from: factory, opcode: 'CREATE2', salt, bytecodeHash: pairInitCodeHash() }))
}

const sort = (a: Address, b: Address) => (a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]) as [Address, Address]

const wethAbi = parseAbi(['function symbol() view returns (string)', 'constructor()'])
const factoryAbi = parseAbi([
  'constructor(address feeToSetter)',
  'function getPair(address tokenA, address tokenB) view returns (address)',
  'function allPairsLength() view returns (uint256)',
])
const routerAbi = parseAbi([
  'constructor(address factory, address WETH)',
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
])
const pairAbi = parseAbi([
  'function token0() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
])
const erc20Abi = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
])

/** The addresses a fresh chain gets: WETH9, the factory and the router at the deployer's nonces 0, 1 and 2. */
export const predicted: Exchange = {
  weth: getContractAddress({ from: deployer.address, nonce: 0n }),
  factory: getContractAddress({ from: deployer.address, nonce: 1n }),
  router: getContractAddress({ from: deployer.address, nonce: 2n }),
}

/**
 * Deploys the exchange on every chain (in parallel), reusing one already there, adds the pools that hold
 * no liquidity yet, and writes the addresses under the manifest's `exchange` (its other keys stay).
 * Idempotent: a restart on the same chain sends nothing, and leaves pools whose price tests moved.
 */
export async function deploy(options: deploy.Options): Promise<deploy.ReturnType> {
  const { chains, tokens, manifest: path = Tokens.manifestPath } = options
  const previous = Tokens.readManifest(path)?.exchange ?? {}
  const deployed = await Promise.all(
    chains.map((chain) => deployOn(chain, tokens[`eip155:${chain.id}`] ?? [], previous[`eip155:${chain.id}`])),
  )
  const exchange = Object.fromEntries(chains.map((chain, i) => [`eip155:${chain.id}`, deployed[i]])) as deploy.ReturnType['exchange']
  Tokens.writeManifest({ exchange }, path)
  return { exchange }
}
export declare namespace deploy {
  type Options = {
    chains: readonly Chain[]
    /** The devnet tokens of each chain (Tokens.deploy's answer): the pools take DUSD and DWT from it. */
    tokens: Partial<Record<ChainId, readonly Tokens.Token[]>>
    /** Where the manifest goes; defaults to DOORWAY_DEVNET_MANIFEST, else `.doorway/devnet.json`. */
    manifest?: string
  }
  type ReturnType = { exchange: Partial<Record<ChainId, Exchange>> }
}

/**
 * Swaps exactly `amountIn` along `path` (the weth address stands for ETH at either end) through the
 * router, accepting any output: a test moves a pool's price with it, e.g. so that a pending swap
 * reverts on its slippage bound. `from` is an anvil dev account index (0–9) or an address to
 * impersonate, which must hold what it sells and ETH for gas.
 */
export async function swapExact(options: swapExact.Options): Promise<swapExact.ReturnType> {
  const { chain, from, path, amountIn, exchange = predicted } = options
  if (path.length < 2) throw new Error('swapExact needs a path of at least two tokens')
  const account = await sender(chain, from)
  const weth = exchange.weth.toLowerCase()
  const ethIn = path[0]!.toLowerCase() === weth
  const ethOut = path.at(-1)!.toLowerCase() === weth
  if (!ethIn) await send(chain, account, path[0]!, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [exchange.router, amountIn] }))
  const data = ethIn
    ? encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, path, account, maxUint256] })
    : encodeFunctionData({ abi: routerAbi, functionName: ethOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens', args: [amountIn, 0n, path, account, maxUint256] })
  const receipt = await send(chain, account, exchange.router, data, ethIn ? amountIn : 0n)
  // The last pool's Swap: its one non-zero output is what the swap paid.
  const last = parseEventLogs({ abi: pairAbi, eventName: 'Swap', logs: receipt.logs }).at(-1)!
  return { hash: receipt.transactionHash, amountOut: last.args.amount0Out + last.args.amount1Out }
}
export declare namespace swapExact {
  type Options = {
    chain: Pick<Chain, 'id' | 'rpcUrl'>
    from: number | Address
    path: readonly Address[]
    amountIn: bigint
    /** Defaults to the fresh-chain addresses (`predicted`). */
    exchange?: Exchange
  }
  type ReturnType = { hash: Hex; amountOut: bigint }
}

/** A pool's reserves, in the order asked (use the weth address for ETH); zero when there is no pool. */
export async function reserves(options: reserves.Options): Promise<reserves.ReturnType> {
  const { chain, tokenA, tokenB, exchange = predicted } = options
  const { client } = clients(chain)
  const pair = await client.readContract({ address: exchange.factory, abi: factoryAbi, functionName: 'getPair', args: [tokenA, tokenB] })
  if (pair === zeroAddress) return { pair, reserveA: 0n, reserveB: 0n }
  const [[reserve0, reserve1], token0] = await Promise.all([
    client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves' }),
    client.readContract({ address: pair, abi: pairAbi, functionName: 'token0' }),
  ])
  const aFirst = token0.toLowerCase() === tokenA.toLowerCase()
  return { pair, reserveA: aFirst ? reserve0 : reserve1, reserveB: aFirst ? reserve1 : reserve0 }
}
export declare namespace reserves {
  type Options = { chain: Pick<Chain, 'id' | 'rpcUrl'>; tokenA: Address; tokenB: Address; exchange?: Exchange }
  type ReturnType = { pair: Address; reserveA: bigint; reserveB: bigint }
}

async function deployOn(chain: Chain, tokens: readonly Tokens.Token[], previous: Exchange | undefined): Promise<Exchange> {
  const { client } = clients(chain)
  const compiled = artifacts()
  // In nonce order: each deployment must land before the next one's address is predicted. The predicted
  // address first, then the one the last manifest recorded (for chains where account 7's early nonces
  // went elsewhere).
  const weth =
    (await find([predicted.weth, previous?.weth], async (address) => (await read(client, address, wethAbi, 'symbol')) === 'WETH')) ??
    (await create(chain, compiled.weth, wethAbi, []))
  const factory =
    (await find([predicted.factory, previous?.factory], async (address) => (await read(client, address, factoryAbi, 'allPairsLength')) !== undefined)) ??
    (await create(chain, compiled.factory, factoryAbi, [deployer.address]))
  const router =
    (await find([predicted.router, previous?.router], async (address) => {
      const [f, w] = await Promise.all([read(client, address, routerAbi, 'factory'), read(client, address, routerAbi, 'WETH')])
      return f === factory && w === weth
    })) ?? (await create(chain, compiled.router, routerAbi, [factory, weth]))
  const exchange = { factory, router, weth }
  for (const pool of pools) await seed(chain, exchange, tokens, pool)
  return exchange
}

async function find(candidates: (Address | undefined)[], matches: (address: Address) => Promise<boolean>): Promise<Address | undefined> {
  for (const address of candidates) if (address && (await matches(address))) return address
  return undefined
}

// undefined when there is no contract, or not this one, at the address
async function read(client: Clients['client'], address: Address, abi: readonly unknown[], functionName: string): Promise<unknown> {
  const code = await client.getCode({ address })
  if (!code || code === '0x') return undefined
  return client.readContract({ address, abi: abi as never, functionName, args: [] }).catch(() => undefined)
}

async function create(chain: Chain, artifact: Artifact, abi: readonly unknown[], args: readonly unknown[]): Promise<Address> {
  const { client, wallet } = clients(chain)
  const hash = await wallet.deployContract({ abi: abi as never, bytecode: artifact.bytecode, args: args as never })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`Deploying the exchange on chain ${chain.id} failed (${hash})`)
  return getAddress(receipt.contractAddress)
}

/** Adds a pool's first liquidity unless it already holds some: account 4's tokens, account 7's ETH. */
async function seed(chain: Chain, exchange: Exchange, tokens: readonly Tokens.Token[], pool: (typeof pools)[number]) {
  const token = (symbol: string) => {
    if (symbol === 'ETH') return { address: exchange.weth, decimals: 18 }
    const found = tokens.find((t) => t.symbol === symbol)
    if (!found) throw new Error(`The exchange on chain ${chain.id} needs ${symbol}: deploy the devnet tokens first`)
    return found
  }
  const [a, b] = [token(pool.a), token(pool.b)]
  const current = await reserves({ chain, tokenA: a.address, tokenB: b.address, exchange })
  if (current.reserveA > 0n && current.reserveB > 0n) return
  const [amountA, amountB] = [parseUnits(pool.amountA, a.decimals), parseUnits(pool.amountB, b.decimals)]
  const me = deployer.address
  for (const [t, amount] of [[a, amountA], [b, amountB]] as const) {
    if (t.address === exchange.weth) continue
    await send(chain, funder, t.address, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [me, amount] }))
    await send(chain, me, t.address, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [exchange.router, amount] }))
  }
  const data =
    pool.a === 'ETH'
      ? encodeFunctionData({ abi: routerAbi, functionName: 'addLiquidityETH', args: [b.address, amountB, amountB, amountA, me, maxUint256] })
      : encodeFunctionData({ abi: routerAbi, functionName: 'addLiquidity', args: [a.address, b.address, amountA, amountB, amountA, amountB, me, maxUint256] })
  await send(chain, me, exchange.router, data, pool.a === 'ETH' ? amountA : 0n)
}

// anvil holds the keys of its dev accounts 0–9 (the default mnemonic); any other address is impersonated
// and stays so: concurrent tests may be sending from it.
async function sender(chain: Pick<Chain, 'id' | 'rpcUrl'>, from: number | Address): Promise<Address> {
  if (typeof from === 'number') return mnemonicToAccount(Tokens.mnemonic, { addressIndex: from }).address
  const isDev = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(Tokens.mnemonic, { addressIndex: i }).address.toLowerCase()).includes(from.toLowerCase())
  if (!isDev) await createTestClient({ chain: Anvil.viemChain(chain), mode: 'anvil', transport: http(chain.rpcUrl) }).impersonateAccount({ address: from })
  return getAddress(from)
}

const clients = (chain: Pick<Chain, 'id' | 'rpcUrl'>) => Anvil.clients(chain, deployer.address)
type Clients = ReturnType<typeof clients>

/**
 * Estimated first, so a revert throws with its reason (anvil would mine it as a failed transaction), then
 * sent with a margin: an estimate in the same second as a pool's last trade skips the pool's price
 * accumulators, which the mined swap in a later second writes (up to ~45,000 gas more per pool).
 */
async function send(chain: Pick<Chain, 'id' | 'rpcUrl'>, from: Address, to: Address, data: Hex, value = 0n) {
  const { client } = clients(chain)
  const wallet = createWalletClient({ chain: client.chain, transport: http(chain.rpcUrl), account: from })
  const gas = await client.estimateGas({ account: from, to, data, value })
  const hash = await wallet.sendTransaction({ to, data, value, gas: gas + accumulatorGas * 2n })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`The call to ${to} on chain ${chain.id} reverted (${hash})`)
  return receipt
}
