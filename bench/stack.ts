/**
 * Runs the local stack (devnet/src/start.ts) as a child process for the bench, and later the e2e
 * tests. The child leads its own process group, so stopping it also stops what tsx spawned.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const upLine = 'Doorway local stack is up.'

export type Stack = { stop(): Promise<void> }

/** Starts the stack and resolves once it prints that it is up; rejects if it exits or times out first. */
export async function start(options: start.Options = {}): Promise<Stack> {
  const { build = false, timeoutMs = 60_000, env } = options
  const args = ['--conditions=source', join(root, 'devnet/src/start.ts'), ...(build ? [] : ['--no-build'])]
  const child = spawn(join(root, 'node_modules/.bin/tsx'), args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  const onExit = () => killGroup(child, 'SIGKILL')
  process.once('exit', onExit)
  const stack = { stop: () => stop(child).finally(() => process.off('exit', onExit)) }
  await waitUntilUp(child, timeoutMs).catch(async (error) => {
    await stack.stop()
    throw error
  })
  return stack
}

export declare namespace start {
  type Options = { build?: boolean; timeoutMs?: number; env?: Record<string, string> }
}

async function waitUntilUp(child: ChildProcess, timeoutMs: number) {
  let output = ''
  let timer: NodeJS.Timeout | undefined
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (reason: string) => reject(new Error(`The stack did not start: ${reason}\n${output}`))
      timer = setTimeout(() => fail(`no "${upLine}" within ${timeoutMs} ms`), timeoutMs)
      const collect = (chunk: Buffer) => {
        output += chunk
        if (output.includes(upLine)) resolve()
      }
      child.stdout?.on('data', collect)
      child.stderr?.on('data', collect)
      child.once('error', (error) => fail(error.message))
      child.once('exit', (code, signal) => fail(`it exited (${signal ?? code})`))
    })
  } finally {
    clearTimeout(timer)
    child.removeAllListeners('exit')
    // Keep draining its output (a full pipe would block it) but stop collecting.
    for (const stream of [child.stdout, child.stderr]) stream?.removeAllListeners('data').resume()
  }
}

/** SIGTERM to the whole group (start.ts closes its servers), SIGKILL if it lingers. */
async function stop(child: ChildProcess, graceMs = 5_000) {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  killGroup(child, 'SIGTERM')
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs)
  await exited.finally(() => clearTimeout(timer))
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    // The group is already gone.
  }
}
