/**
 * The vault's own database (docs/embedded-wallet.md §2): the wallets it registered, the approvals it
 * mailed, the devices the person approved, spent ticket ids, a hash-chained log per user, and the heads of
 * each user's audit chain on the server (docs/embedded-wallet.md §10). It holds no
 * key and no share in clear: R2 stays in the server's database, sealed; here only its fingerprint.
 * PGlite or PostgreSQL through @doorway/storage, with migrations of its own scope (`vault`) and `vault_`
 * tables, so it never collides with the server's schema even on one database. Every change that touches
 * the log locks the user's wallet row first, so a user's changes and their log entries go one at a time.
 * `import * as Store from './vault/store.js'`.
 */
import * as Migrations from '@doorway/storage/Migrations'
import * as Pool from '@doorway/storage/Pool'
import type { Client, Queryable } from '@doorway/storage/Sql'
import * as Audit from '../Audit.js'

export type Wallet = { userId: string; email: string; address: string; sealedFp: string; attestation: string; createdAt: number }

export type ApprovalState = 'pending' | 'approved' | 'denied' | 'superseded'

export type Approval = {
  id: string
  userId: string
  deviceFp: string
  origin: string
  attested: boolean
  browser: string
  createdAt: number
  expiresAt: number
  state: ApprovalState
  decidedAt: number | null
}

export type Device = { userId: string; deviceFp: string; origin: string; attested: boolean; browser: string; approvedAt: number; revokedAt: number | null }

export type LogEntry = Audit.Entry & { prevHash: string; hash: string }

/** The head of a user's audit chain on the server, as the server told it: the entry at `seq` has `hash`. */
export type AuditHead = { seq: number; hash: string }

/** At most `max` in any `windowMs`; a refusal says when the oldest counted leaves the window. */
export type Limit = { max: number; windowMs: number }
export type Throttled = { throttled: true; retryAt: number }

/** What the vault records in its log; never a share, a token or a key. */
export const kinds = {
  walletRegistered: 'wallet.registered',
  approvalRequested: 'approval.requested',
  approvalGranted: 'approval.granted',
  approvalDenied: 'approval.denied',
  recovery: 'recovery',
  deviceRevoked: 'device.revoked',
} as const
export type Kind = (typeof kinds)[keyof typeof kinds]

export type Store = {
  wallets: {
    get(userId: string): Promise<Wallet | undefined>
    /** `same` when this user registered these very values before (its wallet answered); `conflict` when the user or the email has others. */
    register(wallet: Wallet): Promise<{ outcome: 'created' | 'same'; wallet: Wallet } | { outcome: 'conflict' }>
  }
  approvals: {
    /** Supersedes the user's pending approvals of this device and adds this one, unless `limit` approvals were made in the window. */
    request(approval: Approval & { tokenHash: string }, limit: Limit): Promise<Throttled | { throttled: false }>
    byTokenHash(tokenHash: string): Promise<Approval | undefined>
    /** The newest approval of this user's device, whatever its state. */
    latest(userId: string, deviceFp: string): Promise<Approval | undefined>
    /**
     * Decides a pending, unexpired approval whose device was not revoked since it was asked; `approved`
     * also approves the device. Undefined when the approval was no longer open to a decision.
     */
    decide(id: string, decision: 'approved' | 'denied', now: number): Promise<Approval | undefined>
  }
  devices: {
    get(userId: string, deviceFp: string): Promise<Device | undefined>
    /** Marks an approved device revoked; false when it was not approved or already revoked. Logged either way. */
    revoke(userId: string, deviceFp: string, now: number): Promise<boolean>
  }
  auditHeads: {
    /**
     * Keeps a new head of the user's audit chain (docs/embedded-wallet.md §10): `stored` when it is ahead
     * of every head kept, `same` when this very head was kept, `rewritten` when it contradicts one (another
     * hash at a seq kept, or a seq behind the highest): the server's log was changed, and nothing is kept.
     */
    put(userId: string, head: AuditHead, now: number): Promise<'stored' | 'same' | 'rewritten'>
    /** The highest head kept for the user. */
    get(userId: string): Promise<AuditHead | undefined>
  }
  tickets: {
    /** Records a ticket id as spent until it expires: true the first time, false after. */
    spend(jti: string, expiresAt: number, now: number): Promise<boolean>
  }
  log: {
    /** Appends to the user's chain, or refuses when `limit` entries of this kind are in the window. */
    append(userId: string, entry: { at: number; kind: Kind; detail: Record<string, unknown> }, limit?: Limit): Promise<LogEntry | Throttled>
    list(userId: string): Promise<LogEntry[]>
    /** The chain's newest link, or undefined for a user with no entry. */
    head(userId: string): Promise<{ seq: number; hash: string } | undefined>
  }
  close(): Promise<void>
}

