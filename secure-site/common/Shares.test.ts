import { describe, expect, test } from 'vitest'
import * as Shares from './Shares.js'

describe('entropy', () => {
  test('behavior: 16 random bytes each time', () => {
    expect(Shares.entropy()).toHaveLength(16)
    expect(Shares.entropy()).not.toEqual(Shares.entropy())
  })
})

describe('evmAccount', () => {
  test('behavior: BIP-39 then m/44\'/60\'/0\'/0/0 (the standard test vector: zero entropy is "abandon … about")', () => {
    // BIP-39 vector: 00…00 → "abandon abandon … about"; its first Ethereum account is well known.
    expect(Shares.evmAccount(new Uint8Array(16)).address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
  })
})

describe('splitTwice and combine', () => {
  test('behavior: either pair rebuilds the entropy, checked against the recorded address', async () => {
    const secret = Shares.entropy()
    const address = Shares.evmAccount(secret).address
    const s = await Shares.splitTwice(secret)
    expect(await Shares.combine(s.device, s.server, address)).toEqual(secret)
    expect(await Shares.combine(s.recovery1, s.recovery2, address)).toEqual(secret)
    // Shares are not the secret, and the two splits are independent.
    for (const share of Object.values(s)) expect(share.slice(0, 16)).not.toEqual(secret)
    expect(s.server).not.toEqual(s.recovery1)
  })

  test('error: one share of each split does not rebuild the wallet', async () => {
    const secret = Shares.entropy()
    const address = Shares.evmAccount(secret).address
    const s = await Shares.splitTwice(secret)
    // What the server's database holds (A and R1), even decrypted, is one share of each split.
    await expect(Shares.combine(s.server, s.recovery1, address)).rejects.toThrow('The shares do not rebuild this wallet: nothing is signed')
    await expect(Shares.combine(s.device, s.recovery2, address)).rejects.toThrow('The shares do not rebuild this wallet')
  })

  test('error: shares of two splits with the same x coordinate get the same refusal, not the library\'s', async () => {
    const secret = Shares.entropy()
    const address = Shares.evmAccount(secret).address
    const s = await Shares.splitTwice(secret)
    // The last byte is the share's x coordinate: make the two splits' shares collide on it.
    const recovery1 = s.recovery1.slice()
    recovery1[recovery1.length - 1] = s.server[s.server.length - 1]!
    await expect(Shares.combine(s.server, recovery1, address)).rejects.toThrow('The shares do not rebuild this wallet: nothing is signed')
  })

  test('error: a tampered share is refused by the address check (docs/embedded-wallet.md §2)', async () => {
    const secret = Shares.entropy()
    const address = Shares.evmAccount(secret).address
    const s = await Shares.splitTwice(secret)
    const tampered = s.server.slice()
    tampered[3]! ^= 0x5a
    await expect(Shares.combine(s.device, tampered, address)).rejects.toThrow('The shares do not rebuild this wallet')
  })
})
