/**
 * The Swap flow's state and actions (issue 11; spec §7 /v1/convert/*, §8, §9; docs/architecture.md §9 "Swap").
 * Part of the Swap chunk: loaded only when features.swaps is on and the flow opens.
 *
 * The form holds what the person typed; a quote follows it (debounced, the older request cancelled).
 * The preview reads the allowance: an ERC-20 the exchange may not take yet is approved first, then
 * swapped, each through the connected wallet as Send does. A swap that reverts keeps the form.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import * as Format from '@doorway/shared/Format'
import { core, errors, format } from '@doorway/shared/Texts'
import { swapText } from '@doorway/shared/texts/swap'
import { atom, type Getter, type Setter } from 'jotai'
import type { Hex } from 'viem'
import { ApiError, type Quote, type SwapToken } from '../../api/client.js'
import { recordPendingAtom } from '../activity/activity.js'
import { apiAtom } from '../../core/api.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { type Account, accountAtom } from '../../core/connection.js'
import { paysNoGas } from '../../core/connectors/Connector.js'
import { notifyAtom } from '../../core/host.js'
import { activeNetworkAtom } from '../../core/network.js'
import { replaceFromAtom } from '../../core/router.js'
import * as SendRules from '../send/sendRules.js'
import * as Rules from './swapRules.js'
import { showToastAtom } from '../../core/toasts.js'
import { loadTokensAtom, tokensAtom } from '../balances/tokens.js'

/** The tokens that can be swapped on the active chain (those with a pool), and their US dollar prices. */
export type SwapTokens =
  | { status: 'idle' | 'loading' | 'unsupported' }
  | { status: 'ready'; chainId: Caip.ChainId; tokens: SwapToken[]; prices: Record<string, number> }
  | { status: 'error'; message: string }
export const swapTokensAtom = atom<SwapTokens>({ status: 'idle' })

/** What the person chose and typed, kept while they move between steps, even when not valid yet. */
export type Form = { from: SwapToken | undefined; to: SwapToken | undefined; amount: string; slippage: string }
const emptyForm: Form = { from: undefined, to: undefined, amount: '', slippage: Rules.defaultSlippage }
export const swapFormAtom = atom<Form>(emptyForm)

export type QuoteState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; quote: Quote; fetchedAt: number; gasPrice: bigint | undefined }
  | { status: 'error'; key: string; error: Rules.QuoteError }
export const quoteAtom = atom<QuoteState>({ status: 'idle' })

/** Shown on the form: why the last swap did nothing (it reverted), until the person changes something. */
export const swapNoticeAtom = atom<string | undefined>(undefined)

/** The active network when swaps can run on it: an EVM network of the dapp (spec §8 otherwise). */
const swapChainOf = (get: Getter): Caip.ChainId | undefined => {
  const network = get(activeNetworkAtom)
  return network && Caip.parseChainId(network.caipNetworkId).namespace === 'eip155' ? network.caipNetworkId : undefined
}

/**
 * Loads the token list of the active chain (spec §7 GET /v1/convert/tokens) and, best effort, prices
 * (POST /v1/fungible/price) for the USD values of tokens the person does not hold. An unsupported
 * network calls nothing (spec §7) and says 'Network not supported for Swaps' (spec §8).
 */
export const loadSwapTokensAtom = atom(null, async (get, set) => {
  const chainId = swapChainOf(get)
  if (!chainId) return set(swapTokensAtom, { status: 'unsupported' })
  const now = get(swapTokensAtom)
  if (now.status === 'loading' || (now.status === 'ready' && now.chainId === chainId)) return
  set(swapTokensAtom, { status: 'loading' })
  const api = get(apiAtom)
  try {
    const tokens = await api.swapTokens(chainId)
    const fungibles = await api.prices(tokens.map((t) => priceId(t))).catch(() => [])
    if (swapChainOf(get) !== chainId) return
    const prices = Object.fromEntries(fungibles.map((f) => [f.address.toLowerCase(), f.price]))
    set(swapTokensAtom, { status: 'ready', chainId, tokens, prices })
    // A form of another chain has nothing to do here.
    const { from, to } = get(swapFormAtom)
    if ((from && !tokens.some((t) => Rules.sameToken(t, from))) || (to && !tokens.some((t) => Rules.sameToken(t, to)))) resetSwap(set)
  } catch (error) {
    set(swapTokensAtom, { status: 'error', message: Rules.quoteError(error, { from: stub, to: stub }).message })
  }
})
const stub = { symbol: '' } as SwapToken
// The price api names the native token {chainId}:native.
const priceId = (t: SwapToken) => (Rules.isNative(t) ? `${Caip.parseAccountId(t.address).chainId}:native` : t.address)

