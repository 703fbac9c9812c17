/**
 * Key export (API.md, docs/embedded-wallet.md §8): the secure-site shows the recovery phrase and key
 * only with fresh auth: a code verified on this device within 5 min (its sign-in, or one mailed for
 * the export). The server hands back this device's share A, which the browser combines with its own
 * D; the key itself never reaches the server.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Codes from '../codes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Limits from '../limits.js'
import * as Mail from '../mail.js'
import * as Session from '../Session.js'

const { table, fields } = SecureSite

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  /** The session user's email; the device's user exists (a foreign key), so this only narrows the type. */
  const emailOf = async (userId: string) => (await storage.users.get(userId))!.email

  Http.on(app, table.exportCode, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const userId = Auth.session(device, server.now())
    const { host, attested = false } = Http.body(table.exportCode, text)
    // A sign-in of the last 5 minutes is fresh enough: no second code (docs/embedded-wallet.md §3).
    if (Session.isFresh(device, server.now())) return Http.answer(c, table.exportCode, { fresh: true })
    const email = await emailOf(userId)
    const challenge = await Codes.start(server, { deviceId: device.id, email, host, attested, source: Limits.source(c, server), mail: (code) => Mail.exportCode({ to: email, code, host: Mail.origin(host, attested) }) })
    await server.audit(userId, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host, attested, purpose: 'export' })
    return Http.answer(c, table.exportCode, { challengeId: challenge.id, expiresAt: challenge.expiresAt })
  })

  Http.on(app, table.export, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const userId = Auth.session(device, server.now())
    const body = Http.object(text)
    const email = await emailOf(userId)
    let host: string
    if (body.code === undefined && body.challengeId === undefined) {
      // No code: only with fresh auth, checked after the signature and the session (API.md).
      Auth.fresh(device, server.now())
      host = Http.fields({ host: fields.host }, body).host
    } else {
      const { challengeId, code } = Http.fields({ challengeId: fields.id('challengeId'), code: fields.code }, body)
      host = (await Codes.verify(server, { deviceId: device.id, challengeId, code, email, source: Limits.source(c, server) })).host
      // A verified code is a sign-in: it refreshes the session and its fresh auth (docs/embedded-wallet.md §3).
      await storage.devices.startSession(device.id, userId, server.now())
    }
    const stored = await storage.wallets.deviceShare(userId, device.id)
    if (!stored) throw new Http.HttpError(401, 'No share on this device: recover with a code', { reason: 'noShare' })
    const share = await Custody.openDeviceShare(secrets.kek, userId, device.id, stored)
    const sealed = await Transport.down(Base64url.decode(device.sealKey), 'deviceShare', userId, device.id, share)
    share.fill(0)
    await server.audit(userId, Audit.kinds.keyExported, { deviceId: device.id, host })
    server.mail(Mail.exported({ to: email, host }))
    return Http.answer(c, table.export, { deviceShare: Base64url.encode(sealed) })
  })

  return app
}
