/**
 * The Activity tab's state (spec §3 History state): the connected account's transactions on the connected
 * chain from the api, a page at a time by its cursor, and the sends of this modal that the api has not
 * indexed yet, and the account's onramp orders (spec §7 onramp=coinbase). Part of the Activity chunk (and
 * of Send's and the OnRamp's, for their hooks).
 *
 * The state belongs to one account on one chain: another account or chain reads as a fresh state, and an
 * answer for the one before is dropped.
 */
import type { ChainId } from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Format from '@doorway/shared/Format'
import { errors } from '@doorway/shared/Texts'
import { atom, type Getter } from 'jotai'
import type { Transaction } from '../../api/client.js'
import { apiAtom } from '../../core/api.js'
import { featuresAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { activeNetworkAtom } from '../../core/network.js'
import { showToastAtom } from '../../core/toasts.js'

/** year → month (0–11, local time) → transactions, newest first. */
export type TransactionsByYear = Record<number, Record<number, Transaction[]>>

/** spec §3 History state. `transactions` holds this modal's pending sends first, then the api's entries. */
export type History = {
  transactions: Transaction[]
  /** Onramp orders (spec §7 onramp=coinbase) by year and month; they are among `transactions` too. */
  coinbaseTransactions: TransactionsByYear
  transactionsByYear: TransactionsByYear
  next: string | undefined
  loading: boolean
  empty: boolean
}

/** A send of this modal, from the moment the wallet returned its hash. */
export type Pending = {
  hash: string
  chainId: ChainId
  from: string
  to: string
  token: { name: string; symbol: string; iconUrl?: string | undefined }
  amount: string
  /** A swap (issue 11): what it is expected to bring in; the entry then shows both legs as a trade. */
  received?: { token: Pending['token']; amount: string }
  sentAt: number
}

type Loaded = {
  /** The account and chain these entries belong to. */
  key: string
  transactions: Transaction[]
  next: string | undefined
  /** Pages loaded so far: a refresh of the first page keeps the cursor once more than one is. */
  pages: number
  loading: boolean
  empty: boolean
  failed: boolean
}
const initial = (key: string): Loaded => ({ key, transactions: [], next: undefined, pages: 0, loading: false, empty: false, failed: false })
const loadedAtom = atom<Loaded>(initial(''))

/** The onramp orders of each account and chain (by scope key), as the api last listed them. */
type Onramp = { transactions: Transaction[]; fetched: boolean }
const onrampAtom = atom<Record<string, Onramp>>({})
const keyOf = (address: string, chainId: ChainId) => `${address.toLowerCase()}|${chainId}`
const onrampFor = (get: Getter, key: string): Onramp => get(onrampAtom)[key] ?? { transactions: [], fetched: false }

/** The sends of this modal not yet replaced by the api's entry. */
export const pendingAtom = atom<Pending[]>([])

/** The account and chain history is read for (spec §5: an address, and the connected chain). */
const scopeOf = (get: Getter) => {
  const account = get(accountAtom)
  return account && { address: account.address, chainId: account.chainId, key: keyOf(account.address, account.chainId) }
}
const loadedFor = (get: Getter, key: string) => {
  const loaded = get(loadedAtom)
  return loaded.key === key ? loaded : initial(key)
}
const sameHash = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** This account's pending sends on this chain that the api has not listed yet, newest first. */
const shownPendingAtom = atom((get) => {
  const scope = scopeOf(get)
  if (!scope) return []
  const { transactions } = loadedFor(get, scope.key)
  return get(pendingAtom).filter(
    (p) => p.chainId === scope.chainId && sameHash(p.from, scope.address) && !transactions.some((t) => sameHash(t.metadata.hash, p.hash)),
  )
})

/** spec §3 History state, for the connected account on its chain. */
export const historyAtom = atom((get): History => {
  const scope = scopeOf(get)
  const loaded = loadedFor(get, scope?.key ?? '')
  const pending = get(shownPendingAtom)
  const onramp = onrampFor(get, scope?.key ?? '').transactions
  const transactions = [...pending.map(fromPending), ...withOnramp(loaded.transactions, onramp)]
  return {
    transactions,
    coinbaseTransactions: byYear(onramp),
    transactionsByYear: byYear(transactions),
    next: loaded.next,
    loading: loaded.loading,
    // A pending send or an onramp order is something to show, even before the api lists anything else.
    empty: loaded.empty && pending.length === 0 && onramp.length === 0,
  }
})

/** The last fetch failed (the Activity tab offers Retry). */
export const historyFailedAtom = atom((get) => loadedFor(get, scopeOf(get)?.key ?? '').failed)
/** A pending send is shown: the first page is fetched again until the api lists it. */
export const hasPendingAtom = atom((get) => get(shownPendingAtom).length > 0)

/**
 * Fetches the first page (merged with what is loaded, so a refresh keeps later pages) or the next one.
 * A failure shows 'Failed to fetch transactions' and sets the empty state (spec §8).
 */
export const fetchHistoryAtom = atom(null, async (get, set, page: 'first' | 'next' = 'first') => {
  const scope = scopeOf(get)
  // spec §5: fetching transactions needs an account address
  if (!scope) return
  const before = loadedFor(get, scope.key)
  if (before.loading || (page === 'next' && !before.next)) return
  // spec §7: an unsupported network answers empty, without calling.
  if (!get(activeNetworkAtom)) return set(loadedAtom, { ...initial(scope.key), empty: true })
  set(loadedAtom, { ...before, loading: true, failed: false })
  if (page === 'first') void set(fetchOnrampAtom)
  try {
    const answer = await get(apiAtom).history(scope.address, { chainId: scope.chainId, cursor: page === 'next' ? before.next : undefined })
    // The account or chain may have changed while the answer travelled: it is not theirs.
    if (scopeOf(get)?.key !== scope.key) return
    const fresh = visible(answer.data, scope.chainId)
    const now = loadedFor(get, scope.key)
    const transactions = page === 'next' ? dedupe([...now.transactions, ...fresh]) : dedupe([...fresh, ...now.transactions])
    // The cursor marks a position in the account's history, so the last page's cursor stays right when
    // newer entries arrive on top; only a first page alone takes the fresh one.
    const next = page === 'first' && now.pages > 1 ? now.next : (answer.next ?? undefined)
    const pages = page === 'next' ? now.pages + 1 : Math.max(now.pages, 1)
    set(loadedAtom, { key: scope.key, transactions, next, pages, loading: false, empty: transactions.length === 0, failed: false })
    const listed = answer.data.map((t) => t.metadata.hash)
    set(pendingAtom, (pending) => pending.filter((p) => !listed.some((hash) => sameHash(hash, p.hash))))
  } catch {
    if (scopeOf(get)?.key !== scope.key) return
    // The cursor is kept so Retry asks for the same page again.
    set(loadedAtom, { ...loadedFor(get, scope.key), loading: false, empty: true, failed: true })
    set(showToastAtom, { variant: 'error', message: errors.fetchTransactionsFailed })
  }
})

/**
 * Reads the account's onramp orders (spec §7 onramp=coinbase) once per account and chain, beside the
 * first page, when the dapp has the onramp on. A failure leaves them out quietly (the chain's own
 * history still shows, with its own failure toast) and the next first page asks again.
 */
const fetchOnrampAtom = atom(null, async (get, set) => {
  const scope = scopeOf(get)
  if (!scope || !get(featuresAtom)?.onramp || onrampFor(get, scope.key).fetched) return
  const mark = (fetched: boolean) => set(onrampAtom, (all) => ({ ...all, [scope.key]: { ...onrampFor(get, scope.key), fetched } }))
  mark(true)
  try {
    const answer = await get(apiAtom).history(scope.address, { chainId: scope.chainId, onramp: 'coinbase' })
    set(recordOnrampAtom, { address: scope.address, chainId: scope.chainId, transactions: answer.data })
  } catch {
    mark(false)
  }
})

/**
 * Records the onramp orders the api listed for an account and chain (the Activity tab's read, or the
 * buy's progress following its order): a newer listing of an order replaces the older one.
 */
export const recordOnrampAtom = atom(null, (get, set, listed: { address: string; chainId: ChainId; transactions: readonly Transaction[] }) => {
  const key = keyOf(listed.address, listed.chainId)
  const fresh = visible(listed.transactions, listed.chainId).filter((t) => t.metadata.operationType === 'buy')
  set(onrampAtom, (all) => {
    const before = all[key] ?? { transactions: [], fetched: false }
    return { ...all, [key]: { ...before, transactions: dedupe([...fresh, ...before.transactions]) } }
  })
})

/**
 * The chain's entries with the onramp orders among them, newest first. An order's own transaction (the
 * provider's transfer, listed by the chain as a receive) gives way to the order, which says more.
 */
function withOnramp(chain: readonly Transaction[], onramp: readonly Transaction[]): Transaction[] {
  if (!onramp.length) return [...chain]
  const hashes = new Set(onramp.map((t) => t.metadata.hash.toLowerCase()).filter(Boolean))
  const rest = chain.filter((t) => !hashes.has(t.metadata.hash.toLowerCase()))
  return dedupe([...onramp, ...rest]).sort((a, b) => Date.parse(b.metadata.minedAt) - Date.parse(a.metadata.minedAt))
}

/** Records a send the wallet has just returned a hash for: it shows at once as pending. */
export const recordPendingAtom = atom(null, (_get, set, pending: Omit<Pending, 'sentAt'>) => {
  set(pendingAtom, (list) => [{ ...pending, sentAt: Date.now() }, ...list.filter((p) => !sameHash(p.hash, pending.hash))])
})

/** How often the first page is fetched again while a pending send may still be mined soon. */
export const pendingRefreshMs = 4_000

/**
 * While a pending send is shown, fetches the first page again until the api lists it (or a fetch fails:
 * Retry starts again): every few seconds while its receipt is still awaited, then at the spec's pending
 * polling interval (spec §9: receipt wait 25 s, pending-transaction polling 30 s). Returns the stop
 * function; the timer is cancelled, not waited out.
 */
export const pollPendingAtom = atom(null, (get, set) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const delay = () => {
    const newest = Math.max(...get(shownPendingAtom).map((p) => p.sentAt))
    return Date.now() - newest < Constants.receiptWaitMs ? pendingRefreshMs : Constants.pendingTransactionPollMs
  }
  const schedule = () => {
    timer = setTimeout(async () => {
      if (stopped || !get(hasPendingAtom) || get(historyFailedAtom)) return
      await set(fetchHistoryAtom, 'first')
      if (!stopped) schedule()
    }, delay())
  }
  schedule()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
})

