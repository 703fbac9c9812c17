/**
 * The devnet's ERC-20 tokens: DUSD (6 decimals), DWT (18 decimals) and the tether-style DUSDT (6
 * decimals; its `transfer` returns nothing, as USDT's does) on every anvil chain, minted to the first
 * five test accounts, and the manifest the api's configuration takes them from (apiConfig.ts).
 * `import * as Tokens from './tokens.js'` → `await Tokens.deploy({ chains })`.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChainId } from '@doorway/shared/Caip'
import {
  type Abi,
  type Address,
  type Hex,
  erc20Abi,
  getAddress,
  getContractAddress,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Chain } from './anvil.js'
import * as Anvil from './anvil.js'
import type * as Exchange from './exchange.js'
import type * as Nfts from './nfts.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')

/** anvil's default mnemonic: its accounts 0–9 are the devnet's funded accounts. */
export const mnemonic = 'test test test test test test test test test test test junk'

/** Account 9 deploys, so the token addresses are the same on every fresh chain (its nonces 0, 1 and 2). */
export const deployer = mnemonicToAccount(mnemonic, { addressIndex: 9 })

/** Accounts 0–4 each hold `supply` whole units of every token. */
export const holders: readonly Address[] = [0, 1, 2, 3, 4].map((i) => mnemonicToAccount(mnemonic, { addressIndex: i }).address)

export const supply = 1_000_000n

/**
 * Deployed in this order: DUSD at the deployer's nonce 0, DWT at nonce 1, DUSDT at nonce 2. `contract`
 * names the contract in devnet/contracts/<contract>.sol; DoorwayTetherToken has USDT's token ABI
 * (spec: "Tether-style contracts use a different token ABI").
 */
export const definitions = [
  { name: 'Doorway USD', symbol: 'DUSD', decimals: 6, contract: 'DoorwayToken' },
  { name: 'Doorway Token', symbol: 'DWT', decimals: 18, contract: 'DoorwayToken' },
  { name: 'Doorway Tether USD', symbol: 'DUSDT', decimals: 6, contract: 'DoorwayTetherToken' },
] as const

type Contract = (typeof definitions)[number]['contract']
const contracts: readonly Contract[] = [...new Set(definitions.map((definition) => definition.contract))]

export type Token = { address: Address; name: string; symbol: string; decimals: number }

/**
 * What apiConfig.ts reads from DOORWAY_DEVNET_MANIFEST for the api: the tokens of each CAIP-2 network, and
 * its NFT collections and exchange once nfts.ts and exchange.ts have deployed them.
 */
export type Manifest = {
  tokens: Partial<Record<ChainId, Token[]>>
  nfts?: Partial<Record<ChainId, Nfts.Collection[]>>
  exchange?: Partial<Record<ChainId, Exchange.Exchange>>
}

// Relative env paths resolve against the working directory, as the api's configuration paths do.
export const manifestPath = process.env.DOORWAY_DEVNET_MANIFEST ?? join(root, '.doorway/devnet.json')
export const artifactPath = join(root, '.doorway/contracts.json')
const contractsDir = join(root, 'devnet/contracts')

/** The manifest the last deploy wrote, if any. */
export const readManifest = (path: string = manifestPath) => readJson<Manifest>(path)

/** Writes these keys of the manifest and keeps the others: tokens.ts and nfts.ts each own their key. */
export function writeManifest(part: Partial<Manifest>, path: string = manifestPath): void {
  writeJson(path, { ...readManifest(path), ...part })
}

/**
 * Deploys the tokens on every chain (in parallel), reusing any already there, and writes the manifest.
 * Idempotent: a chain that already has them keeps their addresses.
 */
export async function deploy(options: deploy.Options): Promise<Manifest> {
  const { chains, manifest: path = manifestPath, artifact: cache = artifactPath } = options
  const compiled = artifact({ path: cache })
  const previous = readManifest(path)?.tokens ?? {}
  const lists = await Promise.all(chains.map((chain) => deployOn(chain, compiled, previous[`eip155:${chain.id}`] ?? [])))
  const manifest: Manifest = { tokens: Object.fromEntries(chains.map((chain, i) => [`eip155:${chain.id}`, lists[i]])) }
  writeManifest(manifest, path)
  return manifest
}
export declare namespace deploy {
  type Options = {
    chains: readonly Chain[]
    /** Where the manifest goes; defaults to DOORWAY_DEVNET_MANIFEST, else `.doorway/devnet.json`. */
    manifest?: string
    /** The compiled-contracts cache; defaults to `.doorway/contracts.json`. */
    artifact?: string
  }
}

export type Artifact<name extends string = Contract> = { hash: string; contracts: Record<name, { abi: Abi; bytecode: Hex }> }

