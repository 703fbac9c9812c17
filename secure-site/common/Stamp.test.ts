import * as Ids from '@doorway/shared/Ids'
import { beforeAll, describe, expect, test } from 'vitest'
import * as Stamp from './Stamp.js'

const now = Date.UTC(2026, 10, 23, 12)
const deviceId = Ids.random()
let keys: CryptoKeyPair
let publicKey: string
beforeAll(async () => {
  keys = await Stamp.generateKey()
  publicKey = await Stamp.exportPublicKey(keys.publicKey)
})

const request = { method: 'POST', path: '/v1/otp/verify?x=1', body: '{"code":"123456"}' }
const verify = (header: string | undefined, overrides: Partial<Parameters<typeof Stamp.verify>[0]> = {}) =>
  Stamp.verify({
    header,
    request,
    publicKeyOf: async (id) => (id === deviceId ? publicKey : undefined),
    nonces: Stamp.memoryNonces(() => now),
    now,
    ...overrides,
  })

describe('generateKey', () => {
  test('behavior: the private key cannot be exported', async () => {
    await expect(crypto.subtle.exportKey('pkcs8', keys.privateKey)).rejects.toThrow()
    expect(publicKey).toMatch(/^[\w-]{87}$/)
  })
})

describe('canonical', () => {
  test('behavior: method, path with query, body hash, timestamp and nonce, one per line', async () => {
    expect(await Stamp.canonical({ method: 'post', path: '/a?b=1', body: '', ts: 1, nonce: 'n' })).toMatchInlineSnapshot(`
      "POST
      /a?b=1
      e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
      1
      n"
    `)
  })
})

describe('sign and verify', () => {
  test('behavior: a signed request verifies for its device', async () => {
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId, now })
    expect(header).toMatch(/^device=[\da-f]{32}, ts=\d{13}, nonce=[\da-f]{32}, sig=[\w-]{86}$/)
    expect(await verify(header)).toEqual({ ok: true, deviceId })
  })

  test('error: a replayed request is refused (the nonce is spent)', async () => {
    const nonces = Stamp.memoryNonces(() => now)
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId, now })
    expect(await verify(header, { nonces })).toEqual({ ok: true, deviceId })
    expect(await verify(header, { nonces })).toEqual({ ok: false, reason: 'replay' })
  })

  test.each([
    ['another method', { method: 'GET' }],
    ['another path', { path: '/v1/otp/verify?x=2' }],
    ['another body', { body: '{"code":"000000"}' }],
  ])('error: the header of one request does not sign %s', async (_, change) => {
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId, now })
    expect(await verify(header, { request: { ...request, ...change } })).toEqual({ ok: false, reason: 'signature' })
  })

  test('error: another device key cannot sign for this device', async () => {
    const other = await Stamp.generateKey()
    const header = await Stamp.sign(other.privateKey, { ...request, deviceId, now })
    expect(await verify(header)).toEqual({ ok: false, reason: 'signature' })
  })

  test('error: an unknown or revoked device is refused before anything else', async () => {
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId: Ids.random(), now })
    expect(await verify(header)).toEqual({ ok: false, reason: 'unknownDevice' })
  })

  test.each([
    ['61 s old', -61_000, 'skew'],
    ['61 s ahead', 61_000, 'skew'],
    ['60 s old', -60_000, undefined],
  ])('param: a timestamp %s', async (_, offset, reason) => {
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId, now: now + offset })
    expect(await verify(header)).toEqual(reason ? { ok: false, reason } : { ok: true, deviceId })
  })

  test('error: a forged signature does not spend the real nonce', async () => {
    const nonces = Stamp.memoryNonces(() => now)
    const header = await Stamp.sign(keys.privateKey, { ...request, deviceId, now })
    const forged = header.replace(/sig=([\w-])/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`)
    expect(await verify(forged, { nonces })).toEqual({ ok: false, reason: 'signature' })
    expect(await verify(header, { nonces })).toEqual({ ok: true, deviceId })
  })
})

describe('parse', () => {
  test.each([
    ['no header', undefined],
    ['empty', ''],
    ['a bearer token', 'Bearer abc'],
    ['a missing part', `device=${'a'.repeat(32)}, ts=1763899200000, nonce=${'b'.repeat(32)}`],
    ['an extra part', `device=${'a'.repeat(32)}, ts=1763899200000, nonce=${'b'.repeat(32)}, sig=${'c'.repeat(86)}, x=1`],
    ['a short device id', `device=abc, ts=1763899200000, nonce=${'b'.repeat(32)}, sig=${'c'.repeat(86)}`],
    ['a timestamp in seconds', `device=${'a'.repeat(32)}, ts=1763899200, nonce=${'b'.repeat(32)}, sig=${'c'.repeat(86)}`],
    ['a too long header', 'x'.repeat(600)],
  ])('error: %s is malformed', async (_, header) => {
    expect(Stamp.parse(header)).toBeUndefined()
    expect(await verify(header)).toEqual({ ok: false, reason: 'malformed' })
  })
})

describe('memoryNonces', () => {
  test('behavior: a nonce is claimed once per device, and forgotten after it expires', async () => {
    let clock = now
    const nonces = Stamp.memoryNonces(() => clock)
    expect(await nonces.claim('d1', 'n1', now + 1_000)).toBe(true)
    expect(await nonces.claim('d1', 'n1', now + 1_000)).toBe(false)
    expect(await nonces.claim('d2', 'n1', now + 1_000)).toBe(true)
    clock = now + 1_000
    expect(await nonces.claim('d1', 'n1', clock + 1_000)).toBe(true)
  })
})
