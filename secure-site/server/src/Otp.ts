/**
 * The email one-time-code policy of the embedded wallet (docs/embedded-wallet.md §4), as pure
 * decisions over stored records, so the server's routes and both storages (PGlite, PostgreSQL) share
 * one rulebook: 6 digits from `crypto.randomInt`, 10 min, single use, 5 attempts, stored only as an
 * HMAC under a pepper kept outside the database, bound to the device that asked, a 30 s resend
 * throttle per email and per device (spec §5), 5 sends an hour, and a 24 h lockout after 20 failures
 * from one source (a client network, limits.ts) or 200 from all of them together.
 * `import * as Otp from './Otp.js'`.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import * as Constants from '@doorway/shared/Constants'
import * as SecureSite from '@doorway/shared/contracts/secureSite'
import * as Email from '@doorway/shared/Email'

export const policy = {
  digits: SecureSite.codeDigits,
  lifetimeMs: 10 * 60_000,
  attempts: 5,
  // spec §5: a new email login is refused within 30 s of the last
  resendMs: Constants.emailLoginThrottleMs,
  sendsPerHour: 5,
  // A network that failed 20 times in 24 h at an email's codes gets no code and no try for that email
  // for 24 h; the owner on another network is not locked out by it (docs/embedded-wallet.md §4).
  sourceLockoutFailures: 20,
  // The backstop against guessing from many networks: 200 failures in 24 h from all sources lock the
  // email everywhere and mail its owner. That caps guessing at 200 tries a day at codes right with
  // chance 10^-6 each: 0.02 % a day, about 7 % (1 - e^-0.073) over a year of non-stop guessing, which
  // needs at least 10 networks (20 each) and mails the owner every day it trips. Without it the send
  // cap alone lets 5 codes × 5 tries × 24 h = 600 tries a day through.
  lockoutFailures: 200,
  lockoutMs: 24 * 3_600_000,
} as const

const hourMs = 3_600_000

/** A code as stored: never the code itself. */
export type Challenge = {
  id: string
  email: string
  deviceId: string
  /** HMAC-SHA256(pepper, id‖email‖code), hex. */
  digest: string
  attempts: number
  createdAt: number
  expiresAt: number
  usedAt: number | null
}

/** spec §5: the email must be a valid format; one rule with the modal's (shared/src/Email.ts). */
export const normalizeEmail = Email.normalize

/** spec §5: a one-time code is a string; ours are exactly 6 digits. */
export function isCode(value: unknown): value is string {
  return typeof value === 'string' && new RegExp(`^\\d{${policy.digits}}$`).test(value)
}

/** A fresh code, uniformly drawn. */
export function code(): string {
  return String(randomInt(0, 10 ** policy.digits)).padStart(policy.digits, '0')
}

export function digest(pepper: Uint8Array, challenge: { id: string; email: string }, code: string): string {
  return createHmac('sha256', pepper).update(`${challenge.id}\u0000${challenge.email}\u0000${code}`).digest('hex')
}

export function create(options: { id: string; email: string; deviceId: string; code: string; pepper: Uint8Array; now: number }): Challenge {
  const { id, email, deviceId, now } = options
  return { id, email, deviceId, digest: digest(options.pepper, { id, email }, options.code), attempts: 0, createdAt: now, expiresAt: now + policy.lifetimeMs, usedAt: null }
}

export type Refusal = { reason: 'throttled' | 'hourly' | 'locked'; retryAfter: number }

/** A failed verification as stored: when, and from which source (a client network's key, limits.ts). */
export type Failure = { at: number; source: string }

/**
 * Whether a new code may be sent to a request from `source`. `recent` holds the challenges of the
 * last hour for this email or this device; `failures` the failed verifications of this email in the
 * last 24 h from every source, oldest first. `retryAfter` is whole seconds, for 'Please try again
 * after {n} seconds' (spec §5).
 */
export function mayStart(options: {
  email: string
  deviceId: string
  source: string
  now: number
  recent: readonly Challenge[]
  failures: readonly Failure[]
}): Refusal | undefined {
  const { email, deviceId, source, now, recent, failures } = options
  const lock = lockout(failures, source, now)
  if (lock) return lock
  const mine = recent.filter((c) => c.email === email || c.deviceId === deviceId)
  const last = Math.max(...mine.map((c) => c.createdAt), -Infinity)
  if (last > now - policy.resendMs) return { reason: 'throttled', retryAfter: seconds(last + policy.resendMs, now) }
  const hour = recent.filter((c) => c.email === email && c.createdAt > now - hourMs).map((c) => c.createdAt)
  if (hour.length >= policy.sendsPerHour) return { reason: 'hourly', retryAfter: seconds(Math.min(...hour) + hourMs, now) }
  return undefined
}

/**
 * The lockout for a request from `source`, given the email's failures of the last 24 h: 20 from this
 * source lock the email for this source only, 200 from all sources lock it everywhere; the longer wait wins.
 */
export function lockout(failures: readonly Failure[], source: string, now: number): Refusal | undefined {
  const here = locked(failures.filter((f) => f.source === source), policy.sourceLockoutFailures, now)
  const everywhere = lockedEverywhere(failures, now)
  if (here && everywhere) return here.retryAfter >= everywhere.retryAfter ? here : everywhere
  return here ?? everywhere
}

/** The backstop: 200 failures of the last 24 h from all sources lock the email for everyone. */
export function lockedEverywhere(failures: readonly Failure[], now: number): Refusal | undefined {
  return locked(failures, policy.lockoutFailures, now)
}

/** Locked until the `count`-th newest failure is 24 h old, once `count` fell within the last 24 h. */
function locked(failures: readonly Failure[], count: number, now: number): Refusal | undefined {
  const locking = failures.map((f) => f.at).filter((at) => at > now - policy.lockoutMs)
  if (locking.length < count) return undefined
  return { reason: 'locked', retryAfter: seconds(locking.sort((a, b) => a - b).at(-count)! + policy.lockoutMs, now) }
}

const seconds = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000))

export type Outcome = 'ok' | 'wrong' | 'expired' | 'used' | 'exhausted' | 'otherDevice'

/**
 * Checks a code against its challenge. Every outcome but 'ok' refuses; 'wrong' spends an attempt
 * (the caller stores `attempts + 1` and the failure). After 5 attempts even the right code is refused.
 */
export function verify(challenge: Challenge, input: { email: string; deviceId: string; code: string; pepper: Uint8Array; now: number }): Outcome {
  if (challenge.usedAt !== null) return 'used'
  if (input.now >= challenge.expiresAt) return 'expired'
  if (challenge.attempts >= policy.attempts) return 'exhausted'
  if (input.deviceId !== challenge.deviceId) return 'otherDevice'
  const expected = Buffer.from(challenge.digest, 'hex')
  const actual = Buffer.from(digest(input.pepper, { id: challenge.id, email: input.email }, input.code), 'hex')
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? 'ok' : 'wrong'
}
