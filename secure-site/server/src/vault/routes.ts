/**
 * The vault's routes for the secure-site server (docs/embedded-wallet.md §2, §4 VERIFY_DEVICE, §10). Each
 * carries a ticket the server signed for this route's purpose, spent in the store the moment it is
 * presented. The ticket says only that the server asks: what the vault does is bounded by what it
 * registered itself (the wallet's sealed R2) and by what the person approved from the vault's own mail.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Ids from '@doorway/shared/Ids'
import { Hono } from 'hono'
import * as Http from '../http.js'
import * as Ticket from '../Ticket.js'
import type { Context } from '../Vault.js'
import * as Approval from './approval.js'
import * as Fields from './fields.js'
import * as Mails from './mails.js'
import * as Store from './store.js'

/** A sealed R2 is 1 + 65 + 12 + 17 + 16 bytes; this leaves room for a longer share, never for a large body. */
const maxSealedBytes = 1024

export function routes(vault: Context) {
  const app = new Hono()
  app.post('/v1/register', async (c) => c.json(await register(vault, Http.object(await c.req.text())), 201))
  app.post('/v1/approvals', async (c) => c.json(await requestApproval(vault, Http.object(await c.req.text()))))
  app.post('/v1/reseal', async (c) => c.json(await reseal(vault, Http.object(await c.req.text()))))
  app.post('/v1/revoke', async (c) => c.json(await revoke(vault, Http.object(await c.req.text()))))
  app.post('/v1/audit-head', async (c) => c.json(await keepHead(vault, Http.object(await c.req.text()))))
  app.post('/v1/audit-head/read', async (c) => c.json(await readHead(vault, Http.object(await c.req.text()))))
  return app
}

/**
 * The ticket's claims: it must verify, be unexpired, be unspent and be for `purpose`. It is spent once it
 * verifies, whatever follows: a ticket is presented once.
 */
async function ticket(vault: Context, body: Record<string, unknown>, purpose: Ticket.Purpose): Promise<Ticket.Claims> {
  const text = Fields.text(body, 'ticket', /^[\w-]{1,2048}$/, 'base64url of at most 2048 characters')
  const signature = Fields.text(body, 'signature', /^[\w-]{86}$/, 'a base64url signature of 86 characters')
  const now = vault.now()
  const claims = await Ticket.read(vault.ticketKey, text, signature, now)
  if (!claims) throw new Http.HttpError(401, 'The ticket is not valid', { reason: 'ticket' })
  if (!(await vault.store.tickets.spend(claims.jti, claims.exp, now))) throw new Http.HttpError(401, 'The ticket was already used', { reason: 'spent' })
  if (claims.purpose !== purpose) throw new Http.HttpError(401, `The ticket is for ${claims.purpose}, not ${purpose}`, { reason: 'purpose' })
  return claims
}

/** The ticket names these very bytes (the sealed share or the device key), by fingerprint. */
async function bound(claimed: string | undefined, bytes: Uint8Array): Promise<void> {
  if (claimed === undefined || claimed !== (await Attest.fingerprint(bytes))) throw new Http.HttpError(401, 'The ticket is for another share or device', { reason: 'ticket' })
}

async function registered(vault: Context, userId: string): Promise<Store.Wallet> {
  const wallet = await vault.store.wallets.get(userId)
  if (!wallet) throw new Http.HttpError(404, 'No wallet is registered for this user', { reason: 'unregistered' })
  return wallet
}

/** R2 opened with the vault key for this user (AAD = userId), or a 400: the vault only registers and re-seals shares it can open. */
async function open(vault: Context, userId: string, sealed: Uint8Array): Promise<Uint8Array> {
  try {
    return await Seal.open(vault.key, sealed, new TextEncoder().encode(userId))
  } catch {
    throw Http.badRequest('Invalid sealed: it does not open with the vault key for this user')
  }
}

async function register(vault: Context, body: Record<string, unknown>): Promise<{ attestation: string }> {
  const claims = await ticket(vault, body, 'register')
  const email = Fields.email(body, 'email')
  const address = Fields.address(body, 'address')
  const sealed = Fields.bytes(body, 'sealed', maxSealedBytes)
  await bound(claims.sealed, sealed)
  // Only a share the vault can open is registered: a server cannot have it vouch for garbage.
  const share = await open(vault, claims.userId, sealed)
  share.fill(0)
  const { userId } = claims
  const attestation = await Attest.sign(vault.signingKey, { kind: 'wallet', userId, email, address })
  const result = await vault.store.wallets.register({ userId, email, address, sealedFp: claims.sealed!, attestation, createdAt: vault.now() })
  if (result.outcome === 'conflict') throw new Http.HttpError(409, 'This user or email has another wallet registered', { reason: 'registered' })
  return { attestation: result.wallet.attestation }
}

async function requestApproval(vault: Context, body: Record<string, unknown>): Promise<{ state: 'approved' } | { state: 'pending'; expiresAt: number }> {
  const claims = await ticket(vault, body, 'approve')
  const device = await Fields.point(body, 'device')
  const origin = Fields.origin(body, 'origin')
  const attested = Fields.flag(body, 'attested')
  const browser = Fields.browser(body, 'browser')
  await bound(claims.device, device)
  const { userId } = claims
  const deviceFp = claims.device!
  const wallet = await registered(vault, userId)
  const known = await vault.store.devices.get(userId, deviceFp)
  if (known && known.revokedAt === null) return { state: 'approved' }

  const now = vault.now()
  const token = Approval.token()
  const approval = { id: Ids.random(), tokenHash: await Approval.tokenHash(token), userId, deviceFp, origin, attested, browser, createdAt: now, expiresAt: now + Approval.lifetimeMs }
  const result = await vault.store.approvals.request({ ...approval, state: 'pending', decidedAt: null }, Approval.mailLimit)
  if (result.throttled) throw throttled('Too many approval mails for this wallet', result.retryAt, now)
  const link = `${vault.publicUrl.replace(/\/+$/, '')}/approve?token=${token}`
  vault.mail(Mails.approval({ to: wallet.email, link, origin, attested, browser, at: now, expiresAt: approval.expiresAt }))
  return { state: 'pending', expiresAt: approval.expiresAt }
}

