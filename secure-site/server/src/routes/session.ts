/** The session routes (API.md): this device's share for a live session, ending it, the audit log. */
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import { base64url } from '../bytes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  // notes §4.2 Returning device: A_i goes back only to device i, signed, in a live session.
  app.post('/v1/session', async (c) => {
    const { device, body } = await Auth.device(c, server)
    Http.object(body)
    const userId = Auth.session(device, server.now())
    const user = await storage.users.get(userId)
    const stored = await storage.wallets.deviceShare(userId, device.id)
    if (!user?.address || !stored) throw new Http.HttpError(401, 'No share on this device: recover with a code', { reason: 'noShare' })
    const share = await Custody.openDeviceShare(secrets.kek, userId, device.id, stored)
    await server.audit(userId, Audit.kinds.shareReleased, { deviceId: device.id })
    return c.json({ user: { id: user.id, email: user.email }, address: user.address, deviceShare: base64url(share) })
  })

  app.post('/v1/session/end', async (c) => {
    const { device, body } = await Auth.device(c, server)
    Http.object(body)
    const userId = Auth.session(device, server.now())
    await storage.wallets.deleteDeviceShare(userId, device.id)
    await storage.devices.endSession(device.id)
    await server.audit(userId, Audit.kinds.sessionEnded, { deviceId: device.id })
    return c.json({})
  })

  app.get('/v1/audit', async (c) => {
    const { device } = await Auth.device(c, server)
    const userId = Auth.session(device, server.now())
    const entries = await storage.audit.list(userId)
    return c.json({ entries: entries.map(({ seq, at, kind, detail, hash }) => ({ seq, at, kind, detail, hash })) })
  })

  return app
}
