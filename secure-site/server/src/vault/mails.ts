/**
 * The vault's own mails (docs/embedded-wallet.md §4 VERIFY_DEVICE, §10): always to the email the wallet
 * was registered with, never to an address a caller sends, so the server cannot redirect them. Values
 * in them were checked at the route (printable, no line break). `import * as Mails from './vault/mails.js'`.
 */
import type * as Mail from '../mail.js'

/** A time as the mails and pages show it: `2026-11-27 08:40 UTC`. */
export function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** The site as the browser told it: marked when the browser could not attest it (docs/embedded-wallet.md §7). */
export function site(origin: string, attested: boolean): string {
  return attested ? origin : `${origin} (reported)`
}

export function approval(options: { to: string; link: string; origin: string; attested: boolean; browser: string; at: number; expiresAt: number }): Mail.Mail {
  const minutes = Math.round((options.expiresAt - options.at) / 60_000)
  return {
    to: options.to,
    subject: 'Approve a new device for your Doorway wallet',
    text: [
      'A device asked to use your Doorway wallet:',
      '',
      `  Site: ${site(options.origin, options.attested)}`,
      `  Browser: ${options.browser}`,
      `  Time: ${utc(options.at)}`,
      '',
      `If this was you, open this link within ${minutes} minutes and approve the device:`,
      options.link,
      '',
      "If it wasn't you, do not open the link; your wallet stays safe.",
      '',
    ].join('\n'),
  }
}

export function recovered(options: { to: string; origin: string; attested: boolean; browser: string; approvedAt: number; at: number }): Mail.Mail {
  return {
    to: options.to,
    subject: 'Your Doorway wallet was recovered on a device',
    text: [
      'Your wallet was recovered on a device:',
      '',
      `  Site: ${site(options.origin, options.attested)}`,
      `  Browser: ${options.browser}`,
      `  Device approved: ${utc(options.approvedAt)}`,
      `  Recovered: ${utc(options.at)}`,
      '',
      'The device was approved from a link sent to this address.',
      '',
      "If it wasn't you, someone can read your email: secure your email account, then move your funds to a new wallet.",
      '',
    ].join('\n'),
  }
}
