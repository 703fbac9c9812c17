/**
 * The history index's tables and queries (indexer.ts), part of the one SQL of sql.ts: per chain a cursor
 * and its newest block hashes, the entries, address → entry links, NFT moves and holdings, NFT metadata.
 * Rows go in as one jsonb parameter each (jsonb_to_recordset), so a window is a handful of statements.
 */
import type { ChainId } from '@doorway/shared/Caip'
import type { Client } from '@doorway/storage/Sql'
import { type IndexEntry, type IndexTransfer, keptBlocks, type NftHolding, type NftMetadata, type Storage } from './Storage.js'

// Chain ids and contracts compare byte-wise ("C"), as the cursors' JavaScript comparisons do.
export const schema = `
CREATE TABLE IF NOT EXISTS index_chains (
  chain_id text PRIMARY KEY,
  next bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS index_blocks (
  chain_id text NOT NULL,
  number bigint NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (chain_id, number)
);
CREATE TABLE IF NOT EXISTS index_entries (
  chain_id text COLLATE "C" NOT NULL,
  block bigint NOT NULL,
  idx integer NOT NULL,
  entry jsonb NOT NULL,
  PRIMARY KEY (chain_id, block, idx)
);
CREATE TABLE IF NOT EXISTS index_links (
  address text NOT NULL,
  chain_id text COLLATE "C" NOT NULL,
  timestamp bigint NOT NULL,
  block bigint NOT NULL,
  idx integer NOT NULL,
  PRIMARY KEY (address, chain_id, block, idx)
);
CREATE INDEX IF NOT EXISTS index_links_recent ON index_links (address, timestamp DESC, chain_id DESC, block DESC, idx DESC);
CREATE INDEX IF NOT EXISTS index_links_block ON index_links (chain_id, block);
CREATE TABLE IF NOT EXISTS nft_moves (
  chain_id text NOT NULL,
  block bigint NOT NULL,
  owner text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  delta numeric(78, 0) NOT NULL
);
CREATE INDEX IF NOT EXISTS nft_moves_block ON nft_moves (chain_id, block);
CREATE TABLE IF NOT EXISTS nft_holdings (
  owner text NOT NULL,
  chain_id text COLLATE "C" NOT NULL,
  contract text COLLATE "C" NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  standard text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  PRIMARY KEY (owner, chain_id, contract, token_id)
);
CREATE TABLE IF NOT EXISTS nft_metadata (
  chain_id text NOT NULL,
  contract text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  name text,
  collection text,
  image text,
  PRIMARY KEY (chain_id, contract, token_id)
);
`

const chains = `SELECT jsonb_array_elements_text($2::jsonb)`

