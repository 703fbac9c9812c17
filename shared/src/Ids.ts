/** A random 128-bit id as 32 lowercase hex digits (crypto, never Math.random). */
export function random(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  let id = ''
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0')
  return id
}

export const pattern = /^[0-9a-f]{32}$/

export function isId(x: unknown): x is string {
  return typeof x === 'string' && pattern.test(x)
}
