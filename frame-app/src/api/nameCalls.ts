/**
 * The name calls of lazy views (spec §7 /v1/profile/*): a name's profile (Send resolves a name to its
 * address), suggestions and registration (RegisterAccountName). A module of its own, loaded with the
 * first such call, not with the frame (as accountPages.ts); the account's own name is client.ts's.
 */
import * as Names from '@doorway/shared/contracts/api/names'
import * as Name from '@doorway/shared/Name'
import { errors, format } from '@doorway/shared/Texts'
import { ApiError, call, type Context, nameError } from './client.js'

/** spec §7 GET /v1/profile/account/{name}: the name's addresses and attributes (avatar). */
export function profile(context: Context, name: string, signal?: AbortSignal) {
  return call<'GET /v1/profile/account/:name'>(context, 'GET', `/v1/profile/account/${encodeURIComponent(name)}`, Names.profile, { query: { apiVersion: 2 }, signal })
}

/** spec §7 GET /v1/profile/suggestions/{name}: free names like `name` in the zone (spec §9). */
export function suggestions(context: Context, name: string, signal?: AbortSignal) {
  return call<'GET /v1/profile/suggestions/:name'>(context, 'GET', `/v1/profile/suggestions/${encodeURIComponent(name)}`, Names.suggestions, { query: { zone: Name.defaultZone }, signal })
    .then((r) => r.suggestions)
    .catch(nameError(errors.fetchNameSuggestionsFailed, signal))
}

/** spec §7 POST /v1/profile/account: registers `name`, which the signed message holds (it names the failure, spec §8). */
export function registerName(context: Context, name: string, body: Names.NameRegistration, signal?: AbortSignal) {
  const fallback = format(errors.registerNameFailed, { name })
  return call<'POST /v1/profile/account'>(context, 'POST', '/v1/profile/account', Names.success, { body, signal }).then(
    (r) => {
      if (!r.success) throw new ApiError(200, fallback)
    },
    nameError(fallback, signal),
  )
}
