/**
 * The secrets kept outside the database (docs/embedded-wallet.md §9), each process reading only its
 * own and refusing to start when it can read the other's: the server has KEK_A, the OTP pepper, the
 * ticket key's private half and its transport key; the vault its sealing key, its signing key and the
 * ticket key's public half. From the environment, else from files in the process's own directory (a KMS
 * or HSM in production). `ensureDev` makes the local stack's stand-ins, in two directories.
 * `import * as Secrets from './secrets.js'`.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Envelope from './Envelope.js'
import * as Ticket from './Ticket.js'

/** The files of each directory: raw bytes as base64url text, key pairs as JWK, public points as base64url. */
export const files = {
  server: {
    kek: 'kek_a',
    pepper: 'otp_pepper',
    ticketKey: 'ticket.jwk',
    transportKey: 'transport.jwk',
    /** The transport key's point, which the secure-site build pins: uploads are sealed to it. */
    transportPublicKey: 'transport.pub',
  },
  vault: {
    key: 'vault.jwk',
    signingKey: 'vault-signing.jwk',
    ticketPublicKey: 'ticket.pub.jwk',
    /** The points the secure-site build pins: R2 is sealed to the first, the second checks the vault's statements. */
    publicKey: 'vault.pub',
    signingPublicKey: 'vault-signing.pub',
  },
} as const

/** What each process must never be able to read: the other's private keys, by variable and by file. */
const vaultOnly = { env: ['DOORWAY_VAULT_KEY', 'DOORWAY_VAULT_SIGNING_KEY'], files: [files.vault.key, files.vault.signingKey] }
const serverOnly = { env: ['DOORWAY_KEK_A', 'DOORWAY_OTP_PEPPER', 'DOORWAY_TICKET_KEY', 'DOORWAY_TRANSPORT_KEY'], files: [files.server.kek, files.server.ticketKey, files.server.transportKey] }
export const serverVariables = serverOnly.env

const ecdh = { name: 'ECDH', namedCurve: 'P-256' } as const

export type ServerSecrets = { kek: CryptoKey; pepper: Uint8Array; ticketKey: CryptoKey; transportKey: CryptoKey }
export type VaultSecrets = { key: CryptoKey; publicKey: Uint8Array; signingKey: CryptoKey; signingPublicKey: Uint8Array; ticketKey: CryptoKey }

/** The server's: DOORWAY_KEK_A, DOORWAY_OTP_PEPPER (base64url), DOORWAY_TICKET_KEY and DOORWAY_TRANSPORT_KEY (private JWKs), else the files. */
export async function server(options: { dir: string; env?: NodeJS.ProcessEnv }): Promise<ServerSecrets> {
  const { dir, env = process.env } = options
  await refuseOther('server', vaultOnly, dir, env)
  const kek = secretBytes(await read(env.DOORWAY_KEK_A, 'DOORWAY_KEK_A', dir, files.server.kek))
  if (kek.length !== 32) throw new Error('KEK_A must be 32 bytes as base64url (DOORWAY_KEK_A or kek_a)')
  const pepper = secretBytes(await read(env.DOORWAY_OTP_PEPPER, 'DOORWAY_OTP_PEPPER', dir, files.server.pepper))
  if (pepper.length < 32) throw new Error('The OTP pepper must be at least 32 bytes as base64url (DOORWAY_OTP_PEPPER or otp_pepper)')
  const ticketJwk = jwk(await read(env.DOORWAY_TICKET_KEY, 'DOORWAY_TICKET_KEY', dir, files.server.ticketKey), 'DOORWAY_TICKET_KEY')
  const transportJwk = jwk(await read(env.DOORWAY_TRANSPORT_KEY, 'DOORWAY_TRANSPORT_KEY', dir, files.server.transportKey), 'DOORWAY_TRANSPORT_KEY')
  return {
    kek: await Envelope.importKey(kek),
    pepper,
    ticketKey: await crypto.subtle.importKey('jwk', ticketJwk, Ticket.algorithm, false, ['sign']),
    transportKey: await crypto.subtle.importKey('jwk', transportJwk, ecdh, false, ['deriveBits']),
  }
}