/** The token's price in US dollars: from the person's balances, else from the price api. */
export function priceOf(get: Getter, token: SwapToken): number | undefined {
  const balance = Rules.balanceFor(token, get(tokensAtom).balances)
  if (balance) return balance.price
  const tokens = get(swapTokensAtom)
  return tokens.status === 'ready' ? tokens.prices[priceId(token).toLowerCase()] : undefined
}

function resetSwap(set: Setter) {
  set(swapFormAtom, (f) => ({ ...emptyForm, slippage: f.slippage }))
  set(quoteAtom, { status: 'idle' })
  set(previewAtom, idlePreview)
}

// A per-store slot for the debounce timer and the request in flight (never module state).
const quoteSlotAtom = atom(() => ({ timer: undefined as ReturnType<typeof setTimeout> | undefined, controller: undefined as AbortController | undefined }))

/** What a quote is asked for, when the form allows one. */
function quoteInput(get: Getter) {
  const account = get(accountAtom)
  const chainId = swapChainOf(get)
  const { from, to, amount } = get(swapFormAtom)
  if (!account || !chainId || !from || !to || Rules.sameToken(from, to)) return undefined
  const parsed = Rules.parseAmount(amount, from)
  if ('error' in parsed) return undefined
  return { account, chainId, from, to, amount: parsed.value, key: `${from.address}|${to.address}|${parsed.value}`.toLowerCase() }
}

/**
 * Asks for a quote of the form as it is, once typing pauses (`delayMs`, ~400 ms by default); a newer
 * request cancels the older one, waiting or in flight (AbortController). Resolves when this request
 * is answered or cancelled. A form that cannot be quoted clears the quote.
 */
export const requestQuoteAtom = atom(null, (get, set, options: { delayMs?: number } = {}) => {
  const slot = get(quoteSlotAtom)
  clearTimeout(slot.timer)
  slot.controller?.abort()
  const input = quoteInput(get)
  if (!input) {
    set(quoteAtom, { status: 'idle' })
    return Promise.resolve()
  }
  const controller = new AbortController()
  slot.controller = controller
  set(quoteAtom, { status: 'loading', key: input.key })
  return new Promise<void>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve())
    const fetch = () => void fetchQuote(get, set, input, controller.signal).finally(resolve)
    // Asked at once (the preview, a retry) rather than on the next timer turn.
    const delayMs = options.delayMs ?? Rules.quoteDebounceMs
    if (delayMs === 0) fetch()
    else slot.timer = setTimeout(fetch, delayMs)
  })
})

async function fetchQuote(get: Getter, set: Setter, input: NonNullable<ReturnType<typeof quoteInput>>, signal: AbortSignal) {
  const api = get(apiAtom)
  const pair = { from: input.from, to: input.to }
  try {
    // The network fee is priced with the api's gas price; a quote without it still shows the rest.
    const gasPrice = await api.gasPrice(input.chainId, signal).then((p) => BigInt(p.standard), () => undefined)
    if (signal.aborted) return
    const quotes = await api.swapQuotes({ amount: input.amount, userAddress: input.account.address, from: input.from.address, to: input.to.address, gasPrice }, signal)
    if (signal.aborted) return
    const [quote] = quotes
    set(quoteAtom, quote ? { status: 'ready', key: input.key, quote, fetchedAt: Date.now(), gasPrice } : { status: 'error', key: input.key, error: Rules.noRoute(pair) })
  } catch (error) {
    if (!signal.aborted) set(quoteAtom, { status: 'error', key: input.key, error: Rules.quoteError(error, pair) })
  }
}

/**
 * The quote to act on: the one shown when it is under 30 s old, else a fresh one asked for at once.
 * `refreshed` says whether the numbers changed under the person's eyes.
 */
