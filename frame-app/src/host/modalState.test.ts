/**
 * The modal's state as the host reads it (spec §3 ModalState): here, its `user` (spec §3 Account user),
 * the embedded wallet's login as the dapp sees it in `modal.getState()`, checked as the SDK checks it.
 */
import * as Protocol from '@doorway/shared/Protocol'
import { createStore } from 'jotai'
import { describe, expect, test, vi } from 'vitest'
import { accountAtom } from '../core/connection.js'
import { openAtom } from '../core/modal.js'
import { operationLandedAtom } from '../features/embedded/deployed.js'
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

describe('modalStateAtom account type (spec §3 preferredAccountType, smartAccountDeployed)', () => {
  /** The embedded wallet connected as `accountType`, on a chain whose eth_getCode answers `code()`. */
  function connect(accountType: 'eoa' | 'smartAccount' | undefined, code: () => string) {
    const getCode = vi.fn(async ({ method }: { method: string }) => (method === 'eth_getCode' ? code() : null))
    const connector = { id: embeddedId, name: 'ada@example.com', type: 'AUTH', namespaces: ['eip155'], request: getCode, ...(accountType && { accountType }) } as Connector
    const store = createStore()
    store.set(accountAtom, { connector, address, chainId: 'eip155:31337' })
    const state = () => {
      const value = store.get(modalStateAtom)
      expect(Protocol.frameEvent({ type: 'state', state: value })).toBe(true)
      return value
    }
    return { store, state, getCode, connector }
  }

  test('behavior: an undeployed smart account is said so, and deployed once its first operation landed', async () => {
    let code = '0x'
    const { store, state, getCode } = connect('smartAccount', () => code)
    expect(state().preferredAccountType).toBe('smartAccount')
    await vi.waitFor(() => expect(state().smartAccountDeployed).toBe(false))
    expect(getCode).toHaveBeenCalledWith({ method: 'eth_getCode', params: [address, 'latest'] })
    code = '0x6001'
    store.set(operationLandedAtom, (n) => n + 1)
    await vi.waitFor(() => expect(state().smartAccountDeployed).toBe(true))
  })

  test('behavior: deployed by someone else (a session key\'s spend), it is known at the next opening', async () => {
    let code = '0x'
    const { store, state } = connect('smartAccount', () => code)
    await vi.waitFor(() => expect(state().smartAccountDeployed).toBe(false))
    code = '0x6001'
    store.set(openAtom, true)
    await vi.waitFor(() => expect(state().smartAccountDeployed).toBe(true))
  })

  test("behavior: the embedded wallet's EOA is 'eoa', with no deployed flag and no chain read", async () => {
    const { state, getCode } = connect('eoa', () => '0x')
    expect(state().preferredAccountType).toBe('eoa')
    await Promise.resolve()
    expect(state()).not.toHaveProperty('smartAccountDeployed')
    expect(getCode).not.toHaveBeenCalled()
  })

  test("behavior: switched to the EOA, the smart account's answer is never shown for it", async () => {
    const { store, state, connector } = connect('smartAccount', () => '0x6001')
    await vi.waitFor(() => expect(state().smartAccountDeployed).toBe(true))
    store.set(accountAtom, { connector: { ...connector, accountType: 'eoa' }, address: '0x1111111111111111111111111111111111111111', chainId: 'eip155:31337' })
    expect(state().preferredAccountType).toBe('eoa')
    expect(state()).not.toHaveProperty('smartAccountDeployed')
  })

  test('behavior: a wallet that does not say its type gives neither field', () => {
    const { state } = connect(undefined, () => '0x')
    expect(state()).not.toHaveProperty('preferredAccountType')
    expect(state()).not.toHaveProperty('smartAccountDeployed')
  })

  test('error: a chain that does not answer leaves the deployed flag out, never a guess', async () => {
    const { state, getCode } = connect('smartAccount', () => {
      throw new Error('down')
    })
    expect(state().preferredAccountType).toBe('smartAccount')
    await vi.waitFor(() => expect(getCode).toHaveBeenCalled())
    await Promise.resolve()
    expect(state()).not.toHaveProperty('smartAccountDeployed')
  })
})
