/** The name-service zone names are registered under and suggested in (spec §9; value is our decision). */
export const defaultZone = 'doorway.id'

// spec §5: at least 4 characters, only letters, digits and hyphens (ASCII; the zone is not part of it)
const name = /^[a-zA-Z0-9-]{4,}$/

export function isValidName(value: unknown): boolean {
  return typeof value === 'string' && name.test(value)
}

/**
 * A name a person may send to: a valid label, optionally with its zone (`alice` or `alice.doorway.id`).
 * Never `0x…`: that is an address, whole or mistyped.
 */
export function isNameReference(value: unknown): value is string {
  if (typeof value !== 'string' || /^0x/i.test(value)) return false
  const [label, ...zone] = value.split('.')
  return isValidName(label) && zone.every((part) => /^[a-zA-Z0-9-]+$/.test(part))
}
