import { getAddress, getTypesForEIP712Domain, hashTypedData, isAddress, isHex, size, validateTypedData } from 'viem'
import * as Display from './display.js'
import { InvalidRequest } from './errors.js'

// EIP-712 typed data as the secure-site signs and shows it. The input is copied through JSON, so the
// caller cannot change it after it was shown, and walked by its types: the domain and message hold
// exactly the fields that are hashed, no more, so nothing is shown that is not signed.

export type Field = { name: string; type: string }

/** Ready for viem's `signTypedData`: integers are bigints, every value checked against its type. */
export type Definition = {
  domain: Record<string, unknown>
  types: Record<string, readonly Field[]>
  primaryType: string
  message: Record<string, unknown>
}

type Types = Definition['types']

/** Displayed lines per section, cut after this many. */
export const maxLines = 100

const maxDepth = 16
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const fieldType = /^[A-Za-z_$][A-Za-z0-9_$]*(\[[0-9]*\])*$/
const arrayType = /^(.+)\[([0-9]*)\]$/
const integerType = /^(u?)int([0-9]{1,3})$/
const fixedBytesType = /^bytes([0-9]{1,2})$/
const decimal = /^-?(0|[1-9][0-9]*)$/
const hexNumber = /^0x[0-9a-fA-F]+$/

export declare namespace parse {
  type Options = { maxChars: number; chainId: number }
}

/** Parses, copies and checks a typed-data document (a JSON string or an object); throws InvalidRequest. */
export function parse(input: unknown, options: parse.Options): Definition {
  const json = typeof input === 'string' ? input : stringify(input)
  if (json.length > options.maxChars) throw invalid(`the typed data is longer than ${options.maxChars} characters`)
  const raw = parseJson(json)
  if (!isRecord(raw)) throw invalid('the typed data is not an object')
  const types = parseTypes(raw.types)
  const primaryType = raw.primaryType
  if (typeof primaryType !== 'string' || primaryType === 'EIP712Domain' || !Object.hasOwn(types, primaryType))
    throw invalid('primaryType is not one of the types')
  if (!isRecord(raw.domain)) throw invalid('the domain is not an object')
  checkChain(raw.domain.chainId, options.chainId)
  const domainFields = types.EIP712Domain ?? getTypesForEIP712Domain({ domain: raw.domain as never })
  const definition = {
    domain: struct(types, domainFields, raw.domain, 'domain', 0),
    types,
    primaryType,
    message: struct(types, types[primaryType]!, raw.message, 'message', 0),
  }
  try {
    validateTypedData(definition as never)
    hashTypedData(definition as never)
  } catch (cause) {
    throw new InvalidRequest('eth_signTypedData_v4: the typed data cannot be hashed', { cause })
  }
  return definition
}

/** The domain as `name: value` lines, as it is signed. */
export function domainLines(definition: Definition): string[] {
  const fields = definition.types.EIP712Domain ?? getTypesForEIP712Domain({ domain: definition.domain as never })
  // The chain id and a version read better ungrouped: '31337', not '31,337'.
  return limit(structLines(definition.types, fields, definition.domain, '', { group: false }))
}

/** The message flattened to `path: value` lines: `from.wallet: 0x…`, `to[0].name: "Bob"`. */
export function messageLines(definition: Definition): string[] {
  const fields = definition.types[definition.primaryType]!
  return limit(structLines(definition.types, fields, definition.message, '', { group: true }))
}

function invalid(reason: string): InvalidRequest {
  return new InvalidRequest(`eth_signTypedData_v4: ${reason}`)
}

