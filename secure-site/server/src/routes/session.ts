/** The session routes (API.md): this device's share for a live session, and ending it. */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  // docs/embedded-wallet.md §2 Returning device: A_i goes back only to device i, signed, in a live session.
  Http.on(app, table.session, async (c) => {
    const { device, body } = await Auth.device(c, server)
    Http.body(table.session, body)
    const userId = Auth.session(device, server.now())
    const user = await storage.users.get(userId)
    const stored = await storage.wallets.deviceShare(userId, device.id)
    if (!user?.address || !stored) throw new Http.HttpError(401, 'No share on this device: recover with a code', { reason: 'noShare' })
    const share = await Custody.openDeviceShare(secrets.kek, userId, device.id, stored)
    const sealed = await Transport.down(Base64url.decode(device.sealKey), 'deviceShare', userId, device.id, share)
    share.fill(0)
    await server.audit(userId, Audit.kinds.shareReleased, { deviceId: device.id })
    // A social sign-in's name and picture, for as long as its session lives (spec §3 Account user.username).
    const { socialUsername: username, socialAvatar: avatar } = device
    const identity = { id: user.id, email: user.email, ...(username && { username }), ...(avatar && { avatar }) }
    return Http.answer(c, table.session, { user: identity, address: user.address, deviceShare: Base64url.encode(sealed) })
  })

  Http.on(app, table.sessionEnd, async (c) => {
    const { device, body } = await Auth.device(c, server)
    Http.body(table.sessionEnd, body)
    const userId = Auth.session(device, server.now())
    await storage.wallets.deleteDeviceShare(userId, device.id)
    await storage.devices.endSession(device.id)
    await server.audit(userId, Audit.kinds.sessionEnded, { deviceId: device.id })
    return Http.answer(c, table.sessionEnd, {})
  })

  return app
}
