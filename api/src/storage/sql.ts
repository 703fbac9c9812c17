/**
 * The one SQL behind both stores: schema, migrations and queries over the Sql.Client that PGlite and a
 * `pg` Pool both give (@doorway/storage), so the embedded and the PostgreSQL store cannot drift apart.
 */
import * as Migrations from '@doorway/storage/Migrations'
import * as Pool from '@doorway/storage/Pool'
import type { Client } from '@doorway/storage/Sql'
import * as IndexSql from './indexSql.js'
import { AddressHasName, type AnalyticsEvent, type NameRecord, NameTaken, NonceUsed, type SessionRecord, type Storage } from './Storage.js'

// Idempotent too: databases made before migrations were recorded run it once more, changing nothing.
export const schema = `
CREATE TABLE IF NOT EXISTS analytics_events (
  seq bigserial,
  project_id text NOT NULL,
  event_id text NOT NULL,
  url text NOT NULL,
  domain text NOT NULL,
  timestamp bigint NOT NULL,
  props jsonb NOT NULL,
  PRIMARY KEY (project_id, event_id)
);
CREATE INDEX IF NOT EXISTS analytics_events_recent ON analytics_events (project_id, timestamp DESC, seq DESC);
CREATE TABLE IF NOT EXISTS names (
  name text PRIMARY KEY,
  address text NOT NULL,
  address_key text NOT NULL,
  coin_type bigint NOT NULL,
  attributes jsonb NOT NULL,
  registered_at bigint NOT NULL
);
DO $$
BEGIN
  -- issue 13: EVM chains' coin types (ENSIP-11, 0x80000000 | chainId) are past the integer range.
  IF (SELECT data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'names' AND column_name = 'coin_type') = 'integer' THEN
    ALTER TABLE names ALTER COLUMN coin_type TYPE bigint;
  END IF;
  -- issue 13: one name per address. An address that held several keeps its newest (ties: the first by
  -- name), the one its identity showed.
  IF to_regclass('names_one_per_address') IS NULL THEN
    DELETE FROM names WHERE EXISTS (
      SELECT 1 FROM names kept WHERE kept.address_key = names.address_key
        AND (kept.registered_at > names.registered_at OR (kept.registered_at = names.registered_at AND kept.name < names.name)));
    CREATE UNIQUE INDEX names_one_per_address ON names (address_key);
    DROP INDEX IF EXISTS names_by_address;
  END IF;
END $$;
-- Registration nonces an address spent (issue 13), kept while their signed message could still be sent.
CREATE TABLE IF NOT EXISTS name_nonces (
  address_key text NOT NULL,
  nonce text NOT NULL,
  keep_until bigint NOT NULL,
  PRIMARY KEY (address_key, nonce)
);
CREATE INDEX IF NOT EXISTS name_nonces_expiry ON name_nonces (keep_until);
CREATE TABLE IF NOT EXISTS sessions (
  address text NOT NULL,
  address_key text NOT NULL,
  pci text NOT NULL,
  chain_id text NOT NULL,
  permissions jsonb NOT NULL,
  expiry bigint NOT NULL,
  revoked boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL,
  PRIMARY KEY (address_key, pci)
);
${IndexSql.schema}
`

/**
 * Applied once per database, in order, under the advisory lock the schema script always took, so several
 * api instances can start at once. A change to the schema is a new migration at the end.
 */
export const migrations: Migrations.Migration[] = [
  { name: '1-schema', sql: schema },
  // issue 25: a session is a signed ERC-7710 delegation, kept whole so the Sessions view can show and disable it.
  // Sessions recorded before have none.
  { name: '2-session-delegations', sql: 'ALTER TABLE sessions ADD COLUMN delegation jsonb;' },
]

// bigint columns come back as strings from `pg`; float8 is exact for millisecond times and is a number in both drivers.
const eventColumns = `project_id AS "projectId", event_id AS "eventId", url, domain, timestamp::float8 AS timestamp, props`
const nameColumns = `name, address, coin_type::float8 AS "coinType", attributes, registered_at::float8 AS "registeredAt"`
const sessionColumns = `address, pci, chain_id AS "chainId", permissions, expiry::float8 AS expiry, revoked, created_at::float8 AS "createdAt", delegation`

