/**
 * What an operator configures (issue 4): networks (CAIP-2 id → JSON-RPC URL, native currency, testnet
 * flag, known tokens), projects (projectId → allowed host origins), prices, storage, and the onramp
 * provider. The api reads it from the JSON file DOORWAY_API_CONFIG names, and from nothing else: the
 * local stack builds its own (devnet/src/apiConfig.ts) and passes it in (docs/architecture.md §3).
 *
 * The file is a `Config` (below) as JSON; `spamNfts`, `exchange`, `smartAccounts`, `analytics`, `indexer`
 * and `onramp` may be left out, and storage may instead be `{ "kind": "embedded", "dir": "<PGlite directory>" }`.
 * An EVM network without `smartAccounts` has no smart accounts: GET /v1/smart-accounts/:chainId answers
 * 404 for it (issue 25). Its `environment` is MetaMask's Delegation Framework there (the example's keys
 * cut short: the kit's deployment lists every implementation and caveat enforcer).
 * A network is EVM unless its `kind` says otherwise: `"kind": "solana"` takes a Solana JSON-RPC `rpcUrl`,
 * SOL with 9 decimals and SPL mints as `tokens`; `"kind": "bip122"` takes an Esplora `esploraUrl`
 * (Blockstream's or mempool.space's API), BTC with 8 decimals and no tokens. `load` checks every field
 * (`parse`) and names the first one that is wrong:
 *
 *   {
 *     "host": "0.0.0.0",
 *     "port": 8787,
 *     "publicUrl": "https://api.example.com",
 *     "networks": {
 *       "eip155:1": {
 *         "rpcUrl": "https://rpc.example.com/mainnet",
 *         "name": "Ethereum",
 *         "nativeCurrency": { "name": "Ether", "symbol": "ETH", "decimals": 18 },
 *         "testnet": false,
 *         "tokens": [{ "address": "0x…", "name": "USD Coin", "symbol": "USDC", "decimals": 6 }],
 *         "spamNfts": ["0x…"],
 *         "exchange": { "router": "0x…", "factory": "0x…", "weth": "0x…" },
 *         "smartAccounts": {
 *           "bundlerUrl": "https://bundler.example.com/mainnet",
 *           "paymasterUrl": "https://paymaster.example.com/mainnet",
 *           "environment": {
 *             "EntryPoint": "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
 *             "DelegationManager": "0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3",
 *             "SimpleFactory": "0x69Aa2f9fe1572F1B640E1bbc512f5c3a734fc77c",
 *             "implementations": { "HybridDeleGatorImpl": "0x48dBe696A4D990079e039489bA2053B36E8FFEC4" },
 *             "caveatEnforcers": { "AllowedTargetsEnforcer": "0x7F20f61b1f09b08D970938F6fa563634d65c4EeB" }
 *           }
 *         }
 *       },
 *       "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": {
 *         "kind": "solana",
 *         "rpcUrl": "https://solana-rpc.example.com",
 *         "name": "Solana",
 *         "nativeCurrency": { "name": "Solana", "symbol": "SOL", "decimals": 9 },
 *         "testnet": false,
 *         "tokens": [{ "address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "name": "USD Coin", "symbol": "USDC", "decimals": 6 }]
 *       },
 *       "bip122:000000000019d6689c085ae165831e93": {
 *         "kind": "bip122",
 *         "esploraUrl": "https://blockstream.info/api",
 *         "name": "Bitcoin",
 *         "nativeCurrency": { "name": "Bitcoin", "symbol": "BTC", "decimals": 8 },
 *         "testnet": false,
 *         "tokens": []
 *       }
 *     },
 *     "projects": { "my-dapp": { "origins": ["https://dapp.example"], "analytics": true } },
 *     "prices": { "ETH": 3000, "USDC": 1, "SOL": 150, "BTC": 60000 },
 *     "storage": { "kind": "postgres", "url": "postgres://doorway@db.example/doorway" },
 *     "indexer": { "pollMs": 1000, "metadataPrivateHosts": false },
 *     "onramp": { "providerUrl": "https://onramp.example" }
 *   }
 *
 * `npx tsx devnet/src/api.ts --print` prints the local stack's, a complete example.
 */
import { readFileSync } from 'node:fs'
import type { ChainId } from '@doorway/shared/Caip'
import * as ConfigCheck from './configCheck.js'

/** `address` is the token contract on an EVM network and the mint on a Solana one. */
export type Token = { address: string; name: string; symbol: string; decimals: number; iconUrl?: string }

type Common = {
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  testnet: boolean
  tokens: Token[]
}

