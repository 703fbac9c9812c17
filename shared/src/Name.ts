/** The name-service zone names are registered under and suggested in (spec §9; value is our decision). */
export const defaultZone = 'doorway.id'

// spec §5: at least 4 characters, only letters, digits and hyphens (ASCII; the zone is not part of it)
const name = /^[a-zA-Z0-9-]{4,}$/

export function isValidName(value: unknown): boolean {
  return typeof value === 'string' && name.test(value)
}
