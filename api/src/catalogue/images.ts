/**
 * Locally made images for the image blob paths of spec §7: a tile per wallet, a coin per token, a tile
 * per currency, a generic asset mark. Drawn on request, never fetched, so the modal shows no third-party
 * artwork and makes no request beyond this api.
 */

export const contentType = 'image/svg+xml'

/** Headers for every image answer: cacheable, and inert when opened directly (no scripts, no sniffing). */
export const headers = {
  'content-type': contentType,
  'cache-control': 'public, max-age=86400',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
} as const

const font = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif'
const palette = ['#3B82F6', '#8B5CF6', '#EC4899', '#F97316', '#10B981', '#0EA5E9', '#6366F1', '#14B8A6', '#EF4444', '#64748B']

/** A wallet's tile: its colour as a rounded square, its initials in white. */
export function wallet({ color, initials }: { color: string; initials: string }): string {
  return svg(`<rect width="96" height="96" rx="22" fill="${safeColor(color)}"/>${label(initials, 2, '#FFFFFF')}`)
}

/** A token coin with the first letters of its symbol (ETH, DUSD, DWT). */
export function token(id: string): string {
  const fill = colorOf(id)
  return svg(`<circle cx="48" cy="48" r="46" fill="${fill}"/><circle cx="48" cy="48" r="39" fill="none" stroke="#FFFFFF" stroke-opacity="0.35" stroke-width="3"/>${label(id, 4, '#FFFFFF')}`)
}

/** A currency tile with its code (USD, EUR). */
export function currency(id: string): string {
  return svg(`<rect width="96" height="96" rx="48" fill="#1F2937"/>${label(id, 3, '#FFFFFF')}`)
}

/** A generic asset mark: a neutral tile with a diamond and the id's first letters. */
export function asset(id: string): string {
  return svg(`<rect width="96" height="96" rx="22" fill="#E5E7EB"/><path d="M48 14 L78 48 L48 82 L18 48 Z" fill="${colorOf(id)}" fill-opacity="0.25"/>${label(id, 2, '#374151')}`)
}

function svg(body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">${body}</svg>`
}

/** Centered text: the first `max` characters of `text`, uppercased, escaped; sized to fit. */
function label(text: string, max: number, fill: string): string {
  const letters = lettersOf(text, max)
  const size = [0, 44, 40, 30, 24][letters.length] ?? 24
  return `<text x="48" y="48" dominant-baseline="central" text-anchor="middle" font-family="${font}" font-weight="600" font-size="${size}" fill="${fill}">${escape(letters.join(''))}</text>`
}

// Whole code points, so a surrogate pair is never split, and only printable ones: XML 1.0 forbids most
// control characters, and an invalid document would render as a broken image.
function lettersOf(text: string, max: number): string[] {
  return [...text.toUpperCase()].filter((char) => /[\p{L}\p{N}\p{S}\p{P}]/u.test(char)).slice(0, max)
}

/** Text for XML content and attributes: ids are untrusted input. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function safeColor(color: string): string {
  return /^#[0-9A-Fa-f]{6}$/.test(color) ? color : '#64748B'
}

// A stable pick from the palette, so the same symbol keeps its colour across requests.
function colorOf(id: string): string {
  let hash = 2166136261
  for (const char of id.toUpperCase()) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619)
  return palette[(hash >>> 0) % palette.length]!
}
