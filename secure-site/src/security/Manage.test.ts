/**
 * The devices and activity screen's calls against the real secure-site server and vault (in-process,
 * PGlite; server/testStack.ts), as two browsers of one person use them: the list, the activity checked
 * against the vault's head, removing the other browser, and that browser's next signature refused
 * (docs/embedded-wallet.md §10).
 */
import * as TestStack from '@doorway/secure-site/server/testStack'
import { secureText } from '@doorway/shared/texts/email'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Device from '../wallet/Device.js'
import * as Wallet from '../wallet/Wallet.js'
import * as Manage from './Manage.js'

const host = 'http://localhost:5173'

const place = TestStack.perFile(beforeAll, afterAll)

const device = (store = Device.memoryStore()) => Wallet.create({ store, base: 'http://127.0.0.1:5175', ...place.stack.keys.build, fetch: place.stack.fetch, pollMs: 5 })
let n = 0
const newEmail = () => `manage${++n}-${Date.now()}@example.test`
const codeFor = (email: string) => place.stack.mails.filter((m) => m.to === email && /^Your Doorway code/.test(m.subject)).at(-1)!.subject.match(/(\d{6})$/)![1]!

/** A person's first browser (it made the wallet) and a second one at another site, approved from the vault's mail. */
async function twoBrowsers() {
  const email = newEmail()
  const first = device()
  await Wallet.connectEmail(first, email, { host, attested: true })
  const account = await Wallet.connectOtp(first, codeFor(email))
  if (account === 'VERIFY_DEVICE') throw new Error('expected a new wallet')
  // The server throttles the email for 30 s; move its record of the first code into the past.
  await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
  const secondStore = Device.memoryStore()
  const second = device(secondStore)
  await Wallet.connectEmail(second, email, { host: 'http://127.0.0.1:5173', attested: false })
  expect(await Wallet.connectOtp(second, codeFor(email))).toBe('VERIFY_DEVICE')
  const recovering = Wallet.awaitDevice(second)
  expect((await place.stack.approve(email)).status).toBe(200)
  await recovering
  return { email, first, second, secondStore, address: account.address }
}

describe('manager', () => {
  test('behavior: both browsers listed, the activity verified against the vault; removing the other browser, fresh, refuses its next signature and forgets its wallet', async () => {
    const { first, second, secondStore } = await twoBrowsers()
    const manager = Manage.manager(first, true)
    const overview = await manager.overview()
    expect(overview.devices.map((d) => [d.id, d.current, d.origin, d.attested])).toEqual([
      [second.device!.id, false, 'http://127.0.0.1:5173', false],
      [first.device!.id, true, host, true],
    ])
    expect(overview.verdict).toEqual({ state: 'verified' })
    expect(overview.entries.map((e) => e.kind)).toContain('recovery.released')

    // Signed in a moment ago: no code.
    expect(await manager.removeCode(host)).toEqual({ email: overview.email, sent: false })
    await manager.remove(second.device!.id, undefined)
    expect((await manager.overview()).devices.map((d) => d.revoked)).toEqual([true, false])

    // The removed browser still holds its key in memory: the session check refuses it anyway.
    expect(second.unlocked).toBeDefined()
    await expect(Wallet.account(second)).rejects.toMatchObject({ code: 4100 })
    expect(second.unlocked).toBeUndefined()
    expect(await Device.wallet(secondStore)).toBeUndefined()
    await expect(Manage.manager(second, true).overview()).rejects.toMatchObject({ code: 4100 })
    // The first still signs.
    expect((await Wallet.account(first)).address).toBe((await Device.wallet(first.options.store))!.address)
    // The removed browser can come back only as a new device, approved again from the mail.
    const removedId = overview.devices[0]!.id
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [overview.email])
    await Wallet.connectEmail(second, overview.email, { host: 'http://127.0.0.1:5173', attested: true })
    expect(second.device!.id).not.toBe(removedId)
    expect(await Wallet.connectOtp(second, codeFor(overview.email))).toBe('VERIFY_DEVICE')
  })

  test('behavior: past fresh auth a code is mailed; the wrong one is refused with the modal\'s message, the right one removes the browser', async () => {
    const { email, first, second } = await twoBrowsers()
    // Ten minutes on: the first browser's sign-in is no longer fresh, and the email's code throttle has passed.
    await place.db.query('UPDATE devices SET fresh_auth_at = fresh_auth_at - 600000 WHERE id = $1', [first.device!.id])
    await place.db.query('UPDATE otp_challenges SET created_at = created_at - 600000 WHERE email = $1', [email])
    // A page the browser did not attest: the code mail marks the host reported.
    const manager = Manage.manager(first, false)
    const removed = second.device!.id
    await expect(manager.remove(removed, undefined)).rejects.toThrow('Verify a code again: this needs a sign-in from the last 5 minutes')
    expect(await manager.removeCode(host)).toEqual({ email, sent: true })
    expect(place.stack.mails.at(-1)!.subject).toMatch(/^Your Doorway code to remove a device is \d{6}$/)
    expect(place.stack.mails.at(-1)!.text).toContain(`${host} (reported by the page, not confirmed by the browser)`)
    const code = codeFor(email)
    await expect(manager.remove(removed, code === '000000' ? '111111' : '000000')).rejects.toThrow('That code is not right. 4 attempts left.')
    await manager.remove(removed, code)
    await expect(Wallet.account(second)).rejects.toMatchObject({ code: 4100 })
    // The code is spent: asking again with it needs a new one.
    await expect(manager.remove(removed, code)).rejects.toThrow(secureText.expired)
  })

  test('error: a code without a code request of this screen is refused before anything is sent', async () => {
    const { first, second } = await twoBrowsers()
    await expect(Manage.manager(first, true).remove(second.device!.id, '123456')).rejects.toThrow(secureText.expired)
  })

  test('security: a log whose newest entries were dropped in the database shows as changed, though what is left still chains', async () => {
    const { first } = await twoBrowsers()
    const userId = (await Device.wallet(first.options.store))!.userId
    const rows = await place.storage.audit.list(userId)
    // The thief drops the newest entries: the chain left holds on its own, but no longer reaches the vault's head.
    await place.db.query('ALTER TABLE audit_log DISABLE TRIGGER ALL')
    await place.db.query('DELETE FROM audit_log WHERE user_id = $1 AND seq > $2', [userId, rows.length - 3])
    await place.db.query('ALTER TABLE audit_log ENABLE TRIGGER ALL')
    expect((await Manage.manager(first, true).overview()).verdict).toEqual({ state: 'changed', seq: rows.length })
  })
})
