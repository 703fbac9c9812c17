/**
 * The checks on what the server sends the vault: each field of a JSON body checked on its own, a 400
 * naming the first one refused (never a 500). `import * as Fields from './vault/fields.js'`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Email from '@doorway/shared/Email'
import * as Http from '../http.js'

type Body = Record<string, unknown>

/** base64url bytes of at most `maxBytes`. */
export function bytes(body: Body, name: string, maxBytes: number): Uint8Array {
  const value = body[name]
  const maxChars = Math.ceil((maxBytes * 4) / 3)
  if (typeof value !== 'string' || value.length === 0 || value.length > maxChars || !/^[\w-]+$/.test(value))
    throw Http.badRequest(`Invalid ${name}: expected base64url of at most ${maxBytes} bytes`)
  try {
    return Base64url.decode(value)
  } catch {
    throw Http.badRequest(`Invalid ${name}: expected base64url of at most ${maxBytes} bytes`)
  }
}

/** A P-256 public key as its 65-byte uncompressed point, on the curve. */
export async function point(body: Body, name: string): Promise<Uint8Array> {
  const raw = bytes(body, name, 65)
  if (raw.length !== 65) throw Http.badRequest(`Invalid ${name}: expected an uncompressed P-256 point`)
  return Http.point(raw, name)
}

/** A string matching `pattern` (which bounds its length). */
export function text(body: Body, name: string, pattern: RegExp, expected: string): string {
  const value = body[name]
  if (typeof value !== 'string' || !pattern.test(value)) throw Http.badRequest(`Invalid ${name}: expected ${expected}`)
  return value
}

export function flag(body: Body, name: string): boolean {
  const value = body[name]
  if (typeof value !== 'boolean') throw Http.badRequest(`Invalid ${name}: expected true or false`)
  return value
}

/** The email as stored: trimmed and lowercased (@doorway/shared/Email), at most 254 characters. */
export function email(body: Body, name: string): string {
  const value = Email.normalize(body[name])
  if (!value) throw Http.badRequest(`Invalid ${name}: expected an email address`)
  return value
}

/** An EVM address, lowercased: the vault compares and signs it in that form (common/Attest.ts). */
export function address(body: Body, name: string): string {
  return text(body, name, /^0x[0-9a-fA-F]{40}$/, 'an address: 0x and 40 hex digits').toLowerCase()
}

/** An http(s) origin as the browser writes it: scheme, host and port only, at most 200 characters. */
export function origin(body: Body, name: string): string {
  const value = body[name]
  const expected = `Invalid ${name}: expected an http(s) origin of at most 200 characters`
  if (typeof value !== 'string' || value.length > 200) throw Http.badRequest(expected)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw Http.badRequest(expected)
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value) throw Http.badRequest(expected)
  return value
}

/**
 * A description of the browser, shown to the person in the mail and on the page: 1 to 120 characters,
 * none of them control or format characters (no line break, no bidi override that could reorder the text).
 */
export function browser(body: Body, name: string): string {
  return text(body, name, /^(?=.*\S)[^\p{C}]{1,120}$/u, '1 to 120 printable characters')
}
