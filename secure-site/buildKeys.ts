/**
 * The public keys a secure-site build pins (docs/embedded-wallet.md §2): the page never fetches them, so
 * a build without them, or with a wrong one, fails here rather than ships a site that cannot keep a
 * wallet. Each is an uncompressed P-256 point as base64url (65 bytes, 87 characters). vite.config.ts
 * reads it; it is a module of its own so that its test runs without vite.
 * `import { buildKeys } from './buildKeys.js'` → `define: buildKeys(process.env)`.
 */
import { createPublicKey } from 'node:crypto'

/** Each variable the build reads, the constant the page sees it as, and what the key is for. */
export const variables = {
  DOORWAY_VAULT_PUBLIC_KEY: {
    define: '__DOORWAY_VAULT_PUBLIC_KEY__',
    what: "the vault's ECDH key, which recovery shares are sealed to",
  },
  // Not DOORWAY_VAULT_SIGNING_KEY: that is the vault's private key (secure-site/server/src/secrets.ts).
  DOORWAY_VAULT_SIGNING_PUBLIC_KEY: {
    define: '__DOORWAY_VAULT_SIGNING_KEY__',
    what: "the vault's ECDSA key, which signs what the vault vouches for",
  },
  DOORWAY_SERVER_PUBLIC_KEY: {
    define: '__DOORWAY_SERVER_PUBLIC_KEY__',
    what: "the secure-site server's ECDH key, which shares are sealed to on their way up",
  },
} as const

export type Variable = keyof typeof variables
/** Vite's `define`: each constant as a JSON string literal. */
export type Defines = { [name in Variable as (typeof variables)[name]['define']]: string }

export const howToGet =
  'run `npm start` (it makes dev keys and builds), or `npx tsx secure-site/server/src/main.ts --print-build-keys` with your secrets'

/**
 * The build's defines from `env`. Throws one error naming every variable that is missing, malformed or
 * the same key as another, and how to get them; values are never echoed (a private key pasted by mistake
 * stays out of the build log).
 */
export function buildKeys(env: Record<string, string | undefined>): Defines {
  const names = Object.keys(variables) as Variable[]
  const problems: string[] = []
  const seen = new Map<string, Variable>()
  for (const name of names) {
    const value = env[name] ?? ''
    const problem = check(value)
    const first = seen.get(value)
    if (problem) problems.push(`  ${name} ${problem}: ${variables[name].what}`)
    else if (first) problems.push(`  ${name} is the same key as ${first}: each role needs a key of its own`)
    else seen.set(value, name)
  }
  if (problems.length > 0)
    throw new Error(
      `The secure-site build pins three public keys and cannot be made without them (docs/embedded-wallet.md §2):\n${problems.join('\n')}\n` +
        `Each is an uncompressed P-256 point, base64url (87 characters). To get them, ${howToGet}.`,
    )
  return Object.fromEntries(names.map((name) => [variables[name].define, JSON.stringify(env[name])])) as Defines
}

/** What is wrong with one value, or undefined when it is a point on P-256 in canonical base64url. */
function check(value: string): string | undefined {
  if (!value) return 'is missing'
  if (!/^[\w-]{87}$/.test(value)) return 'is not 87 base64url characters'
  const bytes = Buffer.from(value, 'base64url')
  if (bytes.toString('base64url') !== value || bytes[0] !== 0x04) return 'is not an uncompressed P-256 point'
  try {
    const coordinate = (from: number) => bytes.subarray(from, from + 32).toString('base64url')
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: coordinate(1), y: coordinate(33) }, format: 'jwk' })
  } catch {
    return 'is not a point on P-256'
  }
  return undefined
}
