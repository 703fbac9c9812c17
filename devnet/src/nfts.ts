/**
 * The devnet's NFTs on every anvil chain, for the modal's NFTs and Activity tabs: the ERC-721 "Doorway
 * Doors" (DOOR), the spam ERC-721 "Claim Your Rewards" (CLAIM, airdropped to accounts 0–4) and the
 * ERC-1155 "Doorway Items" (DITEM). Their metadata and SVG images live on chain, so wallets show real
 * images offline. The manifest's `nfts` tells the api about them (apiConfig.ts), and `mint`,
 * `mintItems` and `airdrop` make more for tests.
 * `import * as Nfts from './nfts.js'` → `await Nfts.deploy({ chains })`.
 */
import { dirname, join } from 'node:path'
import type { ChainId } from '@doorway/shared/Caip'
import {
  type Abi,
  type Address,
  type Hex,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  parseAbi,
  parseEventLogs,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Chain } from './anvil.js'
import * as Anvil from './anvil.js'
import * as Tokens from './tokens.js'

/** Account 8 deploys, so the collections' addresses are the same on every fresh chain (its nonces 0, 1 and 2). */
export const deployer = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 8 })

export type Collection = { address: Address; name: string; symbol: string; standard: 'erc721' | 'erc1155'; spam: boolean }

/**
 * Deployed in this order: DOOR at the deployer's nonce 0, CLAIM at nonce 1, DITEM at nonce 2. `contract`
 * names the contract in devnet/contracts/<contract>.sol, `args` its constructor's arguments after name
 * and symbol. CLAIM is an ordinary contract: the api's configuration is what calls it spam.
 */
export const definitions = [
  {
    name: 'Doorway Doors',
    symbol: 'DOOR',
    standard: 'erc721',
    spam: false,
    contract: 'DoorwayCollectible',
    args: ['Doorway Door', 'DOOR', 'A door of the Doorway devnet, drawn on chain.'],
  },
  {
    name: 'Claim Your Rewards',
    symbol: 'CLAIM',
    standard: 'erc721',
    spam: true,
    contract: 'DoorwayCollectible',
    args: ['Reward Pass', 'FREE CLAIM', 'You have been selected! Visit claim-rewards.example to claim your reward.'],
  },
  { name: 'Doorway Items', symbol: 'DITEM', standard: 'erc1155', spam: false, contract: 'DoorwayItems', args: [] },
] as const

type Contract = (typeof definitions)[number]['contract']
const contracts: readonly Contract[] = ['DoorwayCollectible', 'DoorwayItems']

/** The compiled-contracts cache, beside the tokens' one (`.doorway/nft-contracts.json`). */
export const artifactPath = join(dirname(Tokens.artifactPath), 'nft-contracts.json')

/** The compiled NFT contracts, through the tokens' compiler and cache (a file of their own). */
export function artifact(options: artifact.Options = {}): Tokens.Artifact<Contract> {
  return Tokens.artifact({ path: options.path ?? artifactPath, contracts })
}
export declare namespace artifact {
  type Options = { path?: string }
}

