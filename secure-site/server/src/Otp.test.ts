import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import * as Otp from './Otp.js'

const pepper = randomBytes(32)
const t0 = Date.UTC(2026, 10, 23, 12)
const challenge = (overrides: Partial<Otp.Challenge> = {}, code = '123456') => ({
  ...Otp.create({ id: 'c1', email: 'alice@example.test', deviceId: 'd1', code, pepper, now: t0 }),
  ...overrides,
})
const input = (overrides: Partial<Parameters<typeof Otp.verify>[1]> = {}) => ({ email: 'alice@example.test', deviceId: 'd1', code: '123456', pepper, now: t0 + 1_000, ...overrides })

describe('normalizeEmail', () => {
  test.each([
    ['alice@example.test', 'alice@example.test'],
    ['  Alice@Example.TEST ', 'alice@example.test'],
    ['a.b+tag@sub.example.io', 'a.b+tag@sub.example.io'],
  ])('behavior: %j is %j', (value, email) => {
    expect(Otp.normalizeEmail(value)).toBe(email)
  })
  test.each([['alice'], ['alice@'], ['@example.test'], ['alice@example'], ['a b@example.test'], ['a@b@example.test'], ['<a@example.test>'], [`${'a'.repeat(250)}@x.test`], [42], [null]])(
    'error: %j is not an email address (spec §5)',
    (value) => {
      expect(Otp.normalizeEmail(value)).toBeUndefined()
    },
  )
})

describe('isCode', () => {
  test.each([['123456', true], ['000000', true], ['12345', false], ['1234567', false], ['12a456', false], [' 123456', false], [123456, false]])('param: %j → %s', (value, ok) => {
    expect(Otp.isCode(value)).toBe(ok)
  })
})

describe('code', () => {
  test('behavior: 6 digits, leading zeros kept, spread over the whole range', () => {
    const codes = Array.from({ length: 2_000 }, Otp.code)
    for (const c of codes) expect(c).toMatch(/^\d{6}$/)
    expect(new Set(codes).size).toBeGreaterThan(1_990)
    expect(codes.some((c) => c.startsWith('0'))).toBe(true)
  })
})

describe('create', () => {
  test('behavior: stores a digest, never the code; 10 min lifetime; unused', () => {
    const c = challenge()
    expect(JSON.stringify(c)).not.toContain('123456')
    expect(c).toMatchObject({ attempts: 0, createdAt: t0, expiresAt: t0 + 600_000, usedAt: null })
    expect(c.digest).toMatch(/^[\da-f]{64}$/)
  })
  test('behavior: the digest depends on the pepper, the challenge and the email', () => {
    const base = challenge().digest
    expect(Otp.create({ id: 'c1', email: 'alice@example.test', deviceId: 'd1', code: '123456', pepper: randomBytes(32), now: t0 }).digest).not.toBe(base)
    expect(challenge({}, '123456').digest).toBe(base)
    expect(Otp.digest(pepper, { id: 'c2', email: 'alice@example.test' }, '123456')).not.toBe(base)
    expect(Otp.digest(pepper, { id: 'c1', email: 'bob@example.test' }, '123456')).not.toBe(base)
  })
})

describe('verify', () => {
  test('behavior: the right code, in time, from the same device', () => {
    expect(Otp.verify(challenge(), input())).toBe('ok')
  })
  test.each<[string, Partial<Otp.Challenge>, Partial<Parameters<typeof Otp.verify>[1]>, Otp.Outcome]>([
    ['a wrong code', {}, { code: '654321' }, 'wrong'],
    ['a code for another email', {}, { email: 'bob@example.test' }, 'wrong'],
    ['another device', {}, { deviceId: 'd2' }, 'otherDevice'],
    ['at exactly 10 min', {}, { now: t0 + 600_000 }, 'expired'],
    ['at 10 min + 1 s', {}, { now: t0 + 601_000 }, 'expired'],
    ['a used code', { usedAt: t0 + 500 }, {}, 'used'],
    ['the right code after 5 wrong attempts', { attempts: 5 }, {}, 'exhausted'],
  ])('error: %s is refused', (_, stored, given, outcome) => {
    expect(Otp.verify(challenge(stored), input(given))).toBe(outcome)
  })
  test('behavior: the 5th attempt may still be right', () => {
    expect(Otp.verify(challenge({ attempts: 4 }), input())).toBe('ok')
  })
  test('error: a code from another challenge does not open this one', () => {
    const other = Otp.create({ id: 'c2', email: 'alice@example.test', deviceId: 'd1', code: '111111', pepper, now: t0 })
    expect(Otp.verify(challenge(), input({ code: '111111' }))).toBe('wrong')
    expect(Otp.verify(other, input({ code: '123456' }))).toBe('wrong')
  })
})

