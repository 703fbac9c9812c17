/** Device routes (API.md): enrolling a device key, and storing this device's share A_i of a wallet. */
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import { base64url } from '../bytes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'

export function routes(server: Server) {
  const { storage } = server
  const app = new Hono()

  // Signed by the key being enrolled: the body names it, and only that key can sign for the new id.
  app.post('/v1/devices', async (c) => {
    const body = Http.object(await c.req.text())
    const deviceId = Http.id(body.deviceId, 'deviceId')
    const publicKey = base64url(await Http.point(body.publicKey, 'publicKey'))
    await Auth.verify(c, server, async (id) => (id === deviceId ? publicKey : undefined))
    const enrolled = await storage.devices.enrol({ id: deviceId, publicKey, now: server.now() })
    if (enrolled === 'taken') throw new Http.HttpError(409, 'This device id belongs to another key')
    return c.json({ deviceId }, enrolled === 'created' ? 201 : 200)
  })

  app.post('/v1/devices/share', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const now = server.now()
    const userId = Auth.fresh(device, now)
    const share = Http.bytes(Http.object(text).deviceShare, 'deviceShare', Custody.shareBytes)
    const user = await storage.users.get(userId)
    if (!user?.address) throw new Http.HttpError(404, 'This user has no wallet yet')
    await storage.wallets.putDeviceShare({ userId, deviceId: device.id, share: await Custody.sealDeviceShare(server.secrets.kek, userId, device.id, share), now })
    await server.audit(userId, Audit.kinds.deviceShareStored, { deviceId: device.id })
    return c.json({}, 201)
  })

  return app
}
