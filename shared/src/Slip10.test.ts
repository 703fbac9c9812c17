import { pbkdf2 } from '@noble/hashes/pbkdf2'
import { sha512 } from '@noble/hashes/sha2'
import { describe, expect, test } from 'vitest'
import * as Slip10 from './Slip10.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'))

// BIP-39's seed (no passphrase), computed here so shared needs no BIP-39 package
const bip39Seed = (mnemonic: string) => pbkdf2(sha512, mnemonic.normalize('NFKD'), 'mnemonic', { c: 2048, dkLen: 64 })

describe('derive', () => {
  // SLIP-0010, "Test vector 1 for ed25519"
  const seed1 = fromHex('000102030405060708090a0b0c0d0e0f')
  test.each([
    ['m', '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb', '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7'],
    ["m/0'", '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69', '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3'],
    ["m/0'/1'", 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14', 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2'],
    ["m/0'/1'/2'", '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c', '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9'],
    ["m/0'/1'/2'/2'", '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc', '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662'],
    ["m/0'/1'/2'/2'/1000000000'", '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230', '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793'],
  ])('behavior: SLIP-0010 ed25519 vector 1 at %s', (path, chainCode, privateKey) => {
    const key = Slip10.derive(seed1, path)
    expect({ chainCode: hex(key.chainCode), privateKey: hex(key.privateKey) }).toEqual({ chainCode, privateKey })
  })

  // SLIP-0010, "Test vector 2 for ed25519": a 64-byte seed, as BIP-39 gives
  const seed2 = fromHex('fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542')
  test.each([
    ['m', 'ef70a74db9c3a5af931b5fe73ed8e1a53464133654fd55e7a66f8570b8e33c3b', '171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012'],
    ["m/0'", '0b78a3226f915c082bf118f83618a618ab6dec793752624cbeb622acb562862d', '1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635'],
  ])('behavior: SLIP-0010 ed25519 vector 2 at %s', (path, chainCode, privateKey) => {
    const key = Slip10.derive(seed2, path)
    expect({ chainCode: hex(key.chainCode), privateKey: hex(key.privateKey) }).toEqual({ chainCode, privateKey })
  })

  test('behavior: the abandon…about mnemonic at the Solana path gives the key of HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk', () => {
    // The address itself is checked with web3.js in devnet/src/solana/keys.test.ts.
    const seed = bip39Seed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
    expect(hex(Slip10.derive(seed, "m/44'/501'/0'/0'").privateKey)).toBe('37df573b3ac4ad5b522e064e25b63ea16bcbe79d449e81a0268d1047948bb445')
  })

  test("param: h and H mean '", () => {
    expect(Slip10.derive(seed1, 'm/0h/1H').privateKey).toEqual(Slip10.derive(seed1, "m/0'/1'").privateKey)
  })

  test('behavior: keys are fresh copies, 32 bytes each', () => {
    const key = Slip10.derive(seed1, "m/0'")
    expect([key.privateKey.length, key.chainCode.length, key.privateKey.buffer === key.chainCode.buffer]).toEqual([32, 32, false])
  })

  test.each([
    ['an unhardened segment', "m/44'/501'/0'/0", /hardened segments only/],
    ['an unhardened first segment', 'm/0', /hardened segments only/],
    ['no leading m', "44'/501'", /starts with "m"/],
    ['an empty path', '', /starts with "m"/],
    ['an empty segment', "m//0'", /not a path segment/],
    ['a trailing slash', "m/0'/", /not a path segment/],
    ['a name', "m/x'", /not a path segment/],
    ['a negative index', "m/-1'", /not a path segment/],
    ['an index of 2^31', "m/2147483648'", /largest index/],
    ['spaces', "m/ 0'", /not a path segment/],
  ])('error: rejects %s', (_, path, message) => {
    expect(() => Slip10.derive(seed1, path)).toThrow(message)
  })

  test.each([15, 65])('error: rejects a seed of %i bytes', (length) => {
    expect(() => Slip10.derive(new Uint8Array(length), 'm')).toThrow(/16 to 64 bytes/)
  })
})
