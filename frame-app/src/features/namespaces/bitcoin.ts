/**
 * The Bitcoin (bip122) runtime of the namespace registry (registry.ts, issue 23): a lazy chunk, fetched
 * when a Bitcoin account signs in or sends. The wallet (WalletConnect bip122) picks the coins, signs and
 * broadcasts; the frame reads fees and follows payments on the network's Esplora API (its rpcUrl).
 */
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { core } from '@doorway/shared/Texts'
import type { Account } from '../../core/connection.js'
import type { Fee, Runtime, Sent, TransferRequest } from './registry.js'

/** WalletConnect bip122 signMessage: the payment address's key signs the text (BIP-137) and the wallet answers base64. */
async function signIn(account: Account, message: string): Promise<string> {
  const answer = await account.connector.request({ method: 'signMessage', params: { account: account.address, message } }, account.chainId)
  const signature = (answer as { signature?: unknown } | null)?.signature
  if (typeof signature !== 'string' || !base64Signature.test(signature)) throw new Error('The wallet answered without a signature')
  return signature
}
/** A BIP-137 signature is 65 bytes (88 base64 characters); a BIP-322 one is a longer witness. */
const base64Signature = /^(?=.{88,4096}$)[A-Za-z0-9+/]+={0,2}$/

/**
 * The fee, estimated: the wallet builds and pays it, so the preview shows what the network's 3-block
 * rate costs for a one-input, two-output payment, in sats (gas × a price of 1, as the spec §5 gas check reads it).
 */
async function estimate({ rpcUrl }: TransferRequest): Promise<Fee> {
  if (!rpcUrl) throw Errors.chainDisconnected()
  const response = await fetch(`${esplora(rpcUrl)}/fee-estimates`, { signal: AbortSignal.timeout(esploraTimeoutMs) })
  const rates = (await response.json()) as Record<string, unknown>
  const rate = typeof rates['3'] === 'number' ? rates['3'] : 1
  return { gas: BigInt(Math.ceil(rate * paymentVsize)), gasPrice: 1n }
}
/** A P2WPKH payment with one input, the receiver's output and change: about 141 virtual bytes. */
const paymentVsize = 141

/** WalletConnect bip122 sendTransfer: the wallet pays `units` sats to the receiver and answers the txid. */
async function send({ account, rpcUrl, units, receiver }: TransferRequest): Promise<Sent> {
  const params = { account: account.address, recipientAddress: receiver, amount: String(units) }
  const answer = (await account.connector.request({ method: 'sendTransfer', params }, account.chainId)) as { txid?: unknown } | null
  const txid = answer?.txid
  if (typeof txid !== 'string' || !/^[\da-f]{64}$/i.test(txid)) throw new Error('The wallet answered without a transaction id')
  return { hash: txid, settled: () => mined(txid, rpcUrl) }
}

/**
 * Follows a payment on Esplora (GET /tx/:id/status) until it is mined: every second for the receipt
 * wait, then every pending-poll interval (spec §9, as send.ts follows an EVM receipt).
 */
function mined(txid: string, rpcUrl: string | undefined): Promise<'confirmed'> {
  const deadline = Date.now() + Constants.receiptWaitMs
  return new Promise((resolve) => {
    const poll = async () => {
      if (rpcUrl && (await isMined(txid, rpcUrl))) return resolve('confirmed')
      setTimeout(() => void poll(), Date.now() < deadline ? receiptPollMs : Constants.pendingTransactionPollMs)
    }
    void poll()
  })
}
const receiptPollMs = 1_000

async function isMined(txid: string, rpcUrl: string): Promise<boolean> {
  const status = await fetch(`${esplora(rpcUrl)}/tx/${txid}/status`, { signal: AbortSignal.timeout(esploraTimeoutMs) })
    .then((r) => (r.ok ? (r.json() as Promise<{ confirmed?: unknown }>) : null))
    .catch(() => null)
  return status?.confirmed === true
}

const esplora = (rpcUrl: string) => rpcUrl.replace(/\/$/, '')
const esploraTimeoutMs = 10_000

export const runtime: Runtime = { signIn, transfer: { estimate, send, failed: core.somethingWentWrong } }
