/**
 * The api's configuration in the local stack (docs/architecture.md §3): devnet builds it from its own
 * ports, chains and deployments and passes it in; the api reads nothing of devnet's. start.ts gives
 * `fromDeployed` what it just deployed; `lastDeployed` reads what the last `npm start` deployed
 * (tokens.ts's manifest), for the api alone against a running devnet (api.ts).
 */
import type * as ApiConfig from '@doorway/api/config'
import type { ChainId } from '@doorway/shared/Caip'
import { apiStack, urls } from './stack.js'
import * as Tokens from './tokens.js'

/** What the local stack hands the api: its port, chains, the demo's origin, tokens. */
export type LocalStack = {
  port: number
  chains: readonly { id: number; rpcUrl: string }[]
  origins: string[]
  tokens: Partial<Record<ChainId, ApiConfig.Token[]>>
  /** The NFT collections the devnet deployed; those marked spam become the network's spamNfts. */
  nfts?: Partial<Record<ChainId, { address: string; spam: boolean }[]>>
  /** The exchange the devnet deployed on each chain (exchange.ts). */
  exchange?: Partial<Record<ChainId, ApiConfig.Exchange>>
  /** Each chain's bundler, paymaster and Delegation Framework (smartAccounts/), if they run. */
  smartAccounts?: Partial<Record<ChainId, ApiConfig.SmartAccounts>>
  /** The devnet's sandbox onramp provider (onrampSandbox.ts), if it runs. */
  onrampUrl?: string
  /** The devnet's Solana chain (solana/rpc.ts) and its SPL mints (solana/tokens.ts), if it runs. */
  solana?: { chainId: ChainId; rpcUrl: string; tokens: ApiConfig.Token[] }
  /** The devnet's Esplora stand-in over a regtest chain (bitcoin/esplora.ts), if it runs. */
  bitcoin?: { chainId: ChainId; esploraUrl: string }
}

/** What devnet deployed, and where its bundlers, paymasters, sandbox onramp, Solana chain and Esplora stand-in listen. */
export type Deployed = Pick<LocalStack, 'tokens' | 'nfts' | 'exchange' | 'smartAccounts' | 'onrampUrl' | 'solana' | 'bitcoin'>

/** The local stack's configuration: its anvil chains, the demo projects, an embedded database. */
export function local(stack: LocalStack, env: NodeJS.ProcessEnv = process.env): ApiConfig.Config {
  const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }
  const network = ({ id, rpcUrl }: LocalStack['chains'][number]): [ChainId, ApiConfig.Network] => {
    const chainId: ChainId = `eip155:${id}`
    const spamNfts = (stack.nfts?.[chainId] ?? []).filter((nft) => nft.spam).map((nft) => nft.address)
    const exchange = stack.exchange?.[chainId]
    const smartAccounts = stack.smartAccounts?.[chainId]
    return [
      chainId,
      {
        rpcUrl,
        name: `Anvil ${id}`,
        nativeCurrency: ether,
        testnet: true,
        tokens: stack.tokens[chainId] ?? [],
        spamNfts,
        ...(exchange && { exchange }),
        ...(smartAccounts && { smartAccounts }),
      },
    ]
  }
  return {
    host: '127.0.0.1',
    port: stack.port,
    publicUrl: `http://127.0.0.1:${stack.port}`,
    networks: { ...Object.fromEntries(stack.chains.map(network)), ...otherNetworks(stack) },
    projects: {
      'doorway-demo': { origins: stack.origins, analytics: true },
      'doorway-wagmi-example': { origins: stack.origins, analytics: true },
      'doorway-solana-example': { origins: stack.origins, analytics: true },
      // A project that does not list the demo's origin: the demo shows what a misconfigured app sees.
      'doorway-foreign': { origins: ['https://dapp.example'], analytics: true },
    },
    prices: { ETH: 3000, DUSD: 1, DWT: 0.25, DUSDT: 1, SOL: 150, BTC: 60_000 },
    storage: { kind: 'embedded', dir: env.DOORWAY_API_DATA ?? '.doorway/api-data' },
    ...(stack.onrampUrl && { onramp: { providerUrl: stack.onrampUrl } }),
  }
}

/** The devnet's Solana chain and regtest Bitcoin, as the api's networks (config.ts `kind`). */
function otherNetworks(stack: LocalStack): Partial<Record<ChainId, ApiConfig.Network>> {
  const networks: Partial<Record<ChainId, ApiConfig.Network>> = {}
  if (stack.solana) {
    const { chainId, rpcUrl, tokens } = stack.solana
    networks[chainId] = { kind: 'solana', rpcUrl, name: 'Solana Devnet (local)', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, testnet: true, tokens }
  }
  if (stack.bitcoin) {
    const { chainId, esploraUrl } = stack.bitcoin
    networks[chainId] = { kind: 'bip122', esploraUrl, name: 'Bitcoin Regtest (local)', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }, testnet: true, tokens: [] }
  }
  return networks
}

/** This machine's stack (stack.ts: ports and chains, each movable by env) serving what devnet deployed. */
export function fromDeployed(deployed: Deployed, env: NodeJS.ProcessEnv = process.env): ApiConfig.Config {
  return local({ ...apiStack, ...deployed }, env)
}

/** The tokens, NFT collections and exchange the last deployment recorded, and the sandbox onramp's URL. */
export function lastDeployed(env: NodeJS.ProcessEnv = process.env): ApiConfig.Config {
  const manifest = Tokens.readManifest()
  return fromDeployed({ tokens: manifest?.tokens ?? {}, nfts: manifest?.nfts ?? {}, exchange: manifest?.exchange ?? {}, onrampUrl: urls.onramp }, env)
}
