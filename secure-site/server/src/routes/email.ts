/**
 * Email sign-in (API.md, docs/embedded-wallet.md §4): a code mailed to the person, verified by the
 * device that asked for it. A verified code starts the device's session and proves the email; it never
 * releases a share. A new user then creates the wallet on this device; an existing wallet waits for the
 * person to approve this device from the link the vault mails them (routes/recovery.ts). A code may also
 * name (`link`) this device's Farcaster sign-in that found no one: Farcaster gives no email, so the email
 * this code proves becomes that account's (docs/embedded-wallet.md §5).
 */
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Email from '@doorway/shared/Email'
import * as Ids from '@doorway/shared/Ids'
import { Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Browser from '../browser.js'
import * as Codes from '../codes.js'
import * as Http from '../http.js'
import * as Limits from '../limits.js'
import * as Mail from '../mail.js'
import * as Flow from '../social/Flow.js'
import type { Device, SocialFlow, SocialProfile, User } from '../storage/Storage.js'
import * as Vaulted from '../vaulted.js'

const { table } = SecureSite

export function routes(server: Server) {
  const { storage } = server
  const app = new Hono()

  Http.on(app, table.emailStart, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const body = Http.body(table.emailStart, text)
    const email = Email.normalize(body.email)!
    const { host, attested } = body
    const mail = (code: string) => Mail.code({ to: email, code, host: Mail.origin(host, attested) })
    const challenge = await Codes.start(server, { deviceId: device.id, email, host, attested, mail, source: Limits.source(c, server) })
    // A new email has no user and so no log yet: its first entry is the verified code.
    const user = await storage.users.byEmail(email)
    if (user) await server.audit(user.id, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host, attested })
    return Http.answer(c, table.emailStart, { challengeId: challenge.id, expiresAt: challenge.expiresAt })
  })

  Http.on(app, table.emailVerify, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const { challengeId, code, link } = Http.body(table.emailVerify, text)
    const now = server.now()
    const challenge = await Codes.verify(server, { deviceId: device.id, challengeId, code, source: Limits.source(c, server) })
    const { user } = await storage.users.ensure({ id: Ids.random(), email: challenge.email, now })
    const linked = link === undefined ? undefined : await redeemLink(server, { flowId: link, deviceId: device.id, userId: user.id, now })
    // A code names no provider: a profile a social sign-in left on this device is not this session's, unless the code links that sign-in.
    await storage.devices.startSession(device.id, user.id, now, linked ? { username: linked.profile.username, avatar: linked.profile.avatar } : null)
    // What the person sees of this device in their list (GET /v1/devices, docs/embedded-wallet.md §10).
    const browser = Browser.describe(c.req.header('user-agent'))
    await storage.devices.describe(device.id, { origin: challenge.host, attested: challenge.attested, browser })
    await server.audit(user.id, Audit.kinds.codeVerified, { deviceId: device.id, challengeId, host: challenge.host, attested: challenge.attested })
    if (device.userId !== user.id) await server.audit(user.id, Audit.kinds.deviceEnrolled, { deviceId: device.id, host: challenge.host })
    if (linked) await linkAccount(server, { flow: linked, device, user, now })
    const identity = { id: user.id, email: user.email }
    if (!user.address) return Http.answer(c, table.emailVerify, { user: identity, next: 'create' })
    // docs/embedded-wallet.md §4 VERIFY_DEVICE: the code proved the email; the person's approval of this device unlocks the recovery pair.
    await Vaulted.approve(server, { userId: user.id, device, origin: challenge.host, attested: challenge.attested, browser })
    return Http.answer(c, table.emailVerify, { user: identity, next: 'approve' })
  })

  // The person left the code step: the code stops working at once rather than at its expiry.
  Http.on(app, table.emailCancel, async (c) => {
    const { device, body: text } = await Auth.device(c, server)
    const { challengeId } = Http.body(table.emailCancel, text)
    const email = await storage.challenges.cancel(challengeId, device.id, server.now())
    // As its mail was logged (an existing user's): the code it carried was withdrawn, by this device.
    const user = email && (await storage.users.byEmail(email))
    if (user) await server.audit(user.id, Audit.kinds.codeCancelled, { deviceId: device.id, challengeId })
    return Http.answer(c, table.emailCancel, {})
  })

  return app
}

/**
 * The flow that `link` names, redeemed for this user: this device's, done and live, an account that gave no
 * verified email (Flow.linkable) and is no one else's. Undefined otherwise, and then nothing is linked: the
 * code still signs the person in, as it proved the email.
 */
async function redeemLink(server: Server, options: { flowId: string; deviceId: string; userId: string; now: number }): Promise<(SocialFlow & { profile: SocialProfile }) | undefined> {
  const { storage } = server
  const { flowId, deviceId, userId, now } = options
  const flow = await storage.social.get(flowId)
  if (!Flow.linkable(flow, deviceId, now)) return undefined
  const owner = await storage.identities.userOf(flow.provider, flow.profile.subject)
  if (owner !== undefined && owner !== userId) return undefined
  return (await storage.social.redeem(flow.id, userId, now)) ? flow : undefined
}

/**
 * The redeemed flow's account becomes the user's identity, as a social sign-in's would (routes/social.ts):
 * at once when they have no wallet yet; else once its owner approves this device (routes/recovery.ts), as
 * the proof of an email alone never releases a wallet's shares.
 */
async function linkAccount(server: Server, options: { flow: SocialFlow & { profile: SocialProfile }; device: Device; user: User; now: number }) {
  const { storage } = server
  const { flow, device, user, now } = options
  const { provider, profile } = flow
  if ((await storage.identities.userOf(provider, profile.subject)) === user.id) return
  if (!user.address) {
    if (await storage.identities.link({ provider, subject: profile.subject, userId: user.id, now })) await server.audit(user.id, Audit.kinds.socialLinked, { provider, deviceId: device.id })
    return
  }
  await storage.identities.requestLink({ provider, subject: profile.subject, userId: user.id, deviceId: device.id, now })
  await server.audit(user.id, Audit.kinds.socialLinkRequested, { provider, deviceId: device.id })
}
