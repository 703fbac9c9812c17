/**
 * The Send flow's state and actions (spec §3 Send state, §4 Sending, §5, §8, §9; docs/architecture.md §9 "Send").
 * Part of the Send chunk: loaded only when features.send is on and the flow opens.
 *
 * The person's steps write the form; the preview estimates the fee; `sendTokenAtom` asks the connected
 * wallet, whatever its connector, and then follows the transaction's receipt. Success or failure
 * resets the state (spec §4); only a wallet that never answers leaves the form as it was.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { core, errors, format } from '@doorway/shared/Texts'
import { sendText } from '@doorway/shared/texts/send'
import { atom, type Getter } from 'jotai'
import type { Hex } from 'viem'
import { ApiError, type Balance } from '../../api/client.js'
import { recordPendingAtom } from '../activity/activity.js'
import { trackAtom } from '../analytics/analytics.js'
import { apiAtom } from '../../core/api.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { type Account, accountAtom, namespaceOf } from '../../core/connection.js'
import { notifyAtom } from '../../core/host.js'
import { activeNetworkAtom } from '../../core/network.js'
import { replaceFromAtom } from '../../core/router.js'
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
 * The fee of this send (spec §3 gasPrice, gasPriceInUSD, networkBalanceInUSD): the api's gas price
 * and a real eth_estimateGas through the wallet. An ERC-20 transfer is simulated first, which tells a
 * tether-style token (spec §9) by its empty answer and catches a refusal before the wallet asks.
 */
export const estimateFeeAtom = atom(null, async (get, set) => {
  const account = get(accountAtom)
  const { token, sendTokenAmount, receiverAddress } = get(formAtom)
  if (!account || !token || !sendTokenAmount || !receiverAddress) return
  set(estimateAtom, { status: 'loading' })
  if (namespaceOf(token.chainId) === 'solana') return set(estimateSolanaAtom)
  if (namespaceOf(token.chainId) === 'bip122') return set(estimateBitcoinAtom)
  try {
    let abi: Rules.TokenAbi = 'erc20'
    const request = (tokenAbi: Rules.TokenAbi) =>
      Rules.transferRequest({ from: account.address, token, amount: sendTokenAmount, receiver: receiverAddress, abi: tokenAbi })
    if (!Rules.isNative(token)) {
      const { from, to, data } = request(abi)
      const result = await account.connector.request({ method: 'eth_call', params: [{ from, to, data }, 'latest'] })
      abi = Rules.readTransferResult(result as Hex)
    }
    const [price, gas] = await Promise.all([gasPrice(get, token.chainId as Caip.ChainId), estimateGas(account, request(abi))])
    // The form may have moved on while the estimate travelled.
    const now = get(formAtom)
    if (now.token !== token || now.sendTokenAmount !== sendTokenAmount || now.receiverAddress !== receiverAddress) return
    const native = nativeOf(get)
    const fee = Number(gas * price) / 10 ** Number(native?.quantity.decimals ?? 18)
    set(formAtom, (f) => ({ ...f, gasPrice: price, gasPriceInUSD: fee * (native?.price ?? 0), networkBalanceInUSD: native?.value }))
    set(estimateAtom, { status: 'ready', gas, abi })
  } catch (error) {
    set(estimateAtom, { status: 'error', message: format(sendText.feeFailed, { reason: reasonOf(error) }) })
  }
})

/**
 * The Solana fee: the transaction as it would be sent, built and priced by the node; a rule the chain
 * would refuse (rent, funds) is said here, before the wallet asks. The fee stands as gas × a price of 1,
 * in lamports, so the spec §5 gas check reads it as it reads an EVM one.
 */
const estimateSolanaAtom = atom(null, async (get, set) => {
  const account = get(accountAtom)
  const { token, sendTokenAmount, receiverAddress } = get(formAtom)
  if (!account || !token || !sendTokenAmount || !receiverAddress) return
  try {
    const Solana = await import('../solana/SolanaSend.js')
    const rpcUrl = get(activeNetworkAtom)?.rpcUrl
    const built = await Solana.build({ account, rpcUrl, token, units: Rules.baseUnits(sendTokenAmount, token), receiver: receiverAddress })
    const now = get(formAtom)
    if (now.token !== token || now.sendTokenAmount !== sendTokenAmount || now.receiverAddress !== receiverAddress) return
    const native = nativeOf(get)
    const fee = Number(built.fee + built.rentLamports) / 1e9
    set(formAtom, (f) => ({ ...f, gasPrice: 1n, gasPriceInUSD: fee * (native?.price ?? 0), networkBalanceInUSD: native?.value }))
    set(estimateAtom, { status: 'ready', gas: built.fee + built.rentLamports, abi: 'erc20', ...(built.createsTokenAccount && { rent: built.rentLamports }) })
  } catch (error) {
    set(estimateAtom, { status: 'error', message: reasonOf(error) })
  }
})

