import { Keypair } from '@solana/web3.js'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { describe, expect, test } from 'vitest'
import * as Solana from './Solana.js'

// BIP-39's "abandon … about": sixteen zero bytes of entropy. Phantom and Solflare show this address for it.
const abandon = () => new Uint8Array(16)
const abandonAddress = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'

describe('fromEntropy', () => {
  test("behavior: the \"abandon … about\" entropy at m/44'/501'/0'/0' is Phantom's address for it", () => {
    const key = Solana.fromEntropy(abandon())
    expect(key.address).toBe(abandonAddress)
    expect(base58.encode(key.publicKey)).toBe(abandonAddress)
    expect(Solana.addressPattern.test(key.address)).toBe(true)
  })

  test('behavior: other entropy is another key, and the same entropy the same key', () => {
    const entropy = Uint8Array.from({ length: 16 }, (_, i) => i + 1)
    expect(Solana.fromEntropy(entropy).address).not.toBe(abandonAddress)
    expect(Solana.fromEntropy(entropy).address).toBe(Solana.fromEntropy(entropy.slice()).address)
  })
})

describe('sign', () => {
  test('behavior: an ed25519 signature over exactly the bytes, that verifies with the address', () => {
    const key = Solana.fromEntropy(abandon())
    const message = new TextEncoder().encode('hello solana')
    const signature = Solana.sign(key, message)
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(key.address))).toBe(true)
    expect(ed25519.verify(signature, new TextEncoder().encode('hello solanb'), base58.decode(key.address))).toBe(false)
  })

  test('error: a forgotten key (the wallet locked) signs nothing', () => {
    const key = Solana.fromEntropy(abandon())
    Solana.forget(key)
    expect(key.privateKey.every((b) => b === 0)).toBe(true)
    expect(() => Solana.sign(key, new Uint8Array([1]))).toThrow(/locked/)
  })
})

describe('exportable', () => {
  test('behavior: base58 of private ‖ public, which web3.js takes as the same keypair', () => {
    const exported = Solana.exportable(abandon())
    expect(base58.decode(exported)).toHaveLength(64)
    const keypair = Keypair.fromSecretKey(base58.decode(exported))
    expect(keypair.publicKey.toBase58()).toBe(abandonAddress)
  })
})
