/**
 * The server's HTTP pieces (API.md Conventions): errors as `{ message, reason?, retryAfter?, attemptsLeft? }` with a
 * 4xx status, and input checks that throw 400 naming the field. `import * as Http from './http.js'`.
 */
import * as Ids from '@doorway/shared/Ids'
import type { Context } from 'hono'
import * as Otp from './Otp.js'

export type Status = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503

/** An answer the client caused or can act on; anything else is a 500 without details. */
export class HttpError extends Error {
  constructor(
    readonly status: Status,
    message: string,
    readonly extra: { reason?: string; retryAfter?: number; attemptsLeft?: number } = {},
  ) {
    super(message)
  }
}

export function respond(c: Context, error: HttpError) {
  if (error.extra.retryAfter !== undefined) c.header('retry-after', String(error.extra.retryAfter))
  return c.json({ message: error.message, ...error.extra }, error.status)
}

export const badRequest = (message: string) => new HttpError(400, message)

/** The body as a JSON object, or 400. */
export function object(text: string): Record<string, unknown> {
  try {
    const body: unknown = text === '' ? undefined : JSON.parse(text)
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>
  } catch {}
  throw badRequest('Expected a JSON object body')
}

export function id(value: unknown, name: string): string {
  if (!Ids.isId(value)) throw badRequest(`Invalid ${name}: expected 32 lowercase hex digits`)
  return value
}

/** Bytes sent as base64url without padding, of an exact length or a range. */
export function bytes(value: unknown, name: string, length: number | { min: number; max: number }): Uint8Array {
  const { min, max } = typeof length === 'number' ? { min: length, max: length } : length
  // 4 characters carry 3 bytes; a length of 1 mod 4 is never valid base64url.
  if (typeof value !== 'string' || value.length > Math.ceil((max * 4) / 3) || !/^[\w-]*$/.test(value) || value.length % 4 === 1)
    throw badRequest(`Invalid ${name}: expected base64url bytes`)
  const decoded = new Uint8Array(Buffer.from(value, 'base64url'))
  if (decoded.length < min || decoded.length > max || Buffer.from(decoded).toString('base64url') !== value)
    throw badRequest(`Invalid ${name}: expected ${min === max ? min : `${min} to ${max}`} bytes as base64url`)
  return decoded
}

/** A P-256 public key as the uncompressed point (65 bytes, 0x04 ‖ x ‖ y) that is on the curve. */
export async function point(value: unknown, name: string): Promise<Uint8Array> {
  const raw = bytes(value, name, 65)
  const valid =
    raw[0] === 0x04 &&
    (await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'ECDH', namedCurve: 'P-256' }, true, []).then(
      () => true,
      () => false,
    ))
  if (!valid) throw badRequest(`Invalid ${name}: expected an uncompressed P-256 point`)
  return raw
}

/** spec §5: the email must be a valid format. */
export function email(value: unknown): string {
  const email = Otp.normalizeEmail(value)
  if (!email) throw badRequest('Invalid email')
  return email
}

export function code(value: unknown): string {
  if (!Otp.isCode(value)) throw badRequest(`Invalid code: expected ${Otp.policy.digits} digits`)
  return value
}

/** The dapp's origin, as the mail shows it: http(s), nothing after the port, at most 200 characters. */
export function host(value: unknown): string {
  const origin = typeof value === 'string' && value.length <= 200 ? URL.parse(value) : null
  if (!origin || !/^https?:$/.test(origin.protocol) || origin.origin !== value) throw badRequest('Invalid host: expected an http(s) origin')
  return value
}

export function evmAddress(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw badRequest('Invalid address: expected a 0x-prefixed 40-hex-digit address')
  return value
}