export const queries = {
  addEvent: `INSERT INTO analytics_events (project_id, event_id, url, domain, timestamp, props)
    VALUES ($1, $2, $3, $4, $5, $6::jsonb) ON CONFLICT (project_id, event_id) DO NOTHING`,
  listEvents: `SELECT ${eventColumns} FROM analytics_events WHERE project_id = $1
    ORDER BY timestamp DESC, seq DESC LIMIT $2`,
  getName: `SELECT ${nameColumns} FROM names WHERE name = $1`,
  namesByAddress: `SELECT ${nameColumns} FROM names WHERE address_key = $1 ORDER BY registered_at DESC, name`,
  // Inserts unless the address holds another name (held); updates only when the same address
  // re-registers. Neither put nor held back means the name is someone else's.
  putName: `WITH held AS (SELECT name FROM names WHERE address_key = $3 AND name <> $1),
    put AS (
      INSERT INTO names (name, address, address_key, coin_type, attributes, registered_at)
      SELECT $1::text, $2::text, $3::text, $4::bigint, $5::jsonb, $6::bigint WHERE NOT EXISTS (SELECT 1 FROM held)
      ON CONFLICT (name) DO UPDATE SET address = EXCLUDED.address, coin_type = EXCLUDED.coin_type,
        attributes = EXCLUDED.attributes, registered_at = EXCLUDED.registered_at
      WHERE names.address_key = EXCLUDED.address_key
      RETURNING name)
    SELECT (SELECT name FROM put) AS put, (SELECT name FROM held LIMIT 1) AS held`,
  forgetNonces: `DELETE FROM name_nonces WHERE keep_until < $1`,
  // No row back: the address spent this nonce already.
  spendNonce: `INSERT INTO name_nonces (address_key, nonce, keep_until) VALUES ($1, $2, $3)
    ON CONFLICT (address_key, nonce) DO NOTHING RETURNING nonce`,
  listSessions: `SELECT ${sessionColumns} FROM sessions WHERE address_key = $1 ORDER BY created_at DESC, pci`,
  getSession: `SELECT ${sessionColumns} FROM sessions WHERE address_key = $1 AND pci = $2`,
  putSession: `INSERT INTO sessions (address, address_key, pci, chain_id, permissions, expiry, revoked, created_at, delegation)
    VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9::jsonb)
    ON CONFLICT (address_key, pci) DO UPDATE SET address = EXCLUDED.address, chain_id = EXCLUDED.chain_id,
      permissions = EXCLUDED.permissions, expiry = EXCLUDED.expiry, revoked = EXCLUDED.revoked,
      created_at = EXCLUDED.created_at, delegation = EXCLUDED.delegation`,
  // No row back: the address has a session with this pci already, which stays as it is (a revoked one too).
  addSession: `INSERT INTO sessions (address, address_key, pci, chain_id, permissions, expiry, revoked, created_at, delegation)
    VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9::jsonb)
    ON CONFLICT (address_key, pci) DO NOTHING RETURNING pci`,
  revokeSession: `UPDATE sessions SET revoked = true WHERE address_key = $1 AND pci = $2 AND NOT revoked RETURNING pci`,
} as const

export const defaultLimit = 100
export const maxLimit = 1000

/** The store on the database `config` names (PGlite or PostgreSQL), migrated. */
export async function open(config: Pool.Config): Promise<Storage> {
  return Pool.build(await Pool.open(config, { logPrefix: '[doorway:api]' }), create)
}

/** The Storage over a migrated client; `close` releases the driver. */
export async function create(client: Client, close: () => Promise<void>): Promise<Storage> {
  await Migrations.run(client, { scope: 'api', lock: 4242001, migrations })
  return {
    analytics: {
      async add(event) {
        const { projectId, eventId, url, domain, timestamp, props } = event
        await client.query(queries.addEvent, [projectId, eventId, url, domain, timestamp, JSON.stringify(props)])
      },
      async list(projectId, limit = defaultLimit) {
        const n = Math.min(Math.max(Math.trunc(limit), 0), maxLimit)
        return (await client.query<AnalyticsEvent>(queries.listEvents, [projectId, n])).rows
      },
    },
    names: {
      async get(name) {
        return (await client.query<NameRecord>(queries.getName, [name])).rows[0]
      },
      async byAddress(address) {
        return (await client.query<NameRecord>(queries.namesByAddress, [addressKey(address)])).rows
      },
      async put(record) {
        await oneNamePerAddress(client, record.address, () => putName(client, record))
      },
      async register(record, nonce) {
        const spend = async (tx: Pick<Client, 'query'>) => {
          await tx.query(queries.forgetNonces, [record.registeredAt])
          const { rows } = await tx.query(queries.spendNonce, [addressKey(record.address), nonce.value, nonce.keepUntil])
          if (rows.length === 0) throw new NonceUsed(`Nonce ${nonce.value} of ${record.address} was used already`)
          await putName(tx, record)
        }
        await oneNamePerAddress(client, record.address, () => client.transaction(spend))
      },
    },
    sessions: {
      async list(address) {
        return (await client.query<SessionRecord>(queries.listSessions, [addressKey(address)])).rows
      },
      async get(address, pci) {
        return (await client.query<SessionRecord>(queries.getSession, [addressKey(address), pci])).rows[0]
      },
      async put(record) {
        await client.query(queries.putSession, sessionParams(record))
      },
      async add(record) {
        return (await client.query(queries.addSession, sessionParams(record))).rows.length > 0
      },
      async revoke(address, pci) {
        return (await client.query(queries.revokeSession, [addressKey(address), pci])).rows.length > 0
      },
    },
    ...IndexSql.create(client),
    close,
  }
}

function sessionParams(record: SessionRecord): unknown[] {
  const { address, pci, chainId, permissions, expiry, revoked, createdAt, delegation } = record
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))
  return [address, addressKey(address), pci, chainId, JSON.stringify(permissions ?? null), expiry, revoked, createdAt, json(delegation)]
}

async function putName(client: Pick<Client, 'query'>, record: NameRecord): Promise<void> {
  const { name, address, coinType, attributes, registeredAt } = record
  const params = [name, address, addressKey(address), coinType, JSON.stringify(attributes), registeredAt]
  const [result] = (await client.query<{ put: string | null; held: string | null }>(queries.putName, params)).rows
  if (result?.held) throw new AddressHasName(address, result.held)
  if (!result?.put) throw new NameTaken(`Name ${name} is registered to another address`)
}

/**
 * Two first registrations of one address at once both find it without a name; the unique index stops
 * the second, which is then told the name the first took.
 */
async function oneNamePerAddress(client: Pick<Client, 'query'>, address: string, write: () => Promise<void>): Promise<void> {
  try {
    await write()
  } catch (error) {
    const { code, constraint } = error instanceof Error ? (error as { code?: unknown; constraint?: unknown }) : {}
    if (code !== '23505' || constraint !== 'names_one_per_address') throw error
    const [held] = (await client.query<NameRecord>(queries.namesByAddress, [addressKey(address)])).rows
    if (!held) throw error
    throw new AddressHasName(address, held.name)
  }
}

/** EVM addresses match whatever their checksum casing; other addresses (Solana) are case-sensitive. */
export function addressKey(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address
}
