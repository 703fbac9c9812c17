/**
 * The embedded wallet's operations on the secure origin (docs/embedded-wallet.md §1–5): enrol the
 * device, log in by email code or a social sign-in, create the wallet or recover it on a new device,
 * reconnect a returning device, and unlock the key for a signature. The entropy lives only in this module's memory while
 * unlocked, is dropped after 15 min idle, and is rebuilt from the device pair (D + A) on demand.
 * Every combine is checked against the committed address; a mismatch signs nothing.
 * Refusals become DoorwayErrors carrying the exact message the modal shows.
 * `import * as Wallet from './Wallet.js'` → `const wallet = Wallet.create(options)`, then `Wallet.restore(wallet)`.
 */
import * as Attest from '@doorway/secure-site/common/Attest'
import * as Base64url from '@doorway/secure-site/common/Base64url'
import * as Seal from '@doorway/secure-site/common/Seal'
import * as Shares from '@doorway/secure-site/common/Shares'
import * as Transport from '@doorway/secure-site/common/Transport'
import type * as Constants from '@doorway/shared/Constants'
import type * as Contract from '@doorway/shared/Contract'
import * as Email from '@doorway/shared/Email'
import * as Errors from '@doorway/shared/Errors'
import * as S from '@doorway/shared/Schema'
import { emailLoginThrottled, format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { secureSocialText } from '@doorway/shared/texts/social'
import { split } from 'shamir-secret-sharing'
import type { LocalAccount } from 'viem/accounts'
import * as Device from './Device.js'
import * as Server from './Server.js'
import * as Solana from './Solana.js'

/**
 * The wallet as the frame knows it: the email, the EVM address and the Solana address of the same entropy
 * (docs/embedded-wallet.md §1), and after a social sign-in the provider's name and picture, while its session lives.
 */
export type Account = { email: string; address: `0x${string}`; solanaAddress: string } & Profile

/** spec §3 Account user.username: what a social sign-in's provider said of the person, as far as it said it. */
export type Profile = { username?: string; avatar?: string }

/** docs/embedded-wallet.md §1: the derived key is dropped after this long without use. */
export const idleMs = 15 * 60_000

export type Options = {
  store: Device.Store
  /** The secure-site server, this origin. */
  base: string
  /** The vault's public key, pinned in the build (never fetched from the server): R2 is sealed to it. */
  vaultPublicKey: Uint8Array
  /** The vault's signing key, pinned too: what it vouches for (the wallet's address, each re-seal) is checked with it. */
  vaultSigningKey: Uint8Array
  /** The server's transport key, pinned too: shares going up are sealed to it. */
  serverPublicKey: Uint8Array
  /** How long to wait between asks while the person approves this device; 2 s unless a test says. */
  pollMs?: number
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
  /** The code sent by connectEmail, until connectOtp verifies it; the host as the mail named it. */
  challenge: { id: string; email: string; host: string; attested: boolean } | undefined
  /** A social sign-in started by startSocial, until redeemSocial redeems it or cancelSocial ends it; the host as the flow named it. */
  social: { flowId: string; host: string; attested: boolean } | undefined
  /**
   * A Farcaster sign-in the server could not link to anyone (Farcaster gives no email, and every wallet needs
   * one): the next verified code links it (ADD_EMAIL), and its name and picture are the session's.
   */
  link: { flowId: string; profile: Profile } | undefined
  /** A verified code or social sign-in for an existing wallet, until the person approves this device (VERIFY_DEVICE). */
  approval: { user: Verified['user']; email: string; host: string; attested: boolean; profile: Profile } | undefined
  /** The export code sent by exportCode, until exportSecret uses it. */
  exportChallenge: string | undefined
}

type Unlocked = { account: LocalAccount; solana: Solana.Key; email: string; timer: ReturnType<typeof setTimeout> }

export function create(options: Options): Wallet {
  const wallet: Omit<Wallet, 'server'> = { options, device: undefined, unlocked: undefined, challenge: undefined, social: undefined, link: undefined, approval: undefined, exportChallenge: undefined }
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
  const a = await down(wallet, 'deviceShare', record.userId, session.deviceShare)
  const secret = await combine(wallet, d, a, record.address)
  // The server keeps a social sign-in's name and picture with its session, so a reload shows them again.
  return unlock(wallet, secret, record.email, profileOf(session.user))
}

/**
 * CONNECT_EMAIL: asks the server to mail a code naming the host (as the browser attested it, or marked
 * reported); the server enforces every throttle (spec §5). A code asked for before is withdrawn once the new one is sent.
 */
export async function connectEmail(wallet: Wallet, email: string, origin: { host: string; attested: boolean }, signal?: AbortSignal): Promise<void> {
  wallet.approval = undefined
  let started: Contract.Result<Server.Route<'POST /v1/email/start'>>
  try {
    started = await call(wallet, 'POST /v1/email/start', { email, ...origin }, signal)
  } catch (error) {
    // A refused resend (a throttle) leaves the code the person has working.
    throw toDoorwayError(error)
  }
  await cancelEmail(wallet)
  wallet.challenge = { id: started.challengeId, email, ...origin }
}

/** The person left the code step: their code stops working at the server now, not in 10 minutes. */
export async function cancelEmail(wallet: Wallet): Promise<void> {
  const { challenge } = wallet
  wallet.challenge = undefined
  if (challenge) await call(wallet, 'POST /v1/email/cancel', { challengeId: challenge.id }).catch(() => {})
}

type Verified = Contract.Result<Server.Route<'POST /v1/email/verify'>>

/**
 * CONNECT_OTP: verifies the code. A new user's wallet is created here; an existing wallet answers
 * VERIFY_DEVICE: the person approves this device from the vault's mail, and `awaitDevice` recovers it.
 */
export async function connectOtp(wallet: Wallet, code: string, signal?: AbortSignal): Promise<Account | 'VERIFY_DEVICE'> {
  const { challenge } = wallet
  if (!challenge) throw new Refusal(secureText.expired, 'expired')
  const { link } = wallet
  let verified: Verified
  try {
    verified = await call(wallet, 'POST /v1/email/verify', { challengeId: challenge.id, code, ...(link && { link: link.flowId }) }, signal)
  } catch (error) {
    throw toDoorwayError(error)
  }
  wallet.challenge = undefined
  wallet.link = undefined
  // The server's user must be the email the person typed (normalized as the server does).
  if (verified.user.email !== Email.normalize(challenge.email)) throw tampered(wallet)
  return signedIn(wallet, verified, challenge, signal, link?.profile)
}

/**
 * The person is proven (a code, or a social sign-in) and the server said what follows: a new user's
 * wallet is created here; an existing wallet answers VERIFY_DEVICE, and `awaitDevice` recovers it once
 * the person approves this device from the vault's mail, which names `origin`'s host.
 */
async function signedIn(
  wallet: Wallet,
  verified: Pick<Verified, 'user' | 'next'>,
  origin: { host: string; attested: boolean },
  signal?: AbortSignal,
  profile: Profile = {},
): Promise<Account | 'VERIFY_DEVICE'> {
  if (verified.next === 'approve') {
    wallet.approval = { user: verified.user, email: verified.user.email, host: origin.host, attested: origin.attested, profile }
    return 'VERIFY_DEVICE'
  }
  try {
    return await createWallet(wallet, verified.user, signal, profile)
  } catch (error) {
    throw toDoorwayError(error)
  }
}

/**
 * A social sign-in (docs/embedded-wallet.md §5): the server starts a flow bound to this device and
 * answers the page the frame's popup goes to, which sends the person on to the provider. Only this
 * origin's own start page for this flow is accepted: the popup never goes where a server names otherwise.
 * A flow started before is cancelled by the server.
 */
export async function startSocial(
  wallet: Wallet,
  provider: Provider,
  origin: { host: string; attested: boolean },
  signal?: AbortSignal,
  redirect = false,
): Promise<string> {
  wallet.approval = undefined
  wallet.link = undefined
  const { store } = wallet.options
  await store.delete(redirectKey)
  // A browser that denies this frame its storage forgets the device with the page: the page that comes back could not finish.
  if (redirect && !(await (store.durable?.() ?? true))) throw new Refusal(secureSocialText.noStorage, 'noStorage')
  let started: Contract.Result<Server.Route<'POST /v1/social/start'>>
  try {
    started = await call(wallet, 'POST /v1/social/start', { provider, ...origin }, signal)
  } catch (error) {
    throw socialError(error)
  }
  wallet.social = { flowId: started.flowId, ...origin }
  if (!(provider === 'farcaster' ? farcasterUri(started.url) : started.url === new URL(`/oauth/start?flow=${started.flowId}`, wallet.options.base).href)) {
    await cancelSocial(wallet)
    throw new Errors.DoorwayError(secureSocialText.unsafeStart)
  }
  // Aborted while the server answered (the person left): the frame's cancel may have come first, so end this flow here.
  if (signal?.aborted) {
    await cancelSocial(wallet)
    throw Errors.aborted()
  }
  // Redirect mode (spec §7 social-redirect): this page goes away; the flow waits here for the page that comes back.
  if (redirect) await wallet.options.store.put(redirectKey, { ...wallet.social, provider, expiresAt: started.expiresAt } satisfies Redirected)
  return started.url
}

/**
 * Farcaster's connect URI, which the modal shows as a QR code and a link for the person's Farcaster app:
 * the relay's https page carrying the channel (http only on loopback, the devnet's).
 */
function farcasterUri(value: string): boolean {
  if (value.length > 2_000 || !URL.canParse(value)) return false
  const url = new URL(value)
  const loopback = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  return (url.protocol === 'https:' || loopback) && !url.username && !url.password && url.searchParams.has('channelToken')
}

/** The six OAuth providers, and Farcaster (Sign In With Farcaster: a QR or app link instead of a window). */
type Provider = Constants.SocialProvider | 'farcaster'

/** A redirect flow, kept on this device while the top window is at the provider (one at a time). */
type Redirected = NonNullable<Wallet['social']> & { provider: Provider; expiresAt: number }
const redirectKey = 'socialRedirect'

/**
 * Back from a redirect with the flow's id (spec §5 result_uri): the flow this device kept becomes the one
 * redeemSocial waits on, once; its provider, for the view. A flow this device did not start, or one that
 * expired, is refused here: another page's link cannot make this device redeem it.
 */
export async function resumeSocial(wallet: Wallet, flowId: string): Promise<Provider> {
  const kept = await wallet.options.store.get<Redirected>(redirectKey)
  await wallet.options.store.delete(redirectKey)
  if (!kept || kept.flowId !== flowId || kept.expiresAt <= Date.now()) throw new Refusal(secureSocialText.noFlow, 'expired')
  const { provider, expiresAt: _, ...social } = kept
  wallet.approval = undefined
  wallet.social = social
  return provider
}

/**
 * One wait for the flow startSocial began (the server holds it while the person is at the provider):
 * `'pending'`, or, once the provider answered, what a verified code gives: the new wallet created here,
 * or VERIFY_DEVICE for an existing wallet. A flow is redeemed once.
 */
export async function redeemSocial(wallet: Wallet, signal?: AbortSignal): Promise<Account | 'VERIFY_DEVICE' | 'ADD_EMAIL' | 'pending'> {
  const { social } = wallet
  if (!social) throw new Refusal(secureSocialText.noFlow, 'expired')
  let answer: Contract.Result<Server.Route<'POST /v1/social/redeem'>>
  try {
    answer = await call(wallet, 'POST /v1/social/redeem', { flowId: social.flowId }, signal)
  } catch (error) {
    // A refused flow is over at the server (denied, expired, used, another device's): nothing is left to cancel.
    if (error instanceof Server.ServerError && refusedSocial.includes(error.status)) wallet.social = undefined
    throw socialError(error)
  }
  if (answer.state === 'pending') return 'pending'
  wallet.social = undefined
  // Farcaster proved an account that is no one's yet: the email the person adds next is its wallet's (docs/embedded-wallet.md §5).
  if (answer.state === 'needsEmail') {
    wallet.link = { flowId: social.flowId, profile: profileOf(answer) }
    return 'ADD_EMAIL'
  }
  return signedIn(wallet, answer, social, signal, profileOf(answer))
}

/**
 * The provider's name and picture as the server answered them (null or absent: not given). A picture the
 * frame would not take as a URL is left out, so it cannot cost the person their account's answer.
 */
function profileOf({ username, avatar }: { username?: string | null; avatar?: string | null }): Profile {
  return { ...(username && { username }), ...(avatar && S.url(avatar) && { avatar }) }
}

/** The person left (the window closed, Cancel, the modal closed): the flow ends at the server, so a late callback is refused. */
export async function cancelSocial(wallet: Wallet, signal?: AbortSignal): Promise<void> {
  const { social } = wallet
  wallet.social = undefined
  wallet.link = undefined
  await wallet.options.store.delete(redirectKey)
  if (social) await call(wallet, 'POST /v1/social/cancel', { flowId: social.flowId }, signal).catch(() => {})
}

/** The statuses of a social refusal the server words itself (API.md: 403 denied, invalid, unverifiedEmail, otherDevice; 404; 409; 410). */
const refusedSocial = [400, 403, 404, 409, 410]

/**
 * A social refusal keeps the server's message: it names the provider and says what to do, and it is what
 * the modal shows. A throttle, an outage or an abort reads as for the email login.
 */
function socialError(error: unknown): Errors.DoorwayError {
  if (error instanceof Server.ServerError && refusedSocial.includes(error.status)) return new Refusal(error.message, error.reason ?? `http${error.status}`)
  // The provider (Farcaster's relay) down or answering nonsense: the server says which, naming it.
  if (error instanceof Server.ServerError && (error.reason === 'providerDown' || error.reason === 'providerInvalid')) return new Refusal(error.message, error.reason)
  return toDoorwayError(error)
}

/** A new user's wallet: fresh entropy, its two splits, R2 sealed to the pinned vault key (docs/embedded-wallet.md §2). */
async function createWallet(wallet: Wallet, user: Verified['user'], signal: AbortSignal | undefined, profile: Profile): Promise<Account> {
  const { options } = wallet
  const deviceId = wallet.device!.id
  const secret = Shares.entropy()
  const address = Shares.evmAccount(secret).address
  const shares = await Shares.splitTwice(secret)
  const recovery2 = await Seal.seal(options.vaultPublicKey, shares.recovery2, new TextEncoder().encode(user.id))
  const up = async (share: Transport.Share, bytes: Uint8Array) => Base64url.encode(await Transport.up(options.serverPublicKey, share, deviceId, bytes))
  const body = { address, deviceShare: await up('deviceShare', shares.server), recovery1: await up('recovery1', shares.recovery1), recovery2: Base64url.encode(recovery2) }
  const { attestation } = await call(wallet, 'POST /v1/wallet', body, signal)
  // The vault registered this wallet for this email: later devices will check that statement.
  if (!(await Attest.verify(options.vaultSigningKey, { kind: 'wallet', userId: user.id, email: user.email, address }, attestation))) throw substituted(wallet)
  await Device.saveWallet(options.store, wallet.device!, { userId: user.id, email: user.email, address, share: shares.device })
  for (const share of Object.values(shares)) share.fill(0)
  return unlock(wallet, secret, user.email, profile)
}

type Ready = Extract<Contract.Result<Server.Route<'POST /v1/recovery'>>, { state: 'ready' }>

/**
 * VERIFY_DEVICE: asks until the person has approved this device from the vault's mail, then recovers
 * the wallet here. Ends with the wallet, a refusal (denied, expired link), or the signal.
 */
export async function awaitDevice(wallet: Wallet, signal?: AbortSignal): Promise<Account> {
  const { approval } = wallet
  if (!approval) throw new Errors.DoorwayError(secureText.expired)
  try {
    for (;;) {
      const answer = await call(wallet, 'POST /v1/recovery', {}, signal)
      if (answer.state === 'ready') return await recoverWallet(wallet, approval, answer, signal)
      await sleep(wallet.options.pollMs ?? 2_000, signal)
    }
  } catch (error) {
    throw toDoorwayError(error)
  }
}

/** Mails a new approval link for this device (the last one stops working); answers when it expires. */
export async function resendDevice(wallet: Wallet, signal?: AbortSignal): Promise<number> {
  const { approval } = wallet
  if (!approval) throw new Errors.DoorwayError(secureText.expired)
  try {
    return (await call(wallet, 'POST /v1/recovery/resend', { host: approval.host, attested: approval.attested }, signal)).expiresAt
  } catch (error) {
    throw toDoorwayError(error)
  }
}

/**
 * The approved device's recovery: the vault's statements must vouch for this email's wallet at this
 * address and for this re-seal to this device's key, or nothing is opened (a server cannot substitute a
 * wallet); then R1 + R2 rebuild the entropy, checked against the address, and the device gets its own pair.
 */
async function recoverWallet(wallet: Wallet, approval: NonNullable<Wallet['approval']>, ready: Ready, signal?: AbortSignal): Promise<Account> {
  const { options } = wallet
  const { user, email } = approval
  const device = wallet.device!
  const { address } = ready
  const sealedR2 = Base64url.decode(ready.recovery2)
  const vouched =
    (await Attest.verify(options.vaultSigningKey, { kind: 'wallet', userId: user.id, email, address }, ready.wallet)) &&
    (await Attest.verify(
      options.vaultSigningKey,
      { kind: 'reseal', userId: user.id, email, address, device: await Attest.fingerprint(await Seal.exportPublicKey(device.sealPair.publicKey)), sealed: await Attest.fingerprint(sealedR2) },
      ready.reseal,
    ))
  if (!vouched) throw substituted(wallet)
  const r1 = await down(wallet, 'recovery1', user.id, ready.recovery1)
  const r2 = await Seal.open(device.sealPair.privateKey, sealedR2, new TextEncoder().encode(user.id)).catch(() => {
    throw tampered(wallet)
  })
  const secret = await combine(wallet, r1, r2, address)
  // A fresh device pair for this device; the recovery pair stays as it is.
  const [d, a] = (await split(secret, 2, 2)) as [Uint8Array, Uint8Array]
  const sealedA = await Transport.up(options.serverPublicKey, 'deviceShare', device.id, a)
  await call(wallet, 'POST /v1/devices/share', { deviceShare: Base64url.encode(sealedA) }, signal)
  await Device.saveWallet(options.store, device, { userId: user.id, email, address: address as `0x${string}`, share: d })
  d.fill(0)
  a.fill(0)
  wallet.approval = undefined
  return unlock(wallet, secret, email, approval.profile)
}

/** A share that came down sealed to this device's seal key; one that does not open was altered or misdirected. */
async function down(wallet: Wallet, share: Transport.Share, userId: string, sealed: string): Promise<Uint8Array> {
  const device = wallet.device!
  return Transport.openDown(device.sealPair.privateKey, share, userId, device.id, Base64url.decode(sealed)).catch(() => {
    throw tampered(wallet)
  })
}

/** Waits `ms`, or rejects with an AbortError when the signal ends first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer)
      reject(new DOMException('Aborted', 'AbortError'))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted)
      resolve()
    }, ms)
    if (signal?.aborted) aborted()
    else signal?.addEventListener('abort', aborted, { once: true })
  })
}

/**
 * The key for one signature: in memory, or rebuilt from D + A after the idle lock. The session is
 * confirmed with the server first, even while the key is in memory, so a device removed from another one
 * (docs/embedded-wallet.md §10) signs nothing more.
 */
export async function account(wallet: Wallet, signal?: AbortSignal): Promise<LocalAccount> {
  return (await unlocked(wallet, signal)).account
}

/** The Solana key for one signature, as `account`: the session confirmed first, rebuilt from D + A after the idle lock. */
export async function solana(wallet: Wallet, signal?: AbortSignal): Promise<Solana.Key> {
  return (await unlocked(wallet, signal)).solana
}

async function unlocked(wallet: Wallet, signal?: AbortSignal): Promise<Unlocked> {
  // Before the first call of the page the device is unknown here: restore's own POST /v1/session confirms.
  if (wallet.device?.enrolled) await confirmSession(wallet, signal)
  if (!wallet.unlocked) {
    const restored = await restore(wallet, signal)
    if (!restored || !wallet.unlocked) throw Errors.unauthorized()
  }
  const current = wallet.unlocked as Unlocked
  clearTimeout(current.timer)
  current.timer = setTimeout(() => lock(wallet), idleMs)
  return current
}

/**
 * A cheap signed POST /v1/session/check. A refusal (the device removed, the session ended or run out)
 * locks the wallet and forgets this device's wallet, so nothing more is signed here: 4100. A removed
 * device forgets its key too.
 */
async function confirmSession(wallet: Wallet, signal?: AbortSignal): Promise<void> {
  try {
    // Not `call`: a removed device reads as unknown, and must not be enrolled again under its id.
    await wallet.server.send('POST /v1/session/check', {}, signal)
  } catch (error) {
    if (!(error instanceof Server.ServerError && error.status === 401)) throw toDoorwayError(error)
    lock(wallet)
    await Device.forgetWallet(wallet.options.store)
    // A removed device's id stays refused at the server (its enrolment is 'taken'): a later sign-in here
    // enrols a new key under a new id, which the person approves from their mail like any new device.
    if (error.reason === 'unknownDevice') {
      await wallet.options.store.delete('device')
      wallet.device = undefined
    }
    throw Errors.unauthorized()
  }
}

/**
 * Key export, step 1 (docs/embedded-wallet.md §8): a sign-in of the last 5 minutes is fresh enough; otherwise the
 * server mails a fresh code to the wallet's email (`sent`).
 */
export async function exportCode(wallet: Wallet, origin: { host: string; attested: boolean }, signal?: AbortSignal): Promise<{ email: string; sent: boolean }> {
  const record = await Device.wallet(wallet.options.store)
  if (!record) throw Errors.unauthorized()
  let started: Contract.Result<Server.Route<'POST /v1/export/code'>>
  try {
    started = await call(wallet, 'POST /v1/export/code', origin, signal)
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
  const a = await down(wallet, 'deviceShare', record.userId, released.deviceShare)
  return combine(wallet, d, a, record.address)
}

/** Ends the session on this device: the server deletes A, and D is forgotten here. */
export async function signOut(wallet: Wallet, signal?: AbortSignal): Promise<void> {
  lock(wallet)
  await cancelEmail(wallet)
  await cancelSocial(wallet)
  wallet.approval = wallet.exportChallenge = undefined
  const had = await Device.wallet(wallet.options.store)
  await Device.forgetWallet(wallet.options.store)
  if (had) await call(wallet, 'POST /v1/session/end', {}, signal).catch(() => {})
}

/** Drops the account from memory; the next signature rebuilds it from D + A. */
export function lock(wallet: Wallet): void {
  if (wallet.unlocked) {
    clearTimeout(wallet.unlocked.timer)
    Solana.forget(wallet.unlocked.solana)
  }
  wallet.unlocked = undefined
}

/** The device key, enrolled with the server (again, if the server forgot it). */
async function enrolled(wallet: Wallet, signal?: AbortSignal, again: boolean | 'fresh' = false): Promise<Device.Key> {
  wallet.device ??= await Device.key(wallet.options.store)
  if (wallet.device.enrolled && !again) return wallet.device
  const publicKey = Base64url.encode(new Uint8Array(await crypto.subtle.exportKey('raw', wallet.device.keyPair.publicKey)))
  const sealKey = Base64url.encode(await Seal.exportPublicKey(wallet.device.sealPair.publicKey))
  try {
    await wallet.server.send('POST /v1/devices', { deviceId: wallet.device.id, publicKey, sealKey }, signal)
  } catch (error) {
    // The id is no longer this key's at the server (the person removed this device): start as a new device.
    if (!(error instanceof Server.ServerError && error.status === 409) || again === 'fresh') throw error
    await Device.forgetWallet(wallet.options.store)
    await wallet.options.store.delete('device')
    wallet.device = undefined
    return enrolled(wallet, signal, 'fresh')
  }
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

function unlock(wallet: Wallet, secret: Uint8Array, email: string, profile: Profile): Account {
  lock(wallet)
  const account = Shares.evmAccount(secret)
  // The same verified entropy: the EVM address check covers the Solana key too.
  const solana = Solana.fromEntropy(secret)
  secret.fill(0)
  wallet.unlocked = { account, solana, email, timer: setTimeout(() => lock(wallet), idleMs) }
  return { email, address: account.address, solanaAddress: solana.address, ...profile }
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

/** A wallet the vault did not vouch for: a server substituting another wallet on a new device. Nothing is opened. */
function substituted(wallet: Wallet): Errors.DoorwayError {
  wallet.options.onTampered?.()
  return new Errors.DoorwayError(secureText.substituted)
}

/** A share or an address that is not what this device committed to: reported, and nothing is signed. */
function tampered(wallet: Wallet): Errors.DoorwayError {
  wallet.options.onTampered?.()
  return new Errors.DoorwayError(secureText.tampered)
}

/**
 * A refusal as the login screens need it: the message, plus the server's reason and how long to wait, so
 * a throttle can count down and an exhausted code can close its fields (docs/embedded-wallet.md §4).
 */
export class Refusal extends Errors.DoorwayError {
  override readonly name: string = 'Refusal'
  constructor(
    message: string,
    readonly reason: string,
    /** Seconds until asking again can succeed, for the refusals that end by themselves. */
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

/** The server's refusal as the message the modal shows (docs/embedded-wallet.md §4: each case its own message). */
export function toDoorwayError(error: unknown): Errors.DoorwayError {
  if (error instanceof Errors.DoorwayError) return error
  if (error instanceof DOMException && error.name === 'AbortError') return Errors.aborted()
  if (!(error instanceof Server.ServerError)) return new Errors.DoorwayError(secureText.unavailable, { cause: error })
  const n = error.retryAfter ?? 30
  const waiting = (text: string) => new Refusal(format(text, { n }), error.reason!, n)
  const refused = (text: string) => new Refusal(text, error.reason!)
  switch (error.reason) {
    case 'throttled':
      return waiting(emailLoginThrottled)
    case 'hourly':
      return waiting(secureText.hourly)
    case 'approvalThrottled':
      return waiting(secureText.approvalThrottled)
    case 'rateLimited':
      return waiting(secureText.rateLimited)
    case 'locked':
      return refused(secureText.locked)
    case 'wrong':
      // The last wrong attempt spends the code: the screen treats it as exhausted.
      if (!error.attemptsLeft) return new Refusal(secureText.wrongLast, 'exhausted')
      return refused(error.attemptsLeft === 1 ? secureText.wrongOne : format(secureText.wrong, { n: error.attemptsLeft }))
    case 'expired':
    case 'unknown':
      return new Refusal(secureText.expired, 'expired')
    case 'used':
      return refused(secureText.used)
    case 'exhausted':
      return refused(secureText.exhausted)
    case 'otherDevice':
      return refused(secureText.otherDevice)
    case 'mail':
      return refused(secureText.mailFailed)
    case 'denied':
      return refused(secureText.approvalDenied)
    case 'notApproved':
      return refused(secureText.approvalExpired)
  }
  if (error.status === 400 && /email/i.test(error.message)) return new Errors.DoorwayError(secureText.invalid)
  if (error.status === 400 && /code/i.test(error.message)) return new Errors.DoorwayError(secureText.codeInvalid)
  return new Errors.DoorwayError(error.status >= 500 ? secureText.unavailable : error.message)
}
