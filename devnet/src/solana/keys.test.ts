import * as Slip10 from '@doorway/shared/Slip10'
import { mnemonicToSeedSync } from '@scure/bip39'
import { Keypair } from '@solana/web3.js'
import { describe, expect, test } from 'vitest'
import * as Keys from './keys.js'

describe('Slip10 with web3.js', () => {
  test('behavior: the abandon…about mnemonic at m/44\'/501\'/0\'/0\' is the well-known HAgk14… address', () => {
    const seed = mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
    const { privateKey } = Slip10.derive(seed, "m/44'/501'/0'/0'")
    expect(Keypair.fromSeed(privateKey).publicKey.toBase58()).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
  })
})

describe('keypair', () => {
  test('behavior: dev key n is the test mnemonic at m/44\'/501\'/n\'/0\'', () => {
    const seed = mnemonicToSeedSync('test test test test test test test test test test test junk')
    const expected = Keypair.fromSeed(Slip10.derive(seed, "m/44'/501'/3'/0'").privateKey)
    expect(Keys.keypair(3).secretKey).toEqual(expected.secretKey)
    expect(Keys.address(3)).toBe(expected.publicKey.toBase58())
  })

  test('behavior: every index is another key', () => {
    const addresses = [0, 1, 2, 9, 999].map(Keys.address)
    expect(new Set(addresses).size).toBe(addresses.length)
  })

  test.each([-1, 1.5, 2 ** 31, Number.NaN])('param: refuses index %s', (index) => {
    expect(() => Keys.keypair(index)).toThrow(/integer from 0 to 2\^31 - 1/)
  })
})
