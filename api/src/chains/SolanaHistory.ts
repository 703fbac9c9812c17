/**
 * GET /v1/account/{account}/history on a Solana network: the node already answers by address, so no
 * index is kept. One page is `getSignaturesForAddress` (newest first, 20 and one more to know whether
 * another page follows) and `getTransaction` (jsonParsed) for each, five at a time; a transaction's
 * details never change once confirmed, so they are cached. The cursor is the page's last (slot,
 * signature), passed on as `before`.
 *
 * The node lists what names the account itself: an SPL transfer into its token account shows when the
 * sender's transaction names the owner too (wallets open the receiver's account idempotently, which
 * does), not when it names the token account alone.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as S from '@doorway/shared/contracts/Described'
import type { HistoryPage } from '@doorway/shared/contracts/api/history'
import type * as Cache from '../cache.js'
import type { SolanaNetwork } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import * as Activity from './Activity.js'
import * as Solana from './Solana.js'
import * as SolanaActivity from './SolanaActivity.js'

export const pageSize = 20
/** getTransaction calls in flight for one page. */
export const parallel = 5

/** A page position: the last entry's slot and signature, tagged so another chain's cursor is refused. */
export type Key = ['solana', number, string]

export function isKey(key: unknown[]): key is Key {
  const [tag, slot, signature] = key
  return key.length === 3 && tag === 'solana' && Number.isSafeInteger(slot) && (slot as number) >= 0 && Solana.base58(signature) && signature.length >= 64
}

export declare namespace page {
  type Context = { deps: Deps; transactions: ReturnType<typeof Cache.create<Solana.ParsedTransaction>>; signal?: AbortSignal | undefined }
}

export async function page(context: page.Context, chainId: ChainId, network: SolanaNetwork, address: string, after: Key | undefined): Promise<HistoryPage> {
  const { deps, signal } = context
  const config = { limit: pageSize + 1, commitment: Solana.commitment, ...(after && { before: after[2] }) }
  const entries = await Solana.call(
    deps,
    chainId,
    { method: 'getSignaturesForAddress', params: [address, config], what: `the signatures of ${address}` },
    S.array(Solana.signatureEntry, pageSize + 1),
    signal,
  )
  const shown = entries.slice(0, pageSize)
  const transactions = await Activity.mapLimited(shown, parallel, (entry) => transaction(context, chainId, entry.signature))
  const { prices, publicUrl } = deps.config
  const now = deps.now()
  const data = shown.map((entry, i) => SolanaActivity.describe({ chainId, network, address, entry, transaction: transactions[i]!, prices, publicUrl, now }))
  const last = shown.at(-1)
  return { data, next: entries.length > pageSize && last ? Http.encodeCursor(['solana', last.slot, last.signature] satisfies Key) : null }
}

async function transaction(context: page.Context, chainId: ChainId, signature: string): Promise<Solana.ParsedTransaction | null> {
  const key = `${chainId} ${signature}`
  const cached = context.transactions.get(key)
  if (cached) return cached
  const params = [signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: Solana.commitment }]
  const found = await Solana.call(
    context.deps,
    chainId,
    { method: 'getTransaction', params, what: `transaction ${signature}` },
    S.union(Solana.parsedTransaction, S.literal(null)),
    context.signal,
  )
  // A signature listed a moment ago may not have its details yet: asked again next time.
  if (found) context.transactions.set(key, found)
  return found
}
