/**
 * The wallet catalogue (spec §3 Wallet listing, §7 GET /getWallets): the data file's shape, its check,
 * and the pure query behind the route.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'

export type Badge = 'certified' | 'none'

/** One entry of wallets.json. */
export type Wallet = {
  id: string
  name: string
  /** EIP-6963 reverse-DNS id, which the modal matches against announced providers. */
  rdns: string | null
  chains: Caip.ChainId[]
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  homepage: string
  app_store: string | null
  play_store: string | null
  chrome_store: string | null
  badge_type: Badge
  recommended: boolean
  /** Tile colour and letters of the locally made image (images.ts). */
  color: string
  initials: string
}

/** What GET /getWallets answers per wallet. */
export type Listing = Omit<Wallet, 'recommended' | 'color' | 'initials'> & {
  image_id: string
  image_url: string
  /** 1-based rank among all matches, so pages concatenate in order. */
  order: number
}

export const idPattern = /^[a-z0-9-]{1,64}$/

// spec §9: page 40, search 100; 100 is also the most a client may ask for
export const defaultEntries = Constants.walletPageSize
export const maxEntries = Constants.walletSearchSize
export const maxSearch = 64

export declare namespace query {
  type Params = {
    page: number
    entries: number
    chains: readonly Caip.ChainId[]
    include: readonly string[]
    exclude: readonly string[]
    search: string | undefined
    badge: Badge | undefined
  }
  type Options = { publicUrl: string }
  type ReturnType = { data: Listing[]; count: number }
}

export function query(wallets: readonly Wallet[], params: query.Params, { publicUrl }: query.Options): query.ReturnType {
  const matches = rank(wallets.filter(matcher(params)))
  const start = (params.page - 1) * params.entries
  const data = matches.slice(start, start + params.entries).map((wallet, i) => toListing(wallet, start + i + 1, publicUrl))
  return { data, count: matches.length }
}

/**
 * An EVM wallet can add any EVM chain (EIP-3085), so for eip155 supporting one chain is enough: a dapp
 * on a chain the catalogue never heard of (a devnet, a new L2) still lists every EVM wallet. Other
 * namespaces need the exact chain (a Solana wallet does not speak a different genesis).
 */
function supports(wallet: { chains: readonly Caip.ChainId[] }, chain: Caip.ChainId): boolean {
  if (wallet.chains.includes(chain)) return true
  return chain.startsWith('eip155:') && wallet.chains.some((c) => c.startsWith('eip155:'))
}

function matcher({ chains, include, exclude, search, badge }: query.Params) {
  const needle = search?.toLowerCase()
  return (wallet: Wallet) =>
    (chains.length === 0 || chains.some((chain) => supports(wallet, chain))) &&
    (include.length === 0 || include.includes(wallet.id)) &&
    !exclude.includes(wallet.id) &&
    (needle === undefined || wallet.name.toLowerCase().includes(needle)) &&
    (badge !== 'certified' || wallet.badge_type === 'certified')
}

/** Recommended first, then certified, then the rest; data-file order within each (sort is stable). */
export function rank(wallets: readonly Wallet[]): Wallet[] {
  const tier = (wallet: Wallet) => (wallet.recommended ? 0 : wallet.badge_type === 'certified' ? 1 : 2)
  return [...wallets].sort((a, b) => tier(a) - tier(b))
}

function toListing(wallet: Wallet, order: number, publicUrl: string): Listing {
  const { recommended: _r, color: _c, initials: _i, ...listing } = wallet
  return { ...listing, image_id: wallet.id, image_url: `${publicUrl}/getWalletImage/${wallet.id}`, order }
}

/** The data file as wallets, or an error listing every problem in it. */
export function parse(data: unknown): Wallet[] {
  const found = problems(data)
  if (found.length > 0) throw new Error(`Invalid wallet catalogue:\n${found.join('\n')}`)
  return data as Wallet[]
}

