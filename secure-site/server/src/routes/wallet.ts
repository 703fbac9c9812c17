/** Creating the wallet (API.md, docs/embedded-wallet.md §2 Create): the address, A_1, R1 and R2 sealed to the vault. */
import * as Base64url from '@doorway/secure-site/common/Base64url'
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

  Http.on(app, table.wallet, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const now = server.now()
    const userId = Auth.fresh(device, now)
    const { address, ...body } = Http.body(table.wallet, text)
    const deviceShare = Base64url.decode(body.deviceShare)
    const recovery1 = Base64url.decode(body.recovery1)
    const recovery2 = Base64url.decode(body.recovery2)
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
    return Http.answer(c, table.wallet, {})
  })

  return app
}
