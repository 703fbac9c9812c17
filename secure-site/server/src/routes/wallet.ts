/**
 * Creating the wallet (API.md, docs/embedded-wallet.md §2 Create): the address, A_1 and R1 sealed to the
 * server's transport key, and R2 sealed to the vault, which registers the wallet and vouches for its
 * address to every later device.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Transport from '@doorway/secure-site/common/Transport'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Vaulted from '../vaulted.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  Http.on(app, table.wallet, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const now = server.now()
    const userId = Auth.fresh(device, now)
    const { address, ...body } = Http.body(table.wallet, text)
    const recovery2 = Base64url.decode(body.recovery2)
    if (recovery2[0] !== Custody.sealVersion) throw Http.badRequest('Invalid recovery2: expected a share sealed to the vault')
    const opened = async (share: Transport.Share) =>
      Transport.openUp(secrets.transportKey, share, device.id, Base64url.decode(body[share])).catch(() => {
        throw Http.badRequest(`Invalid ${share}: expected a share sealed to the server for this device`)
      })
    const deviceShare = await opened('deviceShare')
    const recovery1 = await opened('recovery1')
    const user = (await storage.users.get(userId))!
    if (user.address) throw new Http.HttpError(409, 'This user has a wallet already')
    const { attestation } = await Vaulted.register(server, { userId, email: user.email, address, sealed: recovery2 })
    const created = await storage.wallets.create({
      userId,
      address,
      attestation,
      deviceId: device.id,
      deviceShare: await Custody.sealDeviceShare(secrets.kek, userId, device.id, deviceShare),
      recovery1: await Custody.sealRecovery1(secrets.kek, userId, recovery1),
      recovery2,
      now,
    })
    deviceShare.fill(0)
    recovery1.fill(0)
    if (!created) throw new Http.HttpError(409, 'This user has a wallet already')
    await server.audit(userId, Audit.kinds.walletCreated, { address, deviceId: device.id, mode: 'automatic' })
    return Http.answer(c, table.wallet, { attestation })
  })

  return app
}
