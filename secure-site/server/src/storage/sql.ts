/**
 * The one SQL behind both stores (docs/embedded-wallet.md §9): schema and queries over the Sql.Client
 * that PGlite and a `pg` Pool both give (@doorway/storage), so the embedded and the PostgreSQL store
 * cannot drift apart. Decisions (code policy, sessions) live in Otp.ts and the routes; this file only
 * keeps rows and makes the few multi-step changes atomic.
 */
import * as Migrations from '@doorway/storage/Migrations'
import * as Pool from '@doorway/storage/Pool'
import type { Client, Queryable } from '@doorway/storage/Sql'
import * as Audit from '../Audit.js'
import * as Otp from '../Otp.js'
import type { AuditEntry, Bucket, Challenge, Device, DeviceSummary, PendingLink, Recovery, SocialFlow, SocialProfile, Storage, User } from './Storage.js'

// Idempotent too: databases made before migrations were recorded run it once more, changing nothing.
export const schema = `
CREATE TABLE IF NOT EXISTS users (
  id text PRIMARY KEY,
  address text,
  created_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS identities (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  created_at bigint NOT NULL,
  PRIMARY KEY (provider, subject)
);
CREATE INDEX IF NOT EXISTS identities_by_user ON identities (user_id);
CREATE TABLE IF NOT EXISTS devices (
  id text PRIMARY KEY,
  public_key text NOT NULL,
  user_id text REFERENCES users (id),
  created_at bigint NOT NULL,
  last_seen bigint NOT NULL,
  session_started_at bigint,
  fresh_auth_at bigint,
  revoked boolean NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS device_shares (
  user_id text NOT NULL REFERENCES users (id),
  device_id text NOT NULL REFERENCES devices (id),
  share bytea NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (user_id, device_id)
);
CREATE TABLE IF NOT EXISTS recovery (
  user_id text PRIMARY KEY REFERENCES users (id),
  recovery1 bytea NOT NULL,
  recovery2 bytea NOT NULL,
  mode text NOT NULL CHECK (mode IN ('automatic')),
  created_at bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS otp_challenges (
  id text PRIMARY KEY,
  email text NOT NULL,
  device_id text NOT NULL REFERENCES devices (id),
  host text NOT NULL,
  digest text NOT NULL,
  attempts integer NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX IF NOT EXISTS otp_challenges_by_email ON otp_challenges (email, created_at);
CREATE INDEX IF NOT EXISTS otp_challenges_by_device ON otp_challenges (device_id, created_at);
CREATE TABLE IF NOT EXISTS otp_failures (
  seq bigserial PRIMARY KEY,
  email text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS otp_failures_by_email ON otp_failures (email, at);
CREATE TABLE IF NOT EXISTS nonces (
  device_id text NOT NULL,
  nonce text NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (device_id, nonce)
);
CREATE INDEX IF NOT EXISTS nonces_by_expiry ON nonces (expires_at);
CREATE TABLE IF NOT EXISTS audit_log (
  user_id text NOT NULL REFERENCES users (id),
  seq integer NOT NULL,
  at bigint NOT NULL,
  kind text NOT NULL,
  detail jsonb NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (user_id, seq)
);
-- Append-only in the database too: the server's own bugs cannot rewrite history (a thief with the
-- database can, and the hash chain shows it).
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END
$$;
CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
`

/**
 * Applied once per database, in order, under the advisory lock the schema script always took, so several
 * instances can start at once. A change to the schema is a new migration at the end.
 */
