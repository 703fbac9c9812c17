/**
 * One-time codes as the routes use them (docs/embedded-wallet.md §4): sending one under the
 * throttle, and checking one with the same refusals, whether it signs in (/v1/email) or confirms an
 * export (/v1/export). `import * as Codes from './codes.js'`.
 */
import * as Ids from '@doorway/shared/Ids'
import * as Texts from '@doorway/shared/Texts'
import type { Server } from './app.js'
import * as Http from './http.js'
import * as Mail from './mail.js'
import * as Otp from './Otp.js'
import type { Challenge } from './storage/Storage.js'

/** spec §5: 'Please try again after {n} seconds', with the reason and the seconds for the client. */
const throttled = (refusal: Otp.Refusal) =>
  new Http.HttpError(429, Texts.format(Texts.errors.emailLoginThrottled, { n: refusal.retryAfter }), refusal)

const refusals: Record<Exclude<Otp.Outcome, 'ok'>, string> = {
  wrong: 'The code is not right',
  expired: 'The code has expired: ask for a new one',
  used: 'The code was already used: ask for a new one',
  exhausted: 'Too many wrong tries for this code: ask for a new one',
  otherDevice: 'The code was asked for on another device',
}

/**
 * Stores a challenge for `email` bound to the device, then waits (at most `mailTimeoutMs`) for the SMTP
 * server to accept `mail(code)`: 429 when throttled; 503 when the mail did not go out, with the challenge
 * withdrawn so the person is not throttled for a code they never got.
 */
export async function start(server: Server, options: start.Options): Promise<Challenge> {
  const { deviceId, email, host, attested, source } = options
  const now = server.now()
  const code = Otp.code()
  const challenge = { ...Otp.create({ id: Ids.random(), email, deviceId, code, pepper: server.secrets.pepper, now }), host, attested }
  const refusal = await server.storage.challenges.start(challenge, (recent, failures) => Otp.mayStart({ email, deviceId, source, now, recent, failures }))
  if (refusal) throw throttled(refusal)
  try {
    await server.deliver(options.mail(code))
  } catch (error) {
    server.log('code mail not sent', error)
    await server.storage.challenges.withdraw(challenge.id)
    throw new Http.HttpError(503, 'The code email could not be sent: try again in a moment', { reason: 'mail' })
  }
  return challenge
}

export declare namespace start {
  type Options = {
    deviceId: string
    email: string
    host: string
    attested: boolean
    /** The request's source (limits.ts): a source locked out for this email gets no code. */
    source: string
    mail(code: string): Mail.Mail
  }
}

/**
 * Spends one attempt at a challenge from this device: the challenge when the code is right, else 401
 * with the reason (and `attemptsLeft` for a wrong code), or 429 once the email is locked for the
 * request's source or everywhere. With `email`, a challenge for another address is 403 `otherUser` and
 * spends nothing. A wrong code is a failure of the request's source.
 */
export async function verify(server: Server, options: verify.Options): Promise<Challenge> {
  const { deviceId, challengeId, code, email, source } = options
  const { pepper } = server.secrets
  const now = server.now()
  const decide = (challenge: Challenge, failures: Otp.Failure[]) => {
    if (email !== undefined && challenge.email !== email) return 'otherUser'
    if (Otp.lockout(failures, source, now)) return 'locked'
    return Otp.verify(challenge, { email: challenge.email, deviceId, code, pepper, now })
  }
  const attempt = await server.storage.challenges.attempt(challengeId, now, decide, source)
  if (!attempt) throw new Http.HttpError(401, 'Unknown code request: ask for a new code', { reason: 'unknown' })
  const { challenge, outcome, failures } = attempt
  if (outcome === 'ok') return challenge
  if (outcome === 'otherUser') throw new Http.HttpError(403, 'The code was sent to another email than the signed-in one', { reason: 'otherUser' })
  if (outcome === 'locked') throw throttled(Otp.lockout(failures, source, now)!)
  // docs/embedded-wallet.md §4: the failure that locks the email everywhere tells its owner. A source
  // locked alone does not: the owner elsewhere can still sign in, and a mail per network would be spam.
  if (outcome === 'wrong' && Otp.lockedEverywhere([...failures, { at: now, source }], now)) server.mail(Mail.locked({ to: challenge.email }))
  const attemptsLeft = outcome === 'wrong' ? { attemptsLeft: Otp.policy.attempts - challenge.attempts - 1 } : {}
  throw new Http.HttpError(401, refusals[outcome], { reason: outcome, ...attemptsLeft })
}

export declare namespace verify {
  type Options = {
    deviceId: string
    challengeId: string
    code: string
    /** The address the challenge must be for (the session user's); any when absent. */
    email?: string
    /** The request's source (limits.ts): its failures count toward its own lockout. */
    source: string
  }
}
