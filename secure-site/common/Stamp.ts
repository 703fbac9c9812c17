/**
 * Device-bound signed requests (docs/embedded-wallet.md §3): no cookie and no bearer token. Each
 * request from the secure-site to its server carries
 * `Doorway-Sig: device=<id>, ts=<ms>, nonce=<hex>, sig=<base64url>`, an ECDSA P-256 signature by the
 * device's non-extractable key over `METHOD\npath?query\nsha256(body)\nts\nnonce` (the idea of RFC 9449
 * DPoP and Turnkey's stamper). The server accepts `ts` within ±60 s and each nonce once. A stolen
 * database row or log line is useless without the device key. WebCrypto only: the same module signs in
 * the secure-site and verifies on the server. `import * as Stamp from '@doorway/secure-site/common/Stamp'`.
 */
import * as Ids from '@doorway/shared/Ids'
import * as Base64url from './Base64url.js'

export const header = 'doorway-sig'
export const skewMs = 60_000
/** Nonces are remembered this long: past it, the timestamp check refuses the request anyway. */
export const nonceTtlMs = 2 * skewMs

export const algorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const
const signing = { name: 'ECDSA', hash: 'SHA-256' } as const

export type Request = { method: string; path: string; body: string | Uint8Array }

/** The exact bytes that are signed. */
export async function canonical(request: Request & { ts: number; nonce: string }): Promise<string> {
  const body = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>))
  return [request.method.toUpperCase(), request.path, hex(hash), String(request.ts), request.nonce].join('\n')
}

/** A new device key pair; the private key cannot be exported. */
export function generateKey(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(algorithm, false, ['sign', 'verify']) as Promise<CryptoKeyPair>
}

/** The public key as the server stores it: the uncompressed point, base64url. */
export async function exportPublicKey(key: CryptoKey): Promise<string> {
  return Base64url.encode(new Uint8Array(await crypto.subtle.exportKey('raw', key)))
}

/** The header value for a request, signed now with a fresh 128-bit nonce. */
export async function sign(privateKey: CryptoKey, request: Request & { deviceId: string; now?: number }): Promise<string> {
  const ts = request.now ?? Date.now()
  const nonce = Ids.random()
  const data = new TextEncoder().encode(await canonical({ ...request, ts, nonce }))
  const sig = new Uint8Array(await crypto.subtle.sign(signing, privateKey, data))
  return `device=${request.deviceId}, ts=${ts}, nonce=${nonce}, sig=${Base64url.encode(sig)}`
}

export type Parsed = { deviceId: string; ts: number; nonce: string; sig: Uint8Array }

/** The header's parts, or undefined when it is not exactly the four parts in their forms. */
export function parse(value: string | null | undefined): Parsed | undefined {
  if (!value || value.length > 512) return undefined
  const parts = Object.fromEntries(value.split(',').map((part) => part.trim().split('=', 2) as [string, string]))
  const { device, ts, nonce, sig } = parts
  if (Object.keys(parts).length !== 4 || !device || !ts || !nonce || !sig) return undefined
  if (!Ids.isId(device) || !/^\d{13}$/.test(ts) || !Ids.isId(nonce) || !/^[\w-]{86}$/.test(sig)) return undefined
  return { deviceId: device, ts: Number(ts), nonce, sig: Base64url.decode(sig) }
}

/** Where nonces are claimed once; storage-backed on the server (several instances share it). */
export type Nonces = { claim(deviceId: string, nonce: string, expiresAt: number): Promise<boolean> }

export type Verdict = { ok: true; deviceId: string } | { ok: false; reason: 'malformed' | 'unknownDevice' | 'skew' | 'signature' | 'replay' }

/**
 * Checks a request's header against the device's stored public key (`publicKeyOf` answers undefined for
 * an unknown or revoked device). The signature is checked before the nonce is claimed, so a forged
 * request cannot burn a real nonce.
 */
export async function verify(options: {
  header: string | null | undefined
  request: Request
  publicKeyOf(deviceId: string): Promise<string | undefined>
  nonces: Nonces
  now: number
}): Promise<Verdict> {
  const parsed = parse(options.header)
  if (!parsed) return { ok: false, reason: 'malformed' }
  const publicKey = await options.publicKeyOf(parsed.deviceId)
  if (!publicKey) return { ok: false, reason: 'unknownDevice' }
  if (Math.abs(options.now - parsed.ts) > skewMs) return { ok: false, reason: 'skew' }
  const key = await crypto.subtle.importKey('raw', Base64url.decode(publicKey), algorithm, false, ['verify']).catch(() => undefined)
  const data = new TextEncoder().encode(await canonical({ ...options.request, ts: parsed.ts, nonce: parsed.nonce }))
  const valid = key && (await crypto.subtle.verify(signing, key, parsed.sig as Uint8Array<ArrayBuffer>, data))
  if (!valid) return { ok: false, reason: 'signature' }
  if (!(await options.nonces.claim(parsed.deviceId, parsed.nonce, parsed.ts + nonceTtlMs))) return { ok: false, reason: 'replay' }
  return { ok: true, deviceId: parsed.deviceId }
}

/** Nonces in memory, for one server process and tests; expired ones are dropped as new ones come. */
export function memoryNonces(now: () => number = Date.now): Nonces {
  const seen = new Map<string, number>()
  return {
    async claim(deviceId, nonce, expiresAt) {
      for (const [key, expires] of seen) if (expires <= now()) seen.delete(key)
      const key = `${deviceId}:${nonce}`
      if (seen.has(key)) return false
      seen.set(key, expiresAt)
      return true
    },
  }
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
