/** Reads a dapp's untyped request params as optional chaining on `any` would, but typed `unknown`. */

/** `value?.[key]`: undefined for null and undefined, the property otherwise (a primitive's included). */
export function at(value: unknown, key: string | number): unknown {
  return value === null || value === undefined ? undefined : (value as Record<string | number, unknown>)[key]
}
