/**
 * The server's mail (notes/embedded-wallet.md §4.4): the code and the requesting host, never a link
 * that signs in. Routes hand a mail to `send` and answer at once, so SMTP latency never eats the 30 s
 * the modal waits; delivery errors are logged, never thrown at a route. `import * as Mail from './mail.js'`.
 */
import { createTransport } from 'nodemailer'
import * as Otp from './Otp.js'

export type Mail = { to: string; subject: string; text: string }

/** Queues a mail; never waits for it and never throws for a delivery failure. */
export type Mailer = { send(mail: Mail): void }

export const from = 'Doorway <login@doorway.test>'

export function code(options: { to: string; code: string; host: string }): Mail {
  const minutes = Otp.policy.lifetimeMs / 60_000
  return {
    to: options.to,
    subject: `Your Doorway code is ${options.code}`,
    text: [
      `Your Doorway code is ${options.code}.`,
      '',
      `Someone asked to sign in at ${options.host}. The code expires in ${minutes} minutes. If this wasn't you, ignore this mail.`,
      '',
    ].join('\n'),
  }
}

/** notes §4.4: the lockout notifies the person. */
export function locked(options: { to: string }): Mail {
  const hours = Otp.policy.lockoutMs / 3_600_000
  return {
    to: options.to,
    subject: 'Doorway sign-in by email is paused',
    text: [
      `There were ${Otp.policy.lockoutFailures} wrong codes for this email within ${hours} hours, so Doorway sends no new codes to it for ${hours} hours.`,
      '',
      "If this wasn't you, someone is guessing codes for your address; your wallet stays safe.",
      '',
    ].join('\n'),
  }
}

export type SmtpMailer = Mailer & {
  /** Resolves once every mail queued so far was delivered or failed. */
  idle(): Promise<void>
  close(): void
}

/** Plain SMTP on loopback to the devnet mail sink (no TLS to negotiate there); a pooled transport is the queue. */
export function smtp(options: { host: string; port: number; log?: (message: string, error: unknown) => void; maxPending?: number }): SmtpMailer {
  const { log = (message, error) => console.error(`[doorway:secure] ${message}`, error), maxPending = 1_000 } = options
  const transport = createTransport({
    host: options.host,
    port: options.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  })
  const pending = new Set<Promise<void>>()
  return {
    send(mail) {
      // A stalled SMTP server must not grow the queue without bound.
      if (pending.size >= maxPending) return log('mail dropped: the queue is full', undefined)
      const sending = transport
        .sendMail({ from, ...mail })
        .then(
          () => {},
          (error: unknown) => log('mail not delivered', error),
        )
        .finally(() => pending.delete(sending))
      pending.add(sending)
    },
    async idle() {
      await Promise.all(pending)
    },
    close: () => transport.close(),
  }
}