// The devnet-only functions, beside the standard ones a wallet calls.
const collectibleAbi = parseAbi([
  'function mint(address to) returns (uint256 id)',
  'function airdrop(address[] to)',
  'function symbol() view returns (string)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])
const itemsAbi = parseAbi(['function mint(address to, uint256 id, uint256 amount)'])

// What a fresh deploy mints (the calls' data, in order), so both tabs have something to show for
// accounts 0 and 1, and the spam filter an airdrop to hide.
const [account0, account1] = Tokens.holders as [Address, Address]
const mintItem = (to: Address, id: bigint, amount: bigint) => encodeFunctionData({ abi: itemsAbi, functionName: 'mint', args: [to, id, amount] })
const seeds: Record<(typeof definitions)[number]['symbol'], Hex[]> = {
  DOOR: [account0, account0, account0, account1, account1].map((to) => encodeFunctionData({ abi: collectibleAbi, functionName: 'mint', args: [to] })),
  CLAIM: [encodeFunctionData({ abi: collectibleAbi, functionName: 'airdrop', args: [Tokens.holders] })],
  DITEM: [mintItem(account0, 1n, 5n), mintItem(account0, 2n, 1n), mintItem(account1, 1n, 2n)],
}

/**
 * Deploys the collections on every chain (in parallel), reusing any already there, and writes them
 * under the manifest's `nfts` (its `tokens` stay). Only a collection deployed now gets the initial
 * mints: a restart on the same chain mints nothing.
 */
export async function deploy(options: deploy.Options): Promise<deploy.ReturnType> {
  const { chains, manifest: path = Tokens.manifestPath, artifact: cache = artifactPath } = options
  const compiled = artifact({ path: cache })
  const previous = Tokens.readManifest(path)?.nfts ?? {}
  const lists = await Promise.all(chains.map((chain) => deployOn(chain, compiled, previous[`eip155:${chain.id}`] ?? [])))
  const nfts = Object.fromEntries(chains.map((chain, i) => [`eip155:${chain.id}`, lists[i]])) as deploy.ReturnType['nfts']
  Tokens.writeManifest({ nfts }, path)
  return { nfts }
}
export declare namespace deploy {
  type Options = {
    chains: readonly Chain[]
    /** Where the manifest goes; defaults to DOORWAY_DEVNET_MANIFEST, else `.doorway/devnet.json`. */
    manifest?: string
    /** The compiled-contracts cache; defaults to `.doorway/nft-contracts.json`. */
    artifact?: string
  }
  type ReturnType = { nfts: Partial<Record<ChainId, Collection[]>> }
}

/** Mints the next token of an ERC-721 collection (DOOR, CLAIM) to `to`, sent by the deployer. */
export async function mint(options: mint.Options): Promise<mint.ReturnType> {
  const { chain, collection, to } = options
  const receipt = await send(chain, collection, encodeFunctionData({ abi: collectibleAbi, functionName: 'mint', args: [to] }))
  const [transfer] = parseEventLogs({ abi: collectibleAbi, eventName: 'Transfer', logs: receipt.logs })
  return { hash: receipt.transactionHash, tokenId: transfer!.args.tokenId }
}
export declare namespace mint {
  type Options = { chain: Pick<Chain, 'id' | 'rpcUrl'>; collection: Address; to: Address }
  type ReturnType = { hash: Hex; tokenId: bigint }
}

/** Mints `amount` of item `id` of an ERC-1155 collection (DITEM) to `to`, sent by the deployer. */
export async function mintItems(options: mintItems.Options): Promise<mintItems.ReturnType> {
  const { chain, collection, to, id, amount } = options
  const receipt = await send(chain, collection, mintItem(to, id, amount))
  return { hash: receipt.transactionHash }
}
export declare namespace mintItems {
  type Options = { chain: Pick<Chain, 'id' | 'rpcUrl'>; collection: Address; to: Address; id: bigint; amount: bigint }
  type ReturnType = { hash: Hex }
}

/** One token of an ERC-721 collection to each of `to`, in one transaction the deployer sends. */
export async function airdrop(options: airdrop.Options): Promise<airdrop.ReturnType> {
  const { chain, collection, to } = options
  const receipt = await send(chain, collection, encodeFunctionData({ abi: collectibleAbi, functionName: 'airdrop', args: [to] }))
  return { hash: receipt.transactionHash }
}
export declare namespace airdrop {
  type Options = { chain: Pick<Chain, 'id' | 'rpcUrl'>; collection: Address; to: readonly Address[] }
  type ReturnType = { hash: Hex }
}

async function deployOn(chain: Chain, compiled: Tokens.Artifact<Contract>, previous: readonly Collection[]): Promise<Collection[]> {
  const { client } = clients(chain)
  const deployed: { collection: Collection; mints: readonly Hex[] }[] = []
  // In nonce order, and every deployment before any mint: each one's address is predicted from the
  // deployer's nonce.
  for (const [nonce, { contract, args, ...collection }] of definitions.entries()) {
    // The predicted address first; then the one the last manifest recorded, for chains where the
    // deployer's early nonces went elsewhere.
    const predicted = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
    const recorded = previous.find((known) => known.symbol === collection.symbol)?.address
    const found = await find(client, [predicted, recorded], collection.symbol)
    const address = found ?? (await deployCollection(chain, compiled.contracts[contract], [collection.name, collection.symbol, ...args]))
    deployed.push({ collection: { address, ...collection }, mints: found ? [] : seeds[collection.symbol] })
  }
  for (const { collection, mints } of deployed) for (const data of mints) await send(chain, collection.address, data)
  return deployed.map(({ collection }) => collection)
}

async function find(client: Clients['client'], candidates: (Address | undefined)[], symbol: string): Promise<Address | undefined> {
  for (const address of candidates) if (address && (await isDeployed(client, address, symbol))) return address
  return undefined
}

// The symbol check matters when the deployer's early nonces went elsewhere: another collection (or
// contract) may then sit at this one's predicted address.
async function isDeployed(client: Clients['client'], address: Address, symbol: string): Promise<boolean> {
  const code = await client.getCode({ address })
  if (!code || code === '0x') return false
  const actual = await client.readContract({ address, abi: collectibleAbi, functionName: 'symbol' }).catch(() => undefined)
  return actual === symbol
}

async function deployCollection(chain: Chain, contract: { abi: Abi; bytecode: Hex }, args: readonly string[]): Promise<Address> {
  const { client, wallet } = clients(chain)
  const hash = await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`Deploying ${args[1]} on chain ${chain.id} failed (${hash})`)
  // receipts carry lowercase addresses; the manifest keeps the checksummed form the reuse path gives
  return getAddress(receipt.contractAddress)
}

const clients = (chain: Pick<Chain, 'id' | 'rpcUrl'>) => Anvil.clients(chain, deployer.address)
type Clients = ReturnType<typeof clients>

// Called first so a revert throws with its reason: anvil would mine it as a failed transaction.
async function send(chain: Pick<Chain, 'id' | 'rpcUrl'>, to: Address, data: Hex) {
  const { client, wallet } = clients(chain)
  await client.call({ account: deployer.address, to, data })
  const hash = await wallet.sendTransaction({ to, data })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`The call to ${to} on chain ${chain.id} reverted (${hash})`)
  return receipt
}
