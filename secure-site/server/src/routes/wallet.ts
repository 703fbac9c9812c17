/** Creating the wallet (API.md, notes §4.2 Create): the address, A_1, R1 and R2 sealed to the vault. */
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  app.post('/v1/wallet', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const now = server.now()
    const userId = Auth.fresh(device, now)
    const body = Http.object(text)
    const address = Http.evmAddress(body.address)
    const deviceShare = Http.bytes(body.deviceShare, 'deviceShare', Custody.shareBytes)
    const recovery1 = Http.bytes(body.recovery1, 'recovery1', Custody.shareBytes)
    const recovery2 = Http.bytes(body.recovery2, 'recovery2', Custody.sealedShareBytes)
    if (recovery2[0] !== Custody.sealVersion) throw Http.badRequest('Invalid recovery2: expected a share sealed to the vault')
    const created = await storage.wallets.create({
      userId,
      address,
      deviceId: device.id,
      deviceShare: await Custody.sealDeviceShare(secrets.kek, userId, device.id, deviceShare),
      recovery1: await Custody.sealRecovery1(secrets.kek, userId, recovery1),
      recovery2,
      now,
    })
    if (!created) throw new Http.HttpError(409, 'This user has a wallet already')
    await server.audit(userId, Audit.kinds.walletCreated, { address, deviceId: device.id, mode: 'automatic' })
    return c.json({}, 201)
  })

  return app
}