export const migrations: Migrations.Migration[] = [
  { name: '1-schema', sql: schema },
  // docs/embedded-wallet.md §2: shares come down sealed to the device's seal key; the vault vouches for the address.
  // Devices and wallets made before have none: a device enrols again with a new id; such a wallet cannot be recovered.
  {
    name: '2-custody',
    sql: `ALTER TABLE devices ADD COLUMN seal_key text NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN attestation text;
ALTER TABLE otp_challenges ADD COLUMN attested boolean NOT NULL DEFAULT false;`,
  },
  // Per-network limits (limits.ts): a failure counts toward the lockout of its source, and each client
  // network has a token bucket per route group, shared by every instance. Older failures have no source.
  {
    name: '3-limits',
    sql: `ALTER TABLE otp_failures ADD COLUMN source text NOT NULL DEFAULT 'unknown';
ALTER TABLE otp_failures ADD COLUMN device_id text;
CREATE TABLE rate_buckets (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX rate_buckets_by_update ON rate_buckets (updated_at);`,
  },
  // docs/embedded-wallet.md §10: the person sees their devices (where each last verified a code, its
  // browser) and removes one from another. Devices from before have no origin or browser yet.
  {
    name: '4-devices',
    sql: `ALTER TABLE devices ADD COLUMN origin text;
ALTER TABLE devices ADD COLUMN attested boolean NOT NULL DEFAULT false;
ALTER TABLE devices ADD COLUMN browser text;
ALTER TABLE devices ADD COLUMN revoked_at bigint;
CREATE INDEX devices_by_user ON devices (user_id, created_at);`,
  },
  // docs/embedded-wallet.md §5: a social sign-in is a flow bound to the device that started it, found again
  // by its `state` when the provider answers. A provider's account whose email is a wallet's waits in
  // social_links_pending until the owner approves the device; only then is it an identity.
  {
    name: '5-social',
    sql: `CREATE TABLE social_flows (
  id text PRIMARY KEY,
  device_id text NOT NULL REFERENCES devices (id),
  provider text NOT NULL,
  host text NOT NULL,
  attested boolean NOT NULL,
  state text NOT NULL UNIQUE,
  nonce text NOT NULL,
  code_verifier text,
  status text NOT NULL CHECK (status IN ('started', 'authorizing', 'verifying', 'done', 'failed', 'cancelled', 'redeemed')),
  reason text,
  subject text,
  email text,
  email_verified boolean,
  username text,
  avatar text,
  user_id text REFERENCES users (id),
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  finished_at bigint
);
CREATE INDEX social_flows_by_device ON social_flows (device_id, status);
CREATE INDEX social_flows_by_expiry ON social_flows (expires_at);
CREATE TABLE social_links_pending (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  device_id text NOT NULL REFERENCES devices (id),
  created_at bigint NOT NULL,
  PRIMARY KEY (provider, subject, user_id, device_id)
);
CREATE INDEX social_links_pending_by_device ON social_links_pending (device_id, user_id);`,
  },
  // spec §3 Account user.username: the name and picture the provider gave at a social sign-in, kept with the
  // session it started (docs/embedded-wallet.md §5) so a returning device shows them; gone when it ends.
  {
    name: '6-social-profile',
    sql: `ALTER TABLE devices ADD COLUMN social_username text;
ALTER TABLE devices ADD COLUMN social_avatar text;`,
  },
  // Redirect mode (spec §7 social-redirect): where the provider's answer sends the person back, set when the
  // top window opens /oauth/start. Farcaster: the relay channel the flow waits on (docs/embedded-wallet.md §5).
  {
    name: '7-social-redirect',
    sql: `ALTER TABLE social_flows ADD COLUMN return_to text;
ALTER TABLE social_flows ADD COLUMN channel_token text;`,
  },
]

// bigint columns come back as strings from `pg`; float8 is exact for millisecond times and is a number in both drivers.
const userColumns = `u.id, i.subject AS email, u.address, u.attestation, u.created_at::float8 AS "createdAt"`
const userFrom = `users u JOIN identities i ON i.user_id = u.id AND i.provider = 'email'`
const deviceColumns = `id, public_key AS "publicKey", seal_key AS "sealKey", user_id AS "userId", created_at::float8 AS "createdAt", last_seen::float8 AS "lastSeen",
  session_started_at::float8 AS "sessionStartedAt", fresh_auth_at::float8 AS "freshAuthAt", revoked, social_username AS "socialUsername", social_avatar AS "socialAvatar"`
const challengeColumns = `id, email, device_id AS "deviceId", host, attested, digest, attempts, created_at::float8 AS "createdAt",
  expires_at::float8 AS "expiresAt", used_at::float8 AS "usedAt"`
const flowColumns = `id, device_id AS "deviceId", provider, host, attested, state, nonce, code_verifier AS "codeVerifier", status, reason, subject, email,
  email_verified AS "emailVerified", username, avatar, user_id AS "userId", created_at::float8 AS "createdAt", expires_at::float8 AS "expiresAt",
  finished_at::float8 AS "finishedAt", return_to AS "returnTo", channel_token AS "channelToken"`
