/**
 * `npm start`: build the SDK, frame-app, secure-site and dev wallet for the local stack, start the anvil
 * chains, then serve every origin of docs/architecture.md §3 that exists so far: the secure-site's own server and
 * its vault (a child process) among them. Ctrl+C stops everything.
 */
import { execFileSync } from 'node:child_process'
import type { Server } from 'node:http'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as Api from '@doorway/api/server'
import * as SiwxServer from '@doorway/examples/siwx-server/server'
import * as SecureServer from '@doorway/secure-site/server/main'
import * as SecureLimits from '@doorway/secure-site/server/limits'
import * as SocialProviders from '@doorway/secure-site/server/social/providers'
import * as SecureSecrets from '@doorway/secure-site/server/secrets'
import * as SecureStorage from '@doorway/secure-site/server/storage/Storage'
import * as Ids from '@doorway/shared/Ids'
import * as Anvil from './anvil.js'
import * as Esplora from './bitcoin/esplora.js'
import * as FarcasterClient from './farcaster/client.js'
import * as FarcasterRegistry from './farcaster/registry.js'
import * as FarcasterRelay from './farcaster/relay.js'
import * as Oidc from './oidc/provider.js'
import * as ApiConfig from './apiConfig.js'
import * as Exchange from './exchange.js'
import * as MailSink from './mailSink.js'
import * as Nfts from './nfts.js'
import * as OnrampSandbox from './onrampSandbox.js'
import * as Relay from './relay.js'
import * as SmartAccounts from './smartAccounts/stack.js'
import * as SolanaRpc from './solana/rpc.js'
import * as SolanaTokens from './solana/tokens.js'
import * as TestWalletPage from './testWalletPage.js'
import { buildEnv, chains, polkadotChainId, ports, smartAccountPorts, urls } from './stack.js'
import { serve } from './static.js'
import * as Tokens from './tokens.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const at = (path: string) => join(root, path)

// The embedded wallet's dev secrets (gitignored), one directory for the server and one for the vault
// (docs/embedded-wallet.md §9). The secure-site build pins their public keys; the browser never fetches them.
const secureSecrets = await SecureSecrets.ensureDev(at('.doorway/secure'))

if (!process.argv.includes('--no-build')) {
  console.log('Building the SDK, frame-app, secure-site and dev wallet…')
  for (const workspace of ['sdk', 'frame-app', 'secure-site', 'examples'])
    execFileSync('npm', ['run', 'build', '--silent', '-w', workspace], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...buildEnv, ...secureSecrets.buildKeys },
    })
}

// What is running, newest first: a part that fails to start stops everything started before it.
const running: { stop(): Promise<void> }[] = []
async function stopAll() {
  for (const part of running.splice(0)) await part.stop()
}
async function launch<T extends { stop(): Promise<void> }>(start: () => Promise<T>): Promise<T> {
  try {
    const part = await start()
    running.unshift(part)
    return part
  } catch (error) {
    await stopAll()
    throw error
  }
}

