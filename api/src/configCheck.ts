/**
 * The checks behind Config.parse (config.ts): each field of the operator's JSON, by path, refusing unknown
 * fields. A wrong value throws at start, naming where it is, rather than failing a request later.
 */
import * as Caip from '@doorway/shared/Caip'
import * as SmartAccounts from '@doorway/shared/contracts/api/smartAccounts'
import * as Addresses from './chains/Addresses.js'
import type { Config, Network, Token } from './config.js'

type Fields = Record<string, unknown>

function fail(path: string, expected: string): never {
  throw new Error(`Invalid api configuration: ${path || 'the file'}: ${expected}`)
}

const at = (path: string, key: string) => (path ? `${path}.${key}` : key)
const entry = (path: string, key: string) => `${path}[${JSON.stringify(key)}]`

/** A plain object holding every `required` key, and no key outside `required` and `optional`. */
function object(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'expected an object')
  const fields = value as Fields
  for (const key of required) if (fields[key] === undefined) fail(at(path, key), 'missing')
  for (const key of Object.keys(fields)) if (!required.includes(key) && !optional.includes(key)) fail(at(path, key), 'unknown field')
  return fields
}

function string(value: unknown, path: string, max = 4096): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) fail(path, `expected a non-empty string of at most ${max} characters`)
  return value
}

function url(value: unknown, path: string): string {
  const text = string(value, path, 2048)
  let protocol = ''
  try {
    protocol = new URL(text).protocol
  } catch {
    // refused below, with any other protocol
  }
  if (protocol !== 'http:' && protocol !== 'https:') fail(path, 'expected an http(s) URL')
  return text
}

function integer(value: unknown, path: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) fail(path, `expected an integer from ${min} to ${max}`)
  return value as number
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'expected true or false')
  return value
}

function array<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, 'expected an array')
  return value.map((v, i) => item(v, `${path}[${i}]`))
}

function optional<T>(value: unknown, check: (value: unknown) => T): T | undefined {
  return value === undefined ? undefined : check(value)
}

/** The whole configuration (config.ts `Config`). */
export function config(value: unknown): Config {
  const fields = object(value, '', ['host', 'port', 'publicUrl', 'networks', 'projects', 'prices', 'storage'], ['indexer', 'onramp'])
  string(fields.host, 'host')
  integer(fields.port, 'port', 0, 65_535)
  url(fields.publicUrl, 'publicUrl')
  const networks = networksOf(fields.networks)
  projects(fields.projects)
  prices(fields.prices)
  storage(fields.storage)
  optional(fields.indexer, (v) => {
    const indexer = object(v, 'indexer', [], ['pollMs', 'metadataPrivateHosts'])
    optional(indexer.pollMs, (n) => integer(n, 'indexer.pollMs', 1, 3_600_000))
    optional(indexer.metadataPrivateHosts, (b) => boolean(b, 'indexer.metadataPrivateHosts'))
  })
  optional(fields.onramp, (v) => url(object(v, 'onramp', ['providerUrl']).providerUrl, 'onramp.providerUrl'))
  return { ...(fields as Config), networks }
}

function networksOf(value: unknown): Config['networks'] {
  const fields = object(value, 'networks', [], Object.keys(value ?? {}))
  return Object.fromEntries(
    Object.entries(fields).map(([chainId, v]) => {
      if (!Caip.isChainId(chainId)) fail(entry('networks', chainId), 'expected a CAIP-2 network id like eip155:1 as the key')
      return [chainId, network(chainId, v, entry('networks', chainId))]
    }),
  )
}

// Which namespace each kind serves, and the decimals its native coin must have (the api's arithmetic counts lamports and sats).
const kinds = { evm: { namespace: 'eip155', decimals: undefined }, solana: { namespace: 'solana', decimals: 9 }, bip122: { namespace: 'bip122', decimals: 8 } } as const

function network(chainId: Caip.ChainId, value: unknown, path: string): Network {
  const raw = object(value, path, [], Object.keys(value ?? {}))
  const kind = raw.kind ?? 'evm'
  if (kind !== 'evm' && kind !== 'solana' && kind !== 'bip122') fail(at(path, 'kind'), 'expected evm, solana or bip122')
  const { namespace, decimals } = kinds[kind]
  if (!chainId.startsWith(`${namespace}:`)) fail(at(path, 'kind'), `kind ${kind} serves ${namespace}: network ids only`)
  const common = ['name', 'nativeCurrency', 'testnet']
  const fields =
    kind === 'evm'
      ? object(value, path, [...common, 'rpcUrl', 'tokens'], ['kind', 'spamNfts', 'exchange', 'smartAccounts'])
      : kind === 'solana'
        ? object(value, path, [...common, 'kind', 'rpcUrl', 'tokens'])
        : object(value, path, [...common, 'kind', 'esploraUrl'], ['tokens'])
  string(fields.name, at(path, 'name'), 128)
  currency(fields.nativeCurrency, at(path, 'nativeCurrency'), decimals)
  boolean(fields.testnet, at(path, 'testnet'))
  const tokenAddress = kind === 'evm' ? Addresses.isEvm : Addresses.isSolana
  const tokens = array(fields.tokens ?? [], at(path, 'tokens'), (t, p) => token(t, p, tokenAddress))
  if (kind === 'bip122' && tokens.length > 0) fail(at(path, 'tokens'), 'a Bitcoin network has no tokens')
  if (kind === 'bip122') url(fields.esploraUrl, at(path, 'esploraUrl'))
  else url(fields.rpcUrl, at(path, 'rpcUrl'))
  if (kind === 'evm') evmExtras(fields, path)
  return { ...(fields as Network), tokens }
}

