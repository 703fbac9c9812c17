/**
 * One ERC-7677 paymaster for one anvil chain, as its own process (services.ts spawns it): Pimlico's
 * mock-paymaster, which deploys the real SingletonPaymasters v0.6–v0.8, funds them, and answers
 * `pm_getPaymasterStubData` / `pm_getPaymasterData` for any operation. Dev only: never bundled.
 * `node --import tsx paymaster.cli.ts --rpc URL --bundler URL --port N`; tells its parent "ready" over IPC.
 */
import { parseArgs } from 'node:util'

// mock-paymaster's prool wrapper needs Node 22's Promise.withResolvers (docs/local-infra.md, smart accounts).
const withResolvers = <T>() => {
  let resolve!: (value: T) => void
  let reject!: (reason?: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
;(Promise as unknown as { withResolvers?: unknown }).withResolvers ??= withResolvers

const { values } = parseArgs({ options: { rpc: { type: 'string' }, bundler: { type: 'string' }, port: { type: 'string' } } })
if (!values.rpc || !values.bundler || !values.port) throw new Error('usage: paymaster.cli.ts --rpc URL --bundler URL --port N')

const { paymaster } = await import('@pimlico/mock-paymaster')
const instance = paymaster({ anvilRpc: values.rpc, altoRpc: values.bundler, port: Number(values.port), host: '127.0.0.1' })
await instance.start()
process.send?.('ready')
const stop = () => void instance.stop().finally(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
