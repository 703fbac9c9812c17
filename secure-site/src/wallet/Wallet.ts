/**
 * The embedded wallet's operations on the secure origin (docs/embedded-wallet.md §1–4): enrol the
 * device, log in by email code, create the wallet or recover it on a new device, reconnect a returning
 * device, and unlock the key for a signature. The entropy lives only in this module's memory while
 * unlocked, is dropped after 15 min idle, and is rebuilt from the device pair (D + A) on demand.
 * Every combine is checked against the committed address; a mismatch signs nothing.
 * Refusals become DoorwayErrors carrying the exact message the modal shows.
 * `import * as Wallet from './Wallet.js'` → `const wallet = Wallet.create(options)`, then `Wallet.restore(wallet)`.
 */
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import type * as Contract from '@doorway/shared/Contract'
import * as Errors from '@doorway/shared/Errors'
import { emailLoginThrottled, format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { split } from 'shamir-secret-sharing'
import type { LocalAccount } from 'viem/accounts'
import * as Device from './Device.js'
import * as Server from './Server.js'

export type Account = { email: string; address: `0x${string}` }

/** docs/embedded-wallet.md §1: the derived key is dropped after this long without use. */
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

/**
 * One wallet on this device: what `create` was given, the client for the server, and what it holds in
 * memory. Only this module's functions read or change it; the entropy is never kept, only the account
 * while unlocked.
 */
export type Wallet = {
  readonly options: Options
  readonly server: Server.Client
  device: Device.Key | undefined
  unlocked: Unlocked | undefined
  /** The code sent by connectEmail, until connectOtp verifies it. */
  challenge: { id: string; email: string } | undefined
  /** The export code sent by exportCode, until exportSecret uses it. */
  exportChallenge: string | undefined
}

type Unlocked = { account: LocalAccount; email: string; timer: ReturnType<typeof setTimeout> }

export function create(options: Options): Wallet {
  const wallet: Omit<Wallet, 'server'> = { options, device: undefined, unlocked: undefined, challenge: undefined, exportChallenge: undefined }
  const server = Server.client({ base: options.base, device: () => wallet.device!, ...(options.fetch && { fetch: options.fetch }) })
  return Object.assign(wallet, { server })
}

/** CONNECT_DEVICE: D + A when this device has a wallet and a live session; null otherwise. */
export async function restore(wallet: Wallet, signal?: AbortSignal): Promise<Account | null> {
  const { store } = wallet.options
  const record = await Device.wallet(store)
  if (!record) return null
  let session: Contract.Result<Server.Route<'POST /v1/session'>>
  try {
    session = await call(wallet, 'POST /v1/session', {}, signal)
  } catch (error) {
    if (error instanceof Server.ServerError && error.status === 401) {
      await Device.forgetWallet(store)
      return null
    }
    throw toDoorwayError(error)
  }
  // The server's address must be the one this device committed to (docs/embedded-wallet.md §2).
  if (session.address.toLowerCase() !== record.address.toLowerCase() || session.user.id !== record.userId) throw tampered(wallet)
  const d = await Device.openShare(store, wallet.device!, record)
  const secret = await combine(wallet, d, Base64url.decode(session.deviceShare), record.address)
  return unlock(wallet, secret, record.email)
}

/** CONNECT_EMAIL: asks the server to mail a code; it enforces every throttle (spec §5). */
export async function connectEmail(wallet: Wallet, email: string, host: string, signal?: AbortSignal): Promise<void> {
  try {
    const started = await call(wallet, 'POST /v1/email/start', { email, host }, signal)
    wallet.challenge = { id: started.challengeId, email }
  } catch (error) {
    throw toDoorwayError(error)
  }
}

type Verified = Contract.Result<Server.Route<'POST /v1/email/verify'>>

/** CONNECT_OTP: verifies the code, then creates the wallet, or recovers it with R1 + R2 and enrols this device. */
export async function connectOtp(wallet: Wallet, code: string, signal?: AbortSignal): Promise<Account> {
  const { challenge } = wallet
  if (!challenge) throw new Errors.DoorwayError(secureText.expired)
  const ephemeral = await Seal.generateKeyPair()
  let verified: Verified
  try {
    const device = Base64url.encode(await Seal.exportPublicKey(ephemeral.publicKey))
    verified = await call(wallet, 'POST /v1/email/verify', { challengeId: challenge.id, code, device }, signal)
  } catch (error) {
    throw toDoorwayError(error)
  }
  wallet.challenge = undefined
  try {
    if (!verified.wallet) return await createWallet(wallet, verified.user, signal)
    return await recoverWallet(wallet, verified.user, { ...verified.wallet, ephemeral }, signal)
  } catch (error) {
    throw toDoorwayError(error)
  }
}

/** A new user's wallet: fresh entropy, its two splits, R2 sealed to the pinned vault key (docs/embedded-wallet.md §2). */
async function createWallet(wallet: Wallet, user: Verified['user'], signal?: AbortSignal): Promise<Account> {
  const secret = Shares.entropy()
  const address = Shares.evmAccount(secret).address
  const shares = await Shares.splitTwice(secret)
  const recovery2 = await Seal.seal(wallet.options.vaultPublicKey, shares.recovery2, new TextEncoder().encode(user.id))
  const body = { address, deviceShare: Base64url.encode(shares.server), recovery1: Base64url.encode(shares.recovery1), recovery2: Base64url.encode(recovery2) }
  await call(wallet, 'POST /v1/wallet', body, signal)
  await Device.saveWallet(wallet.options.store, wallet.device!, { userId: user.id, email: user.email, address, share: shares.device })
  for (const share of Object.values(shares)) share.fill(0)
  return unlock(wallet, secret, user.email)
}

/** An existing wallet on this device: R1 + R2 (re-sealed by the vault to `ephemeral`), then a new device pair. */
async function recoverWallet(
  wallet: Wallet,
  user: Verified['user'],
  recovery: { address: string; recovery1: string; recovery2: string; ephemeral: CryptoKeyPair },
  signal?: AbortSignal,
): Promise<Account> {
  const { address } = recovery
  const r2 = await Seal.open(recovery.ephemeral.privateKey, Base64url.decode(recovery.recovery2), new TextEncoder().encode(user.id))
  const secret = await combine(wallet, Base64url.decode(recovery.recovery1), r2, address)
  // A fresh device pair for this device; the recovery pair stays as it is.
  const [d, a] = (await split(secret, 2, 2)) as [Uint8Array, Uint8Array]
  await call(wallet, 'POST /v1/devices/share', { deviceShare: Base64url.encode(a) }, signal)
  await Device.saveWallet(wallet.options.store, wallet.device!, { userId: user.id, email: user.email, address: address as `0x${string}`, share: d })
  d.fill(0)
  a.fill(0)
  return unlock(wallet, secret, user.email)
}

/** The key for one signature: in memory, or rebuilt from D + A after the idle lock. */
export async function account(wallet: Wallet, signal?: AbortSignal): Promise<LocalAccount> {
  if (!wallet.unlocked) {
    const restored = await restore(wallet, signal)
    if (!restored || !wallet.unlocked) throw Errors.unauthorized()
  }
  const current = wallet.unlocked as Unlocked
  clearTimeout(current.timer)
  current.timer = setTimeout(() => lock(wallet), idleMs)
  return current.account
}

/**
 * Key export, step 1 (docs/embedded-wallet.md §8): a sign-in of the last 5 minutes is fresh enough; otherwise the
 * server mails a fresh code to the wallet's email (`sent`).
 */
export async function exportCode(wallet: Wallet, host: string, signal?: AbortSignal): Promise<{ email: string; sent: boolean }> {
  const record = await Device.wallet(wallet.options.store)
  if (!record) throw Errors.unauthorized()
  let started: Contract.Result<Server.Route<'POST /v1/export/code'>>
  try {
    started = await call(wallet, 'POST /v1/export/code', { host }, signal)
  } catch (error) {
    throw toDoorwayError(error)
  }
  wallet.exportChallenge = 'challengeId' in started ? started.challengeId : undefined
  return { email: record.email, sent: !!wallet.exportChallenge }
}

/**
 * Key export, step 2: fresh auth (the code, when one was sent) releases this device's A once more;
 * D + A rebuild the entropy, checked against the address. The caller shows it and zeroes it; it
 * never leaves this origin.
 */
export async function exportSecret(wallet: Wallet, host: string, code?: string, signal?: AbortSignal): Promise<Uint8Array> {
  const { store } = wallet.options
  const record = await Device.wallet(store)
  if (!record || (code !== undefined && !wallet.exportChallenge)) throw new Errors.DoorwayError(secureText.expired)
  let released: Contract.Result<Server.Route<'POST /v1/export'>>
  try {
    released = await call(wallet, 'POST /v1/export', code === undefined ? { host } : { challengeId: wallet.exportChallenge, code }, signal)
  } catch (error) {
    throw toDoorwayError(error)
  }
  wallet.exportChallenge = undefined
  const d = await Device.openShare(store, wallet.device!, record)
  return combine(wallet, d, Base64url.decode(released.deviceShare), record.address)
}

/** Ends the session on this device: the server deletes A, and D is forgotten here. */
export async function signOut(wallet: Wallet, signal?: AbortSignal): Promise<void> {
  lock(wallet)
  wallet.challenge = wallet.exportChallenge = undefined
  const had = await Device.wallet(wallet.options.store)
  await Device.forgetWallet(wallet.options.store)
  if (had) await call(wallet, 'POST /v1/session/end', {}, signal).catch(() => {})
}

/** Drops the account from memory; the next signature rebuilds it from D + A. */
export function lock(wallet: Wallet): void {
  if (wallet.unlocked) clearTimeout(wallet.unlocked.timer)
  wallet.unlocked = undefined
}

/** The device key, enrolled with the server (again, if the server forgot it). */
async function enrolled(wallet: Wallet, signal?: AbortSignal, again = false): Promise<Device.Key> {
  wallet.device ??= await Device.key(wallet.options.store)
  if (wallet.device.enrolled && !again) return wallet.device
  const publicKey = Base64url.encode(new Uint8Array(await crypto.subtle.exportKey('raw', wallet.device.keyPair.publicKey)))
  await wallet.server.send('POST /v1/devices', { deviceId: wallet.device.id, publicKey }, signal)
  wallet.device = await Device.markEnrolled(wallet.options.store, wallet.device)
  return wallet.device
}

/** A signed call; an unknown device (a reset server) is enrolled again once. */
async function call<E extends Server.Endpoint>(wallet: Wallet, endpoint: E, body: Contract.Body<Server.Route<E>>, signal?: AbortSignal): Promise<Contract.Result<Server.Route<E>>> {
  await enrolled(wallet, signal)
  try {
    return await wallet.server.send(endpoint, body, signal)
  } catch (error) {
    if (!(error instanceof Server.ServerError && error.reason === 'unknownDevice')) throw error
    await enrolled(wallet, signal, true)
    return wallet.server.send(endpoint, body, signal)
  }
}

function unlock(wallet: Wallet, secret: Uint8Array, email: string): Account {
  lock(wallet)
  const account = Shares.evmAccount(secret)
  secret.fill(0)
  wallet.unlocked = { account, email, timer: setTimeout(() => lock(wallet), idleMs) }
  return { email, address: account.address }
}

/** Two shares rebuilt into the entropy, checked against the committed address; both are zeroed. */
async function combine(wallet: Wallet, a: Uint8Array, b: Uint8Array, address: string): Promise<Uint8Array> {
  try {
    return await Shares.combine(a, b, address)
  } catch {
    throw tampered(wallet)
  } finally {
    a.fill(0)
    b.fill(0)
  }
}

/** A share or an address that is not what this device committed to: reported, and nothing is signed. */
function tampered(wallet: Wallet): Errors.DoorwayError {
  wallet.options.onTampered?.()
  return new Errors.DoorwayError(secureText.tampered)
}

/** The server's refusal as the message the modal shows (docs/embedded-wallet.md §4: each case its own message). */
export function toDoorwayError(error: unknown): Errors.DoorwayError {
  if (error instanceof Errors.DoorwayError) return error
  if (error instanceof DOMException && error.name === 'AbortError') return Errors.aborted()
  if (!(error instanceof Server.ServerError)) return new Errors.DoorwayError(secureText.unavailable, { cause: error })
  const n = error.retryAfter ?? 30
  switch (error.reason) {
    case 'throttled':
      return new Errors.DoorwayError(format(emailLoginThrottled, { n }))
    case 'hourly':
      return new Errors.DoorwayError(format(secureText.hourly, { n }))
    case 'locked':
      return new Errors.DoorwayError(secureText.locked)
    case 'wrong':
      return new Errors.DoorwayError(error.attemptsLeft ? format(secureText.wrong, { n: error.attemptsLeft }) : secureText.wrongLast)
    case 'expired':
    case 'unknown':
      return new Errors.DoorwayError(secureText.expired)
    case 'used':
      return new Errors.DoorwayError(secureText.used)
    case 'exhausted':
      return new Errors.DoorwayError(secureText.exhausted)
    case 'otherDevice':
      return new Errors.DoorwayError(secureText.otherDevice)
    case 'mail':
      return new Errors.DoorwayError(secureText.mailFailed)
  }
  if (error.status === 400 && /email/i.test(error.message)) return new Errors.DoorwayError(secureText.invalid)
  if (error.status === 400 && /code/i.test(error.message)) return new Errors.DoorwayError(secureText.codeInvalid)
  return new Errors.DoorwayError(error.status >= 500 ? secureText.unavailable : error.message)
}
