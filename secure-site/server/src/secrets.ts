/**
 * The secrets kept outside the database (docs/embedded-wallet.md §9), each process reading only its
 * own: the server KEK_A, the OTP pepper and the ticket key's private half; the vault its private key and
 * the ticket key's public half. From the environment, else from files in a directory (a KMS in
 * production). `ensureDev` makes the local stack's stand-ins. `import * as Secrets from './secrets.js'`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Envelope from './Envelope.js'
import * as Ticket from './Ticket.js'

/** The files of a secrets directory: raw bytes as base64url text, key pairs as JWK. */
export const files = {
  kek: 'kek_a',
  pepper: 'otp_pepper',
  ticketKey: 'ticket.jwk',
  ticketPublicKey: 'ticket.pub.jwk',
  vaultKey: 'vault.jwk',
  /** The vault's public key as the build pins it: the uncompressed point, base64url. */
  vaultPublicKey: 'vault.pub',
} as const

const ecdh = { name: 'ECDH', namedCurve: 'P-256' } as const

export type ServerSecrets = { kek: CryptoKey; pepper: Uint8Array; ticketKey: CryptoKey }
export type VaultSecrets = { key: CryptoKey; publicKey: Uint8Array; ticketKey: CryptoKey }

/** The server's: DOORWAY_KEK_A, DOORWAY_OTP_PEPPER (base64url) and DOORWAY_TICKET_KEY (a private JWK), else the files. */
export async function server(options: { dir: string; env?: NodeJS.ProcessEnv }): Promise<ServerSecrets> {
  const { dir, env = process.env } = options
  const kek = secretBytes(await read(env.DOORWAY_KEK_A, 'DOORWAY_KEK_A', dir, files.kek))
  if (kek.length !== 32) throw new Error('KEK_A must be 32 bytes as base64url (DOORWAY_KEK_A or kek_a)')
  const pepper = secretBytes(await read(env.DOORWAY_OTP_PEPPER, 'DOORWAY_OTP_PEPPER', dir, files.pepper))
  if (pepper.length < 32) throw new Error('The OTP pepper must be at least 32 bytes as base64url (DOORWAY_OTP_PEPPER or otp_pepper)')
  const ticketJwk = jwk(await read(env.DOORWAY_TICKET_KEY, 'DOORWAY_TICKET_KEY', dir, files.ticketKey), 'DOORWAY_TICKET_KEY')
  return {
    kek: await Envelope.importKey(kek),
    pepper,
    ticketKey: await crypto.subtle.importKey('jwk', ticketJwk, Ticket.algorithm, false, ['sign']),
  }
}

/** The vault's: DOORWAY_VAULT_KEY (a private JWK) and DOORWAY_TICKET_PUBLIC_KEY (a public JWK), else the files. */
export async function vault(options: { dir: string; env?: NodeJS.ProcessEnv }): Promise<VaultSecrets> {
  const { dir, env = process.env } = options
  const vaultJwk = jwk(await read(env.DOORWAY_VAULT_KEY, 'DOORWAY_VAULT_KEY', dir, files.vaultKey), 'DOORWAY_VAULT_KEY')
  const ticketJwk = jwk(await read(env.DOORWAY_TICKET_PUBLIC_KEY, 'DOORWAY_TICKET_PUBLIC_KEY', dir, files.ticketPublicKey), 'DOORWAY_TICKET_PUBLIC_KEY')
  return {
    key: await crypto.subtle.importKey('jwk', vaultJwk, ecdh, false, ['deriveBits']),
    publicKey: point(vaultJwk),
    ticketKey: await crypto.subtle.importKey('jwk', publicJwk(ticketJwk), Ticket.algorithm, false, ['verify']),
  }
}

/**
 * The local stack's stand-ins: makes whichever secret file is missing under `dir` (mode 0600) and
 * answers the vault's public key, which `npm start` bakes into the secure-site build.
 */
export async function ensureDev(dir: string): Promise<{ dir: string; vaultPublicKey: string }> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const existing = async (name: string) => readFile(join(dir, name), 'utf8').catch(() => undefined)
  const put = async (name: string, text: string) => {
    // 'wx': another process that made it first wins, and its file is the one read back.
    await writeFile(join(dir, name), text, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
    return (await existing(name))!
  }
  const random = () => Base64url.encode(crypto.getRandomValues(new Uint8Array(32)))

  if (!(await existing(files.kek))) await put(files.kek, random())
  if (!(await existing(files.pepper))) await put(files.pepper, random())
  const ticketJwk = (await existing(files.ticketKey)) ?? (await put(files.ticketKey, await newKeyPair(Ticket.algorithm, ['sign', 'verify'])))
  if (!(await existing(files.ticketPublicKey))) await put(files.ticketPublicKey, JSON.stringify(publicJwk(jwk(ticketJwk, files.ticketKey))))
  let vaultPublicKey = (await existing(files.vaultPublicKey))?.trim()
  if (!vaultPublicKey) {
    const vaultJwk = (await existing(files.vaultKey)) ?? (await put(files.vaultKey, await newKeyPair(ecdh, ['deriveBits'])))
    vaultPublicKey = (await put(files.vaultPublicKey, Base64url.encode(point(jwk(vaultJwk, files.vaultKey))))).trim()
  }
  return { dir, vaultPublicKey }
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
