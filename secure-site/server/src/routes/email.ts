/**
 * Email sign-in (API.md, docs/embedded-wallet.md §4): a code mailed to the person, verified by the
 * device that asked for it. A verified code starts the device's session; for an existing wallet it
 * also releases R1 and has the vault re-seal R2 to the device's ephemeral key.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Email from '@doorway/shared/Email'
import * as Ids from '@doorway/shared/Ids'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Codes from '../codes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Mail from '../mail.js'
import * as Ticket from '../Ticket.js'
import * as Vault from '../Vault.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  Http.on(app, table.emailStart, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const body = Http.body(table.emailStart, text)
    const email = Email.normalize(body.email)!
    const { host } = body
    const challenge = await Codes.start(server, { deviceId: device.id, email, host, mail: (code) => Mail.code({ to: email, code, host }) })
    // A new email has no user and so no log yet: its first entry is the verified code.
    const user = await storage.users.byEmail(email)
    if (user) await server.audit(user.id, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host })
    return Http.answer(c, table.emailStart, { challengeId: challenge.id, expiresAt: challenge.expiresAt })
  })

  Http.on(app, table.emailVerify, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const { challengeId, code, device: ephemeralKey } = Http.body(table.emailVerify, text)
    const ephemeral = await Http.point(Base64url.decode(ephemeralKey), 'device')
    const now = server.now()
    const challenge = await Codes.verify(server, { deviceId: device.id, challengeId, code })
    const { user } = await storage.users.ensure({ id: Ids.random(), email: challenge.email, now })
    await storage.devices.startSession(device.id, user.id, now)
    await server.audit(user.id, Audit.kinds.codeVerified, { deviceId: device.id, challengeId, host: challenge.host })
    if (device.userId !== user.id) await server.audit(user.id, Audit.kinds.deviceEnrolled, { deviceId: device.id, host: challenge.host })
    const identity = { id: user.id, email: user.email }
    const recovery = user.address ? await storage.wallets.recovery(user.id) : undefined
    if (!user.address || !recovery) return Http.answer(c, table.emailVerify, { user: identity, wallet: null })

    // docs/embedded-wallet.md §2 New dapp or device: R1 from here, R2 re-sealed by the vault to this device's key only.
    const recovery1 = await Custody.openRecovery1(secrets.kek, user.id, recovery.recovery1)
    const ticket = await Ticket.issue(secrets.ticketKey, { userId: user.id, sealed: recovery.recovery2, device: ephemeral, now })
    const { sealed } = await server.vault.reseal({ ...ticket, sealed: Base64url.encode(recovery.recovery2), device: Base64url.encode(ephemeral) }).catch((error: unknown) => {
      if (!(error instanceof Vault.Unavailable)) throw error
      server.log('vault unavailable', error)
      throw new Http.HttpError(503, 'The vault is unavailable: ask for a new code in a moment', { reason: 'vault' })
    })
    await server.audit(user.id, Audit.kinds.recoveryReleased, { deviceId: device.id, host: challenge.host })
    return Http.answer(c, table.emailVerify, { user: identity, wallet: { address: user.address, recovery1: Base64url.encode(recovery1), recovery2: sealed } })
  })

  return app
}
