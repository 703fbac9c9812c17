/**
 * The secure-site server and its vault on Node (docs/embedded-wallet.md §2, §9), two processes
 * that each read only their own secrets: `tsx secure-site/server/src/main.ts --role=server|vault`.
 * `start` and `startVault` run one in this process; `spawnVault` runs the vault as a child process,
 * as `npm start` does (devnet/src/start.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import * as App from './app.js'
import * as Limits from './limits.js'
import * as Mail from './mail.js'
import * as Secrets from './secrets.js'
import * as Social from './social/providers.js'
import * as Storage from './storage/Storage.js'
import * as Vault from './Vault.js'
import * as VaultStore from './vault/store.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')

export type Config = {
  host: string
  port: number
  storage: Storage.Config
  secretsDir: string
  smtp: { host: string; port: number }
  vaultUrl: string
  /** The built secure-site; absent serves only the API. */
  staticDir?: string
  /** Proxies whose X-Forwarded-For names the client (limits.ts). */
  trustedProxies?: string[]
  /** Per-network request limits over the defaults; `off` in the local stack, where every browser is 127.0.0.1. */
  limits?: Limits.Overrides
  /** The social providers signed in with (DOORWAY_SOCIAL_*, social/providers.ts `fromEnv`); none when absent. */
  social?: Social.Config
}

export type VaultConfig = {
  host: string
  port: number
  secretsDir: string
  storage: Storage.Config
  smtp: { host: string; port: number }
  /** Where the person's browser reaches the vault's approval page (the links in its mails). */
  publicUrl: string
}

export type Running = { url: string; stop(): Promise<void> }


/**
 * The server's configuration from the environment: DOORWAY_SECURE_PORT (5175), DOORWAY_SECURE_STORAGE
 * (a postgres:// URL, else a PGlite directory, `.doorway/secure-db`), DOORWAY_SECURE_SECRETS
 * (`.doorway/secure/server`), DOORWAY_SMTP_HOST and DOORWAY_SMTP_PORT (127.0.0.1:2525), DOORWAY_VAULT_URL
 * (http://127.0.0.1:8791, else DOORWAY_VAULT_PORT's), DOORWAY_SECURE_STATIC (secure-site/dist), and the
 * social providers' DOORWAY_SOCIAL_* (API.md Social sign-in; the callback origin defaults to this server's).
 */
