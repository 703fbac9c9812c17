/**
 * spec §5: an embedded-wallet email must be a valid format. One rule for the modal (which refuses
 * before asking) and the secure-site server (which enforces it): lowercased and trimmed, as stored.
 */
export function normalize(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const email = value.trim().toLowerCase()
  // One @, a dot in the domain, no spaces or angle brackets; 254 is the SMTP path limit.
  return email.length <= 254 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[a-z0-9-]{2,}$/.test(email) ? email : undefined
}
