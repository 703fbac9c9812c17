/**
 * The local EVM chains of docs/architecture.md §3: one anvil process per chain, with the standard test mnemonic
 * (anvil's default). `import * as Anvil from './anvil.js'` → `await Anvil.start()`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type Account, type Address, createPublicClient, createWalletClient, defineChain, http } from 'viem'
import { chains as stackChains } from './stack.js'

export type Chain = { id: number; port: number; rpcUrl: string }

export type AnvilErrorCode = 'WrongChain' | 'Exited' | 'Timeout' | 'Unsupported'

export class AnvilError extends Error {
  override readonly name = 'AnvilError'
  constructor(
    readonly code: AnvilErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Starts (or reuses) one anvil per chain and resolves once every chain answers `eth_chainId`.
 * A port already served by an anvil with the right chain id is reused and left running on stop, so
 * a developer can run the stack twice.
 */
export async function start(options: start.Options = {}): Promise<start.ReturnType> {
  const { chains = stackChains, timeoutMs = 10_000 } = options
  const started: Spawned[] = []
  const stop = () => Promise.all(started.map(({ child }) => kill(child))).then(() => undefined)
  try {
    await Promise.all(
      chains.map(async (chain) => {
        const running = await chainId(chain.rpcUrl)
        if (running === chain.id) return
        if (running !== undefined)
          throw new AnvilError('WrongChain', `${chain.rpcUrl} answers chain ${running}, expected ${chain.id}`)
        const spawned = spawnAnvil(chain)
        started.push(spawned)
        await waitForChain(chain, spawned, Date.now() + timeoutMs)
      }),
    )
  } catch (error) {
    await stop()
    throw error
  }
  return { chains, reused: chains.length - started.length, stop }
}
export declare namespace start {
  type Options = { chains?: readonly Chain[]; timeoutMs?: number }
  type ReturnType = { chains: readonly Chain[]; reused: number; stop(): Promise<void> }
}

/** The chain id a JSON-RPC endpoint answers, or undefined when nothing answers there. */
export async function chainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    const body = (await res.json()) as { result?: string }
    return typeof body.result === 'string' ? Number(body.result) : undefined
  } catch {
    return undefined
  }
}

function binary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string]
  if (!arch) throw new AnvilError('Unsupported', `No anvil binary for ${process.platform}-${process.arch}`)
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}/package.json`
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  return join(dirname(createRequire(import.meta.url).resolve(pkg)), 'bin', exe)
}

type Spawned = { child: ChildProcess; stderr(): string }

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

function spawnAnvil(chain: Chain): Spawned {
  const { hostname, port } = new URL(chain.rpcUrl)
  const args = ['--host', hostname, '--port', port, '--chain-id', String(chain.id), '--silent']
  // stderr is kept for the error message when anvil refuses to start (e.g. a port taken by another app)
  const child = spawn(binary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  // a failed spawn (no binary) emits 'error' and never 'exit'; record it so waitForChain stops at once
  child.once('error', (error) => (stderr = error.message))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2_000)))
  return { child, stderr: () => stderr.trim() }
}

async function waitForChain(chain: Chain, { child, stderr }: Spawned, deadline: number): Promise<void> {
  for (let delay = 25; ; delay = Math.min(delay * 2, 200)) {
    if (exited(child) || child.pid === undefined)
      throw new AnvilError('Exited', `anvil for chain ${chain.id} exited (${child.exitCode}): ${stderr()}`)
    if ((await chainId(chain.rpcUrl)) === chain.id) return
    if (Date.now() > deadline)
      throw new AnvilError('Timeout', `anvil for chain ${chain.id} did not answer on ${chain.rpcUrl}`)
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

function kill(child: ChildProcess): Promise<void> {
  if (exited(child) || child.pid === undefined) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** A local chain as viem knows chains, for clients that talk to it. */
export function viemChain(chain: Pick<Chain, 'id' | 'rpcUrl'>) {
  return defineChain({
    id: chain.id,
    name: `Anvil ${chain.id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  })
}

/**
 * A reading client and a sending one for `account` on a local chain: an address anvil holds the key of
 * (it numbers the transactions itself, so parallel senders never race for a nonce) or a local account.
 */
export function clients(chain: Pick<Chain, 'id' | 'rpcUrl'>, account: Address | Account) {
  const defined = viemChain(chain)
  // anvil mines each transaction at once; the default 4 s polling would only add waiting
  const client = createPublicClient({ chain: defined, transport: http(chain.rpcUrl), pollingInterval: 50 })
  const wallet = createWalletClient({ chain: defined, transport: http(chain.rpcUrl), account })
  return { client, wallet }
}
