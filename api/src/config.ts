/**
 * What an operator configures (issue 4): networks (CAIP-2 id → JSON-RPC URL, native currency, testnet
 * flag, known tokens), projects (projectId → allowed host origins), prices, and storage. From a JSON
 * file named by DOORWAY_API_CONFIG, else the local stack's defaults over devnet.
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
}

export function load(env: NodeJS.ProcessEnv = process.env): Config {
  const file = env.DOORWAY_API_CONFIG
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as Config) : local(env)
}

/** The local stack's configuration: both anvil chains, the demo projects, an embedded database. */
export function local(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.DOORWAY_API_PORT ?? 8787)
  const anvilPorts = (env.DOORWAY_ANVIL_PORTS ?? '8545,8546').split(',').map(Number)
  const tokens = readTokens(env.DOORWAY_DEVNET_MANIFEST ?? '.doorway/devnet.json')
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const demoOrigins = ['http://localhost:5173']
  return {
    host: '127.0.0.1',
    port,
    publicUrl: `http://127.0.0.1:${port}`,
    networks: {
      'eip155:31337': { rpcUrl: `http://127.0.0.1:${anvilPorts[0]}`, name: 'Anvil 31337', nativeCurrency: ether, testnet: true, tokens: tokens['eip155:31337'] ?? [] },
      'eip155:31338': { rpcUrl: `http://127.0.0.1:${anvilPorts[1]}`, name: 'Anvil 31338', nativeCurrency: ether, testnet: true, tokens: tokens['eip155:31338'] ?? [] },
    },
    projects: {
      'doorway-demo': { origins: demoOrigins, analytics: true },
      'doorway-wagmi-example': { origins: demoOrigins, analytics: true },
      // A project that does not list the demo's origin: the demo shows what a misconfigured app sees.
      'doorway-foreign': { origins: ['https://dapp.example'], analytics: true },
    },
    prices: { ETH: 3000, DUSD: 1, DWT: 0.25 },
    storage: { kind: 'embedded', dir: env.DOORWAY_API_DATA ?? '.doorway/api-data' },
  }
}

/** Tokens devnet deployed, from the manifest it writes at start (devnet/src/tokens.ts). */
function readTokens(path: string): Partial<Record<ChainId, Token[]>> {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { tokens: Partial<Record<ChainId, Token[]>> }).tokens
  } catch {
    return {}
  }
}