export const freshQuoteAtom = atom(null, async (get, set): Promise<{ quote: Quote; refreshed: boolean } | undefined> => {
  const before = get(quoteAtom)
  const input = quoteInput(get)
  if (before.status === 'ready' && input?.key === before.key && !Rules.isStale(before.fetchedAt, Date.now())) return { quote: before.quote, refreshed: false }
  await set(requestQuoteAtom, { delayMs: 0 })
  const after = get(quoteAtom)
  if (after.status !== 'ready') return undefined
  const refreshed = before.status !== 'ready' || after.quote.toAmount !== before.quote.toAmount
  return { quote: after.quote, refreshed }
})

const edit = (set: Setter, change: (form: Form) => Form) => {
  set(swapFormAtom, change)
  set(swapNoticeAtom, undefined)
  set(previewAtom, idlePreview)
  return set(requestQuoteAtom)
}

export const setPayAmountAtom = atom(null, (_get, set, amount: string) => edit(set, (f) => ({ ...f, amount })))

/** Choosing the token of the other side swaps the two, as wallets do. */
export const chooseSwapTokenAtom = atom(null, (get, set, side: 'from' | 'to', token: SwapToken) => {
  const form = get(swapFormAtom)
  const other = side === 'from' ? form.to : form.from
  if (Rules.sameToken(other, token)) return set(flipAtom)
  return edit(set, (f) => ({ ...f, [side]: token, ...(side === 'from' && !Rules.sameToken(f.from, token) && { amount: '' }) }))
})

/** Pay what was to be received: the quoted amount moves over to the pay side (exactly, in its units). */
export const flipAtom = atom(null, (get, set) => {
  const quote = get(quoteAtom)
  const { to } = get(swapFormAtom)
  const amount = quote.status === 'ready' && to ? Format.formatUnits(BigInt(quote.quote.toAmount), to.decimals) : undefined
  return edit(set, (f) => ({ ...f, from: f.to, to: f.from, amount: amount ?? f.amount }))
})

/** Slippage does not change the quote, only the minimum received. */
export const setSlippageAtom = atom(null, (_get, set, slippage: string) => set(swapFormAtom, (f) => ({ ...f, slippage })))

/** Fills in the most the person can pay; the native token keeps back twice the fee (sendRules' Max). */
export const maxPayAtom = atom(null, async (get, set) => {
  const { from } = get(swapFormAtom)
  const chainId = swapChainOf(get)
  const balance = from && Rules.balanceFor(from, get(tokensAtom).balances)
  if (!from || !balance || !chainId) return
  let gas = 0n
  let price = 0n
  if (Rules.isNative(from)) {
    const quote = get(quoteAtom)
    gas = quote.status === 'ready' && quote.quote.networkFee ? BigInt(quote.quote.networkFee.gas) : Rules.swapGasReserve
    price = BigInt((await get(apiAtom).gasPrice(chainId)).standard)
  }
  await edit(set, (f) => ({ ...f, amount: Rules.maxPay(balance, gas, price) }))
})

/** Why the form cannot go on, or nothing; `retry` when asking again may help. */
export type Check = { ready: boolean; error?: string | undefined; retry?: boolean; loading?: boolean }

export const swapCheckAtom = atom((get): Check => {
  const { from, to, amount, slippage } = get(swapFormAtom)
  if (!from || !to) return { ready: false }
  if (!amount.trim()) return { ready: false }
  const parsed = Rules.parseAmount(amount, from)
  if ('error' in parsed) return { ready: false, error: format(swapText.errors[parsed.error], { symbol: from.symbol, decimals: from.decimals }) }
  const balances = get(tokensAtom).balances
  if (parsed.value > Rules.heldOf(from, balances)) return { ready: false, error: format(swapText.errors.notEnough, { symbol: from.symbol }) }
  if ('error' in Rules.parseSlippage(slippage)) return { ready: false, error: swapText.errors.slippage }
  const quote = get(quoteAtom)
  if (quote.status === 'error') return { ready: false, error: quote.error.message, retry: quote.error.kind === 'failed' }
  if (quote.status !== 'ready') return { ready: false, loading: quote.status === 'loading' }
  // The fee is paid in the native token: from the same balance when paying with it.
  const fee = quote.quote.networkFee ? BigInt(quote.quote.networkFee.amount) : 0n
  const native = balances.find(SendRules.isNative)
  const nativeHeld = native ? SendRules.balanceOf(native) : 0n
  const spent = Rules.isNative(from) ? parsed.value + fee : fee
  if (!paysNoGas(get(accountAtom)?.connector) && fee > 0n && spent > nativeHeld) return { ready: false, error: format(swapText.errors.notEnoughForFee, { symbol: native?.symbol ?? get(activeNetworkAtom)?.nativeCurrency.symbol ?? '' }) }
  return { ready: true }
})

