import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, getContractAddress, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Anvil from './anvil.js'
import * as Tokens from './tokens.js'

// Ports apart from the running stack's (8545/8546) and from the other tests' anvil chains.
const chains = [
  { id: 31337, port: 18601, rpcUrl: 'http://127.0.0.1:18601' },
  { id: 31338, port: 18602, rpcUrl: 'http://127.0.0.1:18602' },
]
// Never the developer's .doorway/devnet.json: a running stack reads it.
const dir = mkdtempSync(join(tmpdir(), 'doorway-tokens-'))
const manifest = join(dir, 'devnet.json')
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

let anvil: Anvil.start.ReturnType
beforeAll(async () => {
  anvil = await Anvil.start({ chains })
}, 30_000)
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('deploy', () => {
  let first: Tokens.Manifest
  beforeAll(async () => {
    first = await Tokens.deploy({ chains, manifest })
  }, 60_000)

  test('behavior: DUSD, DWT and DUSDT on every chain at the deployer nonce 0, 1 and 2 addresses', () => {
    const dusd = getContractAddress({ from: Tokens.deployer.address, nonce: 0n })
    const dwt = getContractAddress({ from: Tokens.deployer.address, nonce: 1n })
    const dusdt = getContractAddress({ from: Tokens.deployer.address, nonce: 2n })
    const expected = [
      { address: dusd, name: 'Doorway USD', symbol: 'DUSD', decimals: 6 },
      { address: dwt, name: 'Doorway Token', symbol: 'DWT', decimals: 18 },
      { address: dusdt, name: 'Doorway Tether USD', symbol: 'DUSDT', decimals: 6 },
    ]
    expect(first).toEqual({ tokens: { 'eip155:31337': expected, 'eip155:31338': expected } })
  })

  test('behavior: writes the manifest in the shape apiConfig.ts reads', () => {
    expect(read(manifest)).toEqual(first)
  })

  test('behavior: accounts 0–4 each hold 1,000,000 of each token; account 5 none', async () => {
    const client = createPublicClient({ transport: http(chains[1]!.rpcUrl) })
    const [dusd, dwt, dusdt] = first.tokens['eip155:31338']!
    const balance = (token: Tokens.Token, account: `0x${string}`) =>
      client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    for (const holder of Tokens.holders) {
      expect(await balance(dusd!, holder)).toBe(1_000_000n * 10n ** 6n)
      expect(await balance(dwt!, holder)).toBe(1_000_000n * 10n ** 18n)
      expect(await balance(dusdt!, holder)).toBe(1_000_000n * 10n ** 6n)
    }
    expect(await balance(dusd!, '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc')).toBe(0n)
    expect(await balance(dusdt!, '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc')).toBe(0n)
    expect(await client.readContract({ address: dwt!.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(5_000_000n * 10n ** 18n)
    expect(await client.readContract({ address: dusdt!.address, abi: erc20Abi, functionName: 'totalSupply' })).toBe(5_000_000n * 10n ** 6n)
  })

  test('behavior: a second deploy reuses the tokens already on the chains', async () => {
    const client = createPublicClient({ transport: http(chains[0]!.rpcUrl) })
    const nonce = await client.getTransactionCount({ address: Tokens.deployer.address })
    expect(await Tokens.deploy({ chains, manifest })).toEqual(first)
    expect(await client.getTransactionCount({ address: Tokens.deployer.address })).toBe(nonce)
  })

  test.each(['DUSD', 'DUSDT'])('behavior: %s moves like an ERC-20 (transfer, approve, transferFrom)', async (symbol) => {
    const token = first.tokens['eip155:31337']!.find((t) => t.symbol === symbol)
    const client = createPublicClient({ transport: http(chains[0]!.rpcUrl), pollingInterval: 50 })
    const owner = createWalletClient({ transport: http(chains[0]!.rpcUrl), account: Tokens.holders[0]! })
    const spender = createWalletClient({ transport: http(chains[0]!.rpcUrl), account: Tokens.holders[1]! })
    const recipient = '0x000000000000000000000000000000000000dEaD'
    const send = async (hash: Promise<`0x${string}`>) => expect((await client.waitForTransactionReceipt({ hash: await hash })).status).toBe('success')
    const common = { address: token!.address, abi: erc20Abi, chain: null } as const
    await send(owner.writeContract({ ...common, functionName: 'transfer', args: [recipient, 5n] }))
    await send(owner.writeContract({ ...common, functionName: 'approve', args: [Tokens.holders[1]!, 7n] }))
    await send(spender.writeContract({ ...common, functionName: 'transferFrom', args: [Tokens.holders[0]!, recipient, 7n] }))
    const read = <const Args extends readonly unknown[]>(functionName: 'balanceOf' | 'allowance', args: Args) =>
      client.readContract({ address: token!.address, abi: erc20Abi, functionName, args } as never)
    expect(await read('balanceOf', [recipient])).toBe(12n)
    expect(await read('allowance', [Tokens.holders[0]!, Tokens.holders[1]!])).toBe(0n)
  })

  // What the frame relies on to tell the two token ABIs apart (spec: "Tether-style contracts use a
  // different token ABI"): the raw eth_call result of transfer(to, amount).
  test.each([
    ['DUSD', `0x${'1'.padStart(64, '0')}`],
    ['DUSDT', '0x'],
  ])('behavior: eth_call of transfer on %s returns %s', async (symbol, data) => {
    const client = createPublicClient({ transport: http(chains[0]!.rpcUrl) })
    const token = first.tokens['eip155:31337']!.find((t) => t.symbol === symbol)!
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD', 1n] })
    const call = { from: Tokens.holders[2]!, to: token.address, data: transfer }
    expect(await client.request({ method: 'eth_call', params: [call, 'latest'] })).toBe(data)
  })

  test('error: DUSDT, like USDT, reverts approve from a non-zero allowance to another', async () => {
    const dusdt = first.tokens['eip155:31337']!.find((t) => t.symbol === 'DUSDT')!
    const client = createPublicClient({ transport: http(chains[0]!.rpcUrl), pollingInterval: 50 })
    const owner = createWalletClient({ transport: http(chains[0]!.rpcUrl), account: Tokens.holders[2]! })
    const call = (value: bigint) => ({ address: dusdt.address, abi: erc20Abi, functionName: 'approve', args: [Tokens.holders[3]!, value] }) as const
    const approve = async (value: bigint) =>
      (await client.waitForTransactionReceipt({ hash: await owner.writeContract({ ...call(value), chain: null }) })).status
    expect(await approve(5n)).toBe('success')
    await expect(client.simulateContract({ ...call(6n), account: Tokens.holders[2]! })).rejects.toThrow(/USDT: approve from a non-zero allowance/)
    // anvil mines the unlocked account's transaction even so
    expect(await approve(6n)).toBe('reverted')
    // through 0 it may change
    expect(await approve(0n)).toBe('success')
    expect(await approve(6n)).toBe('success')
    const allowance = await client.readContract({ address: dusdt.address, abi: erc20Abi, functionName: 'allowance', args: [Tokens.holders[2]!, Tokens.holders[3]!] })
    expect(allowance).toBe(6n)
  })
})

describe('deploy on a chain whose deployer nonces went elsewhere', () => {
  const moved = [{ id: 31337, port: 18603, rpcUrl: 'http://127.0.0.1:18603' }]
  let chain: Anvil.start.ReturnType
  beforeAll(async () => {
    chain = await Anvil.start({ chains: moved })
  }, 30_000)
  afterAll(() => chain?.stop())

  test('behavior: deploys anyway and records the real addresses', async () => {
    const client = createPublicClient({ transport: http(moved[0]!.rpcUrl), pollingInterval: 50 })
    const wallet = createWalletClient({ transport: http(moved[0]!.rpcUrl), account: Tokens.deployer })
    // nonce 0 spent on a plain transfer: DUSD lands at nonce 1, the address DWT would have had, and so on
    const hash = await wallet.sendTransaction({ to: Tokens.holders[0]!, value: parseEther('1'), chain: null })
    await client.waitForTransactionReceipt({ hash })
    const path = join(dir, 'moved.json')
    const { tokens } = await Tokens.deploy({ chains: moved, manifest: path })
    const [dusd, dwt, dusdt] = tokens['eip155:31337']!
    expect(dusd!.address).toBe(getContractAddress({ from: Tokens.deployer.address, nonce: 1n }))
    expect(dwt!.address).toBe(getContractAddress({ from: Tokens.deployer.address, nonce: 2n }))
    expect(dusdt!.address).toBe(getContractAddress({ from: Tokens.deployer.address, nonce: 3n }))
    for (const token of [dusd!, dwt!, dusdt!])
      expect(await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'symbol' })).toBe(token.symbol)
    // the manifest remembers them: a second deploy finds them there instead of deploying again
    expect(await Tokens.deploy({ chains: moved, manifest: path })).toEqual({ tokens })
  })
})

describe('artifact', () => {
  test('behavior: compiles once, then reads the cache while the sources are unchanged', () => {
    const path = join(dir, 'artifact.json')
    const compiled = Tokens.artifact({ path })
    expect(Object.keys(compiled.contracts).sort()).toEqual(['DoorwayTetherToken', 'DoorwayToken'])
    for (const { abi, bytecode } of Object.values(compiled.contracts)) {
      expect(bytecode).toMatch(/^0x[0-9a-f]{200,}$/)
      expect(abi.map((item) => ('name' in item ? item.name : item.type)).sort()).toEqual(
        ['Approval', 'Transfer', 'allowance', 'approve', 'balanceOf', 'constructor', 'decimals', 'name', 'symbol', 'totalSupply', 'transfer', 'transferFrom'],
      )
    }
    expect(read(path)).toEqual(compiled)
    // a cache entry with the same hash is trusted as is: no compile happened if this comes back
    const fed = { ...compiled.contracts.DoorwayToken, bytecode: '0xfeed' }
    writeFileSync(path, JSON.stringify({ ...compiled, contracts: { ...compiled.contracts, DoorwayToken: fed } }))
    expect(Tokens.artifact({ path }).contracts.DoorwayToken.bytecode).toBe('0xfeed')
  }, 30_000)

  test('behavior: a cache with another source hash is recompiled', () => {
    const path = join(dir, 'stale.json')
    const compiled = Tokens.artifact({ path })
    writeFileSync(path, JSON.stringify({ ...compiled, hash: 'stale', contracts: {} }))
    expect(Tokens.artifact({ path })).toEqual(compiled)
  }, 30_000)

  test.each([
    ['DoorwayToken', [{ type: 'bool' }]],
    ['DoorwayTetherToken', []],
  ] as const)('behavior: %s transfer, transferFrom and approve return %j', (contract, outputs) => {
    const { abi } = Tokens.artifact().contracts[contract]
    for (const name of ['transfer', 'transferFrom', 'approve'])
      expect(abi.find((item) => 'name' in item && item.name === name)).toMatchObject({ outputs })
  })
})
