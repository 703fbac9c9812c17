/**
 * Checks on the params of the solana, bip122 and polkadot requests: they come from any dapp over the
 * relay, so each field is checked before use and a bad one answers invalidParams, naming the field.
 */
import { RpcError, rpcErrors } from './errors.js'

export type Fields = Readonly<Record<string, unknown>>

/** An invalidParams error whose message says what was wrong. */
export const invalid = (why: string) => new RpcError({ code: rpcErrors.invalidParams.code, message: `${rpcErrors.invalidParams.message} ${why}` })

/** The params of a request that takes one object (every method of these namespaces), or an object in them. */
export function object(params: unknown, name = 'params'): Fields {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalid(`${name} must be an object.`)
  return params as Fields
}

export function string(fields: Fields, key: string, maxLength = 100_000): string {
  const value = fields[key]
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength)
    throw invalid(`${key} must be a non-empty string of at most ${maxLength} characters.`)
  return value
}

export function optionalString(fields: Fields, key: string, maxLength?: number): string | undefined {
  return fields[key] === undefined ? undefined : string(fields, key, maxLength)
}

export function optionalBoolean(fields: Fields, key: string): boolean | undefined {
  const value = fields[key]
  if (value !== undefined && typeof value !== 'boolean') throw invalid(`${key} must be a boolean.`)
  return value
}

/** Bytes from an encoding's decoder; what it cannot decode is invalidParams, naming the field. */
export function bytes(fields: Fields, key: string, decode: (text: string) => Uint8Array, maxLength?: number): Uint8Array {
  const text = string(fields, key, maxLength)
  try {
    return decode(text)
  } catch {
    throw invalid(`${key} is not validly encoded.`)
  }
}
