import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { buildKeys, howToGet, variables } from './buildKeys.js'

/** A fresh P-256 public key as the build takes it: the uncompressed point, base64url. */
function point(): string {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(-65).toString('base64url')
}

const valid = () => ({ DOORWAY_VAULT_PUBLIC_KEY: point(), DOORWAY_VAULT_SIGNING_PUBLIC_KEY: point(), DOORWAY_SERVER_PUBLIC_KEY: point() })

/** The error buildKeys throws for `env`, as text. */
function refusal(env: Record<string, string | undefined>): string {
  try {
    buildKeys(env)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('buildKeys accepted the keys')
}

describe('buildKeys', () => {
  test('behavior: three valid keys become the page constants, as JSON string literals', () => {
    const env = valid()
    expect(buildKeys({ ...env, PATH: '/usr/bin' })).toEqual({
      __DOORWAY_VAULT_PUBLIC_KEY__: JSON.stringify(env.DOORWAY_VAULT_PUBLIC_KEY),
      __DOORWAY_VAULT_SIGNING_KEY__: JSON.stringify(env.DOORWAY_VAULT_SIGNING_PUBLIC_KEY),
      __DOORWAY_SERVER_PUBLIC_KEY__: JSON.stringify(env.DOORWAY_SERVER_PUBLIC_KEY),
    })
  })

  test.each(Object.keys(variables))('error: without %s the build fails, naming it and saying how to get it', (name) => {
    const message = refusal({ ...valid(), [name]: undefined })
    expect(message).toContain(`${name} is missing`)
    expect(message).toContain(howToGet)
    expect(message).toContain('--print-build-keys')
    // Only the missing one is named.
    for (const other of Object.keys(variables).filter((n) => n !== name)) expect(message).not.toContain(other)
  })

  test('error: every missing key is named at once, an empty one too', () => {
    const message = refusal({ DOORWAY_VAULT_PUBLIC_KEY: '' })
    expect(message.split('\n').filter((line) => line.includes(' is missing: '))).toEqual([
      expect.stringMatching(/^ {2}DOORWAY_VAULT_PUBLIC_KEY is missing/),
      expect.stringMatching(/^ {2}DOORWAY_VAULT_SIGNING_PUBLIC_KEY is missing/),
      expect.stringMatching(/^ {2}DOORWAY_SERVER_PUBLIC_KEY is missing/),
    ])
  })

  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const good = point()
  const bytes = Buffer.from(good, 'base64url')
  const offCurve = Buffer.from(bytes)
  offCurve[64]! ^= 1
  const compressed = Buffer.from(bytes)
  compressed[0] = 0x02
  test.each([
    ['too short', good.slice(1), 'is not 87 base64url characters'],
    ['standard base64', `${good.slice(0, 86)}+`, 'is not 87 base64url characters'],
    ['a JWK', JSON.stringify({ kty: 'EC', crv: 'P-256' }), 'is not 87 base64url characters'],
    // The last character carries 4 bits and 2 that must be zero: setting one decodes to the same bytes.
    ['not canonical', `${good.slice(0, 86)}${alphabet[alphabet.indexOf(good.at(-1)!) + 1]}`, 'is not an uncompressed P-256 point'],
    ['not uncompressed', compressed.toString('base64url'), 'is not an uncompressed P-256 point'],
    ['off the curve', offCurve.toString('base64url'), 'is not a point on P-256'],
  ])('error: a key that is %s is refused, and not echoed', (_, value, problem) => {
    const message = refusal({ ...valid(), DOORWAY_SERVER_PUBLIC_KEY: value })
    expect(message).toContain(`DOORWAY_SERVER_PUBLIC_KEY ${problem}`)
    expect(message).not.toContain(value)
  })

  test('error: one key given for two roles is refused', () => {
    const env = valid()
    const message = refusal({ ...env, DOORWAY_SERVER_PUBLIC_KEY: env.DOORWAY_VAULT_PUBLIC_KEY })
    expect(message).toContain('DOORWAY_SERVER_PUBLIC_KEY is the same key as DOORWAY_VAULT_PUBLIC_KEY')
  })
})