// Before the servers: a page that loads must find its chains, their tokens, NFTs and exchange, and the api answering.
const anvil = await launch(() => Anvil.start())
console.log('Deploying the devnet tokens, NFTs and exchange…')
const { tokens } = await Tokens.deploy({ chains }).catch(async (error) => {
  await stopAll()
  throw error
})
const { nfts } = await Nfts.deploy({ chains }).catch(async (error) => {
  await stopAll()
  throw error
})
// The exchange the api quotes swaps from: Uniswap V2 with ETH/DUSD, ETH/DWT and DUSD/DWT pools.
const { exchange } = await Exchange.deploy({ chains, tokens }).catch(async (error) => {
  await stopAll()
  throw error
})
// Smart accounts (issue 25): the EntryPoints and MetaMask's Delegation Framework on each chain, its
// bundler (alto) and its ERC-7677 paymaster, each answering before the api is told their URLs.
const smartAccounts = await launch(() => SmartAccounts.start({ chains, ports: smartAccountPorts }))
// The Solana chain (JSON-RPC over litesvm) with its DUSD mint, and the Bitcoin stand-in (Esplora over a
// regtest UTXO set); each funds the dev keys (docs/local-stack.md).
const solana = await launch(() => SolanaRpc.start({ port: ports.solana }))
const { dusd } = await SolanaTokens.deploy(solana).catch(async (error) => {
  await stopAll()
  throw error
})
const esplora = await launch(() => Esplora.start({ port: ports.esplora }))
await Esplora.fundDevKeys(esplora)
// The sandbox onramp provider: the buy page the modal opens, delivering from anvil account 6 (it takes
// its tokens from account 4, so after the exchange's pools). The api reads its options, quotes and orders.
const onramp = await launch(() => OnrampSandbox.start({ port: ports.onramp, chains, tokens }))
// The api gets its whole configuration from here (apiConfig.ts): it reads nothing of devnet's itself.
await launch(() =>
  Api.start(
    ApiConfig.fromDeployed({
      tokens,
      nfts,
      exchange,
      onrampUrl: onramp.url,
      solana: { chainId: solana.chainId, rpcUrl: solana.url, tokens: [{ address: dusd.mint, name: dusd.name, symbol: dusd.symbol, decimals: dusd.decimals }] },
      bitcoin: { chainId: esplora.chainId, esploraUrl: esplora.url },
      smartAccounts: Object.fromEntries(smartAccounts.networks.map(({ chainId, ...network }) => [`eip155:${chainId}`, network])),
    }),
  ),
)
// The WalletConnect relay stand-in (docs/local-infra.md): same protocol as the hosted one.
await launch(() => Relay.start({ port: ports.relay }))
// The mail sink: SMTP in, and a read API for the login codes the embedded wallet mails.
const mail = await launch(() => MailSink.start({ smtpPort: ports.smtp, httpPort: ports.mail }))
// The dev page that pairs the test wallet with a pasted `wc:` link, over that relay.
const testWallet = await launch(() =>
  TestWalletPage.start({
    port: ports.testWallet,
    relayUrl: urls.relay,
    chains,
    solana: { rpcUrl: solana.url, chainId: solana.chainId },
    bitcoin: { esploraUrl: esplora.url, chainId: esplora.chainId },
    polkadot: { chainId: polkadotChainId },
  }),
)
// The embedded wallet's vault: its own process with its own secrets and database, mailing the person
// itself (approval links, recovery notices) and serving the approval page.
const vault = await launch(() =>
  SecureServer.spawnVault({
    port: ports.vault,
    secretsDir: secureSecrets.vault,
    storage: process.env.DOORWAY_VAULT_STORAGE ?? at('.doorway/vault-db'),
    env: { ...process.env, DOORWAY_SMTP_HOST: mail.smtp.host, DOORWAY_SMTP_PORT: String(mail.smtp.port) },
  }),
)
// The social providers' stand-in: one client per provider, returning to the secure-site server, which
// is the OAuth client (docs/embedded-wallet.md §4.5). Real providers are configuration only (DOORWAY_SOCIAL_*).
const socialCallback = `${new URL(urls.secure).origin}/oauth/callback`
const oidc = await launch(() =>
  Oidc.start({
    port: ports.oidc,
    clients: Object.fromEntries(Oidc.faces.map((face) => [face, { ...SocialProviders.devnetClient(face), redirectUris: [socialCallback] }])) as Record<Oidc.Face, Oidc.Client>,
  }),
)
// Sign In With Farcaster (docs/embedded-wallet.md §5): Farcaster's ID registry on the first chain, which
// the secure-site server verifies sign-ins against, installed on every start (a reused anvil may have lost
// it), and the connect relay's stand-in with its test Farcaster client page.
await FarcasterRegistry.installRegistry(chains[0]!.rpcUrl, FarcasterClient.users).catch(async (error) => {
  await stopAll()
  throw error
})
const farcaster = await launch(() => FarcasterRelay.start({ port: ports.farcaster, authKey: Ids.random(), rpcUrl: chains[0]!.rpcUrl }))
// The secure-site's own server: the built page under its strict CSP, and the embedded wallet's API
// (secure-site/server/API.md), mailing codes to the sink and asking the vault to re-seal.
await launch(() =>
  SecureServer.start({
    host: '127.0.0.1',
    port: ports.secure,
    storage: SecureStorage.fromString(process.env.DOORWAY_SECURE_STORAGE ?? at('.doorway/secure-db')),
    secretsDir: secureSecrets.server,
    smtp: mail.smtp,
    vaultUrl: vault.url,
    staticDir: at('secure-site/dist'),
    // Every browser of the local stack (and of its e2e) is 127.0.0.1: one network for the per-network
    // limits, which secure-site/server/src/limits.test.ts tests instead.
    limits: SecureLimits.off,
    social: SocialProviders.fromEnv(
      { ...process.env, DOORWAY_SOCIAL_DEVNET: oidc.origin, DOORWAY_FARCASTER_DEVNET: farcaster.origin, DOORWAY_FARCASTER_RPC: chains[0]!.rpcUrl },
      new URL(urls.secure).origin,
    )!,
  }),
)

const frameOrigin = new URL(urls.frame).origin
const secureOrigin = new URL(urls.secure).origin
const apiOrigin = new URL(urls.api).origin
const csp = (rules: Record<string, string>) =>
  Object.entries({ 'default-src': "'self'", 'base-uri': "'none'", 'object-src': "'none'", ...rules })
    .map(([k, v]) => `${k} ${v}`)
    .join('; ')

// The wagmi example's sign-in server (examples/siwx-server): nonces, verified EIP-4361 sign-ins and the
// session cookie under /siwx/api/ on the demo origin itself, so the page reaches it under `connect-src
// 'self'` and its cookie is same-origin. Messages must name the host the wagmi page is opened at (urls.demo).
const siwx = SiwxServer.createSiwxServer({
  domain: `localhost:${ports.demo}`,
  rpcUrls: Object.fromEntries(chains.map((chain) => [`eip155:${chain.id}`, chain.rpcUrl])),
})