export const queries = {
  cursor: `SELECT next::float8 AS next FROM index_chains WHERE chain_id = $1`,
  blocks: `SELECT number::float8 AS number, hash FROM index_blocks WHERE chain_id = $1 ORDER BY number DESC`,
  ensureChain: `INSERT INTO index_chains (chain_id, next) VALUES ($1, 0) ON CONFLICT (chain_id) DO NOTHING`,
  // Serialises appends and rewinds of one chain across api instances sharing a database.
  lockChain: `SELECT next::float8 AS next FROM index_chains WHERE chain_id = $1 FOR UPDATE`,
  setCursor: `UPDATE index_chains SET next = $2 WHERE chain_id = $1`,
  addBlocks: `INSERT INTO index_blocks (chain_id, number, hash)
    SELECT $1, x.number, x.hash FROM jsonb_to_recordset($2::jsonb) AS x(number bigint, hash text)`,
  addEntries: `INSERT INTO index_entries (chain_id, block, idx, entry)
    SELECT $1, x.block, x.idx, x.entry FROM jsonb_to_recordset($2::jsonb) AS x(block bigint, idx integer, entry jsonb)`,
  addLinks: `INSERT INTO index_links (address, chain_id, timestamp, block, idx)
    SELECT x.address, $1, x.timestamp, x.block, x.idx FROM jsonb_to_recordset($2::jsonb) AS x(address text, timestamp bigint, block bigint, idx integer)`,
  addMoves: `INSERT INTO nft_moves (chain_id, block, owner, contract, token_id, delta)
    SELECT $1, x.block, x.owner, x.contract, x.token_id, x.delta
    FROM jsonb_to_recordset($2::jsonb) AS x(block bigint, owner text, contract text, token_id numeric, delta numeric)`,
  addHoldings: `INSERT INTO nft_holdings (owner, chain_id, contract, token_id, standard, amount)
    SELECT x.owner, $1, x.contract, x.token_id, min(x.standard), sum(x.delta)
    FROM jsonb_to_recordset($2::jsonb) AS x(owner text, contract text, token_id numeric, standard text, delta numeric)
    GROUP BY x.owner, x.contract, x.token_id
    ON CONFLICT (owner, chain_id, contract, token_id) DO UPDATE SET amount = nft_holdings.amount + EXCLUDED.amount`,
  // Moves and hashes below the rewind horizon are never needed again.
  pruneBlocks: `DELETE FROM index_blocks WHERE chain_id = $1 AND number < $2`,
  pruneMoves: `DELETE FROM nft_moves WHERE chain_id = $1 AND block < $2`,
  undoHoldings: `UPDATE nft_holdings h SET amount = h.amount - m.delta
    FROM (SELECT owner, contract, token_id, sum(delta) AS delta FROM nft_moves WHERE chain_id = $1 AND block >= $2 GROUP BY owner, contract, token_id) m
    WHERE h.chain_id = $1 AND h.owner = m.owner AND h.contract = m.contract AND h.token_id = m.token_id`,
  dropHoldings: `DELETE FROM nft_holdings WHERE chain_id = $1`,
  dropMoves: `DELETE FROM nft_moves WHERE chain_id = $1 AND block >= $2`,
  dropLinks: `DELETE FROM index_links WHERE chain_id = $1 AND block >= $2`,
  dropEntries: `DELETE FROM index_entries WHERE chain_id = $1 AND block >= $2`,
  dropBlocks: `DELETE FROM index_blocks WHERE chain_id = $1 AND number >= $2`,
  // Metadata was read at the chain's head: after a rewind a contract may hold other code.
  dropMetadata: `DELETE FROM nft_metadata WHERE chain_id = $1`,
  history: `SELECT e.entry FROM index_links l JOIN index_entries e ON e.chain_id = l.chain_id AND e.block = l.block AND e.idx = l.idx
    WHERE l.address = $1 AND l.chain_id IN (${chains})
      AND ($3::bigint IS NULL OR (l.timestamp, l.chain_id, l.block, l.idx) < ($3::bigint, $4::text, $5::bigint, $6::integer))
    ORDER BY l.timestamp DESC, l.chain_id DESC, l.block DESC, l.idx DESC LIMIT $7`,
  holdings: `SELECT chain_id AS "chainId", owner, contract, token_id::text AS "tokenId", standard, amount::text AS amount FROM nft_holdings
    WHERE owner = $1 AND chain_id IN (${chains}) AND amount > 0
      AND ($3::text IS NULL OR (chain_id, contract, token_id) > ($3::text, $4::text, $5::numeric))
    ORDER BY chain_id, contract, token_id LIMIT $6`,
  getMetadata: `SELECT m.chain_id AS "chainId", m.contract, m.token_id::text AS "tokenId", m.name, m.collection, m.image
    FROM nft_metadata m JOIN jsonb_to_recordset($1::jsonb) AS x(chain_id text, contract text, token_id numeric)
      ON m.chain_id = x.chain_id AND m.contract = x.contract AND m.token_id = x.token_id`,
  putMetadata: `INSERT INTO nft_metadata (chain_id, contract, token_id, name, collection, image) VALUES ($1, $2, $3::numeric, $4, $5, $6)
    ON CONFLICT (chain_id, contract, token_id) DO UPDATE SET name = EXCLUDED.name, collection = EXCLUDED.collection, image = EXCLUDED.image`,
} as const