/**
 * The Bitcoin fee, estimated: the wallet builds and pays it (WalletConnect sendTransfer), so the preview
 * shows what the network's 3-block rate costs for a one-input, two-output payment, in sats.
 */
const estimateBitcoinAtom = atom(null, async (get, set) => {
  const { token } = get(formAtom)
  const rpcUrl = get(activeNetworkAtom)?.rpcUrl
  if (!token) return
  try {
    if (!rpcUrl) throw Errors.chainDisconnected()
    const response = await fetch(`${rpcUrl.replace(/\/$/, '')}/fee-estimates`, { signal: AbortSignal.timeout(10_000) })
    const rates = (await response.json()) as Record<string, unknown>
    const rate = typeof rates['3'] === 'number' ? rates['3'] : 1
    const sats = BigInt(Math.ceil(rate * bitcoinPaymentVsize))
    const native = nativeOf(get)
    set(formAtom, (f) => ({ ...f, gasPrice: 1n, gasPriceInUSD: (Number(sats) / 1e8) * (native?.price ?? 0), networkBalanceInUSD: native?.value }))
    set(estimateAtom, { status: 'ready', gas: sats, abi: 'erc20' })
  } catch (error) {
    set(estimateAtom, { status: 'error', message: reasonOf(error) })
  }
})
/** A P2WPKH payment with one input, the receiver's output and change: about 141 virtual bytes. */
const bitcoinPaymentVsize = 141

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

/** spec §5: flagged when the native balance is zero or the fee exceeds it (never for smart accounts). */
export const insufficientGasAtom = atom((get) => {
  const estimate = get(estimateAtom)
  const { gasPrice, token, sendTokenAmount } = get(formAtom)
  const native = nativeOf(get)
  if (estimate.status !== 'ready' || gasPrice === undefined || !native || !token) return undefined
  const fee = estimate.gas * gasPrice
  const nativeBalance = Rules.balanceOf(native)
  const smartAccount = get(accountAtom)?.connector.accountType === 'smartAccount'
  if (Rules.hasInsufficientGas({ nativeBalance, fee, smartAccount })) return 'insufficientGas' as const
  // A native send pays the amount and the fee from the same balance.
  const amount = Rules.isNative(token) && sendTokenAmount ? Rules.baseUnits(sendTokenAmount, token) : 0n
  if (!smartAccount && amount + fee > nativeBalance) return 'insufficientTotal' as const
  return undefined
})

export type Outcome = { status: 'sent'; hash: string } | { status: 'rejected' | 'failed' | 'timedOut' | 'busy' }

/** Shown on the preview when the wallet did not answer in time (the form is kept). */
export const sendErrorAtom = atom<string | undefined>(undefined)

/**
 * spec §4 sendToken: the EVM path by the active chain ('Unsupported chain' otherwise), the spec §5
 * checks, then the wallet. 'Transaction started' on submission; a rejection is calm; another failure
 * is 'Something went wrong' with the wallet's reason (spec §8). Either resets the state; a wallet
 * that never answers keeps the form, so the person can try again.
 */
