/**
 * What the person sees and controls (API.md, docs/embedded-wallet.md §10): their devices, removing one
 * from another, the session check a device makes before each signature, and the audit log with the
 * vault's statement of its head. After each append the server tells the vault the chain's new head
 * (`anchor`); the vault keeps every head append-only and signs the highest, so a log rewritten in this
 * database (even with every hash after the change recomputed) no longer matches what the vault vouches for.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import { type Context, Hono } from 'hono'
import type { Server } from '../app.js'
import * as Audit from '../Audit.js'
import * as Auth from '../auth.js'
import * as Codes from '../codes.js'
import * as Http from '../http.js'
import * as Limits from '../limits.js'
import * as Mail from '../mail.js'
import * as Session from '../Session.js'
import type { Device, DeviceSummary } from '../storage/Storage.js'
import * as Ticket from '../Ticket.js'
import * as Vault from '../Vault.js'

const { table, fields } = SecureSite


export function routes(server: Server) {
  const app = new Hono()
  Http.on(app, table.sessionCheck, (c) => sessionCheck(server, c))
  Http.on(app, table.devices, (c) => devices(server, c))
  Http.on(app, table.revokeCode, (c) => revokeCode(server, c))
  Http.on(app, table.revoke, (c) => revoke(server, c))
  Http.on(app, table.audit, (c) => audit(server, c))
  return app
}

/** Cheap, before each signature: a device removed from another one (or signed out) is refused at once. */
async function sessionCheck(server: Server, c: Context) {
  const { device, body } = await Auth.device(c, server)
  Http.body(table.sessionCheck, body)
  Auth.session(device, server.now())
  return Http.answer(c, table.sessionCheck, {})
}

/**
 * The account's controls are for a browser that holds the wallet (its share A is stored): a verified code
 * alone, e.g. a phished one on an attacker's device still waiting for the person's approval, neither
 * reads the devices and the log nor removes the owner's devices (docs/embedded-wallet.md §10).
 */
async function holder(server: Server, c: Context) {
  const { device, body } = await Auth.device(c, server)
  const userId = Auth.session(device, server.now())
  if (!(await server.storage.wallets.deviceShare(userId, device.id)))
    throw new Http.HttpError(403, 'This browser does not hold the wallet yet: approve it from the mail first', { reason: 'notApproved' })
  return { device, body, userId }
}

async function devices(server: Server, c: Context) {
  const { device, userId } = await holder(server, c)
  const listed = await server.storage.devices.list(userId)
  return Http.answer(c, table.devices, {
    devices: listed.map(({ id, createdAt, lastSeen, origin, attested, browser, revoked }) => ({ id, current: id === device.id, createdAt, lastSeen, origin, attested, browser, revoked })),
  })
}

/** As POST /v1/export/code: a sign-in of the last 5 minutes is fresh enough; otherwise a code is mailed. */
async function revokeCode(server: Server, c: Context) {
  const { device, body: text, userId } = await holder(server, c)
  const { host, attested = false } = Http.body(table.revokeCode, text)
  if (Session.isFresh(device, server.now())) return Http.answer(c, table.revokeCode, { fresh: true })
  await Limits.take(server, c, 'sends')
  const email = (await server.storage.users.get(userId))!.email
  const mail = (code: string) => Mail.revokeCode({ to: email, code, host: Mail.origin(host, attested) })
  const challenge = await Codes.start(server, { deviceId: device.id, email, host, attested, source: Limits.source(c, server), mail })
  await server.audit(userId, Audit.kinds.codeSent, { deviceId: device.id, challengeId: challenge.id, host, attested, purpose: 'revoke' })
  return Http.answer(c, table.revokeCode, { challengeId: challenge.id, expiresAt: challenge.expiresAt })
}

/**
 * Removes another device of the user, with fresh auth or a code for this device: it is marked revoked
 * (its requests get 401), its session ends, its share A is deleted, and the vault revokes its approval,
 * so R2 is never re-sealed to it again until the person approves it anew from their mail.
 */
