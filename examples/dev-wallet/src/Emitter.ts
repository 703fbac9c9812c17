/** The EIP-1193 event surface (`on`, `removeListener`) without pulling in Node's EventEmitter. */
export type Listener = (...args: unknown[]) => void

export function create() {
  const listeners = new Map<string, Set<Listener>>()
  return {
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener)
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event: string, ...args: unknown[]) {
      // a throwing dapp listener must not break the wallet or the other listeners
      for (const listener of [...(listeners.get(event) ?? [])])
        try {
          listener(...args)
        } catch (error) {
          queueMicrotask(() => {
            throw error
          })
        }
    },
  }
}
