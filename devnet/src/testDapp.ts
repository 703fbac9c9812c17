/**
 * Tests only: the dapp side of WalletConnect (a real UniversalProvider) over the devnet relay, as the
 * devnet tests build it. Never shipped. `import * as TestDapp from './testDapp.js'`.
 */
import { UniversalProvider, type UniversalProviderOpts } from '@walletconnect/universal-provider'
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
