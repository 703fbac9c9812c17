/**
 * The modal's state as the host reads it (spec §3 ModalState): here, its `user` (spec §3 Account user),
 * the embedded wallet's login as the dapp sees it in `modal.getState()`, checked as the SDK checks it.
 */
import * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test } from 'vitest'
import { accountAtom } from '../core/connection.js'
import { type Connector, embeddedId } from '../core/connectors/Connector.js'
import { modalStateAtom } from './modalState.js'

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** The state with a connected account whose connector has this login (none: a wallet). */
function stateWith(user?: Record<string, unknown>) {
  const connector = { id: user ? embeddedId : 'io.metamask', name: 'W', type: user ? 'AUTH' : 'ANNOUNCED', namespaces: ['eip155'], request: async () => null, ...(user && { user }) } as Connector
  const store = createStore()
  store.set(accountAtom, { connector, address, chainId: 'eip155:31337' })
  const state = store.get(modalStateAtom)
  // What the SDK takes from the frame (Protocol frameEvent): a state it would refuse never reaches the dapp.
  expect(Protocol.frameEvent({ type: 'state', state })).toBe(true)
  return state
}

describe('modalStateAtom user', () => {
  test("behavior: a social sign-in's login is the email and the provider's name; the picture stays in the frame", () => {
    expect(stateWith({ email: 'ada@example.com', username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' }).user).toEqual({ email: 'ada@example.com', username: 'Ada Lovelace' })
  })

  test("behavior: a code's login is the email alone", () => {
    expect(stateWith({ email: 'ada@example.com' }).user).toEqual({ email: 'ada@example.com' })
  })

  test('behavior: a wallet has no login, and the state no user', () => {
    expect(stateWith()).not.toHaveProperty('user')
  })
})