/** The vault's: DOORWAY_VAULT_KEY, DOORWAY_VAULT_SIGNING_KEY (private JWKs) and DOORWAY_TICKET_PUBLIC_KEY (a public JWK), else the files. */
export async function vault(options: { dir: string; env?: NodeJS.ProcessEnv }): Promise<VaultSecrets> {
  const { dir, env = process.env } = options
  await refuseOther('vault', serverOnly, dir, env)
  const vaultJwk = jwk(await read(env.DOORWAY_VAULT_KEY, 'DOORWAY_VAULT_KEY', dir, files.vault.key), 'DOORWAY_VAULT_KEY')
  const signingJwk = jwk(await read(env.DOORWAY_VAULT_SIGNING_KEY, 'DOORWAY_VAULT_SIGNING_KEY', dir, files.vault.signingKey), 'DOORWAY_VAULT_SIGNING_KEY')
  const ticketJwk = jwk(await read(env.DOORWAY_TICKET_PUBLIC_KEY, 'DOORWAY_TICKET_PUBLIC_KEY', dir, files.vault.ticketPublicKey), 'DOORWAY_TICKET_PUBLIC_KEY')
  return {
    key: await crypto.subtle.importKey('jwk', vaultJwk, ecdh, false, ['deriveBits']),
    publicKey: point(vaultJwk),
    signingKey: await crypto.subtle.importKey('jwk', signingJwk, Attest.algorithm, false, ['sign']),
    signingPublicKey: point(signingJwk),
    ticketKey: await crypto.subtle.importKey('jwk', publicJwk(ticketJwk), Ticket.algorithm, false, ['verify']),
  }
}

/** docs/embedded-wallet.md §9: a process that can read the other's private keys undoes the split, so it does not start. */
async function refuseOther(role: 'server' | 'vault', other: { env: readonly string[]; files: readonly string[] }, dir: string, env: NodeJS.ProcessEnv) {
  const variable = other.env.find((name) => env[name])
  const file = (await Promise.all(other.files.map(async (name) => ((await access(join(dir, name)).then(() => true, () => false)) ? name : undefined)))).find(Boolean)
  if (variable || file)
    throw new Error(`The ${role} can read the ${role === 'server' ? 'vault' : 'server'}'s secret ${variable ?? join(dir, file!)}: give each its own secrets store (docs/embedded-wallet.md §9)`)
}

/** The public points a secure-site build pins (secure-site/buildKeys.ts), as the build's variables. */
export type BuildKeys = { DOORWAY_VAULT_PUBLIC_KEY: string; DOORWAY_VAULT_SIGNING_PUBLIC_KEY: string; DOORWAY_SERVER_PUBLIC_KEY: string }

export async function buildKeys(dirs: { server: string; vault: string }): Promise<BuildKeys> {
  const text = (dir: string, name: string) => readFile(join(dir, name), 'utf8').then((t) => t.trim())
  return {
    DOORWAY_VAULT_PUBLIC_KEY: await text(dirs.vault, files.vault.publicKey),
    DOORWAY_VAULT_SIGNING_PUBLIC_KEY: await text(dirs.vault, files.vault.signingPublicKey),
    DOORWAY_SERVER_PUBLIC_KEY: await text(dirs.server, files.server.transportPublicKey),
  }
}

/**
 * The local stack's stand-ins: makes whichever secret file is missing under `root/server` and
 * `root/vault` (mode 0600, directories 0700) and answers the directories and the build's keys. One
 * user owns both in dev; production gives each process its own OS user and store (docs/operating.md).
 */
