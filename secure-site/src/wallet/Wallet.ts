/**
 * The embedded wallet's operations on the secure origin (notes/embedded-wallet.md §4.1–4.4): enrol the
 * device, log in by email code, create the wallet or recover it on a new device, reconnect a returning
 * device, and unlock the key for a signature. The entropy lives only in this module's memory while
 * unlocked, is dropped after 15 min idle, and is rebuilt from the device pair (D + A) on demand.
 * Every combine is checked against the committed address; a mismatch signs nothing.
 * Refusals become DoorwayErrors carrying the exact message the modal shows.
 */
import * as Errors from '@doorway/shared/Errors'
import { errors, format } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import type { LocalAccount } from 'viem/accounts'
import { split } from 'shamir-secret-sharing'
import * as Seal from '../custody/Seal.js'
import * as Shares from '../custody/Shares.js'
import * as Base64url from './Base64url.js'
import * as Device from './Device.js'
import * as Server from './Server.js'

export type Account = { email: string; address: `0x${string}` }

/** notes §4.1: the derived key is dropped after this long without use. */
export const idleMs = 15 * 60_000

export type Options = {
  store: Device.Store
  /** The secure-site server, this origin. */
  base: string
  /** The vault's public key, pinned in the build (never fetched from the server). */
  vaultPublicKey: Uint8Array
  fetch?: typeof fetch
  onTampered?(): void
}

type Unlocked = { account: LocalAccount; email: string; timer: ReturnType<typeof setTimeout> }

export function create(options: Options) {
  const { store, vaultPublicKey } = options
  let device: Device.Key | undefined
  let unlocked: Unlocked | undefined
  let challenge: { id: string; email: string } | undefined
  let exportChallenge: string | undefined
  const server = Server.client({ base: options.base, device: () => device!, ...(options.fetch && { fetch: options.fetch }) })

  /** The device key, enrolled with the server (again, if the server forgot it). */
  async function enrolled(signal?: AbortSignal, again = false): Promise<Device.Key> {
    device ??= await Device.key(store)
    if (device.enrolled && !again) return device
    const publicKey = Base64url.encode(new Uint8Array(await crypto.subtle.exportKey('raw', device.keyPair.publicKey)))
    await server.post('/v1/devices', { deviceId: device.id, publicKey }, signal)
    device = await Device.markEnrolled(store, device)
    return device
  }

  /** A signed call; an unknown device (a reset server) is enrolled again once. */
  async function call<T>(path: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    await enrolled(signal)
    try {
      return await server.post<T>(path, body, signal)
    } catch (error) {
      if (!(error instanceof Server.ServerError && error.reason === 'unknownDevice')) throw error
      await enrolled(signal, true)
      return server.post<T>(path, body, signal)
    }
  }

  function unlock(secret: Uint8Array, email: string): Account {
    lock()
    const account = Shares.evmAccount(secret)
    secret.fill(0)
    unlocked = { account, email, timer: setTimeout(lock, idleMs) }
    return { email, address: account.address }
  }

  function lock() {
    if (unlocked) clearTimeout(unlocked.timer)
    unlocked = undefined
  }

  async function combine(a: Uint8Array, b: Uint8Array, address: string): Promise<Uint8Array> {
    try {
      return await Shares.combine(a, b, address)
    } catch {
      options.onTampered?.()
      throw new Errors.DoorwayError(emailText.tampered)
    } finally {
      a.fill(0)
      b.fill(0)
    }
  }

  /** CONNECT_DEVICE: D + A when this device has a wallet and a live session; null otherwise. */
  async function restore(signal?: AbortSignal): Promise<Account | null> {
    const record = await Device.wallet(store)
    if (!record) return null
    type Session = { user: { id: string; email: string }; address: string; deviceShare: string }
    let session: Session
    try {
      session = await call<Session>('/v1/session', {}, signal)
    } catch (error) {
      if (error instanceof Server.ServerError && error.status === 401) {
        await Device.forgetWallet(store)
        return null
      }
      throw toDoorwayError(error)
    }
    // The server's address must be the one this device committed to (notes §4.2).
    if (session.address.toLowerCase() !== record.address.toLowerCase() || session.user.id !== record.userId) {
      options.onTampered?.()
      throw new Errors.DoorwayError(emailText.tampered)
    }
    const d = await Device.openShare(store, device!, record)
    const secret = await combine(d, Base64url.decode(session.deviceShare), record.address)
    return unlock(secret, record.email)
  }

  /** CONNECT_EMAIL: asks the server to mail a code; it enforces every throttle (spec §5). */
  async function connectEmail(email: string, host: string, signal?: AbortSignal): Promise<void> {
    try {
      const started = await call<{ challengeId: string }>('/v1/email/start', { email, host }, signal)
      challenge = { id: started.challengeId, email }
    } catch (error) {
      throw toDoorwayError(error)
    }
  }

  /** CONNECT_OTP: verifies the code, then creates the wallet, or recovers it with R1 + R2 and enrols this device. */
  async function connectOtp(code: string, signal?: AbortSignal): Promise<Account> {
    if (!challenge) throw new Errors.DoorwayError(emailText.expired)
    const ephemeral = await Seal.generateKeyPair()
    type Verified = { user: { id: string; email: string }; wallet: null | { address: string; recovery1: string; recovery2: string } }
    let verified: Verified
    try {
      const device = Base64url.encode(await Seal.exportPublicKey(ephemeral.publicKey))
      verified = await call<Verified>('/v1/email/verify', { challengeId: challenge.id, code, device }, signal)
    } catch (error) {
      throw toDoorwayError(error)
    }
    challenge = undefined
    const { user } = verified
    const aad = new TextEncoder().encode(user.id)
    try {
      if (!verified.wallet) {
        const secret = Shares.entropy()
        const address = Shares.evmAccount(secret).address
        const shares = await Shares.splitTwice(secret)
        const recovery2 = await Seal.seal(vaultPublicKey, shares.recovery2, aad)
        await call('/v1/wallet', { address, deviceShare: Base64url.encode(shares.server), recovery1: Base64url.encode(shares.recovery1), recovery2: Base64url.encode(recovery2) }, signal)
        await Device.saveWallet(store, device!, { userId: user.id, email: user.email, address, share: shares.device })
        for (const share of Object.values(shares)) share.fill(0)
        return unlock(secret, user.email)
      }
      const { address } = verified.wallet
      const r2 = await Seal.open(ephemeral.privateKey, Base64url.decode(verified.wallet.recovery2), aad)
      const secret = await combine(Base64url.decode(verified.wallet.recovery1), r2, address)
      // A fresh device pair for this device; the recovery pair stays as it is.
      const [d, a] = (await split(secret, 2, 2)) as [Uint8Array, Uint8Array]
      await call('/v1/devices/share', { deviceShare: Base64url.encode(a) }, signal)
      await Device.saveWallet(store, device!, { userId: user.id, email: user.email, address: address as `0x${string}`, share: d })
      d.fill(0)
      a.fill(0)
      return unlock(secret, user.email)
    } catch (error) {
      throw toDoorwayError(error)
    }
  }

  /** The key for one signature: in memory, or rebuilt from D + A after the idle lock. */
  async function account(signal?: AbortSignal): Promise<LocalAccount> {
    if (!unlocked) {
      const restored = await restore(signal)
      if (!restored || !unlocked) throw Errors.unauthorized()
    }
    const current = unlocked as Unlocked
    clearTimeout(current.timer)
    current.timer = setTimeout(lock, idleMs)
    return current.account
  }

  /**
   * Key export, step 1 (notes §4.8): a sign-in of the last 5 minutes is fresh enough; otherwise the
   * server mails a fresh code to the wallet's email (`sent`).
   */
  async function exportCode(host: string, signal?: AbortSignal): Promise<{ email: string; sent: boolean }> {
    const record = await Device.wallet(store)
    if (!record) throw Errors.unauthorized()
    let started: { fresh: true } | { challengeId: string }
    try {
      started = await call<{ fresh: true } | { challengeId: string }>('/v1/export/code', { host }, signal)
    } catch (error) {
      throw toDoorwayError(error)
    }
    exportChallenge = 'challengeId' in started ? started.challengeId : undefined
    return { email: record.email, sent: !!exportChallenge }
  }

  /**
   * Key export, step 2: fresh auth (the code, when one was sent) releases this device's A once more;
   * D + A rebuild the entropy, checked against the address. The caller shows it and zeroes it; it
   * never leaves this origin.
   */
  async function exportSecret(host: string, code?: string, signal?: AbortSignal): Promise<Uint8Array> {
    const record = await Device.wallet(store)
    if (!record || (code !== undefined && !exportChallenge)) throw new Errors.DoorwayError(emailText.expired)
    let released: { deviceShare: string }
    try {
      released = await call<{ deviceShare: string }>('/v1/export', code === undefined ? { host } : { challengeId: exportChallenge, code }, signal)
    } catch (error) {
      throw toDoorwayError(error)
    }
    exportChallenge = undefined
    const d = await Device.openShare(store, device!, record)
    return combine(d, Base64url.decode(released.deviceShare), record.address)
  }

  /** Ends the session on this device: the server deletes A, and D is forgotten here. */
  async function signOut(signal?: AbortSignal): Promise<void> {
    lock()
    challenge = exportChallenge = undefined
    const had = await Device.wallet(store)
    await Device.forgetWallet(store)
    if (had) await call('/v1/session/end', {}, signal).catch(() => {})
  }

  return { restore, connectEmail, connectOtp, account, exportCode, exportSecret, signOut, lock }
}
export type Wallet = ReturnType<typeof create>

