/**
 * What the routes rely on the store for when requests race (several instances on one PostgreSQL, or
 * interleaved requests on PGlite): one chain, one user per email, one code per throttle window, five
 * attempts per code, a cancelled code spent, each rate-bucket token taken once, one use per nonce. The
 * same suite on both stores.
 */
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Audit from '../Audit.js'
import * as Otp from '../Otp.js'
import * as Flow from '../social/Flow.js'
import { backends, type Place } from './testing.js'

const now = Date.UTC(2026, 10, 23, 12)
const pepper = new Uint8Array(32).fill(1)
/** A client network, as limits.ts keys one. */
const source = 'ip:192.0.2.1'

describe.each(backends)('%s', (_, create) => {
  let place: Place
  beforeAll(async () => {
    place = await create()
  }, 120_000)
  afterAll(() => place?.dispose(), 60_000)

  const device = async () => {
    const id = Ids.random()
    await place.storage.devices.enrol({ id, publicKey: `key-${id}`, sealKey: `seal-${id}`, now })
    return id
  }

  describe('users', () => {
    test('behavior: racing first sign-ins of one email get one user', async () => {
      const email = `${Ids.random()}@example.test`
      const results = await Promise.all(Array.from({ length: 8 }, () => place.storage.users.ensure({ id: Ids.random(), email, now })))
      expect(new Set(results.map((r) => r.user.id)).size).toBe(1)
      expect(results.filter((r) => r.created)).toHaveLength(1)
      expect(await place.raw('SELECT id FROM users WHERE id = ANY($1)', [results.map((r) => r.user.id).concat(Ids.random())])).toHaveLength(1)
    })
  })

  describe('devices', () => {
    test('behavior: enrol answers created, then same for the same key, taken for another', async () => {
      const id = Ids.random()
      expect(await place.storage.devices.enrol({ id, publicKey: 'k1', sealKey: 's1', now })).toBe('created')
      expect(await place.storage.devices.enrol({ id, publicKey: 'k1', sealKey: 's1', now })).toBe('same')
      expect(await place.storage.devices.enrol({ id, publicKey: 'k2', sealKey: 's1', now })).toBe('taken')
      // The seal key is half of the device: the same request key with another seal key is another device.
      expect(await place.storage.devices.enrol({ id, publicKey: 'k1', sealKey: 's2', now })).toBe('taken')
      expect(await place.storage.devices.get(id)).toEqual({ id, publicKey: 'k1', sealKey: 's1', userId: null, createdAt: now, lastSeen: now, sessionStartedAt: null, freshAuthAt: null, revoked: false, socialUsername: null, socialAvatar: null })
    })

    test("behavior: a social sign-in's profile lives as long as its session: a code within it keeps it; a code's sign-in, the end and the removal clear it", async () => {
      const id = await device()
      const { user } = await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })
      const profile = { username: 'Ada Lovelace', avatar: 'https://example.test/ada.png' }
      const shown = async () => {
        const { socialUsername, socialAvatar } = (await place.storage.devices.get(id))!
        return { username: socialUsername, avatar: socialAvatar }
      }
      const none = { username: null, avatar: null }
      await place.storage.devices.startSession(id, user.id, now, profile)
      expect(await place.storage.devices.get(id)).toMatchObject({ userId: user.id, sessionStartedAt: now, socialUsername: profile.username, socialAvatar: profile.avatar })
      // A code verified within the session (an export, a revocation) or the recovery that completes the sign-in.
      await place.storage.devices.startSession(id, user.id, now + 1)
      expect(await place.storage.devices.get(id)).toMatchObject({ sessionStartedAt: now + 1, socialUsername: profile.username, socialAvatar: profile.avatar })
      await place.storage.devices.endSession(id)
      expect(await shown()).toEqual(none)

      await place.storage.devices.startSession(id, user.id, now + 2, { username: null, avatar: profile.avatar })
      expect(await shown()).toEqual({ username: null, avatar: profile.avatar })
      await place.storage.devices.startSession(id, user.id, now + 3, null)
      expect(await place.storage.devices.get(id)).toMatchObject({ sessionStartedAt: now + 3, socialUsername: null, socialAvatar: null })

      await place.storage.devices.startSession(id, user.id, now + 4, profile)
      expect(await place.storage.devices.revoke({ id, userId: user.id, now: now + 5 })).toBe(true)
      expect(await shown()).toEqual(none)
    })
  })

  describe('challenges', () => {
    test('behavior: racing starts for one email store one code', async () => {
      const email = `${Ids.random()}@example.test`
      const devices = await Promise.all(Array.from({ length: 6 }, device))
      const refusals = await Promise.all(
        devices.map((deviceId) => {
          const challenge = { ...Otp.create({ id: Ids.random(), email, deviceId, code: '123456', pepper, now }), host: 'http://a.test', attested: true }
          return place.storage.challenges.start(challenge, (recent, failures) => Otp.mayStart({ email, deviceId, source, now, recent, failures }))
        }),
      )
      expect(refusals.filter((r) => r === undefined)).toHaveLength(1)
      expect(await place.raw('SELECT id FROM otp_challenges WHERE email = $1', [email])).toHaveLength(1)
    })

    test('behavior: racing wrong guesses spend exactly five attempts and record five failures', async () => {
      const email = `${Ids.random()}@example.test`
      const deviceId = await device()
      const challenge = { ...Otp.create({ id: Ids.random(), email, deviceId, code: '123456', pepper, now }), host: 'http://a.test', attested: true }
      await place.storage.challenges.start(challenge, () => undefined)
      const guesses = await Promise.all(
        Array.from({ length: 10 }, () => place.storage.challenges.attempt(challenge.id, now, (c) => Otp.verify(c, { email, deviceId, code: '000000', pepper, now }), source)),
      )
      expect(guesses.map((g) => g!.outcome).sort()).toEqual([...Array(5).fill('exhausted'), ...Array(5).fill('wrong')])
      // Each failure is kept with its source and device (limits.ts): the lockout counts them per source.
      expect(await place.raw('SELECT at::float8 AS at, source, device_id FROM otp_failures WHERE email = $1', [email])).toEqual(Array(5).fill({ at: now, source, device_id: deviceId }))
      const after = await place.storage.challenges.attempt(challenge.id, now + 1, (_, failures) => (failures.length === 5 && failures.every((f) => f.source === source) ? 'seen' : 'unseen'))
      expect(after!.outcome).toBe('seen')
      expect(await place.storage.challenges.attempt(Ids.random(), now, () => 'ok')).toBeUndefined()
    })

    test('behavior: a withdrawn challenge is gone and throttles nothing', async () => {
      const email = `${Ids.random()}@example.test`
      const deviceId = await device()
      const start = async () => {
        const challenge = { ...Otp.create({ id: Ids.random(), email, deviceId, code: '123456', pepper, now }), host: 'http://a.test', attested: true }
        const refusal = await place.storage.challenges.start(challenge, (recent, failures) => Otp.mayStart({ email, deviceId, source, now, recent, failures }))
        return { id: challenge.id, refusal }
      }
      const first = await start()
      expect(first.refusal).toBeUndefined()
      await place.storage.challenges.withdraw(first.id)
      expect(await place.storage.challenges.attempt(first.id, now, () => 'ok')).toBeUndefined()
      expect((await start()).refusal).toBeUndefined()
    })
    test('behavior: a cancelled challenge is spent for its own device only, keeps its host and attestation, and still throttles', async () => {
      const email = `${Ids.random()}@example.test`
      const [deviceId, other] = [await device(), await device()]
      const challenge = { ...Otp.create({ id: Ids.random(), email, deviceId, code: '123456', pepper, now }), host: 'http://a.test', attested: false }
      expect(await place.storage.challenges.start(challenge, () => undefined)).toBeUndefined()
      const decide = (c: Parameters<typeof Otp.verify>[0]) => Otp.verify(c, { email, deviceId, code: '123456', pepper, now: now + 1 })
      expect(await place.storage.challenges.cancel(challenge.id, other, now)).toBeUndefined()
      expect(await place.storage.challenges.attempt(challenge.id, now + 1, (c) => (c.usedAt === null ? 'open' : 'spent'))).toMatchObject({ outcome: 'open', challenge: { host: 'http://a.test', attested: false } })
      expect(await place.storage.challenges.cancel(challenge.id, deviceId, now)).toBe(email)
      expect(await place.storage.challenges.cancel(challenge.id, deviceId, now)).toBeUndefined()
      expect(await place.storage.challenges.attempt(challenge.id, now + 1, decide)).toMatchObject({ outcome: 'used', challenge: { usedAt: now } })
      const again = { ...Otp.create({ id: Ids.random(), email, deviceId, code: '654321', pepper, now: now + 1 }), host: 'http://a.test', attested: true }
      expect(await place.storage.challenges.start(again, (recent, failures) => Otp.mayStart({ email, deviceId, source, now: now + 1, recent, failures }))).toMatchObject({ reason: 'throttled' })
    })
  })

  describe('buckets', () => {
    /** One token out of a bucket of 5, as limits.ts spends one; refused when it is empty. */
    const take = (bucket: { tokens: number; updatedAt: number } | undefined) => {
      const tokens = bucket?.tokens ?? 5
      return tokens >= 1 ? { bucket: { tokens: tokens - 1, updatedAt: now }, result: true } : { bucket: { tokens, updatedAt: now }, result: false }
    }

    test('behavior: racing spends of one key, from two instances, take each token once; other keys are apart', async () => {
      const key = `sends ip:${Ids.random()}`
      const other = await place.another()
      const spent = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? other : place.storage).buckets.spend(key, take)))
      expect(spent.filter(Boolean)).toHaveLength(5)
      expect(await place.storage.buckets.spend(`sends ip:${Ids.random()}`, take)).toBe(true)
      await other.close()
    })

    test('behavior: prune drops the buckets last spent at or before the time, and only those', async () => {
      const [old, fresh] = [`verifies ip:${Ids.random()}`, `verifies ip:${Ids.random()}`]
      await place.storage.buckets.spend(old, () => ({ bucket: { tokens: 0, updatedAt: now - 1 }, result: undefined }))
      await place.storage.buckets.spend(fresh, () => ({ bucket: { tokens: 0, updatedAt: now }, result: undefined }))
      await place.storage.buckets.prune(now - 1)
      expect(await place.storage.buckets.spend(old, (bucket) => ({ bucket: { tokens: 0, updatedAt: now }, result: bucket }))).toBeUndefined()
      expect(await place.storage.buckets.spend(fresh, (bucket) => ({ bucket: { tokens: 0, updatedAt: now }, result: bucket }))).toEqual({ tokens: 0, updatedAt: now })
    })
  })

  describe('social', () => {
    const profile = { subject: 'sub-1', email: 'a@example.test', emailVerified: true, username: 'A', avatar: 'https://example.test/a.png' }
    const started = async (deviceId?: string) => {
      const flow = Flow.create({ id: Ids.random(), deviceId: deviceId ?? (await device()), provider: 'google', host: 'http://a.test', attested: true, now })
      await place.storage.social.start(flow)
      return flow
    }

    test('behavior: a flow reads back as stored, by id and by state; a new start cancels the device\'s live flows only', async () => {
      const deviceId = await device()
      const first = await started(deviceId)
      expect(await place.storage.social.get(first.id)).toEqual(first)
      expect(await place.storage.social.byState(first.state)).toEqual(first)
      const redeemed = await started(deviceId)
      expect(await place.storage.social.get(first.id)).toMatchObject({ status: 'cancelled', finishedAt: now })
      expect(await place.storage.social.authorize(redeemed.id, now)).toBe(true)
      expect(await place.storage.social.claim(redeemed.state, now)).toMatchObject({ id: redeemed.id, status: 'verifying' })
      expect(await place.storage.social.finish(redeemed.id, { profile }, now)).toBe(true)
      const { user } = await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })
      expect(await place.storage.social.redeem(redeemed.id, user.id, now)).toBe(true)
      const other = await started()
      const next = Flow.create({ id: Ids.random(), deviceId, provider: 'github', host: 'http://a.test', attested: false, now })
      expect(await place.storage.social.start(next)).toEqual([])
      expect(await place.storage.social.get(redeemed.id)).toMatchObject({ status: 'redeemed', userId: user.id, profile, codeVerifier: null })
      expect(await place.storage.social.get(other.id)).toMatchObject({ status: 'started' })
      expect(await place.storage.social.get(Ids.random())).toBeUndefined()
    })

    test('behavior: each step moves only from its own state, and not once the flow expired', async () => {
      const flow = await started()
      const expiry = flow.expiresAt
      expect(await place.storage.social.claim(flow.state, now)).toBeUndefined()
      expect(await place.storage.social.authorize(flow.id, expiry)).toBe(false)
      expect(await place.storage.social.authorize(flow.id, now)).toBe(true)
      expect(await place.storage.social.authorize(flow.id, now)).toBe(false)
      expect(await place.storage.social.claim(flow.state, expiry)).toBeUndefined()
      expect(await place.storage.social.finish(flow.id, { reason: 'invalid' }, now)).toBe(false)
      expect(await place.storage.social.claim(flow.state, now)).toBeDefined()
      expect(await place.storage.social.claim(flow.state, now)).toBeUndefined()
      expect(await place.storage.social.redeem(flow.id, 'nobody', now)).toBe(false)
      expect(await place.storage.social.finish(flow.id, { profile }, now)).toBe(true)
      expect(await place.storage.social.finish(flow.id, { reason: 'invalid' }, now)).toBe(false)
      expect(await place.storage.social.refuse(flow.id, 'unverifiedEmail', now)).toBe(true)
      expect(await place.storage.social.get(flow.id)).toMatchObject({ status: 'failed', reason: 'unverifiedEmail', profile })
      expect(await place.storage.social.refuse(flow.id, 'unverifiedEmail', now)).toBe(false)
    })

    test('behavior: racing callbacks with one state: exactly one takes the flow', async () => {
      const flow = await started()
      await place.storage.social.authorize(flow.id, now)
      const other = await place.another()
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : place.storage).social.claim(flow.state, now)))
      expect(claims.filter(Boolean)).toHaveLength(1)
      await other.close()
    })

    test('behavior: cancel ends the device\'s own flow until it is redeemed; a done flow past its expiry is not redeemed', async () => {
      const flow = await started()
      expect(await place.storage.social.cancel(flow.id, await device(), now)).toBe(false)
      expect(await place.storage.social.cancel(flow.id, flow.deviceId, now)).toBe(true)
      expect(await place.storage.social.cancel(flow.id, flow.deviceId, now)).toBe(false)
      expect(await place.storage.social.authorize(flow.id, now)).toBe(false)
      const late = await started()
      await place.storage.social.authorize(late.id, now)
      await place.storage.social.claim(late.state, now)
      await place.storage.social.finish(late.id, { profile }, now)
      const { user } = await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })
      expect(await place.storage.social.redeem(late.id, user.id, late.expiresAt)).toBe(false)
      expect(await place.storage.social.redeem(late.id, user.id, now)).toBe(true)
      expect(await place.storage.social.cancel(late.id, late.deviceId, now)).toBe(false)
    })

    test('behavior: prune drops the flows expired at or before the time, and only those', async () => {
      const [old, fresh] = [await started(), await started()]
      await place.raw('UPDATE social_flows SET expires_at = $2 WHERE id = $1', [old.id, now - 1])
      await place.storage.social.prune(now - 1)
      expect(await place.storage.social.get(old.id)).toBeUndefined()
      expect(await place.storage.social.get(fresh.id)).toBeDefined()
    })
  })

  describe('identities', () => {
    const user = async () => (await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })).user.id

    test('behavior: an account links to one user, once; the email identity is untouched', async () => {
      const [u1, u2, subject] = [await user(), await user(), Ids.random()]
      expect(await place.storage.identities.userOf('github', subject)).toBeUndefined()
      const links = await Promise.all([u1, u2, u1].map((userId) => place.storage.identities.link({ provider: 'github', subject, userId, now })))
      expect(links.filter(Boolean)).toHaveLength(1)
      const owner = await place.storage.identities.userOf('github', subject)
      expect([u1, u2]).toContain(owner)
      expect(await place.storage.identities.userOf('google', subject)).toBeUndefined()
      expect((await place.storage.users.get(owner!))?.email).toMatch(/@example\.test$/)
    })

    test('behavior: pending links become identities for their device and user only, if asked after `since`; all of them are dropped', async () => {
      const [owner, other, deviceId, otherDevice] = [await user(), await user(), await device(), await device()]
      const [fresh, old, elsewhere, someoneElse] = [Ids.random(), Ids.random(), Ids.random(), Ids.random()]
      await place.storage.identities.requestLink({ provider: 'google', subject: fresh, userId: owner, deviceId, now })
      await place.storage.identities.requestLink({ provider: 'google', subject: fresh, userId: owner, deviceId, now })
      await place.storage.identities.requestLink({ provider: 'github', subject: old, userId: owner, deviceId, now: now - 10 })
      await place.storage.identities.requestLink({ provider: 'google', subject: elsewhere, userId: owner, deviceId: otherDevice, now })
      await place.storage.identities.requestLink({ provider: 'x', subject: someoneElse, userId: other, deviceId, now })
      expect(await place.storage.identities.pending(deviceId)).toHaveLength(3)
      expect(await place.storage.identities.userOf('google', fresh)).toBeUndefined()

      expect(await place.storage.identities.confirmLinks({ deviceId, userId: owner, since: now - 5, now })).toEqual([{ provider: 'google', subject: fresh }])
      expect(await place.storage.identities.userOf('google', fresh)).toBe(owner)
      expect(await place.storage.identities.userOf('github', old)).toBeUndefined()
      expect(await place.storage.identities.userOf('google', elsewhere)).toBeUndefined()
      expect(await place.storage.identities.userOf('x', someoneElse)).toBeUndefined()
      expect(await place.storage.identities.pending(deviceId)).toEqual([{ provider: 'x', subject: someoneElse, userId: other, deviceId }])
      expect(await place.storage.identities.pending(otherDevice)).toHaveLength(1)
      expect(await place.storage.identities.confirmLinks({ deviceId, userId: owner, since: now - 5, now })).toEqual([])
    })
  })

  describe('nonces', () => {
    test('behavior: a nonce is claimed once per device; prune drops only expired ones', async () => {
      const [a, b, nonce] = [Ids.random(), Ids.random(), Ids.random()]
      expect(await place.storage.nonces.claim(a, nonce, now + 1_000)).toBe(true)
      expect(await place.storage.nonces.claim(a, nonce, now + 1_000)).toBe(false)
      expect(await place.storage.nonces.claim(b, nonce, now + 5_000)).toBe(true)
      await place.storage.nonces.prune(now + 1_000)
      expect(await place.raw('SELECT device_id FROM nonces WHERE nonce = $1', [nonce])).toEqual([{ device_id: b }])
    })
  })

  describe('audit', () => {
    test('behavior: racing appends make one unbroken chain per user', async () => {
      const [u1, u2] = await Promise.all([1, 2].map(async () => (await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })).user.id))
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => place.storage.audit.append(i % 2 ? u1! : u2!, { at: now + i, kind: Audit.kinds.shareReleased, detail: { i } })),
      )
      for (const userId of [u1!, u2!]) {
        const entries = await place.storage.audit.list(userId)
        expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
        expect(Audit.verifyChain(entries)).toEqual({ ok: true })
      }
    })
  })

  describe('schema', () => {
    test('behavior: a second instance opening the same database keeps its rows', async () => {
      const { user } = await place.storage.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })
      const [a, b] = await Promise.all([place.another(), place.another()])
      expect(await a.users.get(user.id)).toEqual(user)
      await Promise.all([a.close(), b.close()])
    })
  })
})
