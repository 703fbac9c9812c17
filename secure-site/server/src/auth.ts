/**
 * Who is asking (docs/embedded-wallet.md §3): every route but /healthz is signed by a device key
 * (common/Stamp.ts); a session is that device linked to a user. `import * as Auth from './auth.js'`.
 */
import * as Stamp from '@doorway/secure-site/common/Stamp'
import type { Context } from 'hono'
import type { Deps } from './app.js'
import { HttpError } from './http.js'
import * as Session from './Session.js'
import type { Device } from './storage/Storage.js'

const refusals: Record<Exclude<Stamp.Verdict, { ok: true }>['reason'], string> = {
  malformed: 'The request is not signed by a device',
  unknownDevice: 'The device is not enrolled',
  skew: 'The request is too old or too far ahead: check the clock',
  signature: 'The signature does not verify',
  replay: 'The request was already used',
}

/** The stored nonces, with expired ones dropped at most once a minute. */
export function nonces(deps: Pick<Deps, 'storage' | 'now'>): Stamp.Nonces {
  let pruned = -Infinity
  return {
    async claim(deviceId, nonce, expiresAt) {
      if (deps.now() - pruned >= 60_000) {
        pruned = deps.now()
        await deps.storage.nonces.prune(pruned)
      }
      return deps.storage.nonces.claim(deviceId, nonce, expiresAt)
    },
  }
}

/** The request's body text once its signature verified with `publicKeyOf`; else 401 with the reason. */
export async function verify(c: Context, deps: Deps & { nonces: Stamp.Nonces }, publicKeyOf: (deviceId: string) => Promise<string | undefined>) {
  const body = await c.req.text()
  const url = new URL(c.req.url)
  const verdict = await Stamp.verify({
    header: c.req.header(Stamp.header),
    request: { method: c.req.method, path: url.pathname + url.search, body },
    publicKeyOf,
    nonces: deps.nonces,
    now: deps.now(),
  })
  if (!verdict.ok) throw new HttpError(401, refusals[verdict.reason], { reason: verdict.reason })
  return { deviceId: verdict.deviceId, body }
}

/**
 * A request signed by an enrolled device: the device as it was before this request and the body text.
 * A session that ran out is ended here, so the request noting the device as seen cannot revive it.
 */
export async function device(c: Context, deps: Deps & { nonces: Stamp.Nonces }): Promise<{ device: Device; body: string }> {
  let stored: Device | undefined
  const { body } = await verify(c, deps, async (id) => {
    stored = await deps.storage.devices.get(id)
    return stored && !stored.revoked ? stored.publicKey : undefined
  })
  let device = stored!
  const now = deps.now()
  if (Session.expired(device, now)) {
    await deps.storage.devices.endSession(device.id)
    device = { ...device, sessionStartedAt: null, freshAuthAt: null }
  }
  await deps.storage.devices.touch(device.id, now)
  return { device, body }
}

/** The user of the device's live session, or 401. */
export function session(device: Device, now: number): string {
  const userId = Session.userOf(device, now)
  if (!userId) throw new HttpError(401, 'No session: verify a code on this device first', { reason: 'noSession' })
  return userId
}

/** The user of a live session whose code was verified on this device within 5 min: 401, else 403. */
export function fresh(device: Device, now: number): string {
  const userId = session(device, now)
  if (!Session.isFresh(device, now)) throw new HttpError(403, 'Verify a code again: this needs a sign-in from the last 5 minutes', { reason: 'freshAuth' })
  return userId
}
