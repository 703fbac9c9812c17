/**
 * What the server asks of the vault (docs/embedded-wallet.md §2), each under a ticket signed for that
 * purpose, with the vault's refusals as the answers the device understands. The vault decides on its
 * own evidence (the person's approval from its own mail); the server only asks and passes on.
 * `import * as Vaulted from './vaulted.js'`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import type { Server } from './app.js'
import * as Audit from './Audit.js'
import * as Http from './http.js'
import type { Device } from './storage/Storage.js'
import * as Ticket from './Ticket.js'
import * as Vault from './Vault.js'

/** The vault's refusal as the server's answer; a refusal of the server's own ticket is the server's fault (500). */
function refusal(server: Server, error: unknown): never {
  if (error instanceof Vault.Unavailable) {
    server.log('vault unavailable', error)
    throw new Http.HttpError(503, 'The vault is unavailable: try again in a moment', { reason: 'vault' })
  }
  if (!(error instanceof Vault.Refused)) throw error
  const { reason, retryAfter } = error
  if (reason === 'throttled') throw new Http.HttpError(429, 'Too many approval links for this wallet: try again later', { reason: 'approvalThrottled', ...(retryAfter !== undefined && { retryAfter }) })
  if (reason === 'denied') throw new Http.HttpError(403, 'The person did not approve this device', { reason: 'denied' })
  if (reason === 'notApproved') throw new Http.HttpError(403, 'This device is not approved: ask for a new link', { reason: 'notApproved' })
  if (reason === 'unregistered') throw new Http.HttpError(404, 'The vault does not know this wallet', { reason: 'unregistered' })
  throw new Error(`The vault refused: ${error.status} ${reason ?? ''} ${error.message}`)
}

/** The vault mails the person a link to approve this device, unless they approved it before. */
export async function approve(server: Server, options: { userId: string; device: Device; origin: string; attested: boolean; browser: string }) {
  const { userId, device, origin, attested, browser } = options
  const ticket = await Ticket.issue(server.secrets.ticketKey, { purpose: 'approve', userId, device: Base64url.decode(device.sealKey), now: server.now() })
  const answer = await server.vault.requestApproval({ ...ticket, device: device.sealKey, origin, attested, browser }).catch((error: unknown) => refusal(server, error))
  if (answer.state === 'pending') await server.audit(userId, Audit.kinds.approvalRequested, { deviceId: device.id, host: origin, attested })
  return answer
}

/** R2 re-sealed to this device's seal key once the person approved it; undefined while they have not yet. */
export async function reseal(server: Server, options: { userId: string; device: Device; sealed: Uint8Array }) {
  const { userId, device, sealed } = options
  const ticket = await Ticket.issue(server.secrets.ticketKey, { purpose: 'reseal', userId, sealed, device: Base64url.decode(device.sealKey), now: server.now() })
  try {
    return await server.vault.reseal({ ...ticket, sealed: Base64url.encode(sealed), device: device.sealKey })
  } catch (error) {
    if (error instanceof Vault.Refused && error.reason === 'pending') return undefined
    return refusal(server, error)
  }
}

/** A new wallet, registered with the vault: its statement over (user, email, address). */
export async function register(server: Server, options: { userId: string; email: string; address: string; sealed: Uint8Array }) {
  const { userId, email, address, sealed } = options
  const ticket = await Ticket.issue(server.secrets.ticketKey, { purpose: 'register', userId, sealed, now: server.now() })
  return server.vault.register({ ...ticket, email, address, sealed: Base64url.encode(sealed) }).catch((error: unknown) => {
    // The vault opens R2 before it registers it: one that does not open for this user is the device's bad input.
    if (error instanceof Vault.Refused && error.status === 400) throw Http.badRequest('Invalid recovery2: expected a share sealed to the vault for this user')
    return refusal(server, error)
  })
}
