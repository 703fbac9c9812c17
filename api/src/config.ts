/**
 * What an operator configures (issue 4): networks (CAIP-2 id → JSON-RPC URL, native currency, testnet
 * flag, known tokens), projects (projectId → allowed host origins), prices, storage, and the onramp provider. From a JSON
 * file named by DOORWAY_API_CONFIG, else the local stack's (devnet/src/start.ts, api/src/main.ts).
 */
import { readFileSync } from 'node:fs'
import type { ChainId } from '@doorway/shared/Caip'

export type Token = { address: string; name: string; symbol: string; decimals: number; iconUrl?: string }

export type Network = {
  rpcUrl: string
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  testnet: boolean
  tokens: Token[]
  /** NFT contract addresses (any case) whose tokens are flagged spam: the stand-in for a spam-list feed. */
  spamNfts?: string[]
  /** A Uniswap V2 deployment the /v1/convert/* routes quote and build swaps on; absent: no swaps here. */
  exchange?: Exchange
}

/** A Uniswap V2 router, the factory it reads pairs from, and its WETH (which stands for the native currency). */
export type Exchange = { router: string; factory: string; weth: string }

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

/** The operator's JSON file named by DOORWAY_API_CONFIG, else `fallback` (the local stack's). */
export function load(fallback: () => Config, env: NodeJS.ProcessEnv = process.env): Config {
  const file = env.DOORWAY_API_CONFIG
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as Config) : fallback()
}

/** What the local stack (devnet/src/stack.ts) hands the api: its port, chains, the demo's origin, tokens. */
export type LocalStack = {
  port: number
  chains: readonly { id: number; rpcUrl: string }[]
  origins: string[]
  tokens: Partial<Record<ChainId, Token[]>>
  /** The NFT collections the devnet deployed; those marked spam become the network's spamNfts. */
  nfts?: Partial<Record<ChainId, { address: string; spam: boolean }[]>>
  /** The exchange the devnet deployed on each chain (devnet/src/exchange.ts). */
  exchange?: Partial<Record<ChainId, Exchange>>
  /** The devnet's sandbox onramp provider (devnet/src/onrampSandbox.ts), if it runs. */
  onrampUrl?: string
}

/** The local stack's configuration: its anvil chains, the demo projects, an embedded database. */
export function local(stack: LocalStack, env: NodeJS.ProcessEnv = process.env): Config {
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const network = ({ id, rpcUrl }: LocalStack['chains'][number]): [ChainId, Network] => {
    const chainId: ChainId = `eip155:${id}`
    const spamNfts = (stack.nfts?.[chainId] ?? []).filter((nft) => nft.spam).map((nft) => nft.address)
    const exchange = stack.exchange?.[chainId]
    return [
      chainId,
      { rpcUrl, name: `Anvil ${id}`, nativeCurrency: ether, testnet: true, tokens: stack.tokens[chainId] ?? [], spamNfts, ...(exchange && { exchange }) },
    ]
  }
  return {
    host: '127.0.0.1',
    port: stack.port,
    publicUrl: `http://127.0.0.1:${stack.port}`,
    networks: Object.fromEntries(stack.chains.map(network)),
    projects: {
      'doorway-demo': { origins: stack.origins, analytics: true },
      'doorway-wagmi-example': { origins: stack.origins, analytics: true },
      // A project that does not list the demo's origin: the demo shows what a misconfigured app sees.
      'doorway-foreign': { origins: ['https://dapp.example'], analytics: true },
    },
    prices: { ETH: 3000, DUSD: 1, DWT: 0.25, DUSDT: 1 },
    storage: { kind: 'embedded', dir: env.DOORWAY_API_DATA ?? '.doorway/api-data' },
    ...(stack.onrampUrl && { onramp: { providerUrl: stack.onrampUrl } }),
  }
}
