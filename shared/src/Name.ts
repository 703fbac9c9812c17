/** The name-service zone names are registered under and suggested in (spec §9; value is our decision). */
export const defaultZone = 'doorway.id'

// spec §5: at least 4 characters, only letters, digits and hyphens (ASCII; the zone is not part of it)
const name = /^[a-zA-Z0-9-]{4,}$/

export function isValidName(value: unknown): boolean {
  return typeof value === 'string' && name.test(value)
}

/** What was typed without the zone, if it was typed (`alice.doorway.id` → `alice`); the label is not checked. */
export function stripZone(value: string): string {
  const zone = `.${defaultZone}`
  return value.toLowerCase().endsWith(zone) ? value.slice(0, -zone.length) : value
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

/**
 * What a wallet signs to register a name (spec §7): the name in full and lowercase (`alice.doorway.id`),
 * its attributes, the time in Unix seconds, and a nonce, 128 random bits as 32 lowercase hex digits
 * (`Ids.random()`), so that one signature registers once.
 */
export type Registration = { name: string; attributes: Record<string, string>; timestamp: number; nonce: string }

/** The exact text the wallet signs for a registration: JSON with its keys in this order. */
export function registrationMessage(registration: Registration): string {
  const { name, attributes, timestamp, nonce } = registration
  return JSON.stringify({ name, attributes, timestamp, nonce })
}

/** ENSIP-11: the coin type of EVM chain `chainReference` in a name's addresses, 0x80000000 | chainId. */
export function ensip11CoinType(chainReference: number): number {
  if (!Number.isInteger(chainReference) || chainReference < 1 || chainReference >= 0x80000000)
    throw new RangeError(`No ENSIP-11 coin type for chain ${chainReference}: expected an integer from 1 to 2147483647`)
  return (0x80000000 | chainReference) >>> 0
}