/** The approved, unrevoked device, or the refusal that says where the person stands. */
async function approvedDevice(vault: Context, userId: string, deviceFp: string): Promise<Store.Device> {
  const device = await vault.store.devices.get(userId, deviceFp)
  if (device && device.revokedAt === null) return device
  const latest = await vault.store.approvals.latest(userId, deviceFp)
  if (latest && Approval.closed(latest, device, vault.now()) === undefined)
    throw new Http.HttpError(409, 'The person has not answered the approval mail yet', { reason: 'pending' })
  if (latest?.state === 'denied') throw new Http.HttpError(403, 'The person denied this device', { reason: 'denied' })
  throw new Http.HttpError(403, 'This device is not approved for this wallet', { reason: 'notApproved' })
}

async function reseal(vault: Context, body: Record<string, unknown>): Promise<{ sealed: string; attestation: string; wallet: string }> {
  const claims = await ticket(vault, body, 'reseal')
  const sealed = Fields.bytes(body, 'sealed', maxSealedBytes)
  const devicePoint = await Fields.point(body, 'device')
  await bound(claims.sealed, sealed)
  await bound(claims.device, devicePoint)
  const { userId } = claims
  const wallet = await registered(vault, userId)
  // The server cannot make the vault open any R2 but the one it registered for this user.
  if (claims.sealed !== wallet.sealedFp) throw new Http.HttpError(403, 'This is not the share registered for this wallet', { reason: 'otherShare' })
  const device = await approvedDevice(vault, userId, claims.device!)

  const aad = new TextEncoder().encode(userId)
  const share = await open(vault, userId, sealed)
  const resealed = await Seal.seal(devicePoint, share, aad).finally(() => share.fill(0))
  const resealedFp = await Attest.fingerprint(resealed)
  const { email, address } = wallet
  const attestation = await Attest.sign(vault.signingKey, { kind: 'reseal', userId, email, address, device: device.deviceFp, sealed: resealedFp })
  const now = vault.now()
  const logged = await vault.store.log.append(userId, { at: now, kind: Store.kinds.recovery, detail: { device: device.deviceFp, sealed: resealedFp } }, Approval.resealLimit)
  if ('throttled' in logged) throw throttled('Too many recoveries of this wallet', logged.retryAt, now)
  vault.mail(Mails.recovered({ to: email, origin: device.origin, attested: device.attested, browser: device.browser, approvedAt: device.approvedAt, at: now }))
  return { sealed: Base64url.encode(resealed), attestation, wallet: wallet.attestation }
}

function throttled(message: string, retryAt: number, now: number): Http.HttpError {
  const retryAfter = Math.max(1, Math.ceil((retryAt - now) / 1000))
  return new Http.HttpError(429, `${message}: try again in ${retryAfter} seconds`, { reason: 'throttled', retryAfter })
}

/** The device's approval ends: re-seals to it are refused until the person approves it again. */
async function revoke(vault: Context, body: Record<string, unknown>): Promise<Record<string, never>> {
  const claims = await ticket(vault, body, 'revoke')
  const device = await Fields.point(body, 'device')
  await bound(claims.device, device)
  await registered(vault, claims.userId)
  await vault.store.devices.revoke(claims.userId, claims.device!, vault.now())
  return {}
}

/**
 * The server tells the new head of a user's audit chain after each append (docs/embedded-wallet.md §10).
 * A head that contradicts one kept (another hash at a seq, or behind the highest) means the server's log
 * was rewritten: refused, kept nowhere, and logged for the operator.
 */
async function keepHead(vault: Context, body: Record<string, unknown>): Promise<Record<string, never>> {
  const claims = await ticket(vault, body, 'head')
  const seq = body.seq
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1 || seq > maxSeq) throw Http.badRequest(`Invalid seq: expected a whole number from 1 to ${maxSeq}`)
  const hash = Fields.text(body, 'hash', /^[0-9a-f]{64}$/, '64 lowercase hex digits')
  const kept = await vault.store.auditHeads.put(claims.userId, { seq, hash }, vault.now())
  if (kept === 'rewritten') {
    const highest = await vault.store.auditHeads.get(claims.userId)
    vault.log('audit.rewritten', { userId: claims.userId, told: { seq, hash }, kept: highest })
    throw new Http.HttpError(409, 'This head contradicts the audit chain the vault was told', { reason: 'rewritten' })
  }
  return {}
}

/** The vault's signed statement of the highest head it keeps for the user (common/Attest.ts `auditHead`), or null. */
async function readHead(vault: Context, body: Record<string, unknown>): Promise<{ head: { seq: number; hash: string; signature: string } | null }> {
  const { userId } = await ticket(vault, body, 'readHead')
  const head = await vault.store.auditHeads.get(userId)
  if (!head) return { head: null }
  const signature = await Attest.sign(vault.signingKey, { kind: 'auditHead', userId, seq: head.seq, hash: head.hash })
  return { head: { ...head, signature } }
}

/** The audit log's seq is a PostgreSQL integer on both sides. */
const maxSeq = 2 ** 31 - 1