export function create(client: Client): Pick<Storage, 'index' | 'nfts'> {
  return {
    index: {
      async head(chainId) {
        const [cursor] = (await client.query<{ next: number }>(queries.cursor, [chainId])).rows
        const blocks = (await client.query<{ number: number; hash: string }>(queries.blocks, [chainId])).rows
        return { next: cursor?.next ?? 0, blocks }
      },
      async append(chainId, from, { blocks, entries, moves }) {
        return client.transaction(async (tx) => {
          await tx.query(queries.ensureChain, [chainId])
          const [cursor] = (await tx.query<{ next: number }>(queries.lockChain, [chainId])).rows
          if (cursor?.next !== from) return false
          const next = from + blocks.length
          const links = entries.flatMap(({ entry, parties }) => parties.map((address) => ({ address, timestamp: entry.timestamp, block: entry.block, idx: entry.index })))
          const rows = entries.map(({ entry }) => ({ block: entry.block, idx: entry.index, entry: encode(entry) }))
          const moveRows = moves.map((m) => ({ block: m.block, owner: m.owner, contract: m.contract, token_id: String(m.tokenId), standard: m.standard, delta: String(m.delta) }))
          await tx.query(queries.addBlocks, [chainId, JSON.stringify(blocks)])
          if (rows.length) await tx.query(queries.addEntries, [chainId, JSON.stringify(rows)])
          if (links.length) await tx.query(queries.addLinks, [chainId, JSON.stringify(links)])
          if (moveRows.length) {
            await tx.query(queries.addMoves, [chainId, JSON.stringify(moveRows)])
            await tx.query(queries.addHoldings, [chainId, JSON.stringify(moveRows)])
          }
          await tx.query(queries.pruneBlocks, [chainId, next - keptBlocks])
          await tx.query(queries.pruneMoves, [chainId, next - keptBlocks])
          await tx.query(queries.setCursor, [chainId, next])
          return true
        })
      },
      async rewind(chainId, block) {
        await client.transaction(async (tx) => {
          await tx.query(queries.ensureChain, [chainId])
          await tx.query(queries.lockChain, [chainId])
          if (block === 0) await tx.query(queries.dropHoldings, [chainId])
          else await tx.query(queries.undoHoldings, [chainId, block])
          for (const query of [queries.dropMoves, queries.dropLinks, queries.dropEntries, queries.dropBlocks]) await tx.query(query, [chainId, block])
          await tx.query(queries.dropMetadata, [chainId])
          await tx.query(queries.setCursor, [chainId, block])
        })
      },
      async history(address, chainIds, { before, limit }) {
        const [timestamp, chainId, block, index] = before ?? [null, null, null, null]
        const params = [address.toLowerCase(), JSON.stringify(chainIds), timestamp, chainId, block, index, limit]
        return (await client.query<{ entry: Encoded }>(queries.history, params)).rows.map((row) => decode(row.entry))
      },
      async holdings(owner, chainIds, { after, limit }) {
        const [chainId, contract, tokenId] = after ?? [null, null, null]
        const params = [owner.toLowerCase(), JSON.stringify(chainIds), chainId, contract, tokenId, limit]
        return (await client.query<NftHolding>(queries.holdings, params)).rows
      },
    },
    nfts: {
      async get(keys) {
        if (keys.length === 0) return []
        const rows = keys.map((key) => ({ chain_id: key.chainId, contract: key.contract.toLowerCase(), token_id: key.tokenId }))
        return (await client.query<NftMetadata>(queries.getMetadata, [JSON.stringify(rows)])).rows
      },
      async put({ chainId, contract, tokenId, name, collection, image }) {
        await client.query(queries.putMetadata, [chainId, contract.toLowerCase(), tokenId, name, collection, image])
      },
    },
  }
}

// JSON has no bigint: amounts, values and token ids are stored as decimal strings.
type Encoded = Omit<IndexEntry, 'value' | 'transfers'> & { value: string; transfers: (Omit<IndexTransfer, 'amount' | 'tokenId'> & { amount: string; tokenId?: string })[] }

function encode(entry: IndexEntry): Encoded {
  const transfers = entry.transfers.map(({ tokenId, ...t }) => ({ ...t, amount: String(t.amount), ...(tokenId === undefined ? {} : { tokenId: String(tokenId) }) }))
  return { ...entry, value: String(entry.value), transfers }
}

function decode(entry: Encoded): IndexEntry {
  const transfers = entry.transfers.map(({ tokenId, ...t }) => ({ ...t, amount: BigInt(t.amount), ...(tokenId === undefined ? {} : { tokenId: BigInt(tokenId) }) }))
  return { ...entry, chainId: entry.chainId as ChainId, value: BigInt(entry.value), transfers }
}
