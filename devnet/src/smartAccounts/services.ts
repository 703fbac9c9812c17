/**
 * The ERC-4337 services of docs/local-stack.md, one of each per anvil chain, each a child process: a real
 * bundler (Pimlico's alto, `--safe-mode false`: its ERC-7562 validator fails against anvil) and an ERC-7677
 * paymaster (paymaster.cli.ts). Both are dev dependencies and never bundled (alto is GPL-3.0).
 * `import * as Services from './services.js'` → `await Services.startBundler(chain, port)`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { Chain } from '../anvil.js'
import * as Anvil from '../anvil.js'
import * as Tokens from '../tokens.js'
import * as Contracts from './contracts.js'

export type Running = { url: string; stop(): Promise<void> }

/**
 * The bundler's keys: account 22 submits bundles, account 23 deploys alto's simulation contracts and
 * refills the executor. Their own accounts, so their nonces never race the devnet's other senders.
 */
export const bundlerKeys = { executor: mnemonicToAccount(Tokens.mnemonic, { addressIndex: 22 }), utility: mnemonicToAccount(Tokens.mnemonic, { addressIndex: 23 }) }

const keyOf = (account: typeof bundlerKeys.executor) => `0x${Buffer.from(account.getHdKey().privateKey!).toString('hex')}`

/** Starts alto for `chain` on loopback `port`; resolves once it answers `eth_supportedEntryPoints`. */
export async function startBundler(chain: Chain, port: number, options: { timeoutMs?: number } = {}): Promise<Running> {
  const { client } = Anvil.clients(chain, bundlerKeys.executor.address)
  for (const { address } of Object.values(bundlerKeys))
    await client.request({ method: 'anvil_setBalance' as never, params: [address, `0x${parseEther('1000').toString(16)}`] as never })
  const cli = join(dirname(createRequire(import.meta.url).resolve('@pimlico/alto')), 'cli/alto.js')
  const args = [
    cli,
    'run',
    ['--entrypoints', Contracts.entryPoints.filter((e) => e.version !== '0.6').map((e) => e.address).join(',')],
    ['--executor-private-keys', keyOf(bundlerKeys.executor)],
    ['--utility-private-key', keyOf(bundlerKeys.utility)],
    ['--rpc-url', chain.rpcUrl],
    ['--port', String(port)],
    ['--safe-mode', 'false'],
    // The frame calls the bundler from its own origin, as it would a hosted one.
    ['--enable-cors', 'true'],
    ['--log-level', 'warn'],
    // anvil mines at once: bundle as soon as an operation arrives.
    ['--min-bundle-interval', '50'],
    ['--max-bundle-interval', '200'],
  ].flat()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  await waitUntil(child, `alto for chain ${chain.id}`, options.timeoutMs ?? 60_000, () => answersRpc(url, 'eth_supportedEntryPoints'))
  return { url, stop: () => kill(child) }
}

/** Starts the paymaster for `chain` (its bundler at `bundlerUrl`) on loopback `port`; resolves once it deployed and listens. */
export async function startPaymaster(chain: Chain, port: number, bundlerUrl: string, options: { timeoutMs?: number } = {}): Promise<Running> {
  const cli = join(dirname(fileURLToPath(import.meta.url)), 'paymaster.cli.ts')
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--rpc', chain.rpcUrl, '--bundler', bundlerUrl, '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  })
  let ready = false
  child.once('message', () => (ready = true))
  await waitUntil(child, `the paymaster for chain ${chain.id}`, options.timeoutMs ?? 60_000, async () => ready)
  return { url: `http://127.0.0.1:${port}`, stop: () => kill(child) }
}

async function answersRpc(url: string, method: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    return res.ok && 'result' in ((await res.json()) as object)
  } catch {
    return false
  }
}

async function waitUntil(child: ChildProcess, name: string, timeoutMs: number, ready: () => Promise<boolean>): Promise<void> {
  let stderr = ''
  child.once('error', (error) => (stderr = error.message))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)))
  const deadline = Date.now() + timeoutMs
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
      throw new Error(`${name} exited (${child.exitCode}): ${stderr.trim()}`)
    if (await ready()) return
    if (Date.now() > deadline) {
      await kill(child)
      throw new Error(`${name} did not start within ${timeoutMs} ms: ${stderr.trim()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}