/**
 * The preview's progress (issue 11): the steps (approve then swap, or swap), the one to do, and what
 * is happening. `busy` while the wallet asks or a transaction is awaited: a second click does nothing.
 */
export type Preview = {
  status: 'idle' | 'checking' | 'ready' | 'error'
  steps: Rules.Step[]
  step: Rules.Step
  busy: 'wallet' | 'mining' | undefined
  message: string | undefined
  notice: string | undefined
  approveHash: Hex | undefined
}
const idlePreview: Preview = { status: 'idle', steps: ['swap'], step: 'swap', busy: undefined, message: undefined, notice: undefined, approveHash: undefined }
export const previewAtom = atom<Preview>(idlePreview)

/** The pay amount as base units, once the form is complete. */
function amountIn(get: Getter): bigint | undefined {
  const { from, amount } = get(swapFormAtom)
  const parsed = from && Rules.parseAmount(amount, from)
  return parsed && !('error' in parsed) ? parsed.value : undefined
}

async function readAllowance(get: Getter, account: Account, from: SwapToken): Promise<bigint> {
  return get(apiAtom).swapAllowance({ tokenAddress: from.address, userAddress: account.address })
}

/**
 * Opens the preview: a fresh quote when the shown one is over 30 s old, and the allowance of an ERC-20:
 * short of the amount, the preview has two steps, Approve then Swap.
 */
export const preparePreviewAtom = atom(null, async (get, set) => {
  const account = get(accountAtom)
  const { from } = get(swapFormAtom)
  const amount = amountIn(get)
  if (!account || !from || amount === undefined) return
  set(previewAtom, { ...idlePreview, status: 'checking' })
  try {
    const fresh = await set(freshQuoteAtom)
    if (!fresh) return set(previewAtom, { ...idlePreview, status: 'error', message: quoteMessage(get) })
    const allowance = Rules.isNative(from) ? 0n : await readAllowance(get, account, from)
    const steps = Rules.stepsFor(from, allowance, amount)
    set(previewAtom, { ...idlePreview, status: 'ready', steps, step: steps[0]! })
  } catch (error) {
    set(previewAtom, { ...idlePreview, status: 'error', message: format(swapText.errors.quoteFailed, { reason: reasonOf(error) }) })
  }
})

const quoteMessage = (get: Getter) => {
  const quote = get(quoteAtom)
  return quote.status === 'error' ? quote.error.message : format(swapText.errors.quoteFailed, { reason: core.somethingWentWrong })
}

type Outcome = { status: 'approved' | 'swapped' | 'rejected' | 'failed' | 'timedOut' | 'busy' | 'requoted'; hash?: Hex }

/** Step 1 of 2: the approval, through the wallet; then the allowance is read again, never assumed. */
export const approveAtom = atom(null, async (get, set): Promise<Outcome> => {
  const preview = get(previewAtom)
  const account = get(accountAtom)
  const { from, to } = get(swapFormAtom)
  const amount = amountIn(get)
  if (preview.busy || preview.step !== 'approve') return { status: 'busy' }
  if (!account || !from || !to || amount === undefined) throw new Errors.DoorwayError(errors.invalidSendInput)
  set(previewAtom, (p) => ({ ...p, busy: 'wallet', message: undefined, notice: undefined }))
  try {
    const tx = await get(apiAtom).buildApprove({ userAddress: account.address, from: from.address, to: to.address, amount })
    if (!tx) throw new Errors.DoorwayError(errors.swapsNetworkNotSupported)
    const hash = await sendTransaction(account, Rules.walletRequest(tx))
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(previewAtom, (p) => ({ ...p, busy: 'mining', approveHash: hash }))
    const receipt = await waitForReceipt(get, account, hash)
    if (receipt?.status !== '0x1') {
      set(previewAtom, (p) => ({ ...p, busy: undefined, message: swapText.approveFailed }))
      return { status: 'failed', hash }
    }
    // What the chain says now, not what was asked for.
    const allowance = await readAllowance(get, account, from)
    const steps = Rules.stepsFor(from, allowance, amount)
    const done = !steps.includes('approve')
    set(previewAtom, (p) => ({ ...p, busy: undefined, step: done ? 'swap' : 'approve', message: done ? undefined : swapText.approveFailed }))
    if (done) set(showToastAtom, { variant: 'success', message: format(swapText.approved, { symbol: from.symbol }) })
    return { status: done ? 'approved' : 'failed', hash }
  } catch (error) {
    return walletFailure(set, error)
  }
})

