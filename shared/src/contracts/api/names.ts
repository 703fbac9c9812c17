/**
 * The answers of spec §7's name routes (/v1/profile/*, GET /v1/identity/{address}), which the api
 * gives and the frame checks on receipt; the route table is contracts/api.ts.
 */
import * as S from '../Described.js'

/** GET /v1/profile/account/{name}: addresses by coin type (SLIP-44, or ENSIP-11 for EVM chains). */
export const profile = S.object({
  name: S.string({ max: 256 }),
  addresses: S.record(S.string({ pattern: /^\d{1,10}$/ }), S.object({ address: S.string({ max: 128 }) }), 64),
  attributes: S.record(S.string({ max: 64 }), S.string({ max: 512 }), 16),
})
export type Profile = S.Infer<typeof profile>

/** GET /v1/identity/{address}: the name the address goes by and its avatar, null when it has none. */
export const identity = S.object({ name: S.union(S.string({ max: 256 }), S.literal(null)), avatar: S.union(S.string({ max: 512 }), S.literal(null)) })
export type Identity = S.Infer<typeof identity>

/** GET /v1/profile/reverse/{address}: the names registered to the address (the api keeps at most one). */
export const reverse = S.array(profile, 16)

/** GET /v1/profile/suggestions/{name}: the free names among the name and its numbered variants. */
export const suggestions = S.object({ suggestions: S.array(S.object({ name: S.string({ max: 256 }), registered: S.boolean }), 32) })

/** POST /v1/profile/account, the sessions' revoke and POST /e (an analytics event accepted): done. */
export const success = S.object({ success: S.boolean })

/** spec §7 POST /v1/profile/account: the signed registration message of a name, for the address. */
export type NameRegistration = { coin_type: number; address: string; message: string; signature: string }