const rdnsPattern = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/
const colorPattern = /^#[0-9A-Fa-f]{6}$/
const initialsPattern = /^[A-Z0-9]{1,2}$/
const deepLinkPattern = /^[a-z][a-z0-9+.-]*:\/\/[^\s<>"']*$/
// Schemes a browser runs or reads locally: never a wallet link, even when written `x://`.
const forbiddenSchemes = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'])
const stores = { app_store: 'apps.apple.com', play_store: 'play.google.com', chrome_store: 'chromewebstore.google.com' } as const
const fields = ['id', 'name', 'rdns', 'chains', 'mobile_link', 'desktop_link', 'webapp_link', 'homepage', 'app_store', 'play_store', 'chrome_store', 'badge_type', 'recommended', 'color', 'initials']

/** Every problem in the data file, one line each; empty when it is valid. */
export function problems(data: unknown): string[] {
  if (!Array.isArray(data)) return ['the catalogue is not an array']
  const found: string[] = []
  const seen = { id: new Set<unknown>(), rdns: new Set<unknown>(), name: new Set<unknown>() }
  data.forEach((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return void found.push(`[${i}] is not an object`)
    const wallet = entry as Record<string, unknown>
    const at = `[${i}] ${typeof wallet.id === 'string' ? wallet.id : '?'}`
    const fail = (message: string) => found.push(`${at}: ${message}`)
    for (const key of Object.keys(wallet)) if (!fields.includes(key)) fail(`unknown field ${key}`)
    for (const key of ['id', 'rdns', 'name'] as const) {
      if (wallet[key] === null) continue
      if (seen[key].has(wallet[key])) fail(`duplicate ${key}`)
      seen[key].add(wallet[key])
    }
    if (typeof wallet.id !== 'string' || !idPattern.test(wallet.id)) fail('id must be 1-64 characters of a-z, 0-9 and -')
    if (typeof wallet.name !== 'string' || wallet.name.trim() === '' || wallet.name.length > 64) fail('name must be 1-64 characters')
    if (wallet.rdns !== null && !(typeof wallet.rdns === 'string' && rdnsPattern.test(wallet.rdns))) fail('rdns must be null or reverse-DNS like io.metamask')
    if (!Array.isArray(wallet.chains) || wallet.chains.length === 0) fail('chains must be a non-empty array')
    else {
      for (const chain of wallet.chains) if (!Caip.isChainId(chain)) fail(`chain ${String(chain)} is not a CAIP-2 id`)
      if (new Set(wallet.chains).size !== wallet.chains.length) fail('chains repeat')
    }
    for (const key of ['mobile_link', 'desktop_link'] as const) if (wallet[key] !== null && !isLink(wallet[key])) fail(`${key} must be null, an http(s) URL or a scheme:// deep link`)
    if (wallet.webapp_link !== null && !isWebUrl(wallet.webapp_link)) fail('webapp_link must be null or an https URL')
    if (!isWebUrl(wallet.homepage)) fail('homepage must be an https URL')
    for (const [key, host] of Object.entries(stores)) if (wallet[key] !== null && !isWebUrl(wallet[key], host)) fail(`${key} must be null or an https URL on ${host}`)
    if (wallet.badge_type !== 'certified' && wallet.badge_type !== 'none') fail("badge_type must be 'certified' or 'none'")
    if (typeof wallet.recommended !== 'boolean') fail('recommended must be a boolean')
    if (typeof wallet.color !== 'string' || !colorPattern.test(wallet.color)) fail('color must be #rrggbb')
    if (typeof wallet.initials !== 'string' || !initialsPattern.test(wallet.initials)) fail('initials must be 1-2 of A-Z and 0-9')
  })
  return found
}

export function isLink(value: unknown): boolean {
  if (typeof value !== 'string') return false
  if (/^https?:/i.test(value)) return isWebUrl(value, undefined, ['https:', 'http:'])
  if (!deepLinkPattern.test(value)) return false
  return !forbiddenSchemes.has(value.slice(0, value.indexOf(':') + 1))
}

function isWebUrl(value: unknown, host?: string, protocols = ['https:']): boolean {
  if (typeof value !== 'string' || /\s/.test(value)) return false
  try {
    const url = new URL(value)
    return protocols.includes(url.protocol) && url.hostname !== '' && (host === undefined || url.hostname === host) && url.username === '' && url.password === ''
  } catch {
    return false
  }
}