// A flow the device may still redeem or the provider still answer: what a new start or a cancel ends.
const liveFlow = `status IN ('started', 'authorizing', 'verifying', 'done')`
const auditColumns = `user_id AS "userId", seq, at::float8 AS at, kind, detail, prev_hash AS "prevHash", hash`

export const queries = {
  user: `SELECT ${userColumns} FROM ${userFrom} WHERE u.id = $1`,
  userByEmail: `SELECT ${userColumns} FROM ${userFrom} WHERE i.subject = $1`,
  insertUser: `INSERT INTO users (id, created_at) VALUES ($1, $2)`,
  // No row back: the email was claimed first by a concurrent sign-in.
  insertIdentity: `INSERT INTO identities (provider, subject, user_id, created_at) VALUES ('email', $1, $2, $3)
    ON CONFLICT (provider, subject) DO NOTHING RETURNING user_id`,
  deleteUser: `DELETE FROM users WHERE id = $1`,
  device: `SELECT ${deviceColumns} FROM devices WHERE id = $1`,
  insertDevice: `INSERT INTO devices (id, public_key, seal_key, created_at, last_seen) VALUES ($1, $2, $4, $3, $3)
    ON CONFLICT (id) DO NOTHING RETURNING id`,
  touchDevice: `UPDATE devices SET last_seen = GREATEST(last_seen, $2) WHERE id = $1`,
  startSession: `UPDATE devices SET user_id = $2, session_started_at = $3, fresh_auth_at = $3, last_seen = $3 WHERE id = $1`,
  // A sign-in's session: as startSession, and the provider's profile in place of the last one (none after a code).
  signIn: `UPDATE devices SET user_id = $2, session_started_at = $3, fresh_auth_at = $3, last_seen = $3, social_username = $4, social_avatar = $5 WHERE id = $1`,
  endSession: `UPDATE devices SET session_started_at = NULL, fresh_auth_at = NULL, social_username = NULL, social_avatar = NULL WHERE id = $1`,
  describeDevice: `UPDATE devices SET origin = $2, attested = $3, browser = $4 WHERE id = $1`,
  userDevices: `SELECT id, seal_key AS "sealKey", created_at::float8 AS "createdAt", last_seen::float8 AS "lastSeen", origin, attested, browser, revoked,
    revoked_at::float8 AS "revokedAt" FROM devices WHERE user_id = $1 ORDER BY created_at DESC, id`,
  // No row back: not this user's device, or removed already.
  revokeDevice: `UPDATE devices SET revoked = true, revoked_at = $3, session_started_at = NULL, fresh_auth_at = NULL, social_username = NULL, social_avatar = NULL
    WHERE id = $1 AND user_id = $2 AND NOT revoked RETURNING id`,
  lockChallenges: `SELECT pg_advisory_xact_lock(4242102)`,
  recentChallenges: `SELECT ${challengeColumns} FROM otp_challenges WHERE (email = $1 OR device_id = $2) AND created_at > $3
    ORDER BY created_at`,
  insertChallenge: `INSERT INTO otp_challenges (id, email, device_id, host, attested, digest, attempts, created_at, expires_at, used_at)
    VALUES ($1, $2, $3, $4, $10, $5, $6, $7, $8, $9)`,
  challengeForUpdate: `SELECT ${challengeColumns} FROM otp_challenges WHERE id = $1 FOR UPDATE`,
  spendAttempt: `UPDATE otp_challenges SET attempts = attempts + 1 WHERE id = $1`,
  markUsed: `UPDATE otp_challenges SET used_at = $2 WHERE id = $1`,
  withdrawChallenge: `DELETE FROM otp_challenges WHERE id = $1`,
  cancelChallenge: `UPDATE otp_challenges SET used_at = $3 WHERE id = $1 AND device_id = $2 AND used_at IS NULL RETURNING email`,
  insertFailure: `INSERT INTO otp_failures (email, at, source, device_id) VALUES ($1, $2, $3, $4)`,
  failures: `SELECT at::float8 AS at, source FROM otp_failures WHERE email = $1 AND at > $2 ORDER BY at, seq`,
  // One spend of a key at a time, across instances; another key's lock may share the hash and only waits.
  lockBucket: `SELECT pg_advisory_xact_lock(4242103, hashtext($1))`,
  bucket: `SELECT tokens, updated_at::float8 AS "updatedAt" FROM rate_buckets WHERE key = $1`,
  putBucket: `INSERT INTO rate_buckets (key, tokens, updated_at) VALUES ($1, $2, $3)
    ON CONFLICT (key) DO UPDATE SET tokens = EXCLUDED.tokens, updated_at = EXCLUDED.updated_at`,
  pruneBuckets: `DELETE FROM rate_buckets WHERE updated_at <= $1`,
  // No row back: the user has a wallet already.
  setAddress: `UPDATE users SET address = $2, attestation = $3 WHERE id = $1 AND address IS NULL RETURNING id`,
  insertRecovery: `INSERT INTO recovery (user_id, recovery1, recovery2, mode, created_at) VALUES ($1, $2, $3, 'automatic', $4)`,
  recovery: `SELECT recovery1, recovery2, mode FROM recovery WHERE user_id = $1`,
  deviceShare: `SELECT share FROM device_shares WHERE user_id = $1 AND device_id = $2`,
  putDeviceShare: `INSERT INTO device_shares (user_id, device_id, share, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (user_id, device_id) DO UPDATE SET share = EXCLUDED.share, created_at = EXCLUDED.created_at`,
  deleteDeviceShare: `DELETE FROM device_shares WHERE user_id = $1 AND device_id = $2`,
  claimNonce: `INSERT INTO nonces (device_id, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING nonce`,
  pruneNonces: `DELETE FROM nonces WHERE expires_at <= $1`,
  lastAudit: `SELECT seq, hash FROM audit_log WHERE user_id = $1 ORDER BY seq DESC LIMIT 1`,
  // No row back: a concurrent append took this seq; the caller chains onto it instead.
  appendAudit: `INSERT INTO audit_log (user_id, seq, at, kind, detail, prev_hash, hash) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)
    ON CONFLICT (user_id, seq) DO NOTHING RETURNING seq`,
  listAudit: `SELECT ${auditColumns} FROM audit_log WHERE user_id = $1 ORDER BY seq`,
  cancelDeviceFlows: `UPDATE social_flows SET status = 'cancelled', finished_at = $2 WHERE device_id = $1 AND ${liveFlow} RETURNING id`,
  insertFlow: `INSERT INTO social_flows (id, device_id, provider, host, attested, state, nonce, code_verifier, status, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  flow: `SELECT ${flowColumns} FROM social_flows WHERE id = $1`,
  flowByState: `SELECT ${flowColumns} FROM social_flows WHERE state = $1`,
  // No row back: not in the state the step needs, or expired.
  authorizeFlow: `UPDATE social_flows SET status = 'authorizing', return_to = $3, channel_token = $4 WHERE id = $1 AND status = 'started' AND expires_at > $2 RETURNING id`,
  claimFlow: `UPDATE social_flows SET status = 'verifying' WHERE state = $1 AND status = 'authorizing' AND expires_at > $2 RETURNING ${flowColumns}`,
  finishFlow: `UPDATE social_flows SET status = $2, reason = $3, subject = $4, email = $5, email_verified = $6, username = $7, avatar = $8,
    finished_at = $9, code_verifier = NULL WHERE id = $1 AND status = 'verifying' RETURNING id`,
  refuseFlow: `UPDATE social_flows SET status = 'failed', reason = $2, finished_at = $3 WHERE id = $1 AND status = 'done' RETURNING id`,
  redeemFlow: `UPDATE social_flows SET status = 'redeemed', user_id = $2, finished_at = $3 WHERE id = $1 AND status = 'done' AND expires_at > $3 RETURNING id`,
  cancelFlow: `UPDATE social_flows SET status = 'cancelled', finished_at = $3 WHERE id = $1 AND device_id = $2 AND ${liveFlow} RETURNING id`,
  pruneFlows: `DELETE FROM social_flows WHERE expires_at <= $1`,
  identityUser: `SELECT user_id AS "userId" FROM identities WHERE provider = $1 AND subject = $2`,
  // No row back: the account is linked already.
  linkIdentity: `INSERT INTO identities (provider, subject, user_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (provider, subject) DO NOTHING RETURNING user_id`,
  requestLink: `INSERT INTO social_links_pending (provider, subject, user_id, device_id, created_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (provider, subject, user_id, device_id) DO UPDATE SET created_at = EXCLUDED.created_at`,
  confirmLinks: `INSERT INTO identities (provider, subject, user_id, created_at)
    SELECT provider, subject, user_id, $4 FROM social_links_pending WHERE device_id = $1 AND user_id = $2 AND created_at > $3
    ON CONFLICT (provider, subject) DO NOTHING RETURNING provider, subject`,
  dropLinks: `DELETE FROM social_links_pending WHERE device_id = $1 AND user_id = $2`,
  pendingLinks: `SELECT provider, subject, user_id AS "userId", device_id AS "deviceId" FROM social_links_pending WHERE device_id = $1 ORDER BY created_at, provider`,
} as const

/** The store on the database `config` names (PGlite or PostgreSQL), migrated. */
export async function open(config: Pool.Config): Promise<Storage> {
  return Pool.build(await Pool.open(config, { logPrefix: '[doorway:secure]' }), create)
}

/** The Storage over a migrated client; `close` releases the driver. */
export async function create(client: Client, close: () => Promise<void>): Promise<Storage> {
  await Migrations.run(client, { scope: 'secure', lock: 4242101, migrations })
  return {
    users: users(client),
    devices: devices(client),
    challenges: challenges(client),
    wallets: wallets(client),
    buckets: buckets(client),
    social: social(client),
    identities: identities(client),
    nonces: nonces(client),
    audit: audit(client),
    close,
  }
}

function users(client: Client): Storage['users'] {
  return {
    get: (id) => one<User>(client, queries.user, [id]),
    byEmail: (email) => one<User>(client, queries.userByEmail, [email]),
    async ensure({ id, email, now }) {
      const existing = await one<User>(client, queries.userByEmail, [email])
      if (existing) return { user: existing, created: false }
      const created = await client.transaction(async (tx) => {
        await tx.query(queries.insertUser, [id, now])
        const claimed = await one(tx, queries.insertIdentity, [email, id, now])
        if (!claimed) await tx.query(queries.deleteUser, [id])
        return Boolean(claimed)
      })
      return { user: (await one<User>(client, queries.userByEmail, [email]))!, created }
    },
  }
}

function devices(client: Client): Storage['devices'] {
  return {
    get: (id) => one<Device>(client, queries.device, [id]),
    async enrol({ id, publicKey, sealKey, now }) {
      if (await one(client, queries.insertDevice, [id, publicKey, now, sealKey])) return 'created'
      const device = await one<Device>(client, queries.device, [id])
      return device && device.publicKey === publicKey && device.sealKey === sealKey && !device.revoked ? 'same' : 'taken'
    },
    async touch(id, now) {
      await client.query(queries.touchDevice, [id, now])
    },
    async startSession(id, userId, now, profile) {
      if (profile === undefined) await client.query(queries.startSession, [id, userId, now])
      else await client.query(queries.signIn, [id, userId, now, profile?.username ?? null, profile?.avatar ?? null])
    },
    async endSession(id) {
      await client.query(queries.endSession, [id])
    },
    async describe(id, { origin, attested, browser }) {
      await client.query(queries.describeDevice, [id, origin, attested, browser])
    },
    list: async (userId) => (await client.query<DeviceSummary>(queries.userDevices, [userId])).rows,
    revoke: ({ id, userId, now }) =>
      client.transaction(async (tx) => {
        if (!(await one(tx, queries.revokeDevice, [id, userId, now]))) return false
        await tx.query(queries.deleteDeviceShare, [userId, id])
        return true
      }),
  }
}

function challenges(client: Client): Storage['challenges'] {
  return {
    start: (challenge, refuse) =>
      client.transaction(async (tx) => {
        // One start at a time, so two concurrent requests cannot both pass the 30 s throttle.
        await tx.query(queries.lockChallenges)
        const { id, email, deviceId, host, attested, digest, attempts, createdAt, expiresAt, usedAt } = challenge
        const recent = (await tx.query<Challenge>(queries.recentChallenges, [email, deviceId, createdAt - hourMs])).rows
        const failures = (await tx.query<Otp.Failure>(queries.failures, [email, createdAt - Otp.policy.lockoutMs])).rows
        const refusal = refuse(recent, failures)
        if (refusal === undefined) await tx.query(queries.insertChallenge, [id, email, deviceId, host, digest, attempts, createdAt, expiresAt, usedAt, attested])
        return refusal
      }),
    attempt: (id, now, decide, source = 'unknown') =>
      client.transaction(async (tx) => {
        const challenge = await one<Challenge>(tx, queries.challengeForUpdate, [id])
        if (!challenge) return undefined
        const failures = (await tx.query<Otp.Failure>(queries.failures, [challenge.email, now - Otp.policy.lockoutMs])).rows
        const outcome = decide(challenge, failures)
        if (outcome === 'ok') await tx.query(queries.markUsed, [id, now])
        if (outcome === 'wrong') {
          await tx.query(queries.spendAttempt, [id])
          await tx.query(queries.insertFailure, [challenge.email, now, source, challenge.deviceId])
        }
        return { challenge, outcome, failures }
      }),
    async withdraw(id) {
      await client.query(queries.withdrawChallenge, [id])
    },
    async cancel(id, deviceId, now) {
      return (await one<{ email: string }>(client, queries.cancelChallenge, [id, deviceId, now]))?.email
    },
  }
}

function wallets(client: Client): Storage['wallets'] {
  return {
    create: ({ userId, address, attestation, deviceId, deviceShare, recovery1, recovery2, now }) =>
      client.transaction(async (tx) => {
        if (!(await one(tx, queries.setAddress, [userId, address, attestation]))) return false
        await tx.query(queries.insertRecovery, [userId, bytea(recovery1), bytea(recovery2), now])
        await tx.query(queries.putDeviceShare, [userId, deviceId, bytea(deviceShare), now])
        return true
      }),
    async recovery(userId) {
      const row = await one<{ recovery1: Uint8Array; recovery2: Uint8Array; mode: Recovery['mode'] }>(client, queries.recovery, [userId])
      return row && { recovery1: bytes(row.recovery1), recovery2: bytes(row.recovery2), mode: row.mode }
    },
    async deviceShare(userId, deviceId) {
      const row = await one<{ share: Uint8Array }>(client, queries.deviceShare, [userId, deviceId])
      return row && bytes(row.share)
    },
    async putDeviceShare({ userId, deviceId, share, now }) {
      await client.query(queries.putDeviceShare, [userId, deviceId, bytea(share), now])
    },
    async deleteDeviceShare(userId, deviceId) {
      await client.query(queries.deleteDeviceShare, [userId, deviceId])
    },
  }
}

function buckets(client: Client): Storage['buckets'] {
  return {
    spend: (key, spend) =>
      client.transaction(async (tx) => {
        await tx.query(queries.lockBucket, [key])
        const { bucket, result } = spend(await one<Bucket>(tx, queries.bucket, [key]))
        await tx.query(queries.putBucket, [key, bucket.tokens, bucket.updatedAt])
        return result
      }),
    async prune(before) {
      await client.query(queries.pruneBuckets, [before])
    },
  }
}

type FlowRow = Omit<SocialFlow, 'profile'> & Partial<Record<'subject' | 'email' | 'username' | 'avatar', string | null>> & { emailVerified: boolean | null }

/** A flow as stored, its profile columns as one value (null until the provider's answer was checked). */
function flowOf(row: FlowRow | undefined): SocialFlow | undefined {
  if (!row) return undefined
  const { subject, email, emailVerified, username, avatar, ...flow } = row
  const profile: SocialProfile | null = subject ? { subject, email: email ?? null, emailVerified: emailVerified ?? false, username: username ?? null, avatar: avatar ?? null } : null
  return { ...flow, profile }
}

function social(client: Client): Storage['social'] {
  return {
    start: (flow) =>
      client.transaction(async (tx) => {
        const cancelled = (await tx.query<{ id: string }>(queries.cancelDeviceFlows, [flow.deviceId, flow.createdAt])).rows.map((row) => row.id)
        const { id, deviceId, provider, host, attested, state, nonce, codeVerifier, status, createdAt, expiresAt } = flow
        await tx.query(queries.insertFlow, [id, deviceId, provider, host, attested, state, nonce, codeVerifier, status, createdAt, expiresAt])
        return cancelled
      }),
    get: async (id) => flowOf(await one<FlowRow>(client, queries.flow, [id])),
    byState: async (state) => flowOf(await one<FlowRow>(client, queries.flowByState, [state])),
    authorize: async (id, now, { returnTo = null, channelToken = null } = {}) => Boolean(await one(client, queries.authorizeFlow, [id, now, returnTo, channelToken])),
    claim: async (state, now) => flowOf(await one<FlowRow>(client, queries.claimFlow, [state, now])),
    async finish(id, outcome, now) {
      const profile = 'profile' in outcome ? outcome.profile : undefined
      const params = profile
        ? [id, 'done', null, profile.subject, profile.email, profile.emailVerified, profile.username, profile.avatar, now]
        : [id, 'failed', 'reason' in outcome ? outcome.reason : null, null, null, null, null, null, now]
      return Boolean(await one(client, queries.finishFlow, params))
    },
    refuse: async (id, reason, now) => Boolean(await one(client, queries.refuseFlow, [id, reason, now])),
    redeem: async (id, userId, now) => Boolean(await one(client, queries.redeemFlow, [id, userId, now])),
    cancel: async (id, deviceId, now) => Boolean(await one(client, queries.cancelFlow, [id, deviceId, now])),
    async prune(before) {
      await client.query(queries.pruneFlows, [before])
    },
  }
}

function identities(client: Client): Storage['identities'] {
  return {
    userOf: async (provider, subject) => (await one<{ userId: string }>(client, queries.identityUser, [provider, subject]))?.userId,
    link: async ({ provider, subject, userId, now }) => Boolean(await one(client, queries.linkIdentity, [provider, subject, userId, now])),
    async requestLink({ provider, subject, userId, deviceId, now }) {
      await client.query(queries.requestLink, [provider, subject, userId, deviceId, now])
    },
    confirmLinks: ({ deviceId, userId, since, now }) =>
      client.transaction(async (tx) => {
        const linked = (await tx.query<{ provider: PendingLink['provider']; subject: string }>(queries.confirmLinks, [deviceId, userId, since, now])).rows
        await tx.query(queries.dropLinks, [deviceId, userId])
        return linked
      }),
    pending: async (deviceId) => (await client.query<PendingLink>(queries.pendingLinks, [deviceId])).rows,
  }
}

function nonces(client: Client): Storage['nonces'] {
  return {
    async claim(deviceId, nonce, expiresAt) {
      return Boolean(await one(client, queries.claimNonce, [deviceId, nonce, expiresAt]))
    },
    async prune(now) {
      await client.query(queries.pruneNonces, [now])
    },
  }
}

function audit(client: Client): Storage['audit'] {
  return {
    async append(userId, { at, kind, detail }) {
      // Optimistic: a concurrent append to the same chain wins the seq, and this one links after it.
      for (;;) {
        const last = await one<{ seq: number; hash: string }>(client, queries.lastAudit, [userId])
        const entry = { userId, seq: (last?.seq ?? 0) + 1, at, kind, detail }
        const prevHash = last?.hash ?? Audit.genesis
        const hash = Audit.hash(prevHash, entry)
        if (await one(client, queries.appendAudit, [userId, entry.seq, at, kind, JSON.stringify(detail), prevHash, hash])) return { ...entry, prevHash, hash }
      }
    },
    async list(userId) {
      return (await client.query<AuditEntry>(queries.listAudit, [userId])).rows
    },
    head: (userId) => one<{ seq: number; hash: string }>(client, queries.lastAudit, [userId]),
  }
}

/** The first row, if any. */
async function one<T>(db: Queryable, text: string, params: unknown[]): Promise<T | undefined> {
  return (await db.query<T>(text, params)).rows[0]
}

const hourMs = 3_600_000

// `pg` hands bytea back as a Buffer and takes one in; PGlite uses plain Uint8Arrays.
const bytea = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength)
const bytes = (value: Uint8Array) => new Uint8Array(value)
