/**
 * The frame's persistent storage: localStorage on the frame origin (partitioned per top-level site by
 * the browser), keys prefixed `@doorway/` (spec §9), every value validated on read.
 */
import * as Constants from '@doorway/shared/Constants'

export function read<T>(key: string, check: (x: unknown) => x is T): T | undefined {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(Constants.storagePrefix + key) ?? 'null')
    return check(value) ? value : undefined
  } catch {
    return undefined
  }
}

export function write(key: string, value: unknown) {
  try {
    if (value === undefined) localStorage.removeItem(Constants.storagePrefix + key)
    else localStorage.setItem(Constants.storagePrefix + key, JSON.stringify(value))
  } catch {
    // Storage can be unavailable (private modes, quotas): the session still works, only unsaved.
  }
}
