/**
 * Smart accounts on the local chains (docs/local-stack.md): on each anvil chain the EntryPoints and the
 * Delegation Framework (contracts.ts), then its bundler and its paymaster (services.ts), health-checked
 * before it resolves. What it returns is each chain's entry of the api's `smartAccounts` configuration.
 * `import * as SmartAccounts from './smartAccounts/stack.js'` → `await SmartAccounts.start({ chains, ports })`.
 */
import type { Chain } from '../anvil.js'
import * as Contracts from './contracts.js'
import * as Services from './services.js'

export type Network = { chainId: number; bundlerUrl: string; paymasterUrl: string; environment: Contracts.Environment }

export async function start(options: start.Options): Promise<start.ReturnType> {
  const running: Services.Running[] = []
  const stop = async () => {
    for (const service of running.splice(0).reverse()) await service.stop()
  }
  try {
    const networks = await Promise.all(
      options.chains.map(async (chain, i): Promise<Network> => {
        const ports = options.ports[i]
        if (!ports) throw new Error(`No bundler and paymaster ports for chain ${chain.id}`)
        const environment = await Contracts.deploy(chain)
        const bundler = await Services.startBundler(chain, ports.bundler)
        running.push(bundler)
        // The paymaster estimates through the bundler: it starts second.
        const paymaster = await Services.startPaymaster(chain, ports.paymaster, bundler.url)
        running.push(paymaster)
        return { chainId: chain.id, bundlerUrl: bundler.url, paymasterUrl: paymaster.url, environment }
      }),
    )
    return { networks, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
export declare namespace start {
  type Options = { chains: readonly Chain[]; ports: readonly { bundler: number; paymaster: number }[] }
  type ReturnType = { networks: Network[]; stop(): Promise<void> }
}
