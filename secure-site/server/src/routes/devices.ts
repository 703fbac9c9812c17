/** Device routes (API.md): enrolling a device key, and storing this device's share A_i of a wallet. */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Limits from '../limits.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage } = server
  const app = new Hono()

  // Signed by the key being enrolled: the body names it, and only that key can sign for the new id.
  Http.on(app, table.enrol, async (c) => {
    const body = Http.body(table.enrol, await c.req.text())
    const { deviceId } = body
    const publicKey = Base64url.encode(await Http.point(Base64url.decode(body.publicKey), 'publicKey'))
    const sealKey = Base64url.encode(await Http.point(Base64url.decode(body.sealKey), 'sealKey'))
    await Auth.verify(c, server, async (id) => (id === deviceId ? publicKey : undefined))
    // A new id spends the network's enrolment allowance, so new devices cannot buy new per-device
    // throttles (limits.ts); the same key enrolled again is free.
    if (!(await storage.devices.get(deviceId))) await Limits.take(server, c, 'newDevices')
    const enrolled = await storage.devices.enrol({ id: deviceId, publicKey, sealKey, now: server.now() })
    if (enrolled === 'taken') throw new Http.HttpError(409, 'This device id belongs to another key')
    return Http.answer(c, table.enrol, { deviceId }, enrolled === 'created' ? 201 : 200)
  })

  Http.on(app, table.deviceShare, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const now = server.now()
    const userId = Auth.fresh(device, now)
    const sealed = Base64url.decode(Http.body(table.deviceShare, text).deviceShare)
    const share = await Transport.openUp(server.secrets.transportKey, 'deviceShare', device.id, sealed).catch(() => {
      throw Http.badRequest('Invalid deviceShare: expected a share sealed to the server for this device')
    })
    const user = await storage.users.get(userId)
    if (!user?.address) throw new Http.HttpError(404, 'This user has no wallet yet')
    await storage.wallets.putDeviceShare({ userId, deviceId: device.id, share: await Custody.sealDeviceShare(server.secrets.kek, userId, device.id, share), now })
    share.fill(0)
    await server.audit(userId, Audit.kinds.deviceShareStored, { deviceId: device.id })
    return Http.answer(c, table.deviceShare, {})
  })

  return app
}
