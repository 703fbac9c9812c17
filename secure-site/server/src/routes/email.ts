/**
 * Email sign-in (API.md, notes/embedded-wallet.md §4.4): a code mailed to the person, verified by the
 * device that asked for it. A verified code starts the device's session; for an existing wallet it
 * also releases R1 and has the vault re-seal R2 to the device's ephemeral key.
 */
import * as Ids from '@doorway/shared/Ids'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import { base64url } from '../bytes.js'
import * as Codes from '../codes.js'
import * as Custody from '../Custody.js'
import * as Http from '../http.js'
import * as Mail from '../mail.js'
import * as Ticket from '../Ticket.js'
import * as Vault from '../Vault.js'

export function routes(server: Server) {
  const { storage, secrets } = server
  const app = new Hono()

  app.post('/v1/email/start', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const body = Http.object(text)
    const email = Http.email(body.email)
    const host = Http.host(body.host)
    const challenge = await Codes.start(server, { deviceId: device.id, email, host, mail: (code) => Mail.code({ to: email, code, host }) })
    // A new email has no user and so no log yet: its first entry is the verified code.
    const user = await storage.users.byEmail(email)
    if (user) await server.audit(user.id, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host })
    return c.json({ challengeId: challenge.id, expiresAt: challenge.expiresAt })
  })

  app.post('/v1/email/verify', async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const body = Http.object(text)
    const challengeId = Http.id(body.challengeId, 'challengeId')
    const code = Http.code(body.code)
    const ephemeral = await Http.point(body.device, 'device')
    const now = server.now()
    const challenge = await Codes.verify(server, { deviceId: device.id, challengeId, code })
    const { user } = await storage.users.ensure({ id: Ids.random(), email: challenge.email, now })
    await storage.devices.startSession(device.id, user.id, now)
    await server.audit(user.id, Audit.kinds.codeVerified, { deviceId: device.id, challengeId, host: challenge.host })
    if (device.userId !== user.id) await server.audit(user.id, Audit.kinds.deviceEnrolled, { deviceId: device.id, host: challenge.host })
    const identity = { id: user.id, email: user.email }
    const recovery = user.address ? await storage.wallets.recovery(user.id) : undefined
    if (!user.address || !recovery) return c.json({ user: identity, wallet: null })

    // notes §4.2 New dapp or device: R1 from here, R2 re-sealed by the vault to this device's key only.
    const recovery1 = await Custody.openRecovery1(secrets.kek, user.id, recovery.recovery1)
    const ticket = await Ticket.issue(secrets.ticketKey, { userId: user.id, sealed: recovery.recovery2, device: ephemeral, now })
    const { sealed } = await server.vault.reseal({ ...ticket, sealed: base64url(recovery.recovery2), device: base64url(ephemeral) }).catch((error: unknown) => {
      if (!(error instanceof Vault.Unavailable)) throw error
      server.log('vault unavailable', error)
      throw new Http.HttpError(503, 'The vault is unavailable: ask for a new code in a moment', { reason: 'vault' })
    })
    await server.audit(user.id, Audit.kinds.recoveryReleased, { deviceId: device.id, host: challenge.host })
    return c.json({ user: identity, wallet: { address: user.address, recovery1: base64url(recovery1), recovery2: sealed } })
  })

  return app
}