async function revoke(server: Server, c: Context) {
  const { device, body: text, userId } = await holder(server, c)
  const body = Http.object(text)
  const { deviceId } = Http.fields({ deviceId: fields.id('deviceId') }, body)
  if (deviceId === device.id) throw new Http.HttpError(400, 'Sign out instead: this is the device you are using', { reason: 'current' })
  const target = (await server.storage.devices.list(userId)).find((d) => d.id === deviceId)
  if (!target) throw new Http.HttpError(404, 'This user has no such device', { reason: 'noDevice' })
  await confirm(server, c, { device, userId, body })
  if (await server.storage.devices.revoke({ id: deviceId, userId, now: server.now() })) {
    await server.audit(userId, Audit.kinds.deviceRevoked, { deviceId, by: device.id })
    const { email } = (await server.storage.users.get(userId))!
    server.mail(Mail.revoked({ to: email, browser: target.browser ?? 'An unknown browser', origin: target.origin ? Mail.origin(target.origin, target.attested) : 'unknown' }))
  }
  // After the database, so the device is cut off even when the vault is down; asking again tells the vault.
  await revokeAtVault(server, userId, target)
  return Http.answer(c, table.revoke, {})
}

/** Fresh auth, or a code for the session user mailed to this device: a verified code is a sign-in (docs/embedded-wallet.md §3). */
async function confirm(server: Server, c: Context, options: { device: Device; userId: string; body: Record<string, unknown> }) {
  const { device, userId, body } = options
  if (body.code === undefined && body.challengeId === undefined) return void Auth.fresh(device, server.now())
  const { challengeId, code } = Http.fields({ challengeId: fields.id('challengeId'), code: fields.code }, body)
  await Limits.take(server, c, 'verifies')
  const { email } = (await server.storage.users.get(userId))!
  await Codes.verify(server, { deviceId: device.id, challengeId, code, email, source: Limits.source(c, server) })
  await server.storage.devices.startSession(device.id, userId, server.now())
}

/** The vault ends its approval of the device's seal key (Ticket purpose `revoke`). */
async function revokeAtVault(server: Server, userId: string, target: DeviceSummary) {
  // A device from before seal keys has none: the vault never approved it.
  if (!target.sealKey) return
  const ticket = await Ticket.issue(server.secrets.ticketKey, { purpose: 'revoke', userId, device: Base64url.decode(target.sealKey), now: server.now() })
  try {
    await server.vault.revoke({ ...ticket, device: target.sealKey })
  } catch (error) {
    // A user who never made a wallet has nothing at the vault to revoke.
    if (error instanceof Vault.Refused && error.reason === 'unregistered') return
    if (!(error instanceof Vault.Unavailable)) throw error
    server.log('vault unavailable', error)
    throw new Http.HttpError(503, 'The device is removed here, but the vault could not be told: try again in a moment', { reason: 'vault' })
  }
}

async function audit(server: Server, c: Context) {
  const { userId } = await holder(server, c)
  // The vault's head first: it is told each head after the entry is stored, so the log read next holds it.
  const head = await readHead(server, userId)
  const entries = await server.storage.audit.list(userId)
  return Http.answer(c, table.audit, { entries: entries.map(({ seq, at, kind, detail, hash }) => ({ seq, at, kind, detail, hash })), head })
}

/** The vault's signed statement of the chain's head; null when it keeps none or did not answer (logged). */
async function readHead(server: Server, userId: string): Promise<Vault.SignedHead | null> {
  try {
    return await server.vault.readHead(await Ticket.issue(server.secrets.ticketKey, { purpose: 'readHead', userId, now: server.now() }))
  } catch (error) {
    server.log('audit head not read from the vault', error)
    return null
  }
}

/**
 * What app.ts runs after each audit append: tells the vault the user's newest head, one user at a time
 * in this process and read from the database each time, so the vault sees each chain's heads in order
 * however the appends interleave. A vault that does not answer fails no route: it is logged, and the
 * next append catches up. A head the vault refuses means this database's log was rewritten.
 */
export function anchor(server: Server): (userId: string) => Promise<void> {
  const queues = new Map<string, Promise<void>>()
  return (userId) => {
    const run = (queues.get(userId) ?? Promise.resolve()).then(() => keepHead(server, userId))
    queues.set(userId, run)
    void run.then(() => queues.get(userId) === run && queues.delete(userId))
    return run
  }
}

/** Never rejects: a refusal or a silent vault is the operator's to see in the log, never the route's failure. */
async function keepHead(server: Server, userId: string): Promise<void> {
  try {
    const head = await server.storage.audit.head(userId)
    if (!head) return
    const ticket = await Ticket.issue(server.secrets.ticketKey, { purpose: 'head', userId, now: server.now() })
    await server.vault.keepHead({ ...ticket, seq: head.seq, hash: head.hash })
  } catch (error) {
    const rewritten = error instanceof Vault.Refused && error.reason === 'rewritten'
    server.log(rewritten ? 'audit.rewritten: the vault refused this database\'s audit head' : 'audit head not kept by the vault', error)
  }
}