export const sendTokenAtom = atom(null, async (get, set): Promise<Outcome> => {
  const form = get(formAtom)
  if (form.loading) return { status: 'busy' }
  const network = get(activeNetworkAtom)
  const account = get(accountAtom)
  const namespace = network && namespaceOf(network.caipNetworkId)
  if (!network || !account || namespace === 'polkadot') throw new Errors.DoorwayError(errors.unsupportedChain)
  if (namespace === 'solana') return set(sendSolanaAtom)
  if (namespace === 'bip122') return set(sendBitcoinAtom)
  const state = get(sendAtom)
  // spec §5; and an amount the token cannot carry (too many decimals, above the balance) never reaches the wallet.
  if (!Rules.isComplete(state) || 'error' in Rules.checkAmount(state.sendTokenAmount!, state.token!)) throw new Errors.DoorwayError(errors.invalidSendInput)
  const estimate = get(estimateAtom)
  const abi = estimate.status === 'ready' ? estimate.abi : 'erc20'
  const tx = Rules.transferRequest({ from: account.address, token: state.token!, amount: state.sendTokenAmount!, receiver: state.receiverAddress!, abi })
  set(formAtom, (f) => ({ ...f, loading: true }))
  set(sendErrorAtom, undefined)
  const chainId = network.caipNetworkId
  try {
    const hash = await account.connector.request({ method: 'eth_sendTransaction', params: [tx] })
    if (typeof hash !== 'string' || !/^0x[\da-f]{64}$/i.test(hash)) throw new Error('The wallet answered without a transaction hash')
    // The Activity tab shows it at once as pending, until the api lists it.
    const { name, symbol, iconUrl } = state.token!
    set(recordPendingAtom, { hash, chainId, from: account.address, to: state.receiverAddress!, token: { name, symbol, iconUrl }, amount: state.sendTokenAmount! })
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(notifyAtom, { type: 'result', result: { status: 'sent', hash, chainId } })
    void set(trackAtom, 'SEND_SUCCESS', { network: chainId, token: state.token!.symbol, amount: state.sendTokenAmount })
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'SendResult', hash: hash as Hex, chainId })
    void set(trackTransactionAtom, hash as Hex, chainId)
    return { status: 'sent', hash: hash as Hex }
  } catch (error) {
    set(formAtom, (f) => ({ ...f, loading: false }))
    if (error instanceof Errors.DoorwayError && error.message === core.requestTimedOut) {
      set(sendErrorAtom, sendText.timedOut)
      return { status: 'timedOut' }
    }
    const rejected = (error as { code?: unknown } | null)?.code === Errors.codes.userRejected
    if (rejected) set(showToastAtom, { variant: 'info', message: sendText.rejected })
    else {
      set(showToastAtom, { variant: 'error', message: core.somethingWentWrong, detail: reasonOf(error) })
      void set(trackAtom, 'SEND_ERROR', { network: chainId, message: reasonOf(error) })
    }
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'Send' })
    return { status: rejected ? 'rejected' : 'failed' }
  }
})

/**
 * spec §4 sendToken, the Solana path: the same steps and toasts as the EVM path; a failure is
 * 'Failed to send transaction. Please try again.' (spec §8) with the reason (rent, expiry, funds).
 */
const sendSolanaAtom = atom(null, async (get, set): Promise<Outcome> => {
  const network = get(activeNetworkAtom)!
  const account = get(accountAtom)!
  const state = get(sendAtom)
  if (!Rules.isComplete(state) || 'error' in Rules.checkAmount(state.sendTokenAmount!, state.token!)) throw new Errors.DoorwayError(errors.invalidSendInput)
  set(formAtom, (f) => ({ ...f, loading: true }))
  set(sendErrorAtom, undefined)
  const chainId = network.caipNetworkId
  const token = state.token!
  try {
    const Solana = await import('../solana/SolanaSend.js')
    const units = Rules.baseUnits(state.sendTokenAmount!, token)
    const { signature, confirmed } = await Solana.send({ account, rpcUrl: network.rpcUrl, token, units, receiver: state.receiverAddress! })
    const { name, symbol, iconUrl } = token
    set(recordPendingAtom, { hash: signature, chainId, from: account.address, to: state.receiverAddress!, token: { name, symbol, iconUrl }, amount: state.sendTokenAmount! })
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(notifyAtom, { type: 'result', result: { status: 'sent', hash: signature, chainId } })
    void set(trackAtom, 'SEND_SUCCESS', { network: chainId, token: symbol, amount: state.sendTokenAmount })
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'SendResult', hash: signature, chainId })
    set(transactionsAtom, (t) => ({ ...t, [signature]: 'pending' }))
    const settle = (status: TransactionStatus) => {
      set(transactionsAtom, (t) => ({ ...t, [signature]: status }))
      set(balanceRefreshAtom, (n) => n + 1)
      void set(loadTokensAtom, { force: true })
    }
    confirmed().then(() => settle('confirmed'), () => settle('failed'))
    return { status: 'sent', hash: signature }
  } catch (error) {
    set(formAtom, (f) => ({ ...f, loading: false }))
    const rejected = (error as { code?: unknown } | null)?.code === Errors.codes.userRejected
    if (rejected) set(showToastAtom, { variant: 'info', message: sendText.rejected })
    else {
      set(showToastAtom, { variant: 'error', message: errors.sendTransactionFailed, detail: reasonOf(error) })
      void set(trackAtom, 'SEND_ERROR', { network: chainId, message: reasonOf(error) })
    }
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'Send' })
    return { status: rejected ? 'rejected' : 'failed' }
  }
})

