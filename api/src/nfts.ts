/**
 * NFT metadata and images (issue 10). The token's URI by eth_call (`tokenURI(id)` for ERC-721, `uri(id)`
 * with `{id}` substituted for ERC-1155) and the collection's `name()`; the metadata JSON from a
 * `data:application/json` URI or over http(s) (5 s, 256 KB); ipfs:// and the rest give no image. Read
 * once per (chain, contract, token id) and kept in storage. The api hands out its own image URL
 * (/public/getNftImage/…), so the modal never loads third-party artwork directly.
 */
import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import type { ChainId } from '@doorway/shared/Caip'
import { type Hex, decodeAbiParameters, getAddress } from 'viem'
import type { Config, Network } from './config.js'
import { HttpError } from './http.js'
import { type Rpc, RpcError } from './rpc.js'
import type { NftKey, NftMetadata, Storage } from './storage/Storage.js'

export const fetchTimeoutMs = 5_000
export const maxBytes = 256 * 1024

export type Standard = 'erc721' | 'erc1155'

export const imageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const

const selectors = { tokenURI: '0xc87b56dd', uri: '0x0e89341c', name: '0x06fdde03' } as const

/** The api's own URL for the token's image. */
export function previewUrl(publicUrl: string, key: NftKey): string {
  return `${publicUrl}/public/getNftImage/${key.chainId}/${key.contract}/${key.tokenId}`
}

/** Whether the metadata's image is one this api serves: a data: image of a known type, or http(s). */
export function hasImage(image: string | null): boolean {
  if (!image) return false
  const data = parseDataUri(image)
  return data ? isImageType(data.type) : /^https?:\/\//i.test(image)
}

/** spec §3 nft_info (name, content preview url, flags.is_spam), and the collection's name beside it. */
export type Display = { name: string; collection: { name: string }; content?: { preview: { url: string } }; flags: { is_spam: boolean } }

/**
 * What the modal shows of a token: the metadata's name, else the collection's with the token id; a
 * collection without a name goes by its address. Spam is the network's list (config spamNfts).
 */
export function display(key: NftKey, metadata: NftMetadata | undefined, context: { publicUrl: string; network: Network }): Display {
  const collection = metadata?.collection ?? getAddress(key.contract)
  const spam = (context.network.spamNfts ?? []).some((address) => address.toLowerCase() === key.contract.toLowerCase())
  return {
    name: metadata?.name ?? `${collection} #${key.tokenId}`,
    collection: { name: collection },
    ...(hasImage(metadata?.image ?? null) ? { content: { preview: { url: previewUrl(context.publicUrl, { ...key, contract: getAddress(key.contract) }) } } } : {}),
    flags: { is_spam: spam },
  }
}

export const keyOf = (key: NftKey) => `${key.chainId} ${key.contract.toLowerCase()} ${key.tokenId}`

/** The tokens' metadata, from storage or read now (and stored); keyed by `keyOf`. */
export async function metadata(deps: { rpc: Rpc; storage: Storage; config: Pick<Config, 'indexer'> }, keys: (NftKey & { standard?: Standard | undefined })[]): Promise<Map<string, NftMetadata>> {
  const found = new Map((await deps.storage.nfts.get(keys)).map((m) => [keyOf(m), m]))
  const missing = [...new Map(keys.filter((key) => !found.has(keyOf(key))).map((key) => [keyOf(key), key])).values()]
  // One name() per contract in this batch.
  const collections = new Map<string, Promise<string | null>>()
  const collection = (chainId: ChainId, contract: string) => {
    const id = `${chainId} ${contract}`
    if (!collections.has(id)) collections.set(id, call(deps.rpc, chainId, contract, selectors.name))
    return collections.get(id)!
  }
  await Promise.all(
    missing.map(async (key) => {
      const [uri, name] = await Promise.all([tokenUri(deps.rpc, key, key.standard), collection(key.chainId, key.contract.toLowerCase())])
      const document = uri ? await json(uri, fetchOptions(deps.config)) : undefined
      const read: NftMetadata = {
        chainId: key.chainId,
        contract: key.contract.toLowerCase(),
        tokenId: key.tokenId,
        name: bounded(text(document?.name)),
        collection: bounded(name),
        image: text(document?.image),
      }
      await deps.storage.nfts.put(read)
      found.set(keyOf(read), read)
    }),
  )
  return found
}

