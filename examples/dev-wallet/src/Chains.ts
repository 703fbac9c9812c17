/** The networks the wallet knows (chain id → RPC URL) and the one it is on, kept in storage. */
import * as Errors from './Errors.js'

export type Known = Readonly<Record<number, string>>

/** docs/architecture.md §3: the two local anvil chains. */
export const defaults: Known = { 31337: 'http://127.0.0.1:8545', 31338: 'http://127.0.0.1:8546' }

const chainKey = 'doorway-dev-wallet:chain'
// Networks added by wallet_addEthereumChain survive a reload, as they do in an extension.
const addedKey = 'doorway-dev-wallet:chains'

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>

export function create(storage: Storage, initial: Known = defaults) {
  const known = new Map<number, string>(Object.entries(initial).map(([id, url]) => [Number(id), url]))
  for (const [id, url] of Object.entries(readJson(storage, addedKey) ?? {}))
    if (typeof url === 'string') known.set(Number(id), url)
  const first = known.keys().next().value ?? 31337
  const stored = Number(storage.getItem(chainKey))
  let current = known.has(stored) ? stored : known.has(31337) ? 31337 : first

  return {
    current: () => current,
    rpcUrl: (id: number) => known.get(id),
    list: () => [...known].map(([id, rpcUrl]) => ({ id, rpcUrl })),
    select(id: number) {
      current = id
      storage.setItem(chainKey, String(id))
    },
    add(id: number, rpcUrl: string) {
      known.set(id, rpcUrl)
      storage.setItem(addedKey, JSON.stringify({ ...readJson(storage, addedKey), [id]: rpcUrl }))
    },
  }
}

/** EIP-3326/3085 chain ids are 0x-prefixed hex without leading zeros. */
export function parseId(value: unknown): number {
  if (typeof value !== 'string' || !/^0x[1-9a-f][0-9a-f]*$/i.test(value))
    throw Errors.invalidParams(`Expected a hex chain id, got ${JSON.stringify(value)}`)
  return Number(value)
}

function readJson(storage: Storage, key: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(storage.getItem(key) ?? 'null')
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
