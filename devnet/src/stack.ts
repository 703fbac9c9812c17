/** The local stack of docs/architecture.md §3: one place for every port and URL, each overridable by env. */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback)

export const ports = {
  demo: port('DOORWAY_DEMO_PORT', 5173),
  frame: port('DOORWAY_FRAME_PORT', 5174),
  secure: port('DOORWAY_SECURE_PORT', 5175),
  api: port('DOORWAY_API_PORT', 8787),
  relay: port('DOORWAY_RELAY_PORT', 8790),
  /** The embedded wallet's vault (secure-site/server, `--role=vault`): loopback only, called by the secure-site server. */
  vault: port('DOORWAY_VAULT_PORT', 8791),
  testWallet: port('DOORWAY_TEST_WALLET_PORT', 8792),
  /** The sandbox onramp provider (onrampSandbox.ts): card and bank test payments that deliver devnet funds. */
  onramp: port('DOORWAY_ONRAMP_PORT', 8793),
  /** The Bitcoin stand-in (bitcoin/esplora.ts): Esplora's HTTP API over a regtest UTXO set that checks signatures. */
  esplora: port('DOORWAY_ESPLORA_PORT', 8794),
  /** The Solana chain (solana/rpc.ts): JSON-RPC over litesvm, its websocket on the next port (8900). */
  solana: port('DOORWAY_SOLANA_PORT', 8899),
  /** The social providers' stand-in (oidc/provider.ts): Google, Apple, GitHub, X, Discord and Facebook on oidc-provider. */
  oidc: port('DOORWAY_OIDC_PORT', 8795),
  /** The Farcaster connect relay's stand-in (farcaster/relay.ts) and its test Farcaster client page at /client. */
  farcaster: port('DOORWAY_FARCASTER_PORT', 8796),
  smtp: port('DOORWAY_SMTP_PORT', 2525),
  mail: port('DOORWAY_MAIL_PORT', 8025),
}

export const urls = {
  demo: `http://localhost:${ports.demo}/`,
  frame: `http://127.0.0.1:${ports.frame}/`,
  secure: `http://127.0.0.1:${ports.secure}/`,
  api: `http://127.0.0.1:${ports.api}`,
  relay: `ws://127.0.0.1:${ports.relay}`,
  testWallet: `http://127.0.0.1:${ports.testWallet}/`,
  /** The sandbox onramp provider's base URL (no trailing slash: the api appends Coinbase's paths). */
  onramp: `http://127.0.0.1:${ports.onramp}`,
  solana: `http://127.0.0.1:${ports.solana}`,
  esplora: `http://127.0.0.1:${ports.esplora}`,
  oidc: `http://127.0.0.1:${ports.oidc}`,
  /** The Farcaster relay's base URL (no trailing slash: auth-client appends `/v1/…`). */
  farcaster: `http://127.0.0.1:${ports.farcaster}`,
  /** The mail sink's read API: GET /messages?to=ADDRESS. */
  mail: `http://127.0.0.1:${ports.mail}`,
}

/**
 * What the builds bake in: the SDK's default frame URL and the frame's secure-site URL (spec §9). The
 * secure-site build also pins three public keys (the vault's sealing and signing keys, the server's
 * transport key; secure-site/buildKeys.ts), which start.ts adds from the dev secrets it makes
 * (secure-site/server/src/secrets.ts ensureDev).
 */
export const buildEnv = {
  DOORWAY_FRAME_URL: urls.frame,
  DOORWAY_SECURE_URL: urls.secure,
  DOORWAY_API_URL: urls.api,
  DOORWAY_RELAY_URL: urls.relay,
  // No hosted WalletConnect services (Verify, telemetry) in local builds: frame-app/vite.config.ts.
  DOORWAY_LOCAL_BUILD: '1',
}

const portList = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map(Number)

// The two anvil chains (spec docs/architecture.md §3); DOORWAY_ANVIL_PORTS="8545,8546" moves them.
const anvilPorts = portList('DOORWAY_ANVIL_PORTS', '8545,8546')

/** The local EVM chains: chain id, port and the RPC URL wallets and dapps use. */
export const chains = [31337, 31338].map((id, i) => {
  const port = anvilPorts[i] ?? 8545 + i
  return { id, port, rpcUrl: `http://127.0.0.1:${port}` }
})

// One ERC-4337 bundler (alto) and one ERC-7677 paymaster per anvil chain (smartAccounts/services.ts),
// in the chains' order; DOORWAY_BUNDLER_PORTS / DOORWAY_PAYMASTER_PORTS move them.
const bundlerPorts = portList('DOORWAY_BUNDLER_PORTS', '8797,8798')
const paymasterPorts = portList('DOORWAY_PAYMASTER_PORTS', '8801,8802')

/** Where each chain's bundler and paymaster listen. */
export const smartAccountPorts = chains.map((chain, i) => ({ chainId: chain.id, bundler: bundlerPorts[i] ?? 8797 + i, paymaster: paymasterPorts[i] ?? 8801 + i }))

/** What the api serves in the local stack (apiConfig.ts local): its port, the chains, the demo's origin. */
/** Polkadot's CAIP-2 id: no Polkadot chain runs locally (ids and WalletConnect signing only). */
export const polkadotChainId = 'polkadot:91b171bb158e2d3848fa23a9f1c25182'

export const apiStack = { port: ports.api, chains, origins: [new URL(urls.demo).origin] }
