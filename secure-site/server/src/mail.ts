/**
 * The server's mail (docs/embedded-wallet.md §4, §8): the code and the requesting host, never a
 * link that signs in. `send` settles when the SMTP server accepted or refused the mail, so a route can
 * wait for a code mail within a bound and say so when it did not go out. `import * as Mail from './mail.js'`.
 */
import { createTransport } from 'nodemailer'
import * as Otp from './Otp.js'

export type Mail = { to: string; subject: string; text: string }

/** Resolves once the SMTP server accepted the mail; rejects when it refused it or could not be reached. */
export type Mailer = { send(mail: Mail): Promise<void> }

export const from = 'Doorway <login@doorway.test>'

/**
 * The dapp's origin as a mail names it: as the browser attested it (`location.ancestorOrigins`), or
 * marked as only reported by the page where the browser gives none (docs/embedded-wallet.md §4).
 */
export const origin = (host: string, attested: boolean) => (attested ? host : `${host} (reported by the page, not confirmed by the browser)`)

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

/** docs/embedded-wallet.md §8: the code that lets this device show the wallet's recovery phrase and key. */
export function exportCode(options: { to: string; code: string; host: string }): Mail {
  const minutes = Otp.policy.lifetimeMs / 60_000
  return {
    to: options.to,
    subject: `Your Doorway code to export your wallet is ${options.code}`,
    text: [
      `Your Doorway code to export your wallet is ${options.code}.`,
      '',
      `Someone asked to export your wallet's recovery phrase and private key at ${options.host}. The code expires in ${minutes} minutes.`,
      '',
      "If this wasn't you, do not share this code with anyone and ignore this mail.",
      '',
    ].join('\n'),
  }
}

/** docs/embedded-wallet.md §8 After export: the notification. */
export function exported(options: { to: string; host: string }): Mail {
  return {
    to: options.to,
    subject: 'Your Doorway wallet was exported',
    text: [
      `The recovery phrase and private key of your Doorway wallet were shown at ${options.host}, on a device that confirmed a code sent to this address.`,
      '',
      "If this wasn't you, move your funds to a new wallet now.",
      '',
    ].join('\n'),
  }
}

/** docs/embedded-wallet.md §10: the code that lets this device remove another device of the wallet. */
export function revokeCode(options: { to: string; code: string; host: string }): Mail {
  const minutes = Otp.policy.lifetimeMs / 60_000
  return {
    to: options.to,
    subject: `Your Doorway code to remove a device is ${options.code}`,
    text: [
      `Your Doorway code to remove a device from your wallet is ${options.code}.`,
      '',
      `Someone asked to remove a device from your wallet at ${options.host}. The code expires in ${minutes} minutes.`,
      '',
      "If this wasn't you, do not share this code with anyone and ignore this mail.",
      '',
    ].join('\n'),
  }
}

/** docs/embedded-wallet.md §10: a device was removed from another one; the owner hears of it. */
export function revoked(options: { to: string; browser: string; origin: string }): Mail {
  return {
    to: options.to,
    subject: 'A device was removed from your Doorway wallet',
    text: [
      'A device was removed from your Doorway wallet, from another of your devices:',
      '',
      `  Browser: ${options.browser}`,
      `  Site: ${options.origin}`,
      '',
      'It is signed out and can use the wallet again only if you approve it from a link sent to this address.',
      '',
      "If this wasn't you, someone has a signed-in device of yours: sign in, check your devices, and consider moving your funds.",
      '',
    ].join('\n'),
  }
}

/** docs/embedded-wallet.md §4: the lockout notifies the person. */
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
  /** Resolves once every mail sent so far was accepted or refused. */
  idle(): Promise<void>
  close(): void
}

/**
 * Plain SMTP on loopback to the devnet mail sink (no TLS to negotiate there); a pooled transport is the
 * queue. A full queue refuses the mail at once rather than letting a stalled server grow it.
 */
export function smtp(options: { host: string; port: number; maxPending?: number }): SmtpMailer {
  const { maxPending = 1_000 } = options
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
  const pending = new Set<Promise<unknown>>()
  return {
    send(mail) {
      if (pending.size >= maxPending) return Promise.reject(new Error(`The mail queue is full (${maxPending} pending)`))
      const sending = transport.sendMail({ from, ...mail }).then(() => {})
      const settled = sending.catch(() => {}).finally(() => pending.delete(settled))
      pending.add(settled)
      return sending
    },
    async idle() {
      await Promise.all(pending)
    },
    close: () => transport.close(),
  }
}