export function config(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.DOORWAY_SECURE_HOST ?? '127.0.0.1'
  const port = Number(env.DOORWAY_SECURE_PORT ?? 5175)
  const social = Social.fromEnv(env, `http://${host}:${port}`)
  return {
    host,
    port,
    storage: Storage.fromString(env.DOORWAY_SECURE_STORAGE ?? resolve('.doorway/secure-db')),
    secretsDir: resolve(env.DOORWAY_SECURE_SECRETS ?? '.doorway/secure/server'),
    smtp: { host: env.DOORWAY_SMTP_HOST ?? '127.0.0.1', port: Number(env.DOORWAY_SMTP_PORT ?? 2525) },
    vaultUrl: env.DOORWAY_VAULT_URL ?? `http://127.0.0.1:${vaultConfig(env).port}`,
    staticDir: resolve(env.DOORWAY_SECURE_STATIC ?? join(root, 'secure-site/dist')),
    trustedProxies: (env.DOORWAY_SECURE_TRUSTED_PROXIES ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    ...(env.DOORWAY_SECURE_LIMITS === 'off' && { limits: Limits.off }),
    ...(social && { social }),
  }
}

/**
 * The vault's: DOORWAY_VAULT_PORT (8791) on 127.0.0.1 only, DOORWAY_VAULT_SECRETS (`.doorway/secure/vault`),
 * DOORWAY_VAULT_STORAGE (its own database: a postgres:// URL, else a PGlite directory, `.doorway/vault-db`),
 * DOORWAY_SMTP_HOST and DOORWAY_SMTP_PORT, DOORWAY_VAULT_PUBLIC_URL (http://127.0.0.1:<port>).
 */
export function vaultConfig(env: NodeJS.ProcessEnv = process.env): VaultConfig {
  const port = Number(env.DOORWAY_VAULT_PORT ?? 8791)
  return {
    host: '127.0.0.1',
    port,
    secretsDir: resolve(env.DOORWAY_VAULT_SECRETS ?? '.doorway/secure/vault'),
    storage: Storage.fromString(env.DOORWAY_VAULT_STORAGE ?? resolve('.doorway/vault-db')),
    smtp: { host: env.DOORWAY_SMTP_HOST ?? '127.0.0.1', port: Number(env.DOORWAY_SMTP_PORT ?? 2525) },
    publicUrl: env.DOORWAY_VAULT_PUBLIC_URL ?? `http://127.0.0.1:${port}`,
  }
}

/** Where secrets come from besides the files (the environment), and the clock (tests move it). */
export type Options = { env?: NodeJS.ProcessEnv; now?: () => number }

export async function start(config: Config, options: Options = {}): Promise<Running> {
  const { env = process.env, now = Date.now } = options
  const secrets = await Secrets.server({ dir: config.secretsDir, env })
  const storage = await Storage.open(config.storage)
  const mailer = Mail.smtp(config.smtp)
  const app = App.app({
    storage,
    secrets,
    vault: Vault.client(config.vaultUrl),
    mailer,
    now,
    staticDir: config.staticDir,
    ...(config.trustedProxies && { trustedProxies: config.trustedProxies }),
    ...(config.limits && { limits: config.limits }),
    ...(config.social && { social: config.social }),
  })
  try {
    return await listen(app.fetch, config, async () => {
      mailer.close()
      await storage.close()
    })
  } catch (error) {
    mailer.close()
    await storage.close()
    throw error
  }
}

export async function startVault(config: VaultConfig, options: Options = {}): Promise<Running> {
  const { env = process.env, now = Date.now } = options
  const secrets = await Secrets.vault({ dir: config.secretsDir, env })
  const store = await VaultStore.open(config.storage)
  const mailer = Mail.smtp(config.smtp)
  const app = Vault.app({ ...secrets, store, mailer, publicUrl: config.publicUrl, now })
  const close = async () => {
    mailer.close()
    await store.close()
  }
  try {
    return await listen(app.fetch, config, close)
  } catch (error) {
    await close()
    throw error
  }
}

/** The vault as a child process; it also exits when this process dies (its IPC channel closes). */
export function spawnVault(options: { port: number; secretsDir: string; storage?: string; env?: NodeJS.ProcessEnv; startupMs?: number }): Promise<Running> {
  const env: NodeJS.ProcessEnv = {
    ...(options.env ?? process.env),
    DOORWAY_VAULT_PORT: String(options.port),
    DOORWAY_VAULT_SECRETS: options.secretsDir,
    ...(options.storage && { DOORWAY_VAULT_STORAGE: options.storage }),
  }
  // The server's secrets never reach the vault's process (docs/embedded-wallet.md §9).
  for (const name of [...Secrets.serverVariables, 'DOORWAY_SECURE_SECRETS']) delete env[name]
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--role=vault'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  return new Promise<Running>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The vault did not start within ${options.startupMs ?? 30_000} ms`)), options.startupMs ?? 30_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGTERM')
      reject(error)
    }
    const early = (code: number | null) => fail(new Error(`The vault exited (${code}) before it listened; is port ${options.port} taken?`))
    child.once('exit', early)
    child.once('message', (message: { ready?: string }) => {
      clearTimeout(timer)
      child.off('exit', early)
      resolve({ url: message.ready!, stop: () => stopChild(child, exited) })
    })
  })
}

function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  return exited
}

function listen(fetch: (request: Request) => Response | Promise<Response>, where: { host: string; port: number }, close: () => Promise<void>): Promise<Running> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: where.host, port: where.port }, (info: AddressInfo) =>
      resolve({
        url: `http://${where.host}:${info.port}`,
        stop: () => new Promise<void>((done) => server.close(() => done())).then(close),
      }),
    )
    server.once('error', reject)
  })
}

function role(argv: string[]): 'server' | 'vault' {
  const value = argv.find((a) => a.startsWith('--role='))?.slice('--role='.length) ?? 'server'
  if (value !== 'server' && value !== 'vault') throw new Error(`Unknown --role=${value}: expected server or vault`)
  return value
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--print-build-keys')) {
  // What a secure-site build pins (secure-site/buildKeys.ts), from the two secrets directories.
  const keys = await Secrets.buildKeys({ server: config().secretsDir, vault: vaultConfig().secretsDir })
  for (const [name, value] of Object.entries(keys)) console.log(`${name}=${value}`)
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const which = role(process.argv)
  const running = await (which === 'vault' ? startVault(vaultConfig()) : start(config())).catch((error: Error) => {
    console.error(`[doorway:secure] ${which} did not start: ${error.message}`)
    process.exit(1)
  })
  console.log(`[doorway:secure] ${which} listening on ${running.url}`)
  process.send?.({ ready: running.url })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void running.stop().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // Spawned by another process: go when it goes.
  process.on('disconnect', stop)
}
