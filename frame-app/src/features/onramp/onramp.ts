/**
 * The onramp's state and actions (issue 12; spec §3, §5, §7, §8; docs/architecture.md §9 "Onramp"). Part of the
 * OnRamp chunk: loaded only when features.onramp is on and the flow opens.
 *
 * The form holds what the person chose and typed; a quote follows it (debounced, the older request
 * cancelled) once the amount is within the method's limits. Buy asks the api for the provider's page,
 * has the SDK open it from the top window (docs/architecture.md §4 `navigate`), and follows the order through the
 * account's onramp history until the provider says it succeeded or failed. Sample options and the mocked
 * quote (spec §8) are shown as such and never bought on.
 */
import * as Ids from '@doorway/shared/Ids'
import { core, format } from '@doorway/shared/Texts'
import { onrampText } from '@doorway/shared/texts/onramp'
import { atom, type Getter, type Setter } from 'jotai'
import type { OnrampOptions, OnrampQuote, PaymentMethod } from '../../api/client.js'
import { recordOnrampAtom } from '../activity/activity.js'
import { apiAtom } from '../../core/api.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { configAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { notifyAtom } from '../../core/host.js'
import { activeNetworkAtom } from '../../core/network.js'
import * as Rules from './onrampRules.js'
import { replaceFromAtom } from '../../core/router.js'
import { loadTokensAtom } from '../balances/tokens.js'

/** spec §7 GET /v1/onramp/options; `fallback` when the api could not answer and the sample options stand in (spec §8). */
export type OptionsState = { status: 'idle' | 'loading' } | { status: 'ready'; options: OnrampOptions; fallback: boolean }
export const onrampOptionsAtom = atom<OptionsState>({ status: 'idle' })

/** Loads the options once (again with `retry`, e.g. after the sample options stood in). */
export const loadOnrampOptionsAtom = atom(null, async (get, set, options: { retry?: boolean } = {}) => {
  const now = get(onrampOptionsAtom)
  if (now.status === 'loading' || (now.status === 'ready' && !options.retry)) return
  set(onrampOptionsAtom, { status: 'loading' })
  const answer = await get(apiAtom).onrampOptions()
  set(onrampOptionsAtom, { status: 'ready', ...answer })
  await set(requestOnrampQuoteAtom, { delayMs: 0 })
})

/** What the person chose and typed; `asset` is an Asset key, undefined for the default one. */
export type Form = { asset: string | undefined; currency: string; amount: string; method: PaymentMethod }
export const onrampFormAtom = atom<Form>({ asset: undefined, currency: 'USD', amount: '', method: 'card' })

/** What can be bought on the dapp's networks, from the options. */
export const onrampAssetsAtom = atom((get) => {
  const options = get(onrampOptionsAtom)
  return options.status === 'ready' ? Rules.assets(options.options, get(configAtom)?.networks ?? []) : []
})

/** The asset chosen, or by default the native currency of the active chain. */
export const onrampAssetAtom = atom((get) => {
  const list = get(onrampAssetsAtom)
  const key = get(onrampFormAtom).asset
  return list.find((a) => a.key === key) ?? Rules.defaultAsset(list, get(activeNetworkAtom))
})

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; quote: OnrampQuote }
  | { status: 'error'; key: string; message: string }
export const onrampQuoteAtom = atom<QuoteState>({ status: 'idle' })

/** The form as the view shows it: the currencies and methods offered, the limits, the amount's check, the quote's request. */
export const onrampCheckAtom = atom((get) => {
  const options = get(onrampOptionsAtom)
  const form = get(onrampFormAtom)
  const asset = get(onrampAssetAtom)
  if (options.status !== 'ready') return undefined
  const currencies = options.options.paymentCurrencies.map((c) => c.id)
  const methods = Rules.methodsOf(options.options, form.currency)
  // A method the currency does not offer gives way to one it does.
  const method = methods.includes(form.method) ? form.method : (methods[0] ?? form.method)
  const limits = Rules.limitsOf(options.options, form.currency, method)
  const amount = Rules.checkAmount(form.amount, method, form.currency, limits)
  const request = asset && amount.ok ? Rules.quoteRequest(asset, form.currency, amount.amount, method) : undefined
  return { fallback: options.fallback, asset, currencies, methods, method, limits, amount, request, key: request && Rules.quoteKey(request) }
})

