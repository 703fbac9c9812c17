/**
 * The smart-session calls (issue 25, spec §7 /v1/sessions/*): the sessions an account granted with their
 * state, recording a granted one, and revoking one. A module of its own, loaded with the first such call:
 * only a smart account with features.smartSessions on makes them.
 */
import * as Names from '@doorway/shared/contracts/api/names'
import * as Sessions from '@doorway/shared/contracts/api/sessions'
import { call, type Context } from './client.js'

export type { Session } from '@doorway/shared/contracts/api/sessions'

/** spec §7 GET /v1/sessions/{address}: the account's sessions, each with its state from the chain. */
export function sessions(context: Context, address: string, signal?: AbortSignal) {
  return call<'GET /v1/sessions/:address'>(context, 'GET', `/v1/sessions/${encodeURIComponent(address)}`, Sessions.sessions, { signal }).then((r) => r.pcis)
}

/** POST /v1/sessions/{address}: the api checks the delegation's signature by the account before keeping it. */
export function createSession(context: Context, address: string, body: { chainId: string; delegation: Record<string, unknown> }, signal?: AbortSignal) {
  return call<'POST /v1/sessions/:address'>(context, 'POST', `/v1/sessions/${encodeURIComponent(address)}`, Sessions.created, { body, signal })
}

/** spec §7 POST /v1/sessions/{address}/revoke, by the account's signature of `Revoke session {pci}`. */
export function revokeSession(context: Context, address: string, body: { pci: string; signature: string }, signal?: AbortSignal) {
  return call<'POST /v1/sessions/:address/revoke'>(context, 'POST', `/v1/sessions/${encodeURIComponent(address)}/revoke`, Names.success, { body, signal })
}
