/**
 * Recovery on a new device (API.md, docs/embedded-wallet.md §2 New dapp or device, §4 VERIFY_DEVICE):
 * after a verified code, the device asks until the person has approved it from the vault's mail. Then
 * the vault re-seals R2 to the device's seal key, on its own evidence, and the server seals R1 to the
 * same key; the device checks the vault's statements before it combines.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Browser from '../browser.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Flow from '../social/Flow.js'
import * as Vaulted from '../vaulted.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  /** The session user's wallet: its address, the vault's statement and its recovery pair; 404 when there is none. */
  const walletOf = async (userId: string) => {
    const user = await storage.users.get(userId)
    const recovery = user?.address && user.attestation ? await storage.wallets.recovery(userId) : undefined
    if (!user?.address || !user.attestation || !recovery) throw new Http.HttpError(404, 'This user has no wallet to recover', { reason: 'noWallet' })
    return { user, address: user.address, attestation: user.attestation, recovery }
  }

  Http.on(app, table.recovery, async (c) => {
    const { device, body } = await Auth.device(c, server)
    Http.body(table.recovery, body)
    const userId = Auth.session(device, server.now())
    const { address, attestation, recovery } = await walletOf(userId)
    const resealed = await Vaulted.reseal(server, { userId, device, sealed: recovery.recovery2 })
    if (!resealed) return Http.answer(c, table.recovery, { state: 'pending' })
    const recovery1 = await Custody.openRecovery1(secrets.kek, userId, recovery.recovery1)
    const sealedRecovery1 = await Transport.down(Base64url.decode(device.sealKey), 'recovery1', userId, device.id, recovery1)
    recovery1.fill(0)
    // The person approved this device just now: that is fresh auth for storing its new share.
    const now = server.now()
    await storage.devices.startSession(device.id, userId, now)
    await server.audit(userId, Audit.kinds.recoveryReleased, { deviceId: device.id })
    // docs/embedded-wallet.md §5: the provider accounts this device proved while it waited become the owner's, now that they approved it.
    const linked = await storage.identities.confirmLinks({ deviceId: device.id, userId, since: now - Flow.pendingLinkMs, now })
    for (const { provider } of linked) await server.audit(userId, Audit.kinds.socialLinked, { provider, deviceId: device.id })
    return Http.answer(c, table.recovery, {
      state: 'ready',
      address,
      recovery1: Base64url.encode(sealedRecovery1),
      recovery2: resealed.sealed,
      wallet: attestation,
      reseal: resealed.attestation,
    })
  })

  Http.on(app, table.recoveryResend, async (c) => {
    const { device, body } = await Auth.device(c, server)
    const { host, attested } = Http.body(table.recoveryResend, body)
    const userId = Auth.session(device, server.now())
    await walletOf(userId)
    const answer = await Vaulted.approve(server, { userId, device, origin: host, attested, browser: Browser.describe(c.req.header('user-agent')) })
    return Http.answer(c, table.recoveryResend, { expiresAt: answer.state === 'pending' ? answer.expiresAt : server.now() })
  })

  return app
}
