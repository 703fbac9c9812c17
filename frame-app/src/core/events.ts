/**
 * What happened in the core, told to the features that asked (docs/architecture.md §5): the core
 * publishes, and features subscribe in src/wire.ts, so nothing in core/ imports a feature. Handlers are
 * writable atoms run in the publishing store: one hub per store, as all state (one store per modal).
 */
import { atom, type createStore, type WritableAtom } from 'jotai'
import type { Account } from './connection.js'

/** Each event's fields, and what its handlers answer (true: "I take it from here"). */
type Events = {
  /** A wallet connected now, or came back at start-up (restored). True: the handler reports open()'s result (sign-in does). */
  connected: { event: { account: Account; restored: boolean }; answer: boolean }
  /** The connected wallet moved to another of its accounts. */
  accountChanged: { event: { account: Account }; answer: void }
  /** The connected account is gone (disconnected, revoked, or its wallet went away). */
  disconnected: { event: object; answer: void }
  /** The modal is about to close; silent when the dapp asked. True: the handler closes it (or refuses to), not the modal. */
  closing: { event: { silent: boolean }; answer: boolean }
}

export type Type = keyof Events
export type Event<T extends Type = Type> = T extends Type ? { type: T } & Events[T]['event'] : never
export type Handler<T extends Type> = WritableAtom<unknown, [Event<T>], Events[T]['answer']>

type Store = ReturnType<typeof createStore>

// Per store (never module state): each event's handlers, in the order they subscribed.
const handlersAtom = atom(() => ({}) as Partial<Record<Type, WritableAtom<unknown, [never], boolean | void>[]>>)

/** Runs `handler` on every `type` event of this store (for the store's life: the app wires once). */
export function on<T extends Type>(store: Store, type: T, handler: Handler<T>) {
  const handlers = store.get(handlersAtom)
  handlers[type] = [...(handlers[type] ?? []), handler]
}

/** Tells every handler of the event, in order; answers whether one of them took it over. */
export const publishAtom = atom(null, (get, set, event: Event): boolean =>
  (get(handlersAtom)[event.type] ?? []).map((handler) => set(handler, event as never)).includes(true),
)