export async function ensureDev(root: string): Promise<{ server: string; vault: string; buildKeys: BuildKeys }> {
  const dirs = { server: join(root, 'server'), vault: join(root, 'vault') }
  const server = await devDir(dirs.server)
  const vault = await devDir(dirs.vault)
  const random = () => Base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
  await server.ensure(files.server.kek, random)
  await server.ensure(files.server.pepper, random)
  const ticketJwk = await server.ensure(files.server.ticketKey, () => newKeyPair(Ticket.algorithm, ['sign', 'verify']))
  await vault.ensure(files.vault.ticketPublicKey, async () => JSON.stringify(publicJwk(jwk(ticketJwk, files.server.ticketKey))))
  const pair = async (dir: typeof server, keyFile: string, pubFile: string, algorithm: EcKeyGenParams, usages: KeyUsage[]) => {
    const key = await dir.ensure(keyFile, () => newKeyPair(algorithm, usages))
    await dir.ensure(pubFile, async () => Base64url.encode(point(jwk(key, keyFile))))
  }
  await pair(server, files.server.transportKey, files.server.transportPublicKey, ecdh, ['deriveBits'])
  await pair(vault, files.vault.key, files.vault.publicKey, ecdh, ['deriveBits'])
  await pair(vault, files.vault.signingKey, files.vault.signingPublicKey, Attest.algorithm, ['sign', 'verify'])
  return { ...dirs, buildKeys: await buildKeys(dirs) }
}

/** A directory of secret files where `ensure` answers a file's text, writing `make()`'s when it is missing. */
async function devDir(dir: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const existing = async (name: string) => readFile(join(dir, name), 'utf8').catch(() => undefined)
  return {
    async ensure(name: string, make: () => string | Promise<string>): Promise<string> {
      const found = await existing(name)
      if (found) return found
      // 'wx': another process that made it first wins, and its file is the one read back.
      await writeFile(join(dir, name), await make(), { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error
      })
      return (await existing(name))!
    },
  }
}

async function read(fromEnv: string | undefined, variable: string, dir: string, name: string): Promise<string> {
  if (fromEnv) return fromEnv.trim()
  const path = join(dir, name)
  return (await readFile(path, 'utf8').catch(() => {
    throw new Error(`Missing secret: set ${variable} or create ${path}`)
  })).trim()
}

/**
 * A raw secret as an operator may have written it: base64url, or standard base64 with padding or line
 * breaks, which were always accepted; anything else reads as no bytes, which the length checks refuse.
 */
function secretBytes(text: string): Uint8Array<ArrayBuffer> {
  try {
    return Base64url.decode(text.replace(/\s|=+$/g, '').replace(/\+/g, '-').replace(/\//g, '_'))
  } catch {
    return new Uint8Array()
  }
}

function jwk(text: string, source: string): JsonWebKey {
  try {
    const key = JSON.parse(text) as JsonWebKey
    if (key.kty === 'EC' && key.crv === 'P-256' && typeof key.x === 'string' && typeof key.y === 'string') return key
  } catch {
    // not JSON: refused below, as any other text that is no P-256 JWK
  }
  throw new Error(`${source} must be a P-256 JWK`)
}

/** A private JWK without the flags WebCrypto wrote, so it imports for any usage later. */
async function newKeyPair(algorithm: EcKeyGenParams, usages: KeyUsage[]): Promise<string> {
  const pair = (await crypto.subtle.generateKey(algorithm, true, usages)) as CryptoKeyPair
  const { kty, crv, x, y, d } = await crypto.subtle.exportKey('jwk', pair.privateKey)
  return JSON.stringify({ kty, crv, x, y, d })
}

const publicJwk = ({ kty, crv, x, y }: JsonWebKey): JsonWebKey => ({ kty, crv, x, y })

/** The uncompressed point 0x04 ‖ x ‖ y of an EC JWK. */
function point(key: JsonWebKey): Uint8Array {
  const x = Base64url.decode(key.x!)
  const y = Base64url.decode(key.y!)
  const out = new Uint8Array(65)
  out[0] = 0x04
  out.set(x, 1)
  out.set(y, 33)
  return out
}