/** The quote that belongs to the form as it is now. */
export const currentQuoteAtom = atom((get) => {
  const quote = get(onrampQuoteAtom)
  const key = get(onrampCheckAtom)?.key
  return quote.status !== 'idle' && quote.key === key ? quote : undefined
})

/**
 * Buy is offered only on live options and a live quote of the form as it is (spec §8: never on sample
 * options or the mocked quote); `estimate` when what is shown is the mocked quote.
 */
export const canBuyAtom = atom((get) => {
  const check = get(onrampCheckAtom)
  const quote = get(currentQuoteAtom)
  const estimate = quote?.status === 'ready' && Rules.isMocked(quote.quote)
  return { offered: !!check && !check.fallback && !estimate, ready: !!check && !check.fallback && quote?.status === 'ready' && !estimate, estimate }
})

// A per-store slot for the debounce timer and the request in flight (never module state).
const quoteSlotAtom = atom(() => ({ timer: undefined as ReturnType<typeof setTimeout> | undefined, controller: undefined as AbortController | undefined }))

/**
 * Asks for a quote of the form as it is once typing pauses (`delayMs`); a newer request cancels the
 * older one, waiting or in flight (AbortController). An amount outside the limits is not quoted.
 * Resolves when this request is answered or cancelled.
 */
export const requestOnrampQuoteAtom = atom(null, (get, set, options: { delayMs?: number } = {}) => {
  const slot = get(quoteSlotAtom)
  clearTimeout(slot.timer)
  slot.controller?.abort()
  const check = get(onrampCheckAtom)
  const { request, key } = check ?? {}
  if (!request || !key) {
    set(onrampQuoteAtom, { status: 'idle' })
    return Promise.resolve()
  }
  const controller = new AbortController()
  slot.controller = controller
  set(onrampQuoteAtom, { status: 'loading', key })
  return new Promise<void>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve())
    const fetch = async () => {
      try {
        const quote = await get(apiAtom).onrampQuote(request, controller.signal)
        if (!controller.signal.aborted) set(onrampQuoteAtom, { status: 'ready', key, quote })
      } catch (error) {
        if (!controller.signal.aborted) set(onrampQuoteAtom, { status: 'error', key, message: reasonOf(error) })
      } finally {
        resolve()
      }
    }
    const delayMs = options.delayMs ?? Rules.quoteDebounceMs
    if (delayMs === 0) void fetch()
    else slot.timer = setTimeout(fetch, delayMs)
  })
})

const edit = (set: Setter, change: Partial<Form>) => {
  set(onrampFormAtom, (f) => ({ ...f, ...change }))
  set(buyStateAtom, idleBuy)
  return set(requestOnrampQuoteAtom)
}
export const setOnrampAssetAtom = atom(null, (_get, set, asset: string) => edit(set, { asset }))
export const setOnrampCurrencyAtom = atom(null, (_get, set, currency: string) => edit(set, { currency }))
export const setOnrampAmountAtom = atom(null, (_get, set, amount: string) => edit(set, { amount }))
export const setOnrampMethodAtom = atom(null, (_get, set, method: PaymentMethod) => edit(set, { method }))

/** Buy's own state: busy while the api makes the buy page; why it could not, if it could not. */
export type BuyState = { busy: boolean; error: string | undefined }
const idleBuy: BuyState = { busy: false, error: undefined }
export const buyStateAtom = atom<BuyState>(idleBuy)

/** One buy: what was ordered, the provider's page, and what the history has said of it so far. */
export type Order = {
  id: string
  url: string
  /** When Buy was pressed: orders the history lists from before are not this one. */
  startedAt: number
  address: string
  chainId: Rules.Asset['chainId']
  asset: { key: string; symbol: string; name: string; networkName: string }
  currency: string
  amount: string
  method: PaymentMethod
  /** The quote's amount of the asset, as shown when Buy was pressed. */
  expected: string
} & Rules.Outcome
/** The buys of this modal, by id. */
export const ordersAtom = atom<Record<string, Order>>({})

