/**
 * What this device keeps, in the secure-site's own IndexedDB (docs/embedded-wallet.md §2, §3):
 * its ECDSA P-256 request key, its ECDH P-256 seal key (shares come down sealed to it) and an AES-GCM
 * wrapping key, all non-extractable (`exportKey` throws on the private halves),
 * and the wallet record: the email, the address it committed to, and the device share D encrypted
 * under the wrapping key with AAD userId‖deviceId. Storage is partitioned by the top-level site, so
 * every dapp is a new device. `import * as Device from './Device.js'`.
 */
import * as Ids from '@doorway/shared/Ids'

export type Key = { id: string; keyPair: CryptoKeyPair; sealPair: CryptoKeyPair; enrolled: boolean }
export type WalletRecord = { userId: string; email: string; address: `0x${string}`; share: Uint8Array; iv: Uint8Array }

/** A key-value store; IndexedDB in the browser, a Map in unit tests. */
export type Store = {
  get<T>(key: string): Promise<T | undefined>
  put(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<void>
  /** False when what is put here ends with the page (the browser denied storage): a redirect could not come back to it. */
  durable?(): Promise<boolean>
}

/**
 * IndexedDB, or, where the browser denies this third-party frame its storage (Chrome's incognito
 * and "block third-party cookies" modes), memory: the device then lasts as long as the page, and a
 * reload asks for a code again. Nothing is ever put anywhere less safe instead.
 */
export function browserStore(name = 'doorway-secure'): Store {
  const fallback = memoryStore()
  const chosen = new Promise<Store>((resolve) => {
    const store = indexedDbStore(name)
    store.get('device').then(() => resolve(store), () => resolve(fallback))
  })
  return {
    get: (key) => chosen.then((s) => s.get(key)),
    put: (key, value) => chosen.then((s) => s.put(key, value)),
    delete: (key) => chosen.then((s) => s.delete(key)),
    durable: () => chosen.then((s) => s !== fallback),
  }
}

export function indexedDbStore(name = 'doorway-secure'): Store {
  const db = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, 1)
    request.onupgradeneeded = () => request.result.createObjectStore('kv')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
  const run = <T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest) =>
    db.then(
      (db) =>
        new Promise<T>((resolve, reject) => {
          const request = action(db.transaction('kv', mode).objectStore('kv'))
          request.onsuccess = () => resolve(request.result as T)
          request.onerror = () => reject(request.error)
        }),
    )
  return {
    get: (key) => run('readonly', (s) => s.get(key)),
    put: (key, value) => run('readwrite', (s) => s.put(value, key)),
    delete: (key) => run('readwrite', (s) => s.delete(key)),
  }
}

export function memoryStore(): Store {
  const map = new Map<string, unknown>()
  return {
    get: async <T>(key: string) => map.get(key) as T | undefined,
    put: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
  }
}

const signing = { name: 'ECDSA', namedCurve: 'P-256' } as const

const sealing = { name: 'ECDH', namedCurve: 'P-256' } as const

/** This device's request and seal keys, made on first use and never exportable. */
export async function key(store: Store): Promise<Key> {
  const existing = await store.get<Partial<Key>>('device')
  // A device from before seal keys existed becomes a new device: its old id keeps its old key at the server.
  if (existing?.sealPair) return existing as Key
  const keyPair = (await crypto.subtle.generateKey(signing, false, ['sign', 'verify'])) as CryptoKeyPair
  const sealPair = (await crypto.subtle.generateKey(sealing, false, ['deriveBits'])) as CryptoKeyPair
  const created: Key = { id: Ids.random(), keyPair, sealPair, enrolled: false }
  await store.put('device', created)
  return created
}

export async function markEnrolled(store: Store, device: Key): Promise<Key> {
  const enrolled = { ...device, enrolled: true }
  await store.put('device', enrolled)
  return enrolled
}

async function wrappingKey(store: Store): Promise<CryptoKey> {
  const existing = await store.get<CryptoKey>('wrap')
  if (existing) return existing
  const created = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
  await store.put('wrap', created)
  return created
}

const aad = (userId: string, deviceId: string) => new TextEncoder().encode(`${userId}|${deviceId}`)

/** Keeps the device share D, encrypted, with the address it must rebuild. */
export async function saveWallet(store: Store, device: Key, wallet: { userId: string; email: string; address: `0x${string}`; share: Uint8Array }): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const share = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(wallet.userId, device.id) }, await wrappingKey(store), wallet.share as Uint8Array<ArrayBuffer>),
  )
  await store.put('wallet', { userId: wallet.userId, email: wallet.email, address: wallet.address, share, iv } satisfies WalletRecord)
}

export function wallet(store: Store): Promise<WalletRecord | undefined> {
  return store.get<WalletRecord>('wallet')
}

/** The device share in clear, for one combine; a record copied to another device or user does not open. */
export async function openShare(store: Store, device: Key, record: WalletRecord): Promise<Uint8Array> {
  const key = await wrappingKey(store)
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: record.iv as Uint8Array<ArrayBuffer>, additionalData: aad(record.userId, device.id) },
    key,
    record.share as Uint8Array<ArrayBuffer>,
  )
  return new Uint8Array(plain)
}

export function forgetWallet(store: Store): Promise<void> {
  return store.delete('wallet')
}
