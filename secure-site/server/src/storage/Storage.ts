/**
 * What the secure-site server keeps (docs/embedded-wallet.md §9), behind one interface: an embedded
 * PGlite database by default, PostgreSQL for operators running several instances. Shares arrive here
 * already encrypted (A_i and R1 under KEK_A) or sealed (R2, to the vault): the storage never holds a
 * key, a share in clear or a code. `import * as Storage from './storage/Storage.js'`.
 */
import type { FlowProvider } from '@doorway/shared/contracts/secureSite'
import * as Pool from '@doorway/storage/Pool'
import type * as Otp from '../Otp.js'

export type User = {
  id: string
  email: string
  /** The wallet's EVM address, the commitment every combine is checked against; null before a wallet exists. */
  address: string | null
  /** The vault's signature over (user, email, address) when it registered the wallet (common/Attest.ts). */
  attestation: string | null
  createdAt: number
}

export type Device = {
  id: string
  /** The device's ECDSA P-256 public key, the uncompressed point as base64url. */
  publicKey: string
  /** The device's ECDH P-256 seal key, base64url: shares coming down are sealed to it (common/Transport.ts). */
  sealKey: string
  /** The user a verified code linked it to. */
  userId: string | null
  createdAt: number
  lastSeen: number
  /** When the code that started its session was verified; null when it has no session. */
  sessionStartedAt: number | null
  /** When this device last verified a code (fresh auth, docs/embedded-wallet.md §3). */
  freshAuthAt: number | null
  revoked: boolean
  /** The provider's name and picture of the social sign-in that started its session (spec §3 Account user.username); null after a code, and once the session ended. */
  socialUsername: string | null
  socialAvatar: string | null
}

/** What a social sign-in's session keeps of the provider's profile, for the person to see again after a reload. */
export type SessionProfile = { username: string | null; avatar: string | null }

/** A device as its user sees it: where it last verified a code (null before that was kept), and whether it was removed. */
export type DeviceSummary = {
  id: string
  sealKey: string
  createdAt: number
  lastSeen: number
  origin: string | null
  attested: boolean
  browser: string | null
  revoked: boolean
  revokedAt: number | null
}

/** A code challenge as stored: the policy's record and the host the mail named. */
export type Challenge = Otp.Challenge & { host: string; attested: boolean }

/** A token bucket as stored (limits.ts): the tokens it held after its last spend, and when that was. */
export type Bucket = { tokens: number; updatedAt: number }

/** A wallet's recovery pair: R1 under KEK_A, R2 sealed to the vault (docs/embedded-wallet.md §2). */
export type Recovery = { recovery1: Uint8Array; recovery2: Uint8Array; mode: 'automatic' }

/** An audit entry as it is chained (Audit.ts): the hash covers the previous hash and the entry. */
export type AuditEntry = {
  userId: string
  seq: number
  at: number
  kind: string
  detail: Record<string, unknown>
  prevHash: string
  hash: string
}

/**
 * Where a social sign-in is (social/Flow.ts, docs/embedded-wallet.md §5): `started` by the device,
 * `authorizing` once the popup went to the provider (Farcaster: once its relay channel is open), `verifying`
 * while the one callback (Farcaster: the one redeem) that took it checks the provider's answer, then `done`
 * (a profile), `failed` (a reason), `cancelled`, or `redeemed` by the device.
 */
export type SocialStatus = 'started' | 'authorizing' | 'verifying' | 'done' | 'failed' | 'cancelled' | 'redeemed'

/** The person as the provider answered: its stable subject (Farcaster's: the fid) and what it says of their email, name and picture. */
export type SocialProfile = { subject: string; email: string | null; emailVerified: boolean; username: string | null; avatar: string | null }

