/**
 * The dapp's subscriptions (`modal.subscribe`), and the frame's events: the modal's own, and the
 * account's, told to the subscribers and to the EIP-1193 provider's listeners.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import type * as Logger from '@doorway/shared/Logger'
import type * as Protocol from '@doorway/shared/Protocol'
import type { Events, Modal, State } from '../types.js'
import type * as Opening from './opening.js'
import type * as Provider from './provider.js'

export type Emit = <E extends keyof Events>(event: E, data: Events[E]) => void

/** `emit` tells the subscribers, `subscribe` is `modal.subscribe`, `clear` drops every subscription (destroy()). */
export function create(log: Pick<Logger.Logger, 'error'>): readonly [emit: Emit, subscribe: Modal['subscribe'], clear: () => void] {
  const listeners = new Map<keyof Events, Set<(data: never) => void>>()
  // One dapp callback that throws must not stop the others or the channel.
  const emit: Emit = (event, data) =>
    listeners.get(event)?.forEach((callback) => {
      try {
        callback(data as never)
      } catch (error) {
        log.error(error)
      }
    })
  const subscribe: Modal['subscribe'] = (event, callback) => {
    const set = listeners.get(event) ?? new Set()
    listeners.set(event, set)
    set.add(callback as (data: never) => void)
    return () => void set.delete(callback as (data: never) => void)
  }
  return [emit, subscribe, () => listeners.clear()]
}

/**
 * What the frame reports (Protocol frameEvent): the modal's state and its openings, the links it opens,
 * and the account's news for the dapp's subscribers and the provider's EIP-1193 listeners.
 */
export function fromFrame(
  event: Protocol.FrameEvent,
  setState: (state: State) => void,
  [start, settle, end]: Opening.Opening,
  emit: Emit,
  provider: Provider.Provider,
): void {
  const { type } = event
  if (type === 'state') setState(event.state)
  else if (type === 'close') end(event.result)
  // `connected`, `sent` or `swapped`: open() settles; the modal stays until closed.
  else if (type === 'result') settle(event.result)
  else if (type === 'show') void start()
  // App links replace nothing (the OS takes them); web pages get a new tab (Protocol frameEvent).
  else if (type === 'navigate') open(event.url, /^https?:/i.test(event.url) ? '_blank' : '_self', 'noopener')
  // The EIP-1193 provider speaks only of eip155 accounts ('e' starts no other namespace); the events, of every one.
  else if (type === 'connect' || type === 'accountChanged') {
    emit(type, event.account)
    if (event.account.chainId[0] == 'e') {
      provider.emit('accountsChanged', [event.account.address])
      if (type === 'connect') provider.emit('connect', { chainId: Caip.eip155Hex(event.account.chainId) })
    }
  } else if (type === 'chainChanged') {
    emit(type, { chainId: event.chainId })
    if (event.chainId[0] == 'e') provider.emit('chainChanged', Caip.eip155Hex(event.chainId))
  } else {
    emit('disconnect', {})
    provider.emit('accountsChanged', [])
    provider.emit('disconnect', Errors.disconnected())
  }
}
