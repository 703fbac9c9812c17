/**
 * The Send flow's state and actions (spec §3 Send state, §4 Sending, §5, §8, §9; docs/architecture.md §9 "Send").
 * Part of the Send chunk: loaded only when features.send is on and the flow opens.
 *
 * The person's steps write the form; the preview estimates the fee; `sendTokenAtom` asks the connected
 * wallet, whatever its connector, and then follows the transaction's receipt. Success or failure
 * resets the state (spec §4); only a wallet that never answers leaves the form as it was. The EVM path
 * is here; another namespace's fee and transfer are its runtime's (features/namespaces/registry.ts).
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { core, errors, format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { atom, type Getter, type Setter } from 'jotai'
import type { Hex } from 'viem'
import { ApiError, type Balance } from '../../api/client.js'
import { recordPendingAtom } from '../activity/activity.js'
import { trackAtom } from '../analytics/analytics.js'
import { apiAtom } from '../../core/api.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { type Account, accountAtom } from '../../core/connection.js'
import { paysNoGas } from '../../core/connectors/Connector.js'
import { notifyAtom } from '../../core/host.js'
import { activeNetworkAtom } from '../../core/network.js'
import { replaceFromAtom } from '../../core/router.js'
import type { SendPrefill } from '../../core/routes.js'
import * as Namespaces from '../namespaces/registry.js'
import * as Rules from './sendRules.js'
import { showToastAtom } from '../../core/toasts.js'
import { loadTokensAtom, tokensAtom } from '../balances/tokens.js'

type Form = Omit<Rules.SendState, 'tokenBalances' | 'lastRetry'>
const emptyForm: Form = {
  token: undefined,
  sendTokenAmount: undefined,
  receiverAddress: undefined,
  receiverProfileName: undefined,
  receiverProfileImageUrl: undefined,
  gasPrice: undefined,
  gasPriceInUSD: undefined,
  networkBalanceInUSD: undefined,
  loading: false,
}
const formAtom = atom<Form>(emptyForm)

/**
 * spec §3 Send state. Token balances and their retry time are the account's balances
 * (features/balances/tokens.ts), loaded once for the Tokens tab and the Send flow alike.
 */
export const sendAtom = atom((get): Rules.SendState => {
  const tokens = get(tokensAtom)
  return { ...get(formAtom), tokenBalances: Rules.sendableTokens(tokens.balances), lastRetry: tokens.lastFailure ?? undefined }
})

/** What the person typed, kept while they move between steps, even when it is not valid yet. */
export const draftAtom = atom({ amount: '', receiver: '' })

/** The preview's fee estimate: gas units for this transfer, and the token ABI its simulation chose. */
export type Estimate =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; gas: bigint; abi: Rules.TokenAbi; rent?: bigint }
  | { status: 'error'; message: string }
export const estimateAtom = atom<Estimate>({ status: 'idle' })

export const resetSendAtom = atom(null, (_get, set) => {
  set(formAtom, emptyForm)
  set(draftAtom, { amount: '', receiver: '' })
  set(estimateAtom, { status: 'idle' })
})

/** Choosing another token starts its amount again. */
export const chooseTokenAtom = atom(null, (get, set, token: Balance) => {
  if (get(formAtom).token?.address === token.address && get(formAtom).token?.chainId === token.chainId) return
  set(formAtom, { ...emptyForm, token, receiverAddress: get(formAtom).receiverAddress })
  set(draftAtom, (d) => ({ ...d, amount: '' }))
  set(estimateAtom, { status: 'idle' })
})

export const setAmountAtom = atom(null, (_get, set, amount: string) => {
  set(formAtom, (f) => ({ ...f, sendTokenAmount: amount }))
  set(estimateAtom, { status: 'idle' })
})

export const setReceiverAtom = atom(null, (_get, set, receiver: { address: string; name?: string; imageUrl?: string }) => {
  set(formAtom, (f) => ({ ...f, receiverAddress: receiver.address, receiverProfileName: receiver.name, receiverProfileImageUrl: receiver.imageUrl }))
  set(estimateAtom, { status: 'idle' })
})

