/**
 * The secure-site's wallet operations against the real secure-site server (in-process, PGlite, the
 * in-process vault): create by code, reconnect a returning device, recover on a new device to the same
 * address, sign out, and a tampered share that signs nothing.
 */
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as App from '@doorway/secure-site/server/app'
import * as Envelope from '@doorway/secure-site/server/Envelope'
import type * as Mail from '@doorway/secure-site/server/mail'
import * as Embedded from '@doorway/secure-site/server/storage/embedded'
import type { Storage } from '@doorway/secure-site/server/storage/Storage'
import * as Ticket from '@doorway/secure-site/server/Ticket'
import * as Vault from '@doorway/secure-site/server/Vault'
import { errors, format } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { PGlite } from '@electric-sql/pglite'
import { recoverMessageAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Device from './Device.js'
import * as Wallet from './Wallet.js'

const host = 'http://localhost:5173'
let storage: Storage
let db: PGlite
let vaultPublicKey: Uint8Array
const mails: Mail.Mail[] = []
let fetcher: typeof fetch

beforeAll(async () => {
  db = new PGlite()
  storage = await Embedded.fromPGlite(db)
  const ticket = (await crypto.subtle.generateKey(Ticket.algorithm, false, ['sign', 'verify'])) as CryptoKeyPair
  const vaultKeys = await Seal.generateKeyPair()
  vaultPublicKey = await Seal.exportPublicKey(vaultKeys.publicKey)
  const vault = Vault.app({ key: vaultKeys.privateKey, publicKey: vaultPublicKey, ticketKey: ticket.publicKey, now: Date.now })
  const app = App.app({
    storage,
    secrets: { kek: await Envelope.importKey(crypto.getRandomValues(new Uint8Array(32))), pepper: crypto.getRandomValues(new Uint8Array(32)), ticketKey: ticket.privateKey },
    vault: Vault.client('http://vault.test', (request) => vault.fetch(request)),
    mailer: { send: async (mail) => void mails.push(mail) },
    now: Date.now,
    log: () => {},
  })
  fetcher = ((input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch
}, 60_000) // PGlite starts slowly on a loaded machine
afterAll(() => storage.close())

/** A device: its own store (an IndexedDB partition), the secure-site's wallet on it. */
const device = () => Wallet.create({ store: Device.memoryStore(), base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher })
let n = 0
const newEmail = () => `wallet${++n}-${Date.now()}@example.test`
const codeFor = (email: string) => mails.filter((m) => m.to === email).at(-1)!.text.match(/\b(\d{6})\b/)![1]!

async function login(wallet: Wallet.Wallet, email: string) {
  await Wallet.connectEmail(wallet, email, host)
  return Wallet.connectOtp(wallet, codeFor(email))
}

describe('wallet', () => {
  test('behavior: a code creates a wallet that signs; the same device reconnects without a code', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const first = Wallet.create({ store, base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher })
    const account = await login(first, email)
    expect(account).toEqual({ email, address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) })
    const signature = await (await Wallet.account(first)).signMessage({ message: 'hello' })
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(account.address)

    // A reload: the same device store, a fresh module. D + A, no code.
    const mailsBefore = mails.length
    const reloaded = Wallet.create({ store, base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher })
    expect(await Wallet.restore(reloaded)).toEqual(account)
    expect(mails.length).toBe(mailsBefore)
  })

  test('behavior: another device (another site\'s partition) verifies by code and recovers the same address', async () => {
    const email = newEmail()
    const { address } = await login(device(), email)
    // The server throttles the email for 30 s; move its record of the first code into the past.
    await db.query('UPDATE otp_challenges SET created_at = created_at - 60000 WHERE email = $1', [email])
    const other = device()
    expect(await login(other, email)).toEqual({ email, address })
    const signature = await (await Wallet.account(other)).signMessage({ message: 'same key' })
    expect(await recoverMessageAddress({ message: 'same key', signature })).toBe(address)
  })

  test('error: the throttle, a wrong code and a malformed email come back as the modal\'s messages', async () => {
    const email = newEmail()
    const wallet = device()
    await Wallet.connectEmail(wallet, email, host)
    await expect(Wallet.connectEmail(device(), email, host)).rejects.toThrow(new RegExp(`^${format(errors.emailLoginThrottled, { n: 999 }).replace('999', '\\d+')}$`))
    const code = codeFor(email)
    await expect(Wallet.connectOtp(wallet, code === '000000' ? '111111' : '000000')).rejects.toThrow(format(emailText.wrong, { n: 4 }))
    await expect(Wallet.connectEmail(device(), 'not-an-email', host)).rejects.toThrow(emailText.invalid)
    expect(await Wallet.connectOtp(wallet, code)).toMatchObject({ email })
  })

  test('behavior: sign out ends the session here: no reconnect, and the server no longer releases the share', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    const wallet = Wallet.create({ store, base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher })
    await login(wallet, email)
    await Wallet.signOut(wallet)
    expect(await Device.wallet(store)).toBeUndefined()
    expect(await Wallet.restore(Wallet.create({ store, base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher }))).toBeNull()
    await expect(Wallet.account(wallet)).rejects.toMatchObject({ code: 4100 })
  })

  test('error: a tampered server share does not rebuild the committed address, and nothing is signed', async () => {
    const email = newEmail()
    const store = Device.memoryStore()
    let tampered = 0
    const wallet = Wallet.create({ store, base: 'http://127.0.0.1:5175', vaultPublicKey, fetch: fetcher, onTampered: () => tampered++ })
    await login(wallet, email)
    // Someone with the database and KEK_A swaps this device's share A for another valid-looking one:
    // here, the record is changed so the device combines D with the wrong bytes.
    const record = (await Device.wallet(store))!
    const key = await Device.key(store)
    const d = await Device.openShare(store, key, record)
    d[5] = d[5]! ^ 0xff
    await Device.saveWallet(store, key, { userId: record.userId, email: record.email, address: record.address, share: d })
    Wallet.lock(wallet)
    await expect(Wallet.account(wallet)).rejects.toThrow(emailText.tampered)
    expect(tampered).toBe(1)
  })

  test('behavior: key export right after sign-in needs no second code; it rebuilds the entropy of the signing key', async () => {
    const email = newEmail()
    const wallet = device()
    const { address } = await login(wallet, email)
    const before = mails.length
    expect(await Wallet.exportCode(wallet, host)).toEqual({ email, sent: false })
    const { mnemonic, privateKey } = Shares.exportable(await Wallet.exportSecret(wallet, host))
    expect(mnemonic.split(' ')).toHaveLength(12)
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    expect(mails.slice(before).map((m) => m.subject)).toEqual(['Your Doorway wallet was exported'])
  })

  test('behavior: past 5 minutes, key export needs a fresh code; a wrong one says so, a spent one is refused', async () => {
    const email = newEmail()
    const wallet = device()
    const { address } = await login(wallet, email)
    // Sign-in was over 5 minutes ago, and its code long enough ago for the 30 s throttle.
    await db.query('UPDATE otp_challenges SET created_at = created_at - 600000 WHERE email = $1', [email])
    await db.query('UPDATE devices SET fresh_auth_at = fresh_auth_at - 600000 WHERE user_id IS NOT NULL AND fresh_auth_at IS NOT NULL')
    await expect(Wallet.exportSecret(wallet, host)).rejects.toThrow()
    expect(await Wallet.exportCode(wallet, host)).toEqual({ email, sent: true })
    expect(mails.filter((m) => m.to === email).at(-1)!.subject).toMatch(/^Your Doorway code to export your wallet is \d{6}$/)
    const code = codeFor(email)
    await expect(Wallet.exportSecret(wallet, host, code === '000000' ? '111111' : '000000')).rejects.toThrow(format(emailText.wrong, { n: 4 }))
    const { privateKey } = Shares.exportable(await Wallet.exportSecret(wallet, host, code))
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    // The code is spent: a second export with it is refused.
    await expect(Wallet.exportSecret(wallet, host, code)).rejects.toThrow(emailText.expired)
  })

  test('error: a device with no wallet session cannot ask for an export code', async () => {
    await expect(Wallet.exportCode(device(), host)).rejects.toMatchObject({ code: 4100 })
  })
})
