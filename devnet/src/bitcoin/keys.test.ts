import { secp256k1 } from '@noble/curves/secp256k1'
import { hex } from '@scure/base'
import { describe, expect, test } from 'vitest'
import * as Keys from './keys.js'

describe('payment', () => {
  test('behavior: key 0 is m/84’/1’/0’/0/0 of the devnet mnemonic, a bcrt1q P2WPKH address', () => {
    // Worked out independently of @scure/bip32 (BIP32 and bech32 by hand in Python) from the mnemonic.
    const key = Keys.payment(0)
    expect(key.path).toBe("m/84'/1'/0'/0/0")
    expect(key.address).toBe('bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw')
    expect(hex.encode(key.publicKey)).toBe('03f3d474c86c9be5b82e251cc3cc438d3cc361527b4b9799516c4bd513caf9e5f6')
  })

  test('behavior: each index is its own key pair, and the same on every call', () => {
    const keys = [0, 1, 2, 3].map(Keys.payment)
    expect(new Set(keys.map((k) => k.address)).size).toBe(4)
    for (const [i, key] of keys.entries()) {
      expect(key.address).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/)
      expect(key.path).toBe(`m/84'/1'/0'/0/${i}`)
      expect(hex.encode(secp256k1.getPublicKey(key.privateKey, true))).toBe(hex.encode(key.publicKey))
      expect(Keys.payment(i).address).toBe(key.address)
    }
  })

  test.each([-1, 1.5, 2 ** 31, Number.NaN])('param: index %s is refused', (index) => {
    expect(() => Keys.payment(index)).toThrow(RangeError)
  })
})