/** A name through the api's profile endpoint (spec §7); the api's own reason is preferred (spec §8). */
export const resolveNameAtom = atom(null, async (get, _set, name: string, signal?: AbortSignal) => {
  const chainId = get(accountAtom)?.chainId ?? get(activeNetworkAtom)?.caipNetworkId
  try {
    const profile = await get(apiAtom).profile(name, signal)
    const address = chainId && Rules.profileAddress(profile, chainId)
    if (!address) throw new Error(errors.resolveNameFailed)
    return { address, name: profile.name, imageUrl: Rules.avatarUrl(profile) }
  } catch (error) {
    if (signal?.aborted) throw error
    // A 4xx carries the api's reason for this name; a 5xx is the server's own trouble.
    throw new Error((error instanceof ApiError && error.status < 500 && error.reason) || errors.resolveNameFailed, { cause: error })
  }
})

/** The native token's balance row, for the fee (it is paid in the native token). */
const nativeOf = (get: Getter) => get(tokensAtom).balances.find(Rules.isNative)

async function estimateGas(account: Account, tx: Rules.TransactionRequest): Promise<bigint> {
  const gas = await account.connector.request({ method: 'eth_estimateGas', params: [tx] })
  if (typeof gas !== 'string' || !/^0x[\da-f]+$/i.test(gas)) throw new Error('The wallet gave no gas estimate')
  return BigInt(gas)
}

/** The api's gas price for the active network ('Network not supported for Gas Price' otherwise, spec §8). */
async function gasPrice(get: Getter, chainId: Caip.ChainId): Promise<bigint> {
  const prices = await get(apiAtom).gasPrice(chainId)
  return BigInt(prices.standard)
}

/**
 * The fee of this send (spec §3 gasPrice, gasPriceInUSD, networkBalanceInUSD), by the namespace's
 * runtime (features/namespaces/registry.ts); eip155, which has none, takes the EVM path below. The fee
 * stands as gas × gasPrice in the native token's base units, so the spec §5 gas check reads every
 * namespace's alike. An estimate the form has moved on from is dropped.
 */
export const estimateFeeAtom = atom(null, async (get, set) => {
  const account = get(accountAtom)
  const form = get(formAtom)
  const { token, sendTokenAmount, receiverAddress } = form
  if (!account || !token || !sendTokenAmount || !receiverAddress) return
  set(estimateAtom, { status: 'loading' })
  const asked = { account, token, amount: sendTokenAmount, receiver: receiverAddress }
  let transfer: Namespaces.Transfer | undefined
  try {
    transfer = (await Namespaces.of(token.chainId).load()).transfer
    const fee = transfer ? await transferFee(get, asked, transfer) : await evmFee(get, asked)
    if (movedOn(get, form)) return
    set(formAtom, (f) => ({ ...f, gasPrice: fee.gasPrice, ...feeInUsd(get, fee.gas * fee.gasPrice) }))
    set(estimateAtom, { status: 'ready', gas: fee.gas, abi: fee.abi, ...(fee.rent !== undefined && { rent: fee.rent }) })
  } catch (error) {
    // The api's or the wallet's reason is a failed EVM estimate; another chain's rule (rent, funds) is said as it is.
    set(estimateAtom, { status: 'error', message: transfer ? reasonOf(error) : format(sendText.feeFailed, { reason: reasonOf(error) }) })
  }
})

/** What an estimate is for: the account, and the form's token, amount and receiver. */
type Asked = { account: Account; token: Balance; amount: string; receiver: string }

/**
 * The EVM fee: the api's gas price and a real eth_estimateGas through the wallet. An ERC-20 transfer is
 * simulated first, which tells a tether-style token (spec §9) by its empty answer and catches a refusal
 * before the wallet asks.
 */
