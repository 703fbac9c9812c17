/**
 * The embedded (email) wallet in the first chunk (spec §4): reconnecting a returning device at
 * start-up, and the approval in progress, which closing the modal rejects. Everything else, the
 * requests to the secure-site among them, is embeddedSession.ts, loaded when needed; the login form
 * and code steps are emailLogin.ts, loaded with EmailLogin.
 */
import * as Logger from '@doorway/shared/Logger'
import type * as Protocol from '@doorway/shared/Protocol'
import { atom, type createStore } from 'jotai'
import { type Connector, embeddedId } from '../../core/connectors/Connector.js'
import { accountAtom, forgetAtom, storedConnectorId } from '../../core/connection.js'
import { openAtom } from '../../core/modal.js'

const log = Logger.create({ scope: 'frame:embedded' })

/** CONNECT_DEVICE at start-up: a returning device reconnects without a code (spec §4 restore). */
export const restoreEmbeddedAtom = atom(null, async (get, set) => {
  if (storedConnectorId() !== embeddedId || get(accountAtom)) return
  try {
    const Session = await import('./embeddedSession.js')
    const { account } = await Session.secureCall(get, (channel, op) => channel.call('restore', { op }, Session.requestTimeout))
    if (!account) return set(forgetAtom)
    await set(Session.adoptAtom, { account, restored: true })
  } catch (error) {
    log.warn('the embedded wallet did not reconnect', error)
    set(forgetAtom)
  }
})

/** spec §3 Account user as the embedded wallet fills it: the email, and after a social sign-in the provider's name and picture. */
export type User = Pick<Protocol.EmbeddedAccount, 'email' | 'username' | 'avatar'>

/** The login behind an account's connector, if it has one (spec §3 Account user). */
export function userOf(connector: Connector): User | undefined {
  return connector.user
}

/** The approval in progress, if any: the ApproveTransaction view aborts it when it goes away. */
export const approvalAtom = atom<{ op: string; controller: AbortController } | null>(null)

/** The view went away (back, close, another view): the pending approval is rejected with 4001. */
export const cancelApprovalAtom = atom(null, (get, _set, op: string) => {
  const approval = get(approvalAtom)
  if (approval?.op === op) approval.controller.abort()
})

/** spec §4: closing the modal rejects a pending embedded-wallet request (4001). Wired in src/wire.ts. */
export function wireEmbedded(store: ReturnType<typeof createStore>) {
  store.sub(openAtom, () => {
    const approval = store.get(approvalAtom)
    if (!store.get(openAtom) && approval) store.set(cancelApprovalAtom, approval.op)
  })
}