/** An EVM network (`kind` absent or 'evm'): JSON-RPC, ERC-20 tokens, the block index, NFTs and swaps. */
export type EvmNetwork = Common & {
  kind?: 'evm'
  rpcUrl: string
  /** NFT contract addresses (any case) whose tokens are flagged spam: the stand-in for a spam-list feed. */
  spamNfts?: string[]
  /** A Uniswap V2 deployment the /v1/convert/* routes quote and build swaps on; absent: no swaps here. */
  exchange?: Exchange
  /** ERC-4337 here (issue 25), served to the frame by GET /v1/smart-accounts/:chainId; absent: no smart accounts. */
  smartAccounts?: SmartAccounts
}

/** A Solana cluster: its JSON-RPC (balances and history by address), SOL (9 decimals) and SPL mints. */
export type SolanaNetwork = Common & { kind: 'solana'; rpcUrl: string; spamNfts?: never; exchange?: never; smartAccounts?: never }

/** A Bitcoin network read through an Esplora server (balances and history by address); BTC has 8 decimals. */
export type BitcoinNetwork = Common & { kind: 'bip122'; esploraUrl: string; rpcUrl?: never; spamNfts?: never; exchange?: never; smartAccounts?: never }

export type Network = EvmNetwork | SolanaNetwork | BitcoinNetwork

/** A Uniswap V2 router, the factory it reads pairs from, and its WETH (which stands for the native currency). */
export type Exchange = { router: string; factory: string; weth: string }

/**
 * A network's smart accounts (issue 25): the ERC-4337 bundler the frame sends user operations to, an
 * optional ERC-7677 paymaster that sponsors them, and the Delegation Framework the accounts are built on.
 * Configuration only, so production points at any hosted bundler and paymaster.
 */
export type SmartAccounts = { bundlerUrl: string; paymasterUrl?: string; environment: Environment }

/** A 0x-prefixed 40-hex-digit address, typed as `@metamask/smart-accounts-kit` types them. */
export type EvmAddress = `0x${string}`

/**
 * MetaMask's Delegation Framework on a network, in the shape of the kit's `SmartAccountsEnvironment`
 * (declared here: the api does not depend on the kit). The frame's HybridDeleGator accounts need their
 * implementation; the other implementations and the caveat enforcers are named as the kit names them.
 */
export type Environment = {
  EntryPoint: EvmAddress
  DelegationManager: EvmAddress
  SimpleFactory: EvmAddress
  implementations: { HybridDeleGatorImpl: EvmAddress } & Record<string, EvmAddress>
  caveatEnforcers: Record<string, EvmAddress>
}

export type Config = {
  host: string
  port: number
  /** Public base URL of this server, for image links in responses. */
  publicUrl: string
  networks: Partial<Record<ChainId, Network>>
  /** `analytics`: whether the api accepts the project's events (absent: true); the dapp must also opt in (features.analytics). */
  projects: Record<string, { origins: string[]; analytics?: boolean }>
  /** USD prices by symbol: the stand-in for a market-data feed. */
  prices: Record<string, number>
  storage: { kind: 'embedded'; dir: string } | { kind: 'postgres'; url: string }
  /**
   * The history indexer: how often the server's follower reads new blocks (absent: 1000 ms), and whether
   * NFT metadata and images may be fetched from hosts on loopback or private addresses (absent: no).
   */
  indexer?: { pollMs?: number; metadataPrivateHosts?: boolean }
  /**
   * The onramp provider behind /v1/onramp/*, /v1/generators/onrampurl and history's onramp=coinbase: the
   * base URL of an API with Coinbase Onramp's contract (the devnet's sandbox locally). Absent: those
   * answer 502 (the modal falls back, spec §8) and the account has no onramp orders.
   */
  onramp?: { providerUrl: string }
}

/** The operator's JSON file DOORWAY_API_CONFIG names, checked: without one the api has nothing to start from. */
export function load(env: NodeJS.ProcessEnv = process.env): Config {
  const file = env.DOORWAY_API_CONFIG
  if (!file)
    throw new Error('Set DOORWAY_API_CONFIG to the api’s JSON configuration file (its shape: api/src/config.ts). Against the local devnet: npx tsx devnet/src/api.ts')
  return parse(JSON.parse(readFileSync(file, 'utf8')))
}

/**
 * `value` as a Config, or an error naming the first field that is wrong (`networks["solana:…"].rpcUrl:
 * expected an http(s) URL`). Unknown fields are refused, so a misspelt one does not silently fall back.
 */
export function parse(value: unknown): Config {
  return ConfigCheck.config(value) as Config
}
