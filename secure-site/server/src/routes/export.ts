/**
 * Key export (API.md, notes/embedded-wallet.md §4.8): the secure-site shows the recovery phrase and key
 * only with fresh auth: a code verified on this device within 5 min (its sign-in, or one mailed for
 * the export). The server hands back this device's share A, which the browser combines with its own
 * D; the key itself never reaches the server.
 */
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import { base64url } from '../bytes.js'
import * as Codes from '../codes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Mail from '../mail.js'
import * as Session from '../Session.js'

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  /** The session user's email; the device's user exists (a foreign key), so this only narrows the type. */
  const emailOf = async (userId: string) => (await storage.users.get(userId))!.email

  app.post('/v1/export/code', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const userId = Auth.session(device, server.now())
    const body = Http.object(text)
    const host = Http.host(body.host)
    // A sign-in of the last 5 minutes is fresh enough: no second code (notes §4.3).
    if (Session.isFresh(device, server.now())) return c.json({ fresh: true })
    const email = await emailOf(userId)
    const challenge = await Codes.start(server, { deviceId: device.id, email, host, mail: (code) => Mail.exportCode({ to: email, code, host }) })
    await server.audit(userId, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host, purpose: 'export' })
    return c.json({ challengeId: challenge.id, expiresAt: challenge.expiresAt })
  })

  app.post('/v1/export', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const userId = Auth.session(device, server.now())
    const body = Http.object(text)
    const email = await emailOf(userId)
    let host: string
    if (body.code === undefined && body.challengeId === undefined) {
      // No code: only with fresh auth, checked after the signature and the session (API.md).
      Auth.fresh(device, server.now())
      host = Http.host(body.host)
    } else {
      const challengeId = Http.id(body.challengeId, 'challengeId')
      const code = Http.code(body.code)
      host = (await Codes.verify(server, { deviceId: device.id, challengeId, code, email })).host
      // A verified code is a sign-in: it refreshes the session and its fresh auth (notes §4.3).
      await storage.devices.startSession(device.id, userId, server.now())
    }
    const stored = await storage.wallets.deviceShare(userId, device.id)
    if (!stored) throw new Http.HttpError(401, 'No share on this device: recover with a code', { reason: 'noShare' })
    const share = await Custody.openDeviceShare(secrets.kek, userId, device.id, stored)
    await server.audit(userId, Audit.kinds.keyExported, { deviceId: device.id, host })
    server.mail(Mail.exported({ to: email, host }))
    return c.json({ deviceShare: base64url(share) })
  })

  return app
}