async function evmFee(get: Getter, { account, token, amount, receiver }: Asked): Promise<Namespaces.Fee & { abi: Rules.TokenAbi }> {
  let abi: Rules.TokenAbi = 'erc20'
  const request = (tokenAbi: Rules.TokenAbi) => Rules.transferRequest({ from: account.address, token, amount, receiver, abi: tokenAbi })
  if (!Rules.isNative(token)) {
    const { from, to, data } = request(abi)
    const result = await account.connector.request({ method: 'eth_call', params: [{ from, to, data }, 'latest'] })
    abi = Rules.readTransferResult(result as Hex)
  }
  const [price, gas] = await Promise.all([gasPrice(get, token.chainId as Caip.ChainId), estimateGas(account, request(abi))])
  return { gas, gasPrice: price, abi }
}

/** Another namespace's fee, from its runtime (Solana: the transaction priced by the node; Bitcoin: the network's rate). */
async function transferFee(get: Getter, { account, token, amount, receiver }: Asked, transfer: Namespaces.Transfer): Promise<Namespaces.Fee & { abi: Rules.TokenAbi }> {
  const fee = await transfer.estimate({ account, rpcUrl: get(activeNetworkAtom)?.rpcUrl, token, units: Rules.baseUnits(amount, token), receiver })
  return { ...fee, abi: 'erc20' }
}

/** The form moved on while the estimate travelled: it is for another token, amount or receiver. */
function movedOn(get: Getter, then: Form): boolean {
  const now = get(formAtom)
  return now.token !== then.token || now.sendTokenAmount !== then.sendTokenAmount || now.receiverAddress !== then.receiverAddress
}

/** A fee in the native token's base units, in US dollars, with the native balance's value (spec §3). */
function feeInUsd(get: Getter, fee: bigint): Pick<Form, 'gasPriceInUSD' | 'networkBalanceInUSD'> {
  const native = nativeOf(get)
  const amount = Number(fee) / 10 ** Number(native?.quantity.decimals ?? 18)
  return { gasPriceInUSD: amount * (native?.price ?? 0), networkBalanceInUSD: native?.value }
}

/** The most the person can send of the token: the native token keeps its fee back (spec: Max). */
export const maxAmountAtom = atom(null, async (get) => {
  const account = get(accountAtom)
  const { token, receiverAddress } = get(formAtom)
  if (!account || !token) return undefined
  if (!Rules.isNative(token)) return Rules.maxAmount(token, 0n)
  const to = receiverAddress ?? account.address
  const [price, gas] = await Promise.all([gasPrice(get, token.chainId as Caip.ChainId), estimateGas(account, { from: account.address, to, value: '0x0' })])
  return Rules.maxAmount(token, Rules.feeReserve(gas, price))
})

/** spec §5: flagged when the native balance is zero or the fee exceeds it (never for a sponsored smart account, Connector.ts paysNoGas). */
export const insufficientGasAtom = atom((get) => {
  const estimate = get(estimateAtom)
  const { gasPrice, token, sendTokenAmount } = get(formAtom)
  const native = nativeOf(get)
  if (estimate.status !== 'ready' || gasPrice === undefined || !native || !token) return undefined
  const fee = estimate.gas * gasPrice
  const nativeBalance = Rules.balanceOf(native)
  const gasless = paysNoGas(get(accountAtom)?.connector)
  if (Rules.hasInsufficientGas({ nativeBalance, fee, smartAccount: gasless })) return 'insufficientGas' as const
  // A native send pays the amount and the fee from the same balance (a paymaster pays a sponsored account's fee).
  const amount = Rules.isNative(token) && sendTokenAmount ? Rules.baseUnits(sendTokenAmount, token) : 0n
  if (amount + (gasless ? 0n : fee) > nativeBalance) return 'insufficientTotal' as const
  return undefined
})

/** `kept`: nothing went out and the form stays for another try (a non-EVM transfer, issue 23). */
export type Outcome = { status: 'sent'; hash: string } | { status: 'rejected' | 'failed' | 'timedOut' | 'kept' | 'busy' }

/** Shown on the preview when the wallet did not answer in time (the form is kept). */
export const sendErrorAtom = atom<string | undefined>(undefined)

