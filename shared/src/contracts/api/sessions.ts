/**
 * The answers of spec §7's smart-session routes (/v1/sessions/*, issue 25); the table is contracts/api.ts.
 * A session is an ERC-7710 delegation from the address's smart account to a dapp's session key
 * (shared/src/Permissions.ts), recorded by POST /v1/sessions/{address} once its signature checks.
 */
import * as S from '../Described.js'

/** A delegation as Permissions.toJson writes it; the api checks it strictly (Permissions.fromJson) before keeping it. */
const delegation = S.record(S.string({ max: 64 }), S.unknown, 16)

/** A smart session an address granted, with its state: the chain's where it answered, else the store's and the server's clock. */
export const session = S.object({
  address: S.string({ max: 64 }),
  /** The permission context id: the delegation's hash (DelegationManager.getDelegationHash). */
  pci: S.string({ min: 1, max: 256 }),
  chainId: S.string({ max: 80 }),
  /** The limits its caveats enforce (Permissions.fromCaveats: permission, expiry, maxCalls), amounts as decimal strings. */
  permissions: S.unknown,
  /** Unix seconds: the delegation's timestamp caveat. */
  expiry: S.number,
  /** Revoked at the api (POST …/revoke). `status` also counts a delegation disabled on chain. */
  revoked: S.boolean,
  /** Unix milliseconds. */
  createdAt: S.number,
  /** The signed delegation, to show and to disable it; null for a session recorded before the api kept them. */
  delegation: S.union(delegation, S.literal(null)),
  /** revoked: at the api or DelegationManager.disabledDelegations; expired: the chain's latest block is at or past `expiry`. */
  status: S.literal('active', 'expired', 'revoked'),
  /** chain: read on the session's chain now; server: the chain did not answer (or is no longer served), so the store and the server's clock. */
  statusFrom: S.literal('chain', 'server'),
})
export type Session = S.Infer<typeof session>

/** GET /v1/sessions/{address}, newest first. */
export const sessions = S.object({ pcis: S.array(session, 10_000) })

/** POST /v1/sessions/{address}: recorded (now or before: the same delegation again answers the same). */
export const created = S.object({ success: S.literal(true), pci: S.string({ min: 1, max: 256 }) })
export type Created = S.Infer<typeof created>
