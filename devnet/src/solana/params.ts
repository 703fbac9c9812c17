/**
 * Checks of JSON-RPC params (positional, as Solana's RPC takes them): each failure is a -32602 that
 * names the parameter. `import * as Params from './params.js'`.
 */
import { base58 } from '@scure/base'
import { invalidParams } from './errors.js'

export type Config = { [key: string]: unknown }

/** A base58 public key or signature of `bytes` bytes at `params[index]`. */
function base58Of(params: readonly unknown[], index: number, name: string, bytes: number): string {
  const value = params[index]
  if (typeof value !== 'string') throw invalidParams(`${name} (param ${index}) must be a base58 string`)
  let decoded: Uint8Array
  try {
    decoded = base58.decode(value)
  } catch {
    throw invalidParams(`${name} (param ${index}) is not base58`)
  }
  if (decoded.length !== bytes) throw invalidParams(`${name} (param ${index}) must be ${bytes} bytes, not ${decoded.length}`)
  return value
}

export const address = (params: readonly unknown[], index: number, name = 'address') => base58Of(params, index, name, 32)
export const signature = (params: readonly unknown[], index: number, name = 'signature') => base58Of(params, index, name, 64)

export function string(params: readonly unknown[], index: number, name: string): string {
  const value = params[index]
  if (typeof value !== 'string') throw invalidParams(`${name} (param ${index}) must be a string`)
  return value
}

/** A non-negative safe integer at `params[index]`. */
export function integer(params: readonly unknown[], index: number, name: string): number {
  const value = params[index]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidParams(`${name} (param ${index}) must be a non-negative integer`)
  return value
}

export function array(params: readonly unknown[], index: number, name: string, max: number): unknown[] {
  const value = params[index]
  if (!Array.isArray(value)) throw invalidParams(`${name} (param ${index}) must be an array`)
  if (value.length > max) throw invalidParams(`${name} (param ${index}) holds at most ${max} entries`)
  return value
}

/** The optional config object at `params[index]` ({} when absent or null). */
export function config(params: readonly unknown[], index: number): Config {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`the config (param ${index}) must be an object`)
  return value as Config
}

/** `config[key]`, which must be one of `allowed` when present. */
export function oneOf<T extends string>(config: Config, key: string, allowed: readonly T[], fallback: T): T {
  const value = config[key]
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw invalidParams(`${key} must be one of ${allowed.join(', ')}`)
  return value as T
}

export function flag(config: Config, key: string, fallback: boolean): boolean {
  const value = config[key]
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'boolean') throw invalidParams(`${key} must be true or false`)
  return value
}

export function optionalInteger(config: Config, key: string): number | undefined {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalidParams(`${key} must be a non-negative integer`)
  return value
}

export function optionalSignature(config: Config, key: string): string | undefined {
  return config[key] === undefined || config[key] === null ? undefined : signature([config[key]], 0, key)
}

/** The commitment, checked and then ignored: every landed transaction is final at once. */
export function commitment(config: Config): void {
  oneOf(config, 'commitment', ['processed', 'confirmed', 'finalized'], 'finalized')
  oneOf(config, 'preflightCommitment', ['processed', 'confirmed', 'finalized'], 'finalized')
}

/** An optional `dataSlice: { offset, length }`. */
export function dataSlice(config: Config): { offset: number; length: number } | undefined {
  const value = config.dataSlice
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object') throw invalidParams('dataSlice must be { offset, length }')
  const slice = value as Config
  const offset = optionalInteger(slice, 'offset')
  const length = optionalInteger(slice, 'length')
  if (offset === undefined || length === undefined) throw invalidParams('dataSlice must be { offset, length }')
  return { offset, length }
}