/**
 * The Bitcoin path (WalletConnect bip122 sendTransfer): the payment account's wallet picks the coins,
 * signs and broadcasts; the frame follows the txid on the network's Esplora API until it is mined.
 */
const sendBitcoinAtom = atom(null, async (get, set): Promise<Outcome> => {
  const network = get(activeNetworkAtom)!
  const account = get(accountAtom)!
  const state = get(sendAtom)
  if (!Rules.isComplete(state) || 'error' in Rules.checkAmount(state.sendTokenAmount!, state.token!)) throw new Errors.DoorwayError(errors.invalidSendInput)
  set(formAtom, (f) => ({ ...f, loading: true }))
  const chainId = network.caipNetworkId
  try {
    const amount = String(Rules.baseUnits(state.sendTokenAmount!, state.token!))
    const params = { account: account.address, recipientAddress: state.receiverAddress!, amount }
    const answer = (await account.connector.request({ method: 'sendTransfer', params }, chainId)) as { txid?: unknown } | null
    const txid = answer?.txid
    if (typeof txid !== 'string' || !/^[\da-f]{64}$/i.test(txid)) throw new Error('The wallet answered without a transaction id')
    const { name, symbol, iconUrl } = state.token!
    set(recordPendingAtom, { hash: txid, chainId, from: account.address, to: state.receiverAddress!, token: { name, symbol, iconUrl }, amount: state.sendTokenAmount! })
    set(showToastAtom, { variant: 'success', message: errors.transactionStarted })
    set(notifyAtom, { type: 'result', result: { status: 'sent', hash: txid, chainId } })
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'SendResult', hash: txid, chainId })
    void set(trackBitcoinAtom, txid, network.rpcUrl)
    return { status: 'sent', hash: txid }
  } catch (error) {
    set(formAtom, (f) => ({ ...f, loading: false }))
    const rejected = (error as { code?: unknown } | null)?.code === Errors.codes.userRejected
    set(showToastAtom, rejected ? { variant: 'info', message: sendText.rejected } : { variant: 'error', message: core.somethingWentWrong, detail: reasonOf(error) })
    set(resetSendAtom)
    set(replaceFromAtom, 'Send', { view: 'Send' })
    return { status: rejected ? 'rejected' : 'failed' }
  }
})

/** Follows a Bitcoin payment on Esplora (GET /tx/:id/status) until mined, then reads balances again. */
const trackBitcoinAtom = atom(null, async (_get, set, txid: string, esploraUrl: string | undefined) => {
  set(transactionsAtom, (t) => ({ ...t, [txid]: 'pending' }))
  const deadline = Date.now() + Constants.receiptWaitMs
  const poll = async () => {
    const status = esploraUrl
      ? await fetch(`${esploraUrl.replace(/\/$/, '')}/tx/${txid}/status`, { signal: AbortSignal.timeout(10_000) })
          .then((r) => (r.ok ? (r.json() as Promise<{ confirmed?: unknown }>) : null))
          .catch(() => null)
      : null
    if (status?.confirmed === true) {
      set(transactionsAtom, (t) => ({ ...t, [txid]: 'confirmed' }))
      set(balanceRefreshAtom, (n) => n + 1)
      return set(loadTokensAtom, { force: true })
    }
    setTimeout(() => void poll(), Date.now() < deadline ? receiptPollMs : Constants.pendingTransactionPollMs)
  }
  await poll()
})

export type TransactionStatus = 'pending' | 'confirmed' | 'failed'
/** The transactions sent from this modal, by hash, as their receipts tell. */
export const transactionsAtom = atom<Record<string, TransactionStatus>>({})

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