// The demo host page runs under a strict CSP: besides itself it allows only the frame origin.
const demo: serve.Options = {
  port: ports.demo,
  hosts: ['127.0.0.1', '::1'],
  handlers: [siwx],
  mounts: [
    { prefix: '/sdk/', dir: at('sdk/dist') },
    // The dev wallet plays a browser extension on the demo page (examples/dev-wallet).
    { prefix: '/dev-wallet/', dir: at('examples/dev-wallet/dist') },
    // The wagmi example: a React dapp whose wagmi config drives the modal's provider (examples/wagmi).
    { prefix: '/wagmi/', dir: at('examples/wagmi/dist') },
    // A Solana dapp on @solana/wallet-adapter's Wallet Standard adapter, which finds the modal as the Doorway wallet (examples/solana).
    { prefix: '/solana/', dir: at('examples/solana/dist') },
    // The side-by-side pages of `npm run bench` (issue 14), when the bench has built them.
    { prefix: '/bench/', dir: at('bench/pages/dist') },
    { prefix: '/', dir: at('examples/demo') },
  ],
  // The SDK needs only frame-src. connect-src is for the dev wallet, which plays an extension but
  // runs in the page, so the page's CSP applies to its RPC calls (a real extension's would not).
  headers: { 'content-security-policy': csp({ 'frame-src': frameOrigin, 'connect-src': "'self' http://127.0.0.1:*" }) },
}

const servers: Server[] = (
  await Promise.all([
    // Machines without an IPv6 loopback still serve the demo on 127.0.0.1.
    serve(demo).catch(() => serve({ ...demo, hosts: ['127.0.0.1'] })),
    serve({
      port: ports.frame,
      hosts: ['127.0.0.1'],
      mounts: [{ prefix: '/', dir: at('frame-app/dist') }],
      headers: {
        'content-security-policy': csp({
          'frame-src': secureOrigin,
          // The api, the WalletConnect relay, and the chains for reads over a WalletConnect session
          // (UniversalProvider's rpcMap: the dapp's network RPC URLs).
          // Solana sends go to the dapp's Solana RPC and Bitcoin payments are followed on its Esplora API
          // (balances and history come from the api).
          // A smart account's operations go to its chain's bundler and paymaster (ERC-7677), as they would to hosted ones.
          'connect-src': `'self' ${apiOrigin} ${urls.relay} ${chains.map((c) => c.rpcUrl).join(' ')} ${solana.url} ${esplora.url} ${smartAccounts.networks.flatMap((n) => [n.bundlerUrl, n.paymasterUrl]).join(' ')}`,
          // The social providers' and Farcaster's pictures of the person (spec §3 user): the devnet stand-ins serve them.
          'img-src': `'self' data: ${apiOrigin} ${oidc.origin} ${farcaster.origin}`,
          'frame-ancestors': '*',
        }),
      },
    }),
  ]).catch(async (error) => {
    // a port taken by another app: do not leave the chains, relay, api and test wallet running behind us
    await stopAll()
    throw error
  })
).flat()

console.log(`
Doorway local stack is up.
  Demo:        ${urls.demo} (the wagmi example's sign-in API at ${urls.demo}siwx/api/)
  Frame-app:   ${urls.frame}
  Secure-site: ${urls.secure} (page and embedded-wallet API, secure-site/server)
  Vault:       ${vault.url} (its own process; re-seals recovery shares for the secure-site server)
  API:         ${urls.api}
  Relay:       ${urls.relay} (WalletConnect)
  Test wallet: ${testWallet.url} (paste the modal's WalletConnect link)
  Onramp:      ${onramp.url} (sandbox card and bank provider; test card 4242 4242 4242 4242, declined 4000 0000 0000 0002)
  Mail sink:   smtp://127.0.0.1:${mail.smtp.port}, read mail at ${mail.url}/messages?to=ADDRESS
  Chains:      ${chains.map((c) => `${c.id} ${c.rpcUrl}`).join(', ')}${anvil.reused ? ' (reusing running anvil)' : ''}
  Bundlers:    ${smartAccounts.networks.map((n) => `${n.chainId} ${n.bundlerUrl} (paymaster ${n.paymasterUrl})`).join(', ')}
  Solana:      ${solana.url} (${solana.chainId}, DUSD mint ${dusd.mint})
  Bitcoin:     ${esplora.url} (Esplora API, regtest, ${esplora.chainId})
  Social:      ${oidc.origin}/<google|apple|github|x|discord|facebook> (sign-in stand-in: pick a test user or type an email)
  Farcaster:   ${farcaster.origin}/client (test Farcaster app: approve a sign-in)
Open the demo and press "Connect Wallet". Ctrl+C stops everything.`)

const stop = async () => {
  for (const server of servers) server.close()
  await stopAll()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
