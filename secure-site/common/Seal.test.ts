import { describe, expect, test } from 'vitest'
import * as Seal from './Seal.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('seal and open', () => {
  test('behavior: the recipient opens what was sealed to it; every box is different', async () => {
    const vault = await Seal.generateKeyPair()
    const publicKey = await Seal.exportPublicKey(vault.publicKey)
    const a = await Seal.seal(publicKey, bytes('share R2'), bytes('user-1'))
    const b = await Seal.seal(publicKey, bytes('share R2'), bytes('user-1'))
    expect(a).not.toEqual(b)
    expect(new TextDecoder().decode(await Seal.open(vault.privateKey, a, bytes('user-1')))).toBe('share R2')
  })

  test('behavior: the private key cannot be exported by default', async () => {
    const vault = await Seal.generateKeyPair()
    await expect(crypto.subtle.exportKey('pkcs8', vault.privateKey)).rejects.toThrow()
  })

  test('error: another key, other associated data or one flipped byte do not open', async () => {
    const vault = await Seal.generateKeyPair()
    const other = await Seal.generateKeyPair()
    const sealed = await Seal.seal(await Seal.exportPublicKey(vault.publicKey), bytes('share R2'), bytes('user-1'))
    await expect(Seal.open(other.privateKey, sealed, bytes('user-1'))).rejects.toThrow()
    await expect(Seal.open(vault.privateKey, sealed, bytes('user-2'))).rejects.toThrow()
    for (const at of [1, 70, sealed.length - 1]) {
      const tampered = sealed.slice()
      tampered[at]! ^= 1
      await expect(Seal.open(vault.privateKey, tampered, bytes('user-1'))).rejects.toThrow()
    }
  })

  test.each([
    ['an empty box', new Uint8Array()],
    ['another version', Uint8Array.of(2, ...new Uint8Array(100))],
    ['a truncated box', Uint8Array.of(1, ...new Uint8Array(40))],
  ])('error: %s is refused', async (_, sealed) => {
    const vault = await Seal.generateKeyPair()
    await expect(Seal.open(vault.privateKey, sealed, bytes('x'))).rejects.toThrow()
  })

  test('error: a public key that is not a P-256 point is refused', async () => {
    await expect(Seal.seal(new Uint8Array(65), bytes('x'), bytes('x'))).rejects.toThrow()
  })
})