/**
 * What the tab lists of an api page: only the connected chain (spec §5, also checked here), and without
 * transactions whose every transfer is a spam NFT (spec §5).
 */
export function visible(transactions: readonly Transaction[], chainId: ChainId): Transaction[] {
  return transactions.filter((t) => t.metadata.chain === chainId && !onlySpam(t))
}

function onlySpam(transaction: Transaction): boolean {
  const { transfers } = transaction
  return transfers.length > 0 && transfers.every((t) => t.nft_info?.flags.is_spam === true)
}

function dedupe(transactions: Transaction[]): Transaction[] {
  const seen = new Set<string>()
  return transactions.filter((t) => !seen.has(t.id) && !!seen.add(t.id))
}

/** spec §2: entries by year and month of their time (local, as Intl shows it), newest first in each. */
export function byYear(transactions: readonly Transaction[]): TransactionsByYear {
  const years: TransactionsByYear = {}
  const sorted = [...transactions].sort((a, b) => Date.parse(b.metadata.minedAt) - Date.parse(a.metadata.minedAt))
  for (const transaction of sorted) {
    const date = new Date(transaction.metadata.minedAt)
    const months = (years[date.getFullYear()] ??= {})
    ;(months[date.getMonth()] ??= []).push(transaction)
  }
  return years
}