/**
 * spec §4 sendToken: the path of the active chain's namespace ('Unsupported chain' for one that does not
 * send), the spec §5 checks, then the wallet. 'Transaction started' on submission; a rejection is calm;
 * another failure is the namespace's failure toast with the wallet's reason (spec §8). Either resets
 * the state; a wallet that never answers keeps the form, so the person can try again.
 */
export const sendTokenAtom = atom(null, async (get, set): Promise<Outcome> => {
  if (get(formAtom).loading) return { status: 'busy' }
  const network = get(activeNetworkAtom)
  const account = get(accountAtom)
  const entry = network && Namespaces.of(network.caipNetworkId)
  if (!network || !account || !entry || !Namespaces.sends(entry)) throw new Errors.DoorwayError(errors.unsupportedChain)
  const state = get(sendAtom)
  // spec §5; and an amount the token cannot carry (too many decimals, above the balance) never reaches the wallet.
  if (!Rules.isComplete(state) || 'error' in Rules.checkAmount(state.sendTokenAmount!, state.token!)) throw new Errors.DoorwayError(errors.invalidSendInput)
  const estimate = get(estimateAtom)
  set(formAtom, (f) => ({ ...f, loading: true }))
  set(sendErrorAtom, undefined)
  const chainId = network.caipNetworkId
  let failed: string = core.somethingWentWrong
  let transfer: Namespaces.Transfer | undefined
  try {
    transfer = (await entry.load()).transfer
    failed = transfer?.failed ?? failed
    const again: SendPrefill = { asset: Rules.isNative(state.token!) ? 'native' : Rules.contractOf(state.token!), amount: state.sendTokenAmount!, to: state.receiverAddress! }
    const submitted = transfer
      ? await submitTransfer(set, transfer, { account, rpcUrl: network.rpcUrl, token: state.token!, units: Rules.baseUnits(state.sendTokenAmount!, state.token!), receiver: state.receiverAddress! }, again)
      : await submitEvm(set, account, state, estimate.status === 'ready' ? estimate.abi : 'erc20', chainId)
    // The Activity tab shows it at once as pending, until the api lists it.
    const { name, symbol, iconUrl } = state.token!
    set(recordPendingAtom, { hash: submitted.hash, chainId, from: account.address, to: state.receiverAddress!, token: { name, symbol, iconUrl }, amount: state.sendTokenAmount! })
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(notifyAtom, { type: 'result', result: { status: 'sent', hash: submitted.hash, chainId } })
    void set(trackAtom, 'SEND_SUCCESS', { network: chainId, token: symbol, amount: state.sendTokenAmount })
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'SendResult', hash: submitted.hash, chainId })
    submitted.follow()
    return { status: 'sent', hash: submitted.hash }
  } catch (error) {
    return set(sendFailedAtom, error, failed, chainId, transfer?.kept?.(error) ?? false)
  }
})

/** A transfer the wallet took: its hash, and how to follow it to its receipt. */
type Submitted = { hash: string; follow(): void }

/** The EVM path: eth_sendTransaction with the token ABI the estimate chose, followed by its receipt. */
async function submitEvm(set: Setter, account: Account, state: Rules.SendState, abi: Rules.TokenAbi, chainId: Caip.ChainId): Promise<Submitted> {
  const tx = Rules.transferRequest({ from: account.address, token: state.token!, amount: state.sendTokenAmount!, receiver: state.receiverAddress!, abi })
  const hash = await account.connector.request({ method: 'eth_sendTransaction', params: [tx] })
  if (typeof hash !== 'string' || !/^0x[\da-f]{64}$/i.test(hash)) throw new Error('The wallet answered without a transaction hash')
  return { hash, follow: () => void set(trackTransactionAtom, hash as Hex, chainId) }
}

/** Another namespace's path: its runtime sends (features/namespaces), and says when the chain decided. */
async function submitTransfer(set: Setter, transfer: Namespaces.Transfer, request: Namespaces.TransferRequest, again: SendPrefill): Promise<Submitted> {
  const sent = await transfer.send(request)
  return { hash: sent.hash, follow: () => void set(followAtom, sent, again) }
}

/**
 * spec §4, §8: a send that failed resets the state, unless the wallet never answered or nothing went out
 * (`kept`, issue 23): then the form stays with the reason, and Send tries again.
 */
