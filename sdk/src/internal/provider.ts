/** The dapp's EIP-1193 provider: requests go to the frame, which routes them to the connected wallet. */
import type { RpcRequest } from '@doorway/shared/Protocol'

type Listener = (data: unknown) => void

export type Provider = ReturnType<typeof create>

export function create(request: (args: RpcRequest) => Promise<unknown>) {
  const listeners = new Map<string, Set<Listener>>()
  return {
    request,
    on(event: string, listener: Listener) {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(listener))
      return this
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener)
      return this
    },
    /** Internal: the SDK emits the standard events here. */
    emit(event: string, data: unknown) {
      listeners.get(event)?.forEach((listener) => listener(data))
    },
  }
}
