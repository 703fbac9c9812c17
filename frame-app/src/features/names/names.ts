/**
 * Names (spec §3 Account profileName/profileImage and Name cache entry, §7 profile calls, §9 5 min
 * cache): what an address is called, and the connected account's own name. The form that registers
 * one is nameForm.ts, loaded with the RegisterAccountName view.
 *
 * Names are read per store and cached per address for 5 minutes. The connected account's name follows
 * the account: it is read again when the account changes and after a registration.
 */
import * as Address from '@doorway/shared/Address'
import * as Constants from '@doorway/shared/Constants'
import { atom, type Getter } from 'jotai'
import { unwrap } from 'jotai/utils'
import type { Profile } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { accountAtom } from '../../core/connection.js'

/** What an address is called, and its avatar when the frame may show it (sendRules.avatarUrl). */
export type Identity = { name: string; imageUrl: string | undefined }

/** spec §3 Name cache entry: the name an address goes by (null: none) and when it was read (ms). */
export type NameCacheEntry = { address: string; name: string | null; imageUrl: string | undefined; timestamp: number }

// A per-store cache (never module state: one store per modal instance), keyed by lowercase address.
const cacheAtom = atom(() => new Map<string, NameCacheEntry>())

/** spec §9: a name is good for 5 minutes after it was read. */
function cached(get: Getter, address: string): NameCacheEntry | undefined {
  const entry = get(cacheAtom).get(address.toLowerCase())
  return entry && Date.now() - entry.timestamp < Constants.identityCacheMs ? entry : undefined
}

function remember(get: Getter, entry: Omit<NameCacheEntry, 'timestamp'>): NameCacheEntry {
  const stamped = { ...entry, timestamp: Date.now() }
  get(cacheAtom).set(entry.address.toLowerCase(), stamped)
  return stamped
}

const identityOf = (entry: NameCacheEntry): Identity | undefined => (entry.name ? { name: entry.name, imageUrl: entry.imageUrl } : undefined)

/**
 * An avatar attribute through the frame's one image rule (sendRules.avatarUrl: https or an inline
 * image). That module comes with viem for the Send flow: it loads only for a name that has an avatar.
 */
async function imageOf(name: string, avatar: string | null | undefined): Promise<string | undefined> {
  if (!avatar) return undefined
  const { avatarUrl } = await import('../send/sendRules.js')
  return avatarUrl({ name, addresses: {}, attributes: { avatar } })
}

/** The connected account's own names, read fresh (spec §7 reverse lookup): the first is its name. */
async function readOwnName(get: Getter, address: string, signal?: AbortSignal): Promise<NameCacheEntry> {
  // Names point at EVM addresses (the name service's): another namespace's account has none to look up.
  if (!Address.isEvmAddress(address)) return { address, name: null, imageUrl: undefined, timestamp: Date.now() }
  const [profile]: (Profile | undefined)[] = await get(apiAtom).reverse(address, address, signal)
  const imageUrl = profile && (await imageOf(profile.name, profile.attributes.avatar))
  return remember(get, { address, name: profile?.name ?? null, imageUrl })
}

/**
 * What another address is called (spec §7 identity, as the connected account sees it), from the cache
 * when read in the last 5 minutes. Rejects with the api's reason or 'Error fetching names for address'.
 */
export const identityOfAtom = atom(null, async (get, _set, address: string, signal?: AbortSignal): Promise<Identity | undefined> => {
  const entry = cached(get, address)
  if (entry) return identityOf(entry)
  if (!Address.isEvmAddress(address)) return undefined
  const { name, avatar } = await get(apiAtom).identity(address, get(accountAtom)?.address, signal)
  return identityOf(remember(get, { address, name, imageUrl: name ? await imageOf(name, avatar) : undefined }))
})

/** The connected account's name as it is known: loading, known (a name or none), or unknown (failed). */
export type AccountIdentity =
  | { status: 'none' }
  | { status: 'loading'; address: string }
  | { status: 'ready'; address: string; identity: Identity | undefined }
  | { status: 'error'; address: string; message: string }

/** Bumped to read the account's name again: after a registration, or to catch an expired one. */
const identityVersionAtom = atom(0)

const accountIdentityReadAtom = atom((get, { signal }): AccountIdentity | Promise<AccountIdentity> => {
  get(identityVersionAtom)
  const address = get(accountAtom)?.address
  if (!address) return { status: 'none' }
  const entry = cached(get, address)
  if (entry) return { status: 'ready', address, identity: identityOf(entry) }
  return readOwnName(get, address, signal).then(
    (read) => ({ status: 'ready', address, identity: identityOf(read) }),
    (error: Error) => ({ status: 'error', address, message: error.message }),
  )
})
const accountIdentityUnwrapAtom = unwrap(accountIdentityReadAtom, (previous): AccountIdentity => previous ?? { status: 'none' })

/**
 * spec §3 Account profileName and profileImage: the connected account's name, read when the account
 * changes. While another account's answer is all there is, it is loading.
 */
export const accountIdentityAtom = atom((get): AccountIdentity => {
  const address = get(accountAtom)?.address
  const known = get(accountIdentityUnwrapAtom)
  if (!address) return { status: 'none' }
  return known.status !== 'none' && known.address === address ? known : { status: 'loading', address }
})

/**
 * Reads the account's name again when its cache entry expired or its read failed (the Account view
 * asks when it shows); a name still fresh, or on its way, is left as it is.
 */
export const refreshIdentityAtom = atom(null, (get, set) => {
  const address = get(accountAtom)?.address
  const identity = get(accountIdentityAtom)
  if (!address || identity.status === 'loading') return
  if (identity.status === 'error' || !cached(get, address)) set(identityVersionAtom, (n) => n + 1)
})

/** A name just registered is the account's name at once (nameForm.ts registerNameAtom). */
export const nameRegisteredAtom = atom(null, (get, set, { address, name }: { address: string; name: string }) => {
  remember(get, { address, name, imageUrl: undefined })
  set(identityVersionAtom, (n) => n + 1)
})
