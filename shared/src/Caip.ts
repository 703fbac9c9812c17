import * as Address from './Address.js'
import { CaipError } from './Errors.js'

/** spec §3 Identifiers */
export const namespaces = ['eip155', 'solana', 'polkadot', 'bip122'] as const

export type Namespace = (typeof namespaces)[number]
/** CAIP-2 network id, `namespace:reference`. */
export type ChainId = `${Namespace}:${string}`
/** CAIP-10 account id, `namespace:reference:address`. */
export type AccountId = `${Namespace}:${string}:${string}`

// CAIP-2 reference charset; EIP-155 chain ids are decimal integers, so no leading zero
const reference = /^[-_a-zA-Z0-9]{1,32}$/
const eip155Reference = /^[1-9][0-9]{0,31}$/
// CAIP-10 address charset, for namespaces without a stricter rule in spec §5
const address = /^[-.%a-zA-Z0-9]{1,128}$/

export declare namespace parseChainId {
  type ReturnType = { namespace: Namespace; reference: string }
}

/** spec §5: exactly 2 colon parts, else 'Invalid CAIP-2 network id'. */
export function parseChainId(id: string): parseChainId.ReturnType {
  const parsed = toChainId(id)
  if (!parsed) throw new CaipError('chainId', id)
  return parsed
}

export declare namespace parseAccountId {
  type ReturnType = { namespace: Namespace; reference: string; address: string; chainId: ChainId }
}

/** spec §5: exactly 3 non-empty colon parts and a known namespace, else 'Invalid CAIP-10 address'. */
export function parseAccountId(id: string): parseAccountId.ReturnType {
  const parsed = toAccountId(id)
  if (!parsed) throw new CaipError('accountId', id)
  return parsed
}

export function formatChainId(namespace: Namespace, reference: string): ChainId {
  const id = `${namespace}:${reference}` as const
  parseChainId(id)
  return id
}

export function formatAccountId(chainId: ChainId, address: string): AccountId {
  const id = `${chainId}:${address}` as const
  parseAccountId(id)
  return id
}

export function isChainId(x: unknown): x is ChainId {
  return toChainId(x) !== undefined
}

export function isAccountId(x: unknown): x is AccountId {
  return toAccountId(x) !== undefined
}

// Parsing returns undefined instead of throwing so the guards need no try/catch.
function toChainId(id: unknown): parseChainId.ReturnType | undefined {
  if (typeof id !== 'string') return undefined
  const parts = id.split(':')
  if (parts.length !== 2) return undefined
  const [namespace = '', ref = ''] = parts
  if (!isNamespace(namespace)) return undefined
  if (!(namespace === 'eip155' ? eip155Reference : reference).test(ref)) return undefined
  return { namespace, reference: ref }
}

function toAccountId(id: unknown): parseAccountId.ReturnType | undefined {
  if (typeof id !== 'string') return undefined
  const parts = id.split(':')
  if (parts.length !== 3) return undefined
  const [namespace = '', ref = '', addr = ''] = parts
  const chain = toChainId(`${namespace}:${ref}`)
  if (!chain || !isAddress(chain.namespace, addr)) return undefined
  return { ...chain, address: addr, chainId: `${chain.namespace}:${chain.reference}` }
}

function isNamespace(x: string): x is Namespace {
  return (namespaces as readonly string[]).includes(x)
}

// spec §5 Address formats for the namespaces it names; the CAIP-10 charset for the rest
function isAddress(namespace: Namespace, addr: string): boolean {
  if (namespace === 'eip155') return Address.isEvmAddress(addr)
  if (namespace === 'solana') return Address.isSolanaAddress(addr)
  return address.test(addr)
}

/** An eip155 CAIP-2 id as the hex chain id EIP-1193 speaks: 'eip155:31337' → '0x7a69'. */
export function eip155Hex(chainId: string): `0x${string}` {
  return `0x${Number(chainId.split(':')[1]).toString(16)}`
}

/**
 * A wallet's EIP-155 chain id as its CAIP-2 id: 0x-hex ('0x7a69'), a decimal string or number
 * (31337) or already CAIP-2 ('eip155:31337') → 'eip155:31337'. Anything that is not a positive safe
 * integer, or another namespace, is undefined.
 */
export function fromEip155(value: unknown): ChainId | undefined {
  const text = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value
  if (typeof text !== 'string') return undefined
  if (text.startsWith('eip155:')) return isChainId(text) ? text : undefined
  const id = /^0x[0-9a-f]+$/i.test(text) ? Number.parseInt(text, 16) : /^\d+$/.test(text) ? Number(text) : Number.NaN
  return Number.isSafeInteger(id) && id > 0 ? `eip155:${id}` : undefined
}

/** Wallet Standard names Solana clusters, not CAIP-2 networks: these by their genesis hash (CAIP-30). */
const solanaClusters: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'solana:devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

/** A solana network's Wallet Standard chain: any network but the three public ones is a local one (solana:localnet). */
export const solanaCluster = (chainId: string): string => solanaClusters[chainId.split(':')[1]!] ?? 'solana:localnet'
