/**
 * Sessions without a cookie or a token (docs/embedded-wallet.md §3): a device linked to a user by a
 * verified code, alive while the device keeps signing. Pure decisions over a stored device.
 * `import * as Session from './Session.js'`.
 */
import type { Device } from './storage/Storage.js'

const dayMs = 24 * 3_600_000

export const policy = {
  idleMs: 7 * dayMs,
  absoluteMs: 30 * dayMs,
  /** Export, recovery-mode change, revocation and storing shares need a code this recent. */
  freshMs: 5 * 60_000,
} as const

/** The user of a live session: linked, started, not idle for 7 d, younger than 30 d. */
export function userOf(device: Device, now: number): string | undefined {
  const { userId, sessionStartedAt, lastSeen, revoked } = device
  if (revoked || userId === null || sessionStartedAt === null) return undefined
  if (now - lastSeen >= policy.idleMs || now - sessionStartedAt >= policy.absoluteMs) return undefined
  return userId
}

/** Whether a session just ran out (the caller ends it, so a later request cannot revive it). */
export function expired(device: Device, now: number): boolean {
  return device.sessionStartedAt !== null && userOf(device, now) === undefined
}

/** A live session whose code was verified on this device within 5 min. */
export function isFresh(device: Device, now: number): boolean {
  return userOf(device, now) !== undefined && device.freshAuthAt !== null && now - device.freshAuthAt <= policy.freshMs
}
