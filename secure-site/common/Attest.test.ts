import { beforeAll, describe, expect, test } from 'vitest'
import * as Attest from './Attest.js'
import * as Base64url from './Base64url.js'

const wallet: Attest.Statement = { kind: 'wallet', userId: 'user-1', email: 'ada@example.test', address: '0xAbCdEf0000000000000000000000000000000001' }
const reseal: Attest.Statement = { ...wallet, kind: 'reseal', device: 'd'.repeat(64), sealed: 'e'.repeat(64) }

let vault: CryptoKeyPair
let point: Uint8Array
beforeAll(async () => {
  vault = (await crypto.subtle.generateKey(Attest.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  point = new Uint8Array(await crypto.subtle.exportKey('raw', vault.publicKey))
})

describe('encode', () => {
  test('behavior: the canonical bytes are the domain, the kind and the fields in order, the address lowercased', () => {
    expect(new TextDecoder().decode(Attest.encode(wallet))).toMatchInlineSnapshot(`
      "doorway/vault/v1
      wallet
      user-1
      ada@example.test
      0xabcdef0000000000000000000000000000000001"
    `)
    expect(new TextDecoder().decode(Attest.encode(reseal))).toBe(
      ['doorway/vault/v1', 'reseal', 'user-1', 'ada@example.test', '0xabcdef0000000000000000000000000000000001', 'd'.repeat(64), 'e'.repeat(64)].join('\n'),
    )
  })

  test.each(['userId', 'email', 'address', 'device', 'sealed'] as const)('error: a line break in %s throws', (field) => {
    expect(() => Attest.encode({ ...reseal, [field]: 'a\nb' } as Attest.Statement)).toThrow('line break')
  })

  test('error: an unknown kind or a field that is not a string throws', () => {
    expect(() => Attest.encode({ ...wallet, kind: 'other' } as unknown as Attest.Statement)).toThrow('Unknown statement kind')
    expect(() => Attest.encode({ ...wallet, email: undefined } as unknown as Attest.Statement)).toThrow()
  })
})

describe('sign and verify', () => {
  test('behavior: a signature verifies with the public point, for both kinds; it is 86 base64url chars', async () => {
    for (const statement of [wallet, reseal]) {
      const signature = await Attest.sign(vault.privateKey, statement)
      expect(signature).toMatch(/^[\w-]{86}$/)
      expect(await Attest.verify(point, statement, signature)).toBe(true)
    }
  })

  test('behavior: the address is compared without case, as the wallet address is', async () => {
    const signature = await Attest.sign(vault.privateKey, wallet)
    expect(await Attest.verify(point, { ...wallet, address: wallet.address.toLowerCase() }, signature)).toBe(true)
  })

  test.each([
    ['userId', { userId: 'user-2' }],
    ['email', { email: 'eve@example.test' }],
    ['address', { address: '0xabcdef0000000000000000000000000000000002' }],
    ['device', { device: 'f'.repeat(64) }],
    ['sealed', { sealed: 'f'.repeat(64) }],
  ])('error: another %s does not verify', async (_, change) => {
    const signature = await Attest.sign(vault.privateKey, reseal)
    expect(await Attest.verify(point, { ...reseal, ...change } as Attest.Statement, signature)).toBe(false)
  })

  test('error: a wallet statement does not verify as a re-seal, nor with another key', async () => {
    const signature = await Attest.sign(vault.privateKey, wallet)
    expect(await Attest.verify(point, reseal, signature)).toBe(false)
    const other = (await crypto.subtle.generateKey(Attest.algorithm, true, ['sign', 'verify'])) as CryptoKeyPair
    const otherPoint = new Uint8Array(await crypto.subtle.exportKey('raw', other.publicKey))
    expect(await Attest.verify(otherPoint, wallet, signature)).toBe(false)
  })

  test.each([
    ['a short signature', (s: string) => s.slice(0, 85)],
    ['a long signature', (s: string) => `${s}A`],
    ['text that is not base64url', (s: string) => `${s.slice(0, 85)}+`],
    ['zeros', () => Base64url.encode(new Uint8Array(64))],
    ['no string', () => undefined as unknown as string],
  ])('error: %s is false, never a throw', async (_, change) => {
    const signature = await Attest.sign(vault.privateKey, wallet)
    expect(await Attest.verify(point, wallet, change(signature))).toBe(false)
  })

  test.each([
    ['an empty key', new Uint8Array(0)],
    ['a point off the curve', Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 1))],
    ['a compressed-length key', new Uint8Array(33).fill(2)],
  ])('error: %s is false, never a throw', async (_, key) => {
    const signature = await Attest.sign(vault.privateKey, wallet)
    expect(await Attest.verify(key, wallet, signature)).toBe(false)
  })

  test('error: a statement with a line break is false, never a throw', async () => {
    const signature = await Attest.sign(vault.privateKey, wallet)
    expect(await Attest.verify(point, { ...wallet, email: 'a\nb' }, signature)).toBe(false)
  })
})

describe('fingerprint', () => {
  test('behavior: the SHA-256 of the bytes in lowercase hex', async () => {
    expect(await Attest.fingerprint(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
})