/** The server's refusal as the message the modal shows (notes §4.4: each case its own message). */
export function toDoorwayError(error: unknown): Errors.DoorwayError {
  if (error instanceof Errors.DoorwayError) return error
  if (error instanceof DOMException && error.name === 'AbortError') return Errors.aborted()
  if (!(error instanceof Server.ServerError)) return new Errors.DoorwayError(emailText.unavailable, { cause: error })
  const n = error.retryAfter ?? 30
  switch (error.reason) {
    case 'throttled':
      return new Errors.DoorwayError(format(errors.emailLoginThrottled, { n }))
    case 'hourly':
      return new Errors.DoorwayError(format(emailText.hourly, { n }))
    case 'locked':
      return new Errors.DoorwayError(emailText.locked)
    case 'wrong':
      return new Errors.DoorwayError(error.attemptsLeft ? format(emailText.wrong, { n: error.attemptsLeft }) : emailText.wrongLast)
    case 'expired':
    case 'unknown':
      return new Errors.DoorwayError(emailText.expired)
    case 'used':
      return new Errors.DoorwayError(emailText.used)
    case 'exhausted':
      return new Errors.DoorwayError(emailText.exhausted)
    case 'otherDevice':
      return new Errors.DoorwayError(emailText.otherDevice)
    case 'mail':
      return new Errors.DoorwayError(emailText.mailFailed)
  }
  if (error.status === 400 && /email/i.test(error.message)) return new Errors.DoorwayError(emailText.invalid)
  if (error.status === 400 && /code/i.test(error.message)) return new Errors.DoorwayError(emailText.codeInvalid)
  return new Errors.DoorwayError(error.status >= 500 ? emailText.unavailable : error.message)
}
