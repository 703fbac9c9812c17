/**
 * What the vault relies on its store for when requests race (several vault instances on one PostgreSQL,
 * or interleaved requests on PGlite): one wallet per user and per email, one live approval per device,
 * one decision per approval, one use per ticket, one unbroken log per user. The same suite on both.
 */
import * as Ids from '@doorway/shared/Ids'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Audit from '../Audit.js'
import * as Sql from '../storage/sql.js'
import type * as Store from './store.js'
import { backends, type Place } from './testing.js'

const now = Date.UTC(2026, 10, 27, 8, 40)
const hour = 3_600_000
const limit = { max: 5, windowMs: hour }

describe.each(backends)('%s', (_, create) => {
  let place: Place
  beforeAll(async () => {
    place = await create()
  }, 120_000)
  afterAll(() => place?.dispose(), 60_000)

  const fp = (c: string) => c.repeat(64)
  const wallet = (over: Partial<Store.Wallet> = {}): Store.Wallet => {
    const userId = Ids.random()
    return { userId, email: `${userId}@example.test`, address: `0x${'a'.repeat(40)}`, sealedFp: fp('5'), attestation: 'sig', createdAt: now, ...over }
  }
  const registered = async () => {
    const w = wallet()
    await place.store.wallets.register(w)
    return w
  }
  const approval = (userId: string, over: Partial<Store.Approval> = {}) => ({
    id: Ids.random(),
    tokenHash: Ids.random() + Ids.random(),
    userId,
    deviceFp: fp('d'),
    origin: 'https://dapp.test',
    attested: true,
    browser: 'Chrome 131 on Linux',
    createdAt: now,
    expiresAt: now + 15 * 60_000,
    state: 'pending' as const,
    decidedAt: null,
    ...over,
  })

  describe('migrations', () => {
    test('behavior: the vault keeps its own tables and migration scope beside the server\'s schema on one database', async () => {
      const pool = place.pool()
      const server = await Sql.create(pool.client, pool.close)
      expect((await server.users.ensure({ id: Ids.random(), email: `${Ids.random()}@example.test`, now })).created).toBe(true)
      const scopes = await place.raw<{ scope: string; name: string }>(`SELECT scope, name FROM doorway.migrations ORDER BY scope, name`)
      expect(scopes.filter((s) => s.scope === 'vault')).toEqual([
        { scope: 'vault', name: '1-schema' },
        { scope: 'vault', name: '2-audit-heads' },
      ])
      expect(scopes.filter((s) => s.scope === 'secure').length).toBeGreaterThan(0)
      const tables = await place.raw<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'vault%' ORDER BY table_name`)
      expect(tables.map((t) => t.table_name)).toEqual(['vault_approvals', 'vault_audit_heads', 'vault_devices', 'vault_log', 'vault_spent_tickets', 'vault_wallets'])
      // A second store over the database (a restart) applies nothing again and works.
      const again = await place.another()
      expect(await again.wallets.get('nobody')).toBeUndefined()
      expect(await place.raw(`SELECT name FROM doorway.migrations WHERE scope = 'vault'`)).toHaveLength(2)
    })
  })

  describe('wallets', () => {
    test('behavior: registering the same values again is the same wallet; racing ones make one', async () => {
      const w = wallet()
      const results = await Promise.all(Array.from({ length: 6 }, () => place.store.wallets.register(w)))
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1)
      expect(results.filter((r) => r.outcome === 'same')).toHaveLength(5)
      expect(await place.store.wallets.get(w.userId)).toEqual(w)
      expect((await place.store.log.list(w.userId)).map((e) => e.kind)).toEqual(['wallet.registered'])
    })

    test.each([
      ['another address', { address: `0x${'b'.repeat(40)}` }],
      ['another share', { sealedFp: fp('6') }],
      ['another email', { email: 'other@example.test' }],
    ])('error: the same user with %s is a conflict', async (_, change) => {
      const w = await registered()
      expect(await place.store.wallets.register({ ...w, ...change })).toEqual({ outcome: 'conflict' })
      expect(await place.store.wallets.get(w.userId)).toEqual(w)
    })

    test('error: an email registered to another user is a conflict', async () => {
      const w = await registered()
      expect(await place.store.wallets.register(wallet({ email: w.email }))).toEqual({ outcome: 'conflict' })
    })
  })

  describe('approvals', () => {
    test('behavior: a new request supersedes the pending one of the same device only', async () => {
      const w = await registered()
      const first = approval(w.userId)
      const otherDevice = approval(w.userId, { deviceFp: fp('e') })
      await place.store.approvals.request(first, limit)
      await place.store.approvals.request(otherDevice, limit)
      const second = approval(w.userId, { createdAt: now + 1 })
      expect(await place.store.approvals.request(second, limit)).toEqual({ throttled: false })
      expect(await place.store.approvals.byTokenHash(first.tokenHash)).toMatchObject({ state: 'superseded', decidedAt: now + 1 })
      expect(await place.store.approvals.byTokenHash(otherDevice.tokenHash)).toMatchObject({ state: 'pending' })
      const { tokenHash: _t, ...stored } = second
      expect(await place.store.approvals.latest(w.userId, fp('d'))).toEqual(stored)
    })

    test('behavior: of two requests in the same millisecond, the later is the latest, whatever their ids', async () => {
      const w = await registered()
      for (const [ids, device] of [[['f'.repeat(32), '0'.repeat(32)], fp('a')], [['1'.repeat(32), 'e'.repeat(32)], fp('b')]] as const) {
        const [first, second] = ids.map((id) => approval(w.userId, { id, deviceFp: device, createdAt: now }))
        await place.store.approvals.request(first!, limit)
        await place.store.approvals.request(second!, limit)
        expect(await place.store.approvals.latest(w.userId, device)).toMatchObject({ id: second!.id, state: 'pending' })
      }
    })

    test('error: the request after the limit in the window is throttled until the oldest leaves it', async () => {
      const w = await registered()
      for (let i = 0; i < 5; i++) expect(await place.store.approvals.request(approval(w.userId, { createdAt: now + i }), limit)).toEqual({ throttled: false })
      expect(await place.store.approvals.request(approval(w.userId, { createdAt: now + 10 }), limit)).toEqual({ throttled: true, retryAt: now + hour })
      expect(await place.store.approvals.request(approval(w.userId, { createdAt: now + hour + 1 }), limit)).toEqual({ throttled: false })
    })

    test('behavior: racing decisions on one approval: one wins; approving approves the device', async () => {
      const w = await registered()
      const a = approval(w.userId)
      await place.store.approvals.request(a, limit)
      const results = await Promise.all(Array.from({ length: 4 }, (_, i) => place.store.approvals.decide(a.id, i % 2 ? 'denied' : 'approved', now + 10)))
      const winners = results.filter((r) => r !== undefined)
      expect(winners).toHaveLength(1)
      const device = await place.store.devices.get(w.userId, a.deviceFp)
      if (winners[0]!.state === 'approved')
        expect(device).toEqual({ userId: w.userId, deviceFp: a.deviceFp, origin: a.origin, attested: true, browser: a.browser, approvedAt: now + 10, revokedAt: null })
      else expect(device).toBeUndefined()
    })

    test('error: an expired approval, or one whose device was revoked since, is not decided', async () => {
      const w = await registered()
      const expired = approval(w.userId)
      await place.store.approvals.request(expired, limit)
      expect(await place.store.approvals.decide(expired.id, 'approved', expired.expiresAt)).toBeUndefined()

      const a = approval(w.userId, { deviceFp: fp('1'), createdAt: now + 1 })
      await place.store.approvals.request(a, limit)
      await place.store.approvals.decide(a.id, 'approved', now + 2)
      const b = approval(w.userId, { deviceFp: fp('1'), createdAt: now + 3 })
      await place.store.approvals.request(b, limit)
      expect(await place.store.devices.revoke(w.userId, fp('1'), now + 4)).toBe(true)
      expect(await place.store.approvals.decide(b.id, 'approved', now + 5)).toBeUndefined()
      // A request made after the revocation can be approved, and approves the device again.
      const c = approval(w.userId, { deviceFp: fp('1'), createdAt: now + 6 })
      await place.store.approvals.request(c, limit)
      expect(await place.store.approvals.decide(c.id, 'approved', now + 7)).toMatchObject({ state: 'approved' })
      expect(await place.store.devices.get(w.userId, fp('1'))).toMatchObject({ approvedAt: now + 7, revokedAt: null })
    })

    test('error: an unknown approval is not decided', async () => {
      expect(await place.store.approvals.decide(Ids.random(), 'approved', now)).toBeUndefined()
    })
  })

  describe('devices', () => {
    test('behavior: revoke marks an approved device once; a device never approved is only logged', async () => {
      const w = await registered()
      const a = approval(w.userId)
      await place.store.approvals.request(a, limit)
      await place.store.approvals.decide(a.id, 'approved', now)
      expect(await place.store.devices.revoke(w.userId, a.deviceFp, now + 1)).toBe(true)
      expect(await place.store.devices.revoke(w.userId, a.deviceFp, now + 2)).toBe(false)
      expect(await place.store.devices.revoke(w.userId, fp('9'), now + 3)).toBe(false)
      expect(await place.store.devices.get(w.userId, a.deviceFp)).toMatchObject({ revokedAt: now + 1 })
      const revoked = (await place.store.log.list(w.userId)).filter((e) => e.kind === 'device.revoked').map((e) => e.detail)
      expect(revoked).toEqual([
        { device: a.deviceFp, wasApproved: true },
        { device: a.deviceFp, wasApproved: false },
        { device: fp('9'), wasApproved: false },
      ])
    })
  })

  describe('tickets', () => {
    test('behavior: a ticket id is spent once, also when raced and from another store', async () => {
      const jti = Ids.random()
      const results = await Promise.all(Array.from({ length: 6 }, () => place.store.tickets.spend(jti, now + 1000, now)))
      expect(results.filter(Boolean)).toHaveLength(1)
      expect(await (await place.another()).tickets.spend(jti, now + 1000, now)).toBe(false)
    })

    test('behavior: expired ids are pruned', async () => {
      const jti = Ids.random()
      await place.store.tickets.spend(jti, now + 1000, now)
      await place.store.tickets.spend(Ids.random(), now + 5000, now + 1000)
      expect(await place.raw('SELECT jti FROM vault_spent_tickets WHERE jti = $1', [jti])).toEqual([])
    })
  })

  describe('log', () => {
    test('behavior: racing appends make one unbroken chain; head is its newest link', async () => {
      const w = await registered()
      await Promise.all(Array.from({ length: 8 }, (_, i) => place.store.log.append(w.userId, { at: now + i, kind: 'recovery', detail: { i } })))
      const entries = await place.store.log.list(w.userId)
      expect(entries).toHaveLength(9)
      expect(Audit.verifyChain(entries)).toEqual({ ok: true })
      expect(await place.store.log.head(w.userId)).toEqual({ seq: 9, hash: entries[8]!.hash })
      expect(await place.store.log.head(Ids.random())).toBeUndefined()
    })

    test('error: a rewritten entry breaks the chain where it was changed', async () => {
      const w = await registered()
      const entries = await place.store.log.list(w.userId)
      const changed = entries.map((e, i) => (i === 0 ? { ...e, detail: { ...e.detail, address: `0x${'b'.repeat(40)}` } } : e))
      expect(Audit.verifyChain(changed)).toEqual({ ok: false, seq: 1 })
    })

    test('error: the limit of a kind in the window refuses the next', async () => {
      const w = await registered()
      const two = { max: 2, windowMs: hour }
      expect(await place.store.log.append(w.userId, { at: now, kind: 'recovery', detail: {} }, two)).toMatchObject({ seq: 2 })
      expect(await place.store.log.append(w.userId, { at: now + 1, kind: 'recovery', detail: {} }, two)).toMatchObject({ seq: 3 })
      expect(await place.store.log.append(w.userId, { at: now + 2, kind: 'recovery', detail: {} }, two)).toEqual({ throttled: true, retryAt: now + hour })
      // Other kinds do not count.
      expect(await place.store.log.append(w.userId, { at: now + 3, kind: 'device.revoked', detail: {} }, two)).toMatchObject({ seq: 4 })
    })

    test.each([
      ['UPDATE', `UPDATE vault_log SET kind = 'x'`],
      ['DELETE', `DELETE FROM vault_log`],
      ['TRUNCATE', `TRUNCATE vault_log`],
    ])('error: the database refuses %s on the log', async (_, sql) => {
      await registered()
      await expect(place.raw(sql)).rejects.toThrow('append-only')
    })

    test('error: a user with no wallet has no log to append to', async () => {
      await expect(place.store.log.append(Ids.random(), { at: now, kind: 'recovery', detail: {} })).rejects.toThrow('No wallet')
    })
  })
})