describe('mayStart', () => {
  const sent = (at: number, overrides: Partial<Otp.Challenge> = {}) => challenge({ id: `c${at}`, createdAt: at, ...overrides })
  const ask = (recent: Otp.Challenge[], failures: Otp.Failure[] = [], now = t0, source = 'ip:198.51.100.7') =>
    Otp.mayStart({ email: 'alice@example.test', deviceId: 'd1', source, now, recent, failures })

  test('behavior: a first code may go', () => {
    expect(ask([])).toBeUndefined()
  })
  test('error: a resend within 30 s of the last, for the same email, is throttled with the seconds left (spec §5)', () => {
    expect(ask([sent(t0 - 10_000)])).toEqual({ reason: 'throttled', retryAfter: 20 })
    expect(ask([sent(t0 - 29_001)])).toEqual({ reason: 'throttled', retryAfter: 1 })
    expect(ask([sent(t0 - 30_000)])).toBeUndefined()
  })
  test('error: the same device asking for another email within 30 s is throttled too', () => {
    expect(ask([sent(t0 - 5_000, { email: 'bob@example.test' })])).toEqual({ reason: 'throttled', retryAfter: 25 })
  })
  test('behavior: another email on another device is not throttled by it', () => {
    expect(ask([sent(t0 - 5_000, { email: 'bob@example.test', deviceId: 'd2' })])).toBeUndefined()
  })
  test('error: a 6th code in an hour waits until the oldest is an hour old', () => {
    const five = [50, 40, 30, 20, 10].map((m) => sent(t0 - m * 60_000))
    expect(ask(five)).toEqual({ reason: 'hourly', retryAfter: 10 * 60 })
    expect(ask(five.slice(1))).toBeUndefined()
  })
  test('error: 20 failures in 24 h from this source lock the email for it until the 20th-newest is a day old', () => {
    const failures = Array.from({ length: 20 }, (_, i) => ({ at: t0 - (20 - i) * 3_600_000, source: 'ip:198.51.100.7' }))
    expect(ask([], failures)).toEqual({ reason: 'locked', retryAfter: 4 * 3_600 })
    expect(ask([], failures.slice(1))).toBeUndefined()
    expect(ask([], failures, t0 + 4 * 3_600_000)).toBeUndefined()
  })
  test('behavior: another source\'s 20 failures leave this source free to get a code', () => {
    const failures = Array.from({ length: 20 }, (_, i) => ({ at: t0 - i * 60_000, source: 'ip:203.0.113.9' }))
    expect(ask([], failures)).toBeUndefined()
    expect(ask([], failures, t0, 'ip:203.0.113.9')).toMatchObject({ reason: 'locked' })
  })
})

describe('lockout', () => {
  const here = 'ip:198.51.100.7'
  /** `count` failures from `sources` in turn, one a minute, the newest at t0 - 1 min. */
  const failures = (count: number, sources: string[]) => Array.from({ length: count }, (_, i) => ({ at: t0 - (count - i) * 60_000, source: sources[i % sources.length]! }))

  test('behavior: fewer than 20 failures from the source and 200 in all leave it open', () => {
    expect(Otp.lockout(failures(19, [here]), here, t0)).toBeUndefined()
    expect(Otp.lockout(failures(199, ['ip:a', 'ip:b', 'ip:c', 'ip:d', 'ip:e', 'ip:f', 'ip:g', 'ip:h', 'ip:i', 'ip:j', here]), here, t0)).toBeUndefined()
  })
  test('error: the 20th failure from the source locks it for 24 h from its 20th-newest', () => {
    expect(Otp.lockout(failures(20, [here]), here, t0)).toEqual({ reason: 'locked', retryAfter: 24 * 3_600 - 20 * 60 })
    expect(Otp.lockout(failures(25, [here]), here, t0)).toEqual({ reason: 'locked', retryAfter: 24 * 3_600 - 20 * 60 })
  })
  test('behavior: failures older than 24 h do not count', () => {
    expect(Otp.lockout(failures(20, [here]), here, t0 + 24 * 3_600_000 - 20 * 60_000)).toBeUndefined()
    expect(Otp.lockout(failures(20, [here]), here, t0 + 24 * 3_600_000 - 20 * 60_000 - 1)).toMatchObject({ reason: 'locked', retryAfter: 1 })
  })
  test('error: 200 failures from 10 sources lock the email everywhere, for a source that never failed too', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `ip:203.0.113.${i}`)
    const locked = { reason: 'locked', retryAfter: 24 * 3_600 - 200 * 60 }
    expect(Otp.lockedEverywhere(failures(200, ten), t0)).toEqual(locked)
    expect(Otp.lockout(failures(200, ten), here, t0)).toEqual(locked)
    expect(Otp.lockedEverywhere(failures(199, ten), t0)).toBeUndefined()
  })
  test('behavior: locked both ways, the longer wait is the answer', () => {
    const mine = failures(20, [here])
    const everyone = failures(200, ['ip:x']).map((f) => ({ ...f, at: f.at - 60 * 60_000 }))
    const both = [...everyone, ...mine].sort((a, b) => a.at - b.at)
    expect(Otp.lockout(both, here, t0)).toEqual({ reason: 'locked', retryAfter: 24 * 3_600 - 20 * 60 })
    // The 200th-newest of all is the 180th-newest of the others, 240 min ago.
    expect(Otp.lockout(both, 'ip:y', t0)).toEqual({ reason: 'locked', retryAfter: 24 * 3_600 - 240 * 60 })
  })
})
