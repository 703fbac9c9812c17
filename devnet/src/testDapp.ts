/**
 * Tests only: the dapp side of WalletConnect (a real UniversalProvider) over the devnet relay, as the
 * devnet tests build it, and the relay and anvil they run on (useDevnet). Never shipped; vitest files
 * only. `import * as TestDapp from './testDapp.js'`.
 */
import { UniversalProvider, type UniversalProviderOpts } from '@walletconnect/universal-provider'
import { afterAll, beforeAll } from 'vitest'
import * as Anvil from './anvil.js'
import * as Relay from './relay.js'
import type { Chain } from './testWallet.js'

export type Provider = Awaited<ReturnType<typeof UniversalProvider.init>>

/** A dapp by the name wallets show for it; storage options pass through. */
export function create(options: { relayUrl: string; name: string } & Pick<UniversalProviderOpts, 'customStoragePrefix' | 'storageOptions' | 'storage'>) {
  const { name, ...rest } = options
  return UniversalProvider.init({
    projectId: 'doorway-test',
    logger: 'silent',
    telemetryEnabled: false,
    metadata: { name, description: 'a devnet test dapp', url: 'http://127.0.0.1', icons: [] },
    ...rest,
  })
}

/** The eip155 namespace a dapp asks for, with reads going to the chains' own RPC URLs. */
export function namespaces(chains: readonly Chain[], methods: string[]) {
  return {
    eip155: {
      methods,
      chains: chains.map((c) => `eip155:${c.id}`),
      events: ['chainChanged', 'accountsChanged'],
      rpcMap: Object.fromEntries(chains.map((c) => [c.id, c.rpcUrl])),
    },
  }
}

/** Ends a dapp's relay connection and timers, as a closed page would. */
export async function close(provider: Provider) {
  const core = provider.client.core
  core.heartbeat.stop()
  await core.relayer.transportClose()
}

/** The next `name` event of a dapp. */
export const event = <T>(provider: Provider, name: string) =>
  new Promise<T>((resolve) => provider.once(name, (value: T) => resolve(value)))

/** What useDevnet starts for a test file; relay and anvil are set once its beforeAll has run. */
export type Devnet = {
  relay: Relay.start.ReturnType
  anvil: Anvil.start.ReturnType
  /** The dapps a test opened, for closeProviders to end. */
  providers: Provider[]
  /** Closes the tracked dapps (errors ignored) and forgets them, so a second call does nothing. */
  closeProviders(): Promise<void>
}

/**
 * A relay on a free port and anvil on `chains` for the whole file: registers a top-level beforeAll (30 s)
 * that starts both and an afterAll that closes any dapps still tracked, then stops the relay, then anvil.
 * vitest.config.ts pins `sequence.hooks: 'stack'`, so hooks the file registers after this call run after
 * these in beforeAll and before them in afterAll: start the wallet or page after, and in its afterAll
 * `await devnet.closeProviders()` before stopping it, for the teardown order dapps → wallet → relay → anvil.
 */
export function useDevnet(chains: readonly Anvil.Chain[]): Devnet {
  // A restored or second dapp must build a fresh Core, as a reloaded or separate page would; without
  // this the sdk hands back the Core cached on globalThis.
  process.env.DISABLE_GLOBAL_CORE = 'true'
  const providers: Provider[] = []
  const devnet = {
    providers,
    async closeProviders() {
      await Promise.all(providers.splice(0).map((p) => close(p).catch(() => undefined)))
    },
  } as Devnet
  beforeAll(async () => {
    ;[devnet.relay, devnet.anvil] = await Promise.all([Relay.start({ port: 0 }), Anvil.start({ chains })])
  }, 30_000)
  afterAll(async () => {
    await devnet.closeProviders()
    await devnet.relay?.stop()
    await devnet.anvil?.stop()
  })
  return devnet
}