export type MonthGroup = { key: string; title: string; transactions: Transaction[] }

/**
 * spec §2: the groups in display order, newest month first, titled with the month name, plus the year
 * when it is not the year of `now`.
 */
export function monthGroups(transactionsByYear: TransactionsByYear, now: Date): MonthGroup[] {
  const groups: (MonthGroup & { at: number })[] = []
  for (const [year, months] of Object.entries(transactionsByYear))
    for (const [month, transactions] of Object.entries(months)) {
      const first = new Date(Number(year), Number(month), 1)
      groups.push({ key: `${year}-${month}`, title: Format.formatHistoryMonth(first, now), transactions, at: first.getTime() })
    }
  return groups.sort((a, b) => b.at - a.at).map(({ at: _, ...group }) => group)
}

function fungible(token: Pending['token'], direction: 'in', amount: string) {
  return { fungible_info: { name: token.name, symbol: token.symbol, ...(token.iconUrl ? { icon: { url: token.iconUrl } } : {}) }, direction, quantity: { numeric: amount } }
}

/** A pending send as the api will list it, so the list shows both alike. */
function fromPending(pending: Pending): Transaction {
  const { token } = pending
  return {
    id: `pending:${pending.hash}`,
    metadata: {
      operationType: pending.received ? 'trade' : 'send',
      hash: pending.hash,
      minedAt: new Date(pending.sentAt).toISOString(),
      sentFrom: pending.from,
      sentTo: pending.to,
      status: 'pending',
      nonce: -1,
      chain: pending.chainId,
    },
    transfers: [
      {
        fungible_info: { name: token.name, symbol: token.symbol, ...(token.iconUrl ? { icon: { url: token.iconUrl } } : {}) },
        direction: sameHash(pending.from, pending.to) ? 'self' : 'out',
        quantity: { numeric: pending.amount },
      },
      ...(pending.received ? [fungible(pending.received.token, 'in' as const, pending.received.amount)] : []),
    ],
  }
}
