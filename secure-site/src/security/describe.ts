/**
 * The devices and the audit log in the person's words (docs/embedded-wallet.md §10): pure, so the
 * screen only places what these return. Times in the person's locale through Intl.
 * `import * as Describe from './describe.js'`.
 */
import type * as AuditChain from '@doorway/secure-site/common/AuditChain'
import { format } from '@doorway/shared/Texts'
import { securityText } from '@doorway/shared/texts/embedded'
import type { DeviceSummary } from './Manage.js'

/** How times are written: the browser's locale and time zone unless a test says. */
export type Zone = { locale?: string | undefined; timeZone?: string | undefined }

const minuteMs = 60_000
const hourMs = 60 * minuteMs
const dayMs = 24 * hourMs

/** "5 minutes ago", "yesterday": within a month, else the date. */
export function relative(at: number, now: number, zone: Zone = {}): string {
  const ago = Math.max(0, now - at)
  const words = new Intl.RelativeTimeFormat(zone.locale, { numeric: 'auto' })
  if (ago < minuteMs) return words.format(0, 'second')
  if (ago < hourMs) return words.format(-Math.floor(ago / minuteMs), 'minute')
  if (ago < dayMs) return words.format(-Math.floor(ago / hourMs), 'hour')
  if (ago < 30 * dayMs) return words.format(-Math.floor(ago / dayMs), 'day')
  return date(at, zone)
}

export function date(at: number, { locale, timeZone }: Zone = {}): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(at)
}

export function time(at: number, { locale, timeZone }: Zone = {}): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at)
}

/** The site as the browser attested it, or marked as only reported by the page (docs/embedded-wallet.md §7). */
export function site(origin: string | null, attested: boolean): string {
  if (origin === null) return securityText.unknownSite
  return attested ? origin : format(securityText.reported, { origin })
}

/** What a device is called on the screen: its browser, and the site it was last signed in at. */
export function device(summary: Pick<DeviceSummary, 'browser' | 'origin' | 'attested'>): { name: string; site: string } {
  return { name: summary.browser ?? securityText.unknownBrowser, site: site(summary.origin, summary.attested) }
}

/** An audit entry's kind in words; a code says what it was for; a kind this build does not know says so. */
export function kind(entry: Pick<AuditChain.Listed, 'kind' | 'detail'>): string {
  const purpose = entry.detail.purpose
  if (entry.kind === 'code.sent' && (purpose === 'export' || purpose === 'revoke')) return securityText.codeFor[purpose]
  const known = securityText.kinds as Record<string, string>
  return Object.hasOwn(known, entry.kind) ? known[entry.kind]! : format(securityText.other, { kind: entry.kind })
}

/** The site an entry names (`host`), as the server recorded it; marked reported where the entry says the browser did not attest it. */
export function entrySite(entry: Pick<AuditChain.Listed, 'detail'>): string | undefined {
  const { host, attested } = entry.detail
  if (typeof host !== 'string') return undefined
  return site(host, attested !== false)
}

/** One line per entry, newest first: what happened, when, and where when the entry says. */
export function activity(entries: readonly AuditChain.Listed[], zone: Zone = {}): { seq: number; what: string; when: string }[] {
  return [...entries].reverse().map((entry) => {
    const when = time(entry.at, zone)
    const where = entrySite(entry)
    return { seq: entry.seq, what: kind(entry), when: where ? format(securityText.at, { when, origin: where }) : when }
  })
}