function currency(value: unknown, path: string, decimals: number | undefined) {
  const fields = object(value, path, ['name', 'symbol', 'decimals'])
  string(fields.name, at(path, 'name'), 128)
  string(fields.symbol, at(path, 'symbol'), 32)
  if (decimals === undefined) integer(fields.decimals, at(path, 'decimals'), 0, 36)
  else if (fields.decimals !== decimals) fail(at(path, 'decimals'), `expected ${decimals} on this kind of network`)
}

function token(value: unknown, path: string, isAddress: (address: string) => boolean): Token {
  const fields = object(value, path, ['address', 'name', 'symbol', 'decimals'], ['iconUrl'])
  if (!isAddress(string(fields.address, at(path, 'address'), 128))) fail(at(path, 'address'), 'expected an address of this network')
  string(fields.name, at(path, 'name'), 128)
  string(fields.symbol, at(path, 'symbol'), 32)
  integer(fields.decimals, at(path, 'decimals'), 0, 36)
  optional(fields.iconUrl, (v) => url(v, at(path, 'iconUrl')))
  return fields as Token
}

function evm(value: unknown, path: string) {
  if (!Addresses.isEvm(string(value, path, 42))) fail(path, 'expected a 0x-prefixed 40-hex-digit address')
  return value
}

function evmExtras(fields: Fields, path: string) {
  optional(fields.spamNfts, (v) => array(v, at(path, 'spamNfts'), evm))
  optional(fields.exchange, (v) => {
    const exchange = object(v, at(path, 'exchange'), ['router', 'factory', 'weth'])
    for (const key of ['router', 'factory', 'weth']) evm(exchange[key], at(at(path, 'exchange'), key))
  })
  optional(fields.smartAccounts, (v) => smartAccounts(v, at(path, 'smartAccounts')))
}

/** config.ts `SmartAccounts`: the bundler, an optional ERC-7677 paymaster, the Delegation Framework's addresses. */
function smartAccounts(value: unknown, path: string) {
  const fields = object(value, path, ['bundlerUrl', 'environment'], ['paymasterUrl'])
  url(fields.bundlerUrl, at(path, 'bundlerUrl'))
  optional(fields.paymasterUrl, (v) => url(v, at(path, 'paymasterUrl')))
  const env = at(path, 'environment')
  const environment = object(fields.environment, env, ['EntryPoint', 'DelegationManager', 'SimpleFactory', 'implementations', 'caveatEnforcers'])
  for (const key of ['EntryPoint', 'DelegationManager', 'SimpleFactory']) evm(environment[key], at(env, key))
  // The frame's accounts are HybridDeleGators: without that implementation it could build none.
  contracts(environment.implementations, at(env, 'implementations'), ['HybridDeleGatorImpl'], SmartAccounts.limits.implementations)
  contracts(environment.caveatEnforcers, at(env, 'caveatEnforcers'), [], SmartAccounts.limits.caveatEnforcers)
}

/** Contract name → address, within the bounds the api's answer is checked by (contracts/api/smartAccounts.ts). */
function contracts(value: unknown, path: string, required: readonly string[], max: number) {
  const fields = object(value, path, required, Object.keys(value ?? {}))
  const names = Object.keys(fields)
  if (names.length > max) fail(path, `expected at most ${max} contracts`)
  for (const name of names) {
    if (!SmartAccounts.limits.name.test(name)) fail(entry(path, name), 'expected a contract name: a letter, then letters and digits, 64 at most')
    evm(fields[name], entry(path, name))
  }
}

function projects(value: unknown) {
  const fields = object(value, 'projects', [], Object.keys(value ?? {}))
  for (const [id, v] of Object.entries(fields)) {
    const path = entry('projects', id)
    const project = object(v, path, ['origins'], ['analytics'])
    array(project.origins, at(path, 'origins'), (o, p) => string(o, p, 2048))
    optional(project.analytics, (b) => boolean(b, at(path, 'analytics')))
  }
}

function prices(value: unknown) {
  const fields = object(value, 'prices', [], Object.keys(value ?? {}))
  for (const [symbol, price] of Object.entries(fields))
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) fail(entry('prices', symbol), 'expected a price in USD, a number from 0')
}

function storage(value: unknown) {
  const kind = (value as Fields | null)?.kind
  if (kind === 'embedded') string(object(value, 'storage', ['kind', 'dir']).dir, 'storage.dir')
  else if (kind === 'postgres') string(object(value, 'storage', ['kind', 'url']).url, 'storage.url')
  else fail('storage.kind', 'expected embedded or postgres')
}