/** A social sign-in, bound to the device that started it; its profile once the provider's answer was checked. */
export type SocialFlow = {
  id: string
  deviceId: string
  provider: FlowProvider
  /** The dapp's origin, as email/start's `host`, and whether the browser attested it. */
  host: string
  attested: boolean
  /** The authorization request's `state` and `nonce`, and its PKCE verifier (cleared once the callback is done with it). */
  state: string
  nonce: string
  codeVerifier: string | null
  status: SocialStatus
  /** Why it `failed`: denied, invalid, unverifiedEmail. */
  reason: string | null
  profile: SocialProfile | null
  /** The user it signed in, once redeemed. */
  userId: string | null
  createdAt: number
  expiresAt: number
  finishedAt: number | null
  /** Redirect mode: the dapp's page the person goes back to once the provider answered (spec §7 social-redirect). */
  returnTo: string | null
  /** Farcaster: the relay channel the person's Farcaster app answers on. */
  channelToken: string | null
}

/** A provider's account waiting for the wallet owner's approval of the device before it becomes their identity. */
export type PendingLink = { provider: FlowProvider; subject: string; userId: string; deviceId: string }

export type Storage = {
  users: {
    get(id: string): Promise<User | undefined>
    byEmail(email: string): Promise<User | undefined>
    /** The user of this email, created with `id` when there is none yet (a concurrent first sign-in gets the same user). */
    ensure(options: { id: string; email: string; now: number }): Promise<{ user: User; created: boolean }>
  }
  devices: {
    get(id: string): Promise<Device | undefined>
    /** 'taken' when the id belongs to another key (or a revoked device). */
    enrol(options: { id: string; publicKey: string; sealKey: string; now: number }): Promise<'created' | 'same' | 'taken'>
    touch(id: string, now: number): Promise<void>
    /**
     * Links the device to the user and starts a session with fresh auth, now. A sign-in names its profile:
     * a social sign-in's, or null for a code, which leaves none. Without one (a code verified within the
     * session, the approval that ends a sign-in) the session keeps the profile it has.
     */
    startSession(id: string, userId: string, now: number, profile?: SessionProfile | null): Promise<void>
    /** Ends its session, and forgets the session's profile. */
    endSession(id: string): Promise<void>
    /** Notes where the device just verified a code: the dapp's origin and its browser, as the person sees them (GET /v1/devices). */
    describe(id: string, seen: { origin: string; attested: boolean; browser: string }): Promise<void>
    /** The user's devices, newest first, revoked ones too. */
    list(userId: string): Promise<DeviceSummary[]>
    /**
     * Removes the user's device (docs/embedded-wallet.md §10), in one transaction: marks it revoked, ends its
     * session and deletes its share A. False when it is not the user's or was removed already.
     */
    revoke(options: { id: string; userId: string; now: number }): Promise<boolean>
  }
  challenges: {
    /**
     * Stores the challenge unless `refuse`, given the challenges of the last hour for its email or its
     * device and the email's failures of the last 24 h from every source (oldest first), answers a
     * refusal. Atomic across instances.
     */
    start<R>(challenge: Challenge, refuse: (recent: Challenge[], failures: Otp.Failure[]) => R | undefined): Promise<R | undefined>
    /**
     * Decides one attempt at a challenge, given the email's failures of the last 24 h from every source
     * (oldest first) and serialised with any other attempt at it: 'ok' marks it used, 'wrong' spends an
     * attempt and records a failure for the email, from `source` (limits.ts; 'unknown' when absent) and
     * the challenge's device. Undefined for an unknown challenge.
     */
    attempt<O extends string>(
      id: string,
      now: number,
      decide: (challenge: Challenge, failures: Otp.Failure[]) => O,
      source?: string,
    ): Promise<{ challenge: Challenge; outcome: O; failures: Otp.Failure[] } | undefined>
    /** Drops a challenge whose mail was never sent, so it counts toward no throttle. */
    withdraw(id: string): Promise<void>
    /**
     * Ends this device's unused challenge (the person left): it can no longer be verified, and still counts
     * toward the throttle. Answers its email, or undefined when there was no such open challenge.
     */
    cancel(id: string, deviceId: string, now: number): Promise<string | undefined>
  }
  wallets: {
    /** Stores a new wallet (the address, the first device's A, R1, sealed R2); false when the user has one. */
    create(options: {
      userId: string
      address: string
      attestation: string
      deviceId: string
      deviceShare: Uint8Array
      recovery1: Uint8Array
      recovery2: Uint8Array
      now: number
    }): Promise<boolean>
    recovery(userId: string): Promise<Recovery | undefined>
    deviceShare(userId: string, deviceId: string): Promise<Uint8Array | undefined>
    putDeviceShare(options: { userId: string; deviceId: string; share: Uint8Array; now: number }): Promise<void>
    deleteDeviceShare(userId: string, deviceId: string): Promise<void>
  }
  buckets: {
    /**
     * Gives `spend` the bucket stored under `key` (undefined when there is none) and stores the bucket it
     * answers, serialised with every other spend of that key across instances; answers `spend`'s result.
     */
    spend<R>(key: string, spend: (bucket: Bucket | undefined) => { bucket: Bucket; result: R }): Promise<R>
    /** Drops the buckets last spent at or before `before` (full again by then, so the same as none). */
    prune(before: number): Promise<void>
  }
  social: {
    /** Stores a new flow and cancels the device's other flows not yet redeemed (one live flow per device); answers their ids. */
    start(flow: SocialFlow): Promise<string[]>
    get(id: string): Promise<SocialFlow | undefined>
    byState(state: string): Promise<SocialFlow | undefined>
    /**
     * started → authorizing, unless it expired by `now`, with where a redirect returns or the Farcaster
     * channel it waits on; false when it was not a started, live flow.
     */
    authorize(id: string, now: number, options?: { returnTo?: string; channelToken?: string }): Promise<boolean>
    /**
     * authorizing → verifying, for the callback carrying its `state`, unless it expired by `now`: one
     * callback takes it, so a replayed answer cannot. The flow taken, or undefined.
     */
    claim(state: string, now: number): Promise<SocialFlow | undefined>
    /** verifying → done with the profile, or failed with the reason; false when it is no longer verifying (cancelled meanwhile). */
    finish(id: string, outcome: { profile: SocialProfile } | { reason: string }, now: number): Promise<boolean>
    /** done → failed with the reason (the profile cannot sign in); false when it was not done. */
    refuse(id: string, reason: string, now: number): Promise<boolean>
    /** done → redeemed by the user it signed in, once, unless it expired by `now`; false otherwise. */
    redeem(id: string, userId: string, now: number): Promise<boolean>
    /** The device's flow not yet done with → cancelled; false when there was none live. */
    cancel(id: string, deviceId: string, now: number): Promise<boolean>
    /** Drops the flows that expired at or before `before`. */
    prune(before: number): Promise<void>
  }
  identities: {
    /** The user a provider's account signs in, if it is linked to one. */
    userOf(provider: FlowProvider, subject: string): Promise<string | undefined>
    /** Links the account to the user; false when it is linked already (to whomever). */
    link(options: { provider: FlowProvider; subject: string; userId: string; now: number }): Promise<boolean>
    /** Keeps a link that waits for the wallet owner's approval of the device (routes/recovery.ts). */
    requestLink(link: PendingLink & { now: number }): Promise<void>
    /**
     * The device's pending links for the user, asked for after `since`, become identities, in one
     * transaction; every pending link of the device for the user is dropped. Answers the accounts linked.
     */
    confirmLinks(options: { deviceId: string; userId: string; since: number; now: number }): Promise<{ provider: FlowProvider; subject: string }[]>
    /** The pending links of a device (tests, and what a person's support would look at). */
    pending(deviceId: string): Promise<PendingLink[]>
  }
  nonces: {
    /** True when this device's nonce was not seen before (Stamp.Nonces). */
    claim(deviceId: string, nonce: string, expiresAt: number): Promise<boolean>
    prune(now: number): Promise<void>
  }
  audit: {
    /** Appends to the user's chain (append-only, hash-chained per user). */
    append(userId: string, entry: { at: number; kind: string; detail: Record<string, unknown> }): Promise<AuditEntry>
    list(userId: string): Promise<AuditEntry[]>
    /** The chain's newest link, or undefined for a user with no entry. */
    head(userId: string): Promise<{ seq: number; hash: string } | undefined>
  }
  close(): Promise<void>
}

export type Config = Pool.Config

export async function open(config: Config): Promise<Storage> {
  return (await import('./sql.js')).open(config)
}

/** A postgres:// URL selects PostgreSQL; anything else is the embedded database's directory. */
export const fromString: (value: string) => Config = Pool.fromString
