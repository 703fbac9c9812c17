/**
 * A time-limited map on the injected clock, for answers the api may reuse (balances, identities, onramp
 * options). The oldest entries go first once it holds `max`.
 */
export function create<T>(now: () => number, ttlMs: number, max = 10_000) {
  const entries = new Map<string, { value: T; expires: number }>()
  return {
    get(key: string): T | undefined {
      const entry = entries.get(key)
      if (entry && entry.expires > now()) return entry.value
      entries.delete(key)
      return undefined
    },
    set(key: string, value: T): void {
      entries.delete(key)
      entries.set(key, { value, expires: now() + ttlMs })
      if (entries.size > max) entries.delete(entries.keys().next().value!)
    },
  }
}