/** The image bytes and type a metadata image URI names, or undefined when there is none to serve. */
export async function image(uri: string, options: fetchLimited.Options): Promise<{ type: string; bytes: Uint8Array } | undefined> {
  const data = parseDataUri(uri)
  const found = data ?? (/^https?:\/\//i.test(uri) ? await fetchLimited(uri, options) : undefined)
  return found && isImageType(found.type) && found.bytes.length <= maxBytes ? found : undefined
}

async function tokenUri(rpc: Rpc, key: NftKey, standard: Standard | undefined): Promise<string | null> {
  const id = BigInt(key.tokenId)
  // The image route may not know the standard: ERC-721's tokenURI first, then ERC-1155's uri.
  const uri = standard === 'erc1155' ? null : await call(rpc, key.chainId, key.contract, selectors.tokenURI, id)
  if (uri !== null || standard === 'erc721') return uri
  const template = await call(rpc, key.chainId, key.contract, selectors.uri, id)
  // ERC-1155: {id} is the id as 64 lowercase hex digits.
  return template?.replaceAll('{id}', id.toString(16).padStart(64, '0')) ?? null
}

/** A string-returning view call; null when the contract reverts or answers no string. A node that does not answer throws. */
async function call(rpc: Rpc, chainId: ChainId, contract: string, selector: string, arg?: bigint): Promise<string | null> {
  const data = arg === undefined ? selector : `${selector}${arg.toString(16).padStart(64, '0')}`
  try {
    const result = (await rpc(chainId, 'eth_call', [{ to: contract, data }, 'latest'])) as Hex
    return decodeAbiParameters([{ type: 'string' }], result)[0]
  } catch (error) {
    if (error instanceof HttpError && !(error instanceof RpcError)) throw error
    return null
  }
}

async function json(uri: string, options: fetchLimited.Options): Promise<Record<string, unknown> | undefined> {
  const data = parseDataUri(uri)
  const found = data ?? (/^https?:\/\//i.test(uri) ? await fetchLimited(uri, options) : undefined)
  if (!found || found.bytes.length > maxBytes) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(found.bytes))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null)

// Anyone writes token metadata: names are cut to a length any list can show.
export const maxNameLength = 256
const bounded = (value: string | null) => (value === null ? null : [...value].slice(0, maxNameLength).join(''))

const isImageType = (type: string) => (imageTypes as readonly string[]).includes(type)

/** `data:[type][;param…][;base64],payload` → the type (lowercase, without parameters) and the bytes; undefined when not a data URI. */
export function parseDataUri(uri: string): { type: string; bytes: Uint8Array } | undefined {
  const match = /^data:([^,]*),(.*)$/is.exec(uri)
  if (!match) return undefined
  const [type = '', ...params] = match[1]!.split(';').map((p) => p.trim().toLowerCase())
  try {
    const bytes = params.includes('base64') ? Buffer.from(match[2]!, 'base64') : Buffer.from(decodeURIComponent(match[2]!), 'utf8')
    return { type, bytes }
  } catch {
    return undefined
  }
}

/**
 * GET with a time limit and a size cap; undefined on any failure, a non-2xx answer, a redirect, a larger
 * body, or a host that resolves to a non-public address (unless the operator allows those).
 */
export async function fetchLimited(url: string, options: fetchLimited.Options): Promise<{ type: string; bytes: Uint8Array } | undefined> {
  try {
    if (!options.privateHosts && !(await isPublicHost(new URL(url).hostname))) return undefined
    // A redirect could lead to an address the check above refused.
    const response = await fetch(url, { signal: AbortSignal.timeout(fetchTimeoutMs), redirect: 'error' })
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (!response.ok || !response.body || declared > maxBytes) {
      await response.body?.cancel()
      return undefined
    }
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = response.body.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.length
      if (size > maxBytes) {
        await reader.cancel()
        return undefined
      }
      chunks.push(read.value)
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    return { type, bytes: Buffer.concat(chunks) }
  } catch {
    return undefined
  }
}
export declare namespace fetchLimited {
  type Options = {
    /** Whether hosts on loopback, private, link-local and unique-local addresses may be fetched (config indexer.metadataPrivateHosts). */
    privateHosts: boolean
  }
}

export const fetchOptions = (config: Pick<Config, 'indexer'>): fetchLimited.Options => ({ privateHosts: config.indexer?.metadataPrivateHosts === true })

// Token metadata is anyone's to write: a token URI must not make the api read the operator's own network
// (SSRF). A name that resolves to any such address is refused; IPv4-mapped IPv6 addresses meet the IPv4
// ranges (BlockList maps them). A DNS answer that changes between this lookup and the fetch is not
// caught: an egress proxy is the complete answer in production.
const nonPublic = new BlockList()
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 3]] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [['::', 127], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6')

export async function isPublicHost(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => [])
  return addresses.length > 0 && addresses.every(({ address, family }) => !nonPublic.check(address, family === 6 ? 'ipv6' : 'ipv4'))
}