const sendFailedAtom = atom(null, (_get, set, error: unknown, failed: string, chainId: Caip.ChainId, kept: boolean): Outcome => {
  set(formAtom, (f) => ({ ...f, loading: false }))
  if (error instanceof Errors.DoorwayError && error.message === core.requestTimedOut) {
    set(sendErrorAtom, sendText.timedOut)
    return { status: 'timedOut' }
  }
  if (kept) {
    set(showToastAtom, { variant: 'error', message: failed, detail: reasonOf(error) })
    void set(trackAtom, 'SEND_ERROR', { network: chainId, message: reasonOf(error) })
    set(sendErrorAtom, reasonOf(error))
    return { status: 'kept' }
  }
  const rejected = (error as { code?: unknown } | null)?.code === Errors.codes.userRejected
  if (rejected) set(showToastAtom, { variant: 'info', message: sendText.rejected })
  else {
    set(showToastAtom, { variant: 'error', message: failed, detail: reasonOf(error) })
    void set(trackAtom, 'SEND_ERROR', { network: chainId, message: reasonOf(error) })
  }
  set(resetSendAtom)
  set(replaceFromAtom, 'Send', { view: 'Send' })
  return { status: rejected ? 'rejected' : 'failed' }
})

/**
 * Follows another namespace's transfer until its chain decides; then the balances are read again. One
 * that expired unlanded keeps what was sent, for the result's Try again (issue 23).
 */
const followAtom = atom(null, async (_get, set, sent: Namespaces.Sent, again: SendPrefill) => {
  set(transactionsAtom, (t) => ({ ...t, [sent.hash]: 'pending' }))
  const status = await sent.settled()
  if (status === 'expired') set(sendAgainAtom, (a) => ({ ...a, [sent.hash]: again }))
  set(transactionsAtom, (t) => ({ ...t, [sent.hash]: status }))
  set(balanceRefreshAtom, (n) => n + 1)
  await set(loadTokensAtom, { force: true })
})

export type TransactionStatus = 'pending' | 'confirmed' | 'failed' | 'expired'
/** The transactions sent from this modal, by hash, as their receipts tell. */
export const transactionsAtom = atom<Record<string, TransactionStatus>>({})
/** By hash, an expired transfer's token, amount and receiver: the Send route that tries it again. */
export const sendAgainAtom = atom<Record<string, SendPrefill>>({})

// While a receipt is awaited (spec §9 receipt wait 25 s) the wallet is asked every second; after that
// the transaction stays pending and is checked every pending-poll interval (spec §9: 30 s).
const receiptPollMs = 1_000

/** Follows a sent transaction to its receipt; on it, balances are read again with forceUpdate. */
export const trackTransactionAtom = atom(null, async (get, set, hash: Hex, chainId: Caip.ChainId) => {
  const account = get(accountAtom)
  if (!account) return
  set(transactionsAtom, (t) => ({ ...t, [hash]: 'pending' }))
  const deadline = Date.now() + Constants.receiptWaitMs
  const poll = async () => {
    const now = get(accountAtom)
    // Another account or connector: this one's transactions are no longer ours to show.
    if (now?.connector !== account.connector || now.address !== account.address) return
    const receipt = now.chainId === chainId ? await account.connector.request({ method: 'eth_getTransactionReceipt', params: [hash] }).catch(() => null) : null
    const status = (receipt as { status?: unknown } | null)?.status
    if (status === '0x1' || status === '0x0') {
      set(transactionsAtom, (t) => ({ ...t, [hash]: status === '0x1' ? 'confirmed' : 'failed' }))
      set(balanceRefreshAtom, (n) => n + 1)
      return set(loadTokensAtom, { force: true })
    }
    setTimeout(poll, Date.now() < deadline ? receiptPollMs : Constants.pendingTransactionPollMs)
  }
  await poll()
})

/** The wallet's own words for a failure, without its stack or JSON-RPC wrapping. */
function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message
  return typeof message === 'string' && message ? message.slice(0, 300) : core.somethingWentWrong
}