// One migration per change, appended; a released one is never edited (@doorway/storage/Migrations).
export const schema = `
CREATE TABLE vault_wallets (
  user_id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  address text NOT NULL,
  sealed_fp text NOT NULL,
  attestation text NOT NULL,
  created_at bigint NOT NULL
);
CREATE TABLE vault_approvals (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES vault_wallets (user_id),
  device_fp text NOT NULL,
  origin text NOT NULL,
  attested boolean NOT NULL,
  browser text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'superseded')),
  decided_at bigint
);
CREATE INDEX vault_approvals_by_user ON vault_approvals (user_id, created_at);
CREATE INDEX vault_approvals_by_device ON vault_approvals (user_id, device_fp, created_at);
CREATE TABLE vault_devices (
  user_id text NOT NULL REFERENCES vault_wallets (user_id),
  device_fp text NOT NULL,
  origin text NOT NULL,
  attested boolean NOT NULL,
  browser text NOT NULL,
  approved_at bigint NOT NULL,
  revoked_at bigint,
  PRIMARY KEY (user_id, device_fp)
);
CREATE TABLE vault_spent_tickets (
  jti text PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX vault_spent_tickets_by_expiry ON vault_spent_tickets (expires_at);
CREATE TABLE vault_log (
  user_id text NOT NULL REFERENCES vault_wallets (user_id),
  seq integer NOT NULL,
  at bigint NOT NULL,
  kind text NOT NULL,
  detail jsonb NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (user_id, seq)
);
CREATE INDEX vault_log_by_kind ON vault_log (user_id, kind, at);
-- Append-only in the database too, as the server's audit_log: the vault's own bugs cannot rewrite history.
CREATE FUNCTION vault_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vault_log is append-only';
END
$$;
CREATE TRIGGER vault_log_append_only BEFORE UPDATE OR DELETE ON vault_log
  FOR EACH ROW EXECUTE FUNCTION vault_log_append_only();
CREATE TRIGGER vault_log_no_truncate BEFORE TRUNCATE ON vault_log
  FOR EACH STATEMENT EXECUTE FUNCTION vault_log_append_only();
`

export const migrations: Migrations.Migration[] = [
  { name: '1-schema', sql: schema },
  // docs/embedded-wallet.md §10: every head of each user's audit chain the server told, kept append-only, so
  // a log rewritten in the server's database shows against it. Not tied to a registered wallet: a user's
  // log starts at their first verified code, before the wallet exists.
  {
    name: '2-audit-heads',
    sql: `
CREATE TABLE vault_audit_heads (
  user_id text NOT NULL,
  seq integer NOT NULL,
  hash text NOT NULL,
  at bigint NOT NULL,
  PRIMARY KEY (user_id, seq)
);
CREATE FUNCTION vault_audit_heads_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vault_audit_heads is append-only';
END
$$;
CREATE TRIGGER vault_audit_heads_append_only BEFORE UPDATE OR DELETE ON vault_audit_heads
  FOR EACH ROW EXECUTE FUNCTION vault_audit_heads_append_only();
CREATE TRIGGER vault_audit_heads_no_truncate BEFORE TRUNCATE ON vault_audit_heads
  FOR EACH STATEMENT EXECUTE FUNCTION vault_audit_heads_append_only();
`,
  },
]