/**
 * The swap, through the wallet: the quote again if it is over 30 s old (and a lower one is shown
 * before anything is asked), then POST build-transaction with the slippage, then eth_sendTransaction.
 * On a hash: 'Transaction started', Activity's pending entry, open() settles with 'swapped', and the
 * result view follows the receipt.
 */
export const swapAtom = atom(null, async (get, set): Promise<Outcome> => {
  const preview = get(previewAtom)
  const account = get(accountAtom)
  const chainId = swapChainOf(get)
  const form = get(swapFormAtom)
  const { from, to } = form
  const amount = amountIn(get)
  const slippage = Rules.parseSlippage(form.slippage)
  if (preview.busy || preview.step !== 'swap') return { status: 'busy' }
  if (!chainId) throw new Errors.DoorwayError(errors.swapsNetworkNotSupported)
  if (!account || !from || !to || amount === undefined || 'error' in slippage) throw new Errors.DoorwayError(errors.invalidSendInput)
  set(previewAtom, (p) => ({ ...p, busy: 'wallet', message: undefined, notice: undefined }))
  try {
    const shown = get(quoteAtom)
    const fresh = await set(freshQuoteAtom)
    if (!fresh) {
      set(previewAtom, (p) => ({ ...p, busy: undefined, message: quoteMessage(get) }))
      return { status: 'failed' }
    }
    // Numbers that got worse while the person read them are shown before anything is signed.
    if (fresh.refreshed && shown.status === 'ready' && BigInt(fresh.quote.toAmount) < BigInt(shown.quote.toAmount)) {
      set(previewAtom, (p) => ({ ...p, busy: undefined, notice: swapText.quoteRefreshed }))
      return { status: 'requoted' }
    }
    // The bound comes from the quote the person accepted, not from the pool when the api builds.
    const toAmount = fresh.quote.toAmount
    const tx = await get(apiAtom)
      .buildSwap({ amount, slippage: slippage.percent, from: from.address, to: to.address, userAddress: account.address, toAmount })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) return 'moved' as const
        throw error
      })
    if (tx === 'moved') {
      // It would only revert: nothing is asked, the form says so and quotes again.
      set(previewAtom, (p) => ({ ...p, busy: undefined, message: format(swapText.reverted, { slippage: Rules.formatPercent(slippage.percent) }) }))
      void set(requestQuoteAtom, { delayMs: 0 })
      return { status: 'requoted' }
    }
    if (!tx) throw new Errors.DoorwayError(errors.swapsNetworkNotSupported)
    const hash = await sendTransaction(account, Rules.walletRequest(tx))
    const expected = BigInt(fresh.quote.toAmount)
    const token = (t: SwapToken) => ({ name: t.name, symbol: t.symbol, iconUrl: t.logoUri || undefined })
    set(recordPendingAtom, {
      hash,
      chainId,
      from: account.address,
      to: tx.to,
      token: token(from),
      amount: Format.formatUnits(amount, from.decimals),
      received: { token: token(to), amount: Format.formatUnits(expected, to.decimals) },
    })
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(notifyAtom, { type: 'result', result: { status: 'swapped', hash, chainId } })
    set(swapsAtom, (s) => ({ ...s, [hash]: { status: 'pending', from, to, paid: amount, minimum: Rules.amountOutMin(expected, slippage.bps), slippage: slippage.percent } }))
    set(previewAtom, idlePreview)
    set(replaceFromAtom, 'Swap', { view: 'SwapResult', hash, chainId })
    void set(trackSwapAtom, hash)
    return { status: 'swapped', hash }
  } catch (error) {
    return walletFailure(set, error)
  }
})

