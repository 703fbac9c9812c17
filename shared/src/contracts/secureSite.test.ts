import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'vitest'
import * as Contract from '../Contract.js'
import * as OpenApi from './OpenApi.js'
import * as SecureSite from './secureSite.js'

const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const check = (field: Contract.Field, value: unknown) => Contract.check({ field }, () => value)

describe('bytes', () => {
  const field = SecureSite.bytes('deviceShare', 17)

  test('behavior: base64url of exactly the length, as its encoder writes it, passes', () => {
    for (const bytes of [new Uint8Array(17), new Uint8Array(17).fill(255), crypto.getRandomValues(new Uint8Array(17))]) expect(check(field, encode(bytes))).toEqual({ values: { field: encode(bytes) } })
    expect(check(SecureSite.bytes('device', 65), encode(new Uint8Array(65).fill(4)))).toHaveProperty('values')
    expect(check(SecureSite.bytes('recovery2', 111), encode(new Uint8Array(111)))).toHaveProperty('values')
  })

  test.each([
    ['not a string', 17],
    ['characters outside base64url', `${'A'.repeat(22)}+`],
    ['padding', `${'A'.repeat(21)}==`],
    ['a length of 1 mod 4', 'A'.repeat(21)],
    ['too long for the bytes', 'A'.repeat(24)],
  ])('error: %s is "expected base64url bytes"', (_, value) => {
    expect(check(field, value)).toEqual({ invalid: 'Invalid deviceShare: expected base64url bytes' })
  })

  test.each([
    ['16 bytes', encode(new Uint8Array(16))],
    ['15 bytes', encode(new Uint8Array(15))],
    ['nothing', ''],
    // The same 17 bytes with the unused low bits of the last character set: not how they are written.
    ['a second text of the same bytes', `${encode(new Uint8Array(17)).slice(0, -1)}B`],
  ])('error: %s is "expected 17 bytes as base64url"', (_, value) => {
    expect(check(field, value)).toEqual({ invalid: 'Invalid deviceShare: expected 17 bytes as base64url' })
  })
})

describe('fields', () => {
  test.each([
    ['id', 'ab'.repeat(16), 'AB'.repeat(16), SecureSite.fields.id('challengeId'), 'Invalid challengeId: expected 32 lowercase hex digits'],
    ['email', '  Someone@Example.COM ', 'someone@example', SecureSite.fields.email, 'Invalid email'],
    ['code', '012345', '12345', SecureSite.fields.code, 'Invalid code: expected 6 digits'],
    ['host', 'https://dapp.example:8443', 'https://dapp.example/', SecureSite.fields.host, 'Invalid host: expected an http(s) origin'],
    ['host', 'http://127.0.0.1:5173', 'javascript:alert(1)', SecureSite.fields.host, 'Invalid host: expected an http(s) origin'],
    ['address', `0x${'aB'.repeat(20)}`, `0x${'a'.repeat(39)}`, SecureSite.fields.address, 'Invalid address: expected a 0x-prefixed 40-hex-digit address'],
  ])('param: %s takes %j and refuses %j', (_, good, bad, field, text) => {
    expect(check(field, good)).toHaveProperty('values')
    expect(check(field, bad)).toEqual({ invalid: text })
    expect(check(field, undefined)).toEqual({ invalid: text })
  })
})

describe('table', () => {
  test('behavior: a valid OpenAPI 3.1 document: every schema is describable', async () => {
    const document = OpenApi.document(SecureSite.table, { title: 'Doorway secure-site server', version: '1' })
    const result = await new Validator().validate(structuredClone(document))
    expect(result.errors).toBeUndefined()
    expect(Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))).toMatchInlineSnapshot(`
      [
        "GET /healthz",
        "POST /v1/devices",
        "GET /v1/devices",
        "POST /v1/email/start",
        "POST /v1/email/verify",
        "POST /v1/email/cancel",
        "POST /v1/recovery",
        "POST /v1/recovery/resend",
        "POST /v1/wallet",
        "POST /v1/devices/share",
        "POST /v1/social/start",
        "POST /v1/social/redeem",
        "POST /v1/social/cancel",
        "POST /v1/session",
        "POST /v1/session/end",
        "POST /v1/export/code",
        "POST /v1/export",
        "GET /v1/audit",
        "POST /v1/session/check",
        "POST /v1/devices/revoke/code",
        "POST /v1/devices/revoke",
      ]
    `)
  })

  test('behavior: the sizes are the custody scheme\'s: a 17-byte share, sealed in 111 bytes', () => {
    expect([SecureSite.shareBytes, SecureSite.pointBytes, SecureSite.sealedShareBytes]).toEqual([17, 65, 111])
  })
})

describe('answers', () => {
  const session = SecureSite.answers['POST /v1/session']
  const user = { id: 'ab'.repeat(16), email: 'ada@example.com' }
  const answer = (extra: Record<string, unknown> = {}) => ({ user: { ...user, ...extra }, address: `0x${'ab'.repeat(20)}`, deviceShare: encode(new Uint8Array(SecureSite.sealedShareBytes)) })

  test("behavior: POST /v1/session's user may carry a social sign-in's name and picture; an older server's answer is still valid", () => {
    expect(session(answer())).toBe(true)
    expect(session(answer({ username: 'Ada Lovelace' }))).toBe(true)
    expect(session(answer({ username: 'Ada Lovelace', avatar: 'https://lh3.example/a.png' }))).toBe(true)
  })

  test.each([
    ['an empty name', { username: '' }],
    ['a name over 100 characters', { username: 'a'.repeat(101) }],
    ['a null name (the redeem says null; the session leaves it out)', { username: null }],
    ['a picture that is no http(s) URL', { avatar: 'javascript:alert(1)' }],
    ['a picture over 500 characters', { avatar: `https://img.example/${'a'.repeat(481)}` }],
  ])("error: POST /v1/session's user with %s is refused", (_, extra) => {
    expect(session(answer(extra))).toBe(false)
  })
})

describe('social answers', () => {
  const flowId = 'ab'.repeat(16)
  const start = SecureSite.answers['POST /v1/social/start']
  const redeem = SecureSite.answers['POST /v1/social/redeem']

  test.each([
    ['this origin\'s /oauth/start', `https://secure.doorway.example/oauth/start?flow=${flowId}`, true],
    ["Farcaster's connect URI", 'https://farcaster.xyz/~/siwf?channelToken=abc', true],
    ["the devnet relay's connect URI", 'http://127.0.0.1:8800/client?channelToken=abc', true],
    ['a javascript: link', 'javascript:alert(1)', false],
    ['a link over 2000 characters', `https://farcaster.xyz/${'a'.repeat(2_000)}`, false],
  ])("param: POST /v1/social/start's url may be %s: %s", (_, url, valid) => {
    expect(start({ flowId, url, expiresAt: 1 })).toBe(valid)
  })

  test('behavior: POST /v1/social/redeem may answer needsEmail with the name and picture, or null for each', () => {
    expect(redeem({ state: 'needsEmail', username: 'alice', avatar: 'https://i.example/a.png' })).toBe(true)
    expect(redeem({ state: 'needsEmail', username: null, avatar: null })).toBe(true)
    expect(redeem({ state: 'needsEmail', username: '', avatar: null })).toBe(false)
    expect(redeem({ state: 'needsEmail' })).toBe(false)
  })
})