function stringify(input: unknown): string {
  try {
    return JSON.stringify(input) ?? ''
  } catch (cause) {
    throw new InvalidRequest('eth_signTypedData_v4: the typed data is not JSON data', { cause })
  }
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json)
  } catch (cause) {
    throw new InvalidRequest('eth_signTypedData_v4: the typed data is not valid JSON', { cause })
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

// Names that are Object.prototype members ('constructor', '__proto__') would be looked up on the
// prototype by hashing code that indexes plain objects.
function isName(x: unknown): x is string {
  return typeof x === 'string' && identifier.test(x) && !(x in Object.prototype)
}

function parseTypes(raw: unknown): Record<string, readonly Field[]> {
  if (!isRecord(raw)) throw invalid('types is not an object')
  const entries = Object.entries(raw).map(([name, fields]) => {
    if (!isName(name)) throw invalid(`the type name ${JSON.stringify(name)} is not allowed`)
    if (!Array.isArray(fields)) throw invalid(`the fields of ${name} are not a list`)
    return [name, fields.map((field) => parseField(name, field))] as const
  })
  for (const [name, fields] of entries)
    if (new Set(fields.map((f) => f.name)).size !== fields.length) throw invalid(`${name} names a field twice`)
  return Object.fromEntries(entries)
}

function parseField(typeName: string, raw: unknown): Field {
  if (!isRecord(raw) || !isName(raw.name) || typeof raw.type !== 'string' || !fieldType.test(raw.type))
    throw invalid(`a field of ${typeName} is malformed`)
  return { name: raw.name, type: raw.type }
}

// spec EIP-712: the domain's chainId is the chain the signature is for; it must be the request's.
function checkChain(raw: unknown, chainId: number) {
  if (raw === undefined || raw === null) return
  const value = typeof raw === 'number' || typeof raw === 'string' ? toInteger(raw) : undefined
  if (value !== BigInt(chainId)) throw invalid(`domain.chainId ${String(raw)} is not the chain of this request (${chainId})`)
}

function struct(types: Types, fields: readonly Field[], raw: unknown, path: string, depth: number): Record<string, unknown> {
  if (!isRecord(raw)) throw invalid(`${path} is not an object`)
  if (depth > maxDepth) throw invalid(`${path} is nested too deeply`)
  return Object.fromEntries(
    fields.map((f) => [f.name, value(types, f.type, Object.hasOwn(raw, f.name) ? raw[f.name] : undefined, `${path}.${f.name}`, depth + 1)]),
  )
}

function value(types: Types, type: string, raw: unknown, path: string, depth: number): unknown {
  const array = arrayType.exec(type)
  if (array) {
    const [, inner = '', length = ''] = array
    if (!Array.isArray(raw) || (length !== '' && raw.length !== Number(length))) throw invalid(`${path} is not a ${type}`)
    return raw.map((item, i) => value(types, inner, item, `${path}[${i}]`, depth + 1))
  }
  if (Object.hasOwn(types, type)) return struct(types, types[type]!, raw, path, depth)
  return atomic(type, raw, path)
}

function atomic(type: string, raw: unknown, path: string): unknown {
  const fail = () => invalid(`${path} is not a ${type}`)
  if (type === 'string') return typeof raw === 'string' ? raw : fail()
  if (type === 'bool') return typeof raw === 'boolean' ? raw : fail()
  if (type === 'address') return typeof raw === 'string' && isAddress(raw) ? raw : fail()
  if (type === 'bytes') return isHexBytes(raw) ? raw : fail()
  const fixed = fixedBytesType.exec(type)
  if (fixed) return isHexBytes(raw) && size(raw) === Number(fixed[1]) ? raw : fail()
  const int = integerType.exec(type)
  if (int) return integerOf(int[1] === 'u', Number(int[2]), raw) ?? fail()
  throw invalid(`${path} has the unknown type ${type}`)
}

function isHexBytes(raw: unknown): raw is `0x${string}` {
  return typeof raw === 'string' && isHex(raw, { strict: true }) && raw.length % 2 === 0
}

// JSON carries integers as numbers (exact only up to 2^53), decimal strings or 0x-hex strings.
function toInteger(raw: number | string): bigint | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? BigInt(raw) : undefined
  return decimal.test(raw) || hexNumber.test(raw) ? BigInt(raw) : undefined
}

function integerOf(unsigned: boolean, bits: number, raw: unknown): bigint | undefined {
  if (bits < 8 || bits > 256 || bits % 8 !== 0) return undefined
  if (typeof raw !== 'number' && typeof raw !== 'string') return undefined
  const n = toInteger(raw)
  if (n === undefined) return undefined
  const [min, max] = unsigned ? [0n, 2n ** BigInt(bits) - 1n] : [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n]
  return n >= min && n <= max ? n : undefined
}

type LineOptions = { group: boolean }

function structLines(types: Types, fields: readonly Field[], data: Record<string, unknown>, path: string, options: LineOptions): string[] {
  return fields.flatMap((f) => valueLines(types, f.type, data[f.name], path ? `${path}.${f.name}` : f.name, options))
}

function valueLines(types: Types, type: string, data: unknown, path: string, options: LineOptions): string[] {
  const array = arrayType.exec(type)
  if (array) {
    const items = data as unknown[]
    // an empty list is still signed: show it rather than drop the field
    if (items.length === 0) return [`${path}: []`]
    return items.flatMap((item, i) => valueLines(types, array[1]!, item, `${path}[${i}]`, options))
  }
  if (Object.hasOwn(types, type)) return structLines(types, types[type]!, data as Record<string, unknown>, path, options)
  return [`${path}: ${show(type, data, options)}`]
}

function show(type: string, data: unknown, options: LineOptions): string {
  if (typeof data === 'bigint') return options.group ? Display.integer(data) : data.toString()
  if (typeof data === 'boolean') return String(data)
  if (type === 'address') return getAddress(data as string)
  if (type === 'string') return Display.quote(data as string)
  return Display.shorten(data as string)
}

function limit(lines: string[]): string[] {
  return lines.length <= maxLines ? lines : [...lines.slice(0, maxLines), '…']
}