/**
 * Compiled contracts of devnet/contracts, from the cache when their sources (with what they import)
 * and the compiler settings are unchanged. The token contracts unless `contracts` names others, as
 * nfts.ts does with its own cache file.
 */
export function artifact<const name extends string = Contract>(options: artifact.Options<name> = {}): Artifact<name> {
  const { path = artifactPath, contracts: names = contracts as readonly name[] } = options
  const sources = readSources(names.map((contract) => `${contract}.sol`))
  const hash = sourceHash(sources)
  const cached = readJson<Artifact<name>>(path)
  if (cached?.hash === hash) return cached
  const compiled = { hash, contracts: compile(sources, names) }
  writeJson(path, compiled)
  return compiled
}
export declare namespace artifact {
  type Options<name extends string = Contract> = { path?: string; contracts?: readonly name[] }
}

// The files and, transitively, the files they import (`import … "./X.sol"`): solc needs them all, and the
// cache key must change when any of them does.
function readSources(files: readonly string[], sources: Record<string, string> = {}): Record<string, string> {
  for (const file of files) {
    if (file in sources) continue
    const content = readFileSync(join(contractsDir, file), 'utf8')
    sources[file] = content
    readSources([...content.matchAll(/^import\s[^;]*"\.\/([^"]+)";/gm)].map(([, imported]) => imported!), sources)
  }
  return sources
}

const settings = {
  optimizer: { enabled: true, runs: 200 },
  // pinned so the bytecode does not move with the compiler's default hardfork
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
}

const require = createRequire(import.meta.url)

// The compiler version is part of the key: a solc bump recompiles.
function sourceHash(sources: Record<string, string>): string {
  const solcVersion = (require('solc/package.json') as { version: string }).version
  return createHash('sha256').update(JSON.stringify({ sources, settings, solcVersion })).digest('hex')
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

// solc is loaded only here: its wasm takes a second to load, which cached starts skip.
// One run over every source file: `<contract>.sol` holds the contract of that name.
function compile<name extends string>(sources: Record<string, string>, names: readonly name[]): Artifact<name>['contracts'] {
  const solc = require('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([file, content]) => [file, { content }])),
    settings,
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(`The devnet contracts do not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  const compiled = (contract: name) => {
    const { abi, evm } = output.contracts![`${contract}.sol`]![contract]!
    return { abi, bytecode: `0x${evm.bytecode.object}` as const }
  }
  return Object.fromEntries(names.map((contract) => [contract, compiled(contract)])) as Artifact<name>['contracts']
}

async function deployOn(chain: Chain, compiled: Artifact, previous: readonly Token[]): Promise<Token[]> {
  const { client, wallet } = clients(chain)
  const tokens: Token[] = []
  // In nonce order: each deployment must land before the next one's address is predicted.
  for (const [nonce, { contract, ...token }] of definitions.entries()) {
    // The predicted address first; then the one the last manifest recorded, for chains where the
    // deployer's early nonces went elsewhere and the tokens landed at other addresses.
    const predicted = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
    const recorded = previous.find((known) => known.symbol === token.symbol)?.address
    const address =
      (await find(client, [predicted, recorded], token.symbol)) ??
      (await deployToken({ client, wallet }, compiled.contracts[contract], token))
    tokens.push({ address, ...token })
  }
  return tokens
}

async function find(client: Clients['client'], candidates: (Address | undefined)[], symbol: string): Promise<Address | undefined> {
  for (const address of candidates) if (address && (await isDeployed(client, address, symbol))) return address
  return undefined
}

const clients = (chain: Chain) => Anvil.clients(chain, deployer)
type Clients = ReturnType<typeof clients>

// The symbol check matters when the deployer's early nonces went elsewhere: the other token (or
// another contract) may then sit at this token's predicted address.
async function isDeployed(client: Clients['client'], address: Address, symbol: string): Promise<boolean> {
  const code = await client.getCode({ address })
  if (!code || code === '0x') return false
  const actual = await client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }).catch(() => undefined)
  return actual === symbol
}

async function deployToken(
  { client, wallet }: Clients,
  contract: Artifact['contracts'][Contract],
  token: Omit<Token, 'address'>,
): Promise<Address> {
  const amount = supply * 10n ** BigInt(token.decimals)
  const hash = await wallet.deployContract({
    abi: contract.abi,
    bytecode: contract.bytecode,
    args: [token.name, token.symbol, token.decimals, holders, amount],
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`Deploying ${token.symbol} on chain ${client.chain.id} failed (${hash})`)
  // receipts carry lowercase addresses; the manifest keeps the checksummed form the reuse path gives
  return getAddress(receipt.contractAddress)
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return undefined
  }
}

// Written whole then renamed: parallel starts (or test files) never read half a file.
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${randomUUID()}.tmp`
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`)
  renameSync(temporary, path)
}