/** The migration scope and its advisory lock: apart from the server's (`secure`, 4242101). */
export const scope = { scope: 'vault', lock: 4242201 } as const

// bigint columns come back as strings from `pg`; float8 is exact for millisecond times and a number in both drivers.
const walletColumns = `user_id AS "userId", email, address, sealed_fp AS "sealedFp", attestation, created_at::float8 AS "createdAt"`
const approvalColumns = `id, user_id AS "userId", device_fp AS "deviceFp", origin, attested, browser, created_at::float8 AS "createdAt",
  expires_at::float8 AS "expiresAt", state, decided_at::float8 AS "decidedAt"`
const deviceColumns = `user_id AS "userId", device_fp AS "deviceFp", origin, attested, browser, approved_at::float8 AS "approvedAt", revoked_at::float8 AS "revokedAt"`
const logColumns = `user_id AS "userId", seq, at::float8 AS at, kind, detail, prev_hash AS "prevHash", hash`

export const queries = {
  wallet: `SELECT ${walletColumns} FROM vault_wallets WHERE user_id = $1`,
  // No row back: the user or the email is registered already.
  insertWallet: `INSERT INTO vault_wallets (user_id, email, address, sealed_fp, attestation, created_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT DO NOTHING RETURNING user_id`,
  lockWallet: `SELECT user_id FROM vault_wallets WHERE user_id = $1 FOR UPDATE`,
  recentApprovals: `SELECT created_at::float8 AS at FROM vault_approvals WHERE user_id = $1 AND created_at > $2 ORDER BY created_at`,
  supersede: `UPDATE vault_approvals SET state = 'superseded', decided_at = $3 WHERE user_id = $1 AND device_fp = $2 AND state = 'pending'`,
  insertApproval: `INSERT INTO vault_approvals (id, token_hash, user_id, device_fp, origin, attested, browser, created_at, expires_at, state, decided_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', NULL)`,
  approvalByToken: `SELECT ${approvalColumns} FROM vault_approvals WHERE token_hash = $1`,
  approvalUser: `SELECT user_id AS "userId" FROM vault_approvals WHERE id = $1`,
  // Two asked within one millisecond: the earlier was superseded by the later, which is the latest.
  latestApproval: `SELECT ${approvalColumns} FROM vault_approvals WHERE user_id = $1 AND device_fp = $2
    ORDER BY created_at DESC, state = 'superseded', id DESC LIMIT 1`,
  // No row back: decided already, expired, or its device was revoked after it was asked.
  decide: `UPDATE vault_approvals a SET state = $2, decided_at = $3 WHERE a.id = $1 AND a.state = 'pending' AND a.expires_at > $3
    AND NOT EXISTS (SELECT 1 FROM vault_devices d WHERE d.user_id = a.user_id AND d.device_fp = a.device_fp AND d.revoked_at >= a.created_at)
    RETURNING ${approvalColumns}`,
  approveDevice: `INSERT INTO vault_devices (user_id, device_fp, origin, attested, browser, approved_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, NULL)
    ON CONFLICT (user_id, device_fp) DO UPDATE SET origin = EXCLUDED.origin, attested = EXCLUDED.attested, browser = EXCLUDED.browser,
    approved_at = EXCLUDED.approved_at, revoked_at = NULL`,
  device: `SELECT ${deviceColumns} FROM vault_devices WHERE user_id = $1 AND device_fp = $2`,
  revokeDevice: `UPDATE vault_devices SET revoked_at = $3 WHERE user_id = $1 AND device_fp = $2 AND revoked_at IS NULL RETURNING device_fp`,
  pruneTickets: `DELETE FROM vault_spent_tickets WHERE expires_at <= $1`,
  spendTicket: `INSERT INTO vault_spent_tickets (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING jti`,
  recentLog: `SELECT at::float8 AS at FROM vault_log WHERE user_id = $1 AND kind = $2 AND at > $3 ORDER BY at`,
  lastLog: `SELECT seq, hash FROM vault_log WHERE user_id = $1 ORDER BY seq DESC LIMIT 1`,
  appendLog: `INSERT INTO vault_log (user_id, seq, at, kind, detail, prev_hash, hash) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
  listLog: `SELECT ${logColumns} FROM vault_log WHERE user_id = $1 ORDER BY seq`,
  // One put per user at a time, across vault instances: the check and the insert must not interleave.
  lockHeads: `SELECT pg_advisory_xact_lock(4242202, hashtext($1))`,
  auditHeadAt: `SELECT hash FROM vault_audit_heads WHERE user_id = $1 AND seq = $2`,
  auditHead: `SELECT seq, hash FROM vault_audit_heads WHERE user_id = $1 ORDER BY seq DESC LIMIT 1`,
  insertAuditHead: `INSERT INTO vault_audit_heads (user_id, seq, hash, at) VALUES ($1, $2, $3, $4)`,
} as const

/** The store on the database `config` names (PGlite directory or PostgreSQL), migrated. */
export async function open(config: Pool.Config): Promise<Store> {
  return Pool.build(await Pool.open(config, { logPrefix: '[doorway:vault]' }), create)
}

/** The store over a client, migrated; `close` releases the driver. */
export async function create(client: Client, close: () => Promise<void>): Promise<Store> {
  await Migrations.run(client, { ...scope, migrations })
  return { wallets: wallets(client), approvals: approvals(client), devices: devices(client), auditHeads: auditHeads(client), tickets: tickets(client), log: log(client), close }
}

function wallets(client: Client): Store['wallets'] {
  return {
    get: (userId) => one<Wallet>(client, queries.wallet, [userId]),
    register: (wallet) =>
      client.transaction(async (tx) => {
        const { userId, email, address, sealedFp, attestation, createdAt } = wallet
        if (await one(tx, queries.insertWallet, [userId, email, address, sealedFp, attestation, createdAt])) {
          await append(tx, userId, { at: createdAt, kind: kinds.walletRegistered, detail: { email, address, sealed: sealedFp } })
          return { outcome: 'created', wallet }
        }
        const existing = await one<Wallet>(tx, queries.wallet, [userId])
        const same = existing && existing.email === email && existing.address === address && existing.sealedFp === sealedFp
        return same ? { outcome: 'same', wallet: existing } : { outcome: 'conflict' }
      }),
  }
}

function approvals(client: Client): Store['approvals'] {
  return {
    request: (approval, limit) =>
      client.transaction(async (tx) => {
        const { id, tokenHash, userId, deviceFp, origin, attested, browser, createdAt, expiresAt } = approval
        await lock(tx, userId)
        const recent = (await tx.query<{ at: number }>(queries.recentApprovals, [userId, createdAt - limit.windowMs])).rows
        if (recent.length >= limit.max) return { throttled: true, retryAt: recent[0]!.at + limit.windowMs }
        await tx.query(queries.supersede, [userId, deviceFp, createdAt])
        await tx.query(queries.insertApproval, [id, tokenHash, userId, deviceFp, origin, attested, browser, createdAt, expiresAt])
        await append(tx, userId, { at: createdAt, kind: kinds.approvalRequested, detail: { approval: id, device: deviceFp, origin, attested, browser } })
        return { throttled: false }
      }),
    byTokenHash: (tokenHash) => one<Approval>(client, queries.approvalByToken, [tokenHash]),
    latest: (userId, deviceFp) => one<Approval>(client, queries.latestApproval, [userId, deviceFp]),
    decide: (id, decision, now) =>
      client.transaction(async (tx) => {
        const owner = await one<{ userId: string }>(tx, queries.approvalUser, [id])
        if (!owner) return undefined
        // The wallet row first, as every writer of this user's rows takes it, so two cannot deadlock.
        await lock(tx, owner.userId)
        const decided = await one<Approval>(tx, queries.decide, [id, decision, now])
        if (!decided) return undefined
        const { userId, deviceFp, origin, attested, browser } = decided
        if (decision === 'approved') await tx.query(queries.approveDevice, [userId, deviceFp, origin, attested, browser, now])
        const kind = decision === 'approved' ? kinds.approvalGranted : kinds.approvalDenied
        await append(tx, userId, { at: now, kind, detail: { approval: id, device: deviceFp } })
        return decided
      }),
  }
}

function devices(client: Client): Store['devices'] {
  return {
    get: (userId, deviceFp) => one<Device>(client, queries.device, [userId, deviceFp]),
    revoke: (userId, deviceFp, now) =>
      client.transaction(async (tx) => {
        await lock(tx, userId)
        const revoked = Boolean(await one(tx, queries.revokeDevice, [userId, deviceFp, now]))
        await append(tx, userId, { at: now, kind: kinds.deviceRevoked, detail: { device: deviceFp, wasApproved: revoked } })
        return revoked
      }),
  }
}

function auditHeads(client: Client): Store['auditHeads'] {
  return {
    put: (userId, { seq, hash }, now) =>
      client.transaction(async (tx) => {
        await tx.query(queries.lockHeads, [userId])
        const kept = await one<{ hash: string }>(tx, queries.auditHeadAt, [userId, seq])
        if (kept) return kept.hash === hash ? 'same' : 'rewritten'
        const highest = await one<AuditHead>(tx, queries.auditHead, [userId])
        if (highest && seq < highest.seq) return 'rewritten'
        await tx.query(queries.insertAuditHead, [userId, seq, hash, now])
        return 'stored'
      }),
    get: (userId) => one<AuditHead>(client, queries.auditHead, [userId]),
  }
}

function tickets(client: Client): Store['tickets'] {
  return {
    async spend(jti, expiresAt, now) {
      await client.query(queries.pruneTickets, [now])
      return Boolean(await one(client, queries.spendTicket, [jti, expiresAt]))
    },
  }
}

function log(client: Client): Store['log'] {
  return {
    append: (userId, entry, limit) =>
      client.transaction(async (tx) => {
        await lock(tx, userId)
        if (limit) {
          const recent = (await tx.query<{ at: number }>(queries.recentLog, [userId, entry.kind, entry.at - limit.windowMs])).rows
          if (recent.length >= limit.max) return { throttled: true, retryAt: recent[0]!.at + limit.windowMs }
        }
        return append(tx, userId, entry)
      }),
    list: async (userId) => (await client.query<LogEntry>(queries.listLog, [userId])).rows,
    head: (userId) => one<{ seq: number; hash: string }>(client, queries.lastLog, [userId]),
  }
}

/** Takes the user's wallet row for the transaction; an unregistered user has no log to write. */
async function lock(tx: Queryable, userId: string): Promise<void> {
  if (!(await one(tx, queries.lockWallet, [userId]))) throw new Error(`No wallet is registered for ${userId}`)
}

/** Links an entry onto the user's chain; the caller holds the wallet row, so no other append interleaves. */
async function append(tx: Queryable, userId: string, { at, kind, detail }: { at: number; kind: Kind; detail: Record<string, unknown> }): Promise<LogEntry> {
  const last = await one<{ seq: number; hash: string }>(tx, queries.lastLog, [userId])
  const entry = { userId, seq: (last?.seq ?? 0) + 1, at, kind, detail }
  const prevHash = last?.hash ?? Audit.genesis
  const hash = Audit.hash(prevHash, entry)
  await tx.query(queries.appendLog, [userId, entry.seq, at, kind, JSON.stringify(detail), prevHash, hash])
  return { ...entry, prevHash, hash }
}

/** The first row, if any. */
async function one<T>(db: Queryable, text: string, params: unknown[]): Promise<T | undefined> {
  return (await db.query<T>(text, params)).rows[0]
}