/**
 * Buy: asks the api for the provider's page (spec §7 POST /v1/generators/onrampurl), has the SDK open it
 * from the top window (docs/architecture.md §4 `navigate`), and moves to the order's progress. Refused on sample
 * options or a mocked quote (spec §8), or while the form has no live quote.
 */
export const buyAtom = atom(null, async (get, set): Promise<'opened' | 'refused' | 'busy' | 'failed'> => {
  const account = get(accountAtom)
  const check = get(onrampCheckAtom)
  const quote = get(currentQuoteAtom)
  if (get(buyStateAtom).busy) return 'busy'
  if (!account || !check?.asset || !check.request || !get(canBuyAtom).ready || quote?.status !== 'ready') return 'refused'
  const { asset, request } = check
  set(buyStateAtom, { busy: true, error: undefined })
  const startedAt = Date.now()
  try {
    const url = await get(apiAtom).onrampUrl(Rules.urlRequest(account.address, asset, request.amount))
    // spec §7: an unsupported network gets an empty url.
    if (!url) {
      set(buyStateAtom, { busy: false, error: onrampText.unsupported })
      return 'failed'
    }
    set(notifyAtom, { type: 'navigate', url })
    const id = Ids.random()
    const order: Order = {
      id,
      url,
      startedAt,
      address: account.address,
      chainId: asset.chainId,
      asset: { key: asset.key, symbol: asset.currency.symbol, name: asset.currency.name, networkName: asset.networkName },
      currency: request.paymentCurrency,
      amount: request.amount,
      method: check.method,
      expected: quote.quote.purchaseAmount.amount,
      status: 'waiting',
    }
    set(ordersAtom, (all) => ({ ...all, [id]: order }))
    set(buyStateAtom, idleBuy)
    set(replaceFromAtom, 'OnRamp', { view: 'OnRampProgress', order: id })
    return 'opened'
  } catch (error) {
    set(buyStateAtom, { busy: false, error: format(onrampText.urlFailed, { reason: reasonOf(error) }) })
    return 'failed'
  }
})

const finished = (order: Order | undefined) => !order || order.status === 'success' || order.status === 'failed'

/**
 * Follows an order: reads the account's onramp history (spec §7 onramp=coinbase) every 3 s until an
 * order created since Buy was pressed succeeds or fails. It is recorded in History state's
 * coinbaseTransactions as it goes; success reads the balances again (forceUpdate, as Send does). A failed
 * read is tried again at the next turn. Returns the stop function: the timer is cancelled, not waited out.
 */
export const followOrderAtom = atom(null, (get, set, id: string) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const poll = async () => {
    const order = get(ordersAtom)[id]
    if (stopped || !order || finished(order)) return
    try {
      const page = await get(apiAtom).history(order.address, { chainId: order.chainId, onramp: 'coinbase' })
      if (stopped) return
      set(recordOnrampAtom, { address: order.address, chainId: order.chainId, transactions: page.data })
      const found = Rules.orderSince(page.data, order.startedAt)
      if (found) updateOrder(get, set, id, Rules.outcomeOf(found))
    } catch {
      // The history could not be read this time: the next turn asks again.
    }
    if (!stopped && !finished(get(ordersAtom)[id])) timer = setTimeout(poll, Rules.orderPollMs)
  }
  timer = setTimeout(poll, Rules.orderPollMs)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
})

function updateOrder(get: Getter, set: Setter, id: string, outcome: Rules.Outcome) {
  const before = get(ordersAtom)[id]
  if (!before) return
  set(ordersAtom, (all) => ({ ...all, [id]: { ...before, ...outcome } }))
  if (outcome.status === 'success' && before.status !== 'success') {
    set(balanceRefreshAtom, (n) => n + 1)
    void set(loadTokensAtom, { force: true })
  }
}

/** Try again after a failure: back to the form with the order's choices and amount, quoted afresh. */
export const retryOrderAtom = atom(null, (get, set, id: string) => {
  const order = get(ordersAtom)[id]
  if (order) set(onrampFormAtom, { asset: order.asset.key, currency: order.currency, amount: order.amount, method: order.method })
  set(buyStateAtom, idleBuy)
  set(replaceFromAtom, 'OnRampProgress', { view: 'OnRamp' })
  return set(requestOnrampQuoteAtom, { delayMs: 0 })
})

function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' && message ? message.slice(0, 300) : core.somethingWentWrong
}