/** A refusal is calm news; a wallet that never answers leaves the preview as it was; the rest says why. */
function walletFailure(set: Setter, error: unknown): Outcome {
  if (error instanceof Errors.DoorwayError && error.message === core.requestTimedOut) {
    set(previewAtom, (p) => ({ ...p, busy: undefined, message: swapText.timedOut }))
    return { status: 'timedOut' }
  }
  const rejected = (error as { code?: unknown } | null)?.code === Errors.codes.userRejected
  set(previewAtom, (p) => ({ ...p, busy: undefined, message: rejected ? undefined : reasonOf(error) }))
  if (rejected) set(showToastAtom, { variant: 'info', message: swapText.rejected })
  else set(showToastAtom, { variant: 'error', message: core.somethingWentWrong, detail: reasonOf(error) })
  return { status: rejected ? 'rejected' : 'failed' }
}

async function sendTransaction(account: Account, tx: Rules.TransactionRequest): Promise<Hex> {
  const hash = await account.connector.request({ method: 'eth_sendTransaction', params: [tx] })
  if (typeof hash !== 'string' || !/^0x[\da-f]{64}$/i.test(hash)) throw new Error('The wallet answered without a transaction hash')
  return hash as Hex
}

// While a receipt is awaited (spec §9 receipt wait 25 s) the wallet is asked every second; after that
// every pending-poll interval (spec §9: 30 s), as Send's result does.
const receiptPollMs = 1_000
type Receipt = { status?: unknown; logs?: unknown }

/** The transaction's receipt once mined; undefined when the account or its connector changed meanwhile. */
function waitForReceipt(get: Getter, account: Account, hash: Hex): Promise<Receipt | undefined> {
  const deadline = Date.now() + Constants.receiptWaitMs
  return new Promise((resolve) => {
    const poll = async () => {
      const now = get(accountAtom)
      if (now?.connector !== account.connector || now.address !== account.address) return resolve(undefined)
      const receipt = (await account.connector.request({ method: 'eth_getTransactionReceipt', params: [hash] }).catch(() => null)) as Receipt | null
      if (receipt?.status === '0x1' || receipt?.status === '0x0') return resolve(receipt)
      setTimeout(poll, Date.now() < deadline ? receiptPollMs : Constants.pendingTransactionPollMs)
    }
    void poll()
  })
}

export type SwapRecord = {
  status: 'pending' | 'confirmed' | 'failed'
  from: SwapToken
  to: SwapToken
  paid: bigint
  minimum: bigint
  slippage: number
  received?: bigint | undefined
}
/** The swaps submitted from this modal, by hash, as their receipts tell. */
export const swapsAtom = atom<Record<string, SwapRecord>>({})

/**
 * Follows a submitted swap to its receipt. Confirmed: what came in (from its logs), balances read again
 * with forceUpdate, and the form cleared. Reverted (the price moved beyond the slippage): the form
 * stays, says what happened, and gets a fresh quote.
 */
export const trackSwapAtom = atom(null, async (get, set, hash: Hex) => {
  const account = get(accountAtom)
  const record = get(swapsAtom)[hash]
  if (!account || !record) return
  const receipt = await waitForReceipt(get, account, hash)
  if (!receipt) return
  const confirmed = receipt.status === '0x1'
  const received = confirmed ? Rules.receivedFromLogs(receipt.logs, { to: record.to, user: account.address }) : undefined
  set(swapsAtom, (s) => ({ ...s, [hash]: { ...record, status: confirmed ? 'confirmed' : 'failed', received } }))
  set(balanceRefreshAtom, (n) => n + 1)
  void set(loadTokensAtom, { force: true })
  if (confirmed) {
    set(swapFormAtom, (f) => ({ ...f, amount: '' }))
    set(quoteAtom, { status: 'idle' })
    return
  }
  set(swapNoticeAtom, format(swapText.reverted, { slippage: Rules.formatPercent(record.slippage) }))
  void set(requestQuoteAtom, { delayMs: 0 })
})

/** The wallet's own words for a failure, without its stack or JSON-RPC wrapping. */
function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' && message ? message.slice(0, 300) : core.somethingWentWrong
}
