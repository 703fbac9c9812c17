/**
 * Stands in for `@walletconnect/keyvaluestorage` in the frame's build (frame-app/vite.config.ts).
 * The package reads `window.localStorage` when it loads, which throws in a cross-site frame whose
 * browser blocks third-party storage, failing the whole WalletConnect chunk. The frame always passes
 * its own storage (walletConnectStorage.ts), so the SDK's default store is never used: this one keeps
 * values in memory in case it ever is.
 */
import type { IKeyValueStorage } from '@walletconnect/keyvaluestorage'

export default class MemoryKeyValueStorage implements IKeyValueStorage {
  private readonly entries = new Map<string, unknown>()
  async getKeys() {
    return [...this.entries.keys()]
  }
  async getEntries<T>() {
    return [...this.entries.entries()] as [string, T][]
  }
  async getItem<T>(key: string) {
    return this.entries.get(key) as T | undefined
  }
  async setItem<T>(key: string, value: T) {
    this.entries.set(key, value)
  }
  async removeItem(key: string) {
    this.entries.delete(key)
  }
}
