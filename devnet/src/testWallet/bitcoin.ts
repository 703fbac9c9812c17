/**
 * The test wallet's bip122 namespace: one payment account (dev key 0 of bitcoin/keys.ts, P2WPKH on
 * regtest) and its answers to the WalletConnect bip122 methods (payloads in shared/notes/namespaces.md
 * §3), sending through the devnet's Esplora stand-in (bitcoin/esplora.ts).
 */
import { hex } from '@scure/base'
import { Address } from '@scure/btc-signer'
import * as BitcoinKeys from '../bitcoin/keys.js'
import * as BitcoinWallet from '../bitcoin/wallet.js'
import { RpcError, rpcErrors } from './errors.js'
import * as Params from './params.js'

export const methods = ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'] as const
export const events = ['bip122_addressesChanged'] as const

export type Options = { esploraUrl: string; chainId: `bip122:${string}` }
export type Account = Options & { key: BitcoinKeys.PaymentKey; /** The payment address (P2WPKH). */ address: string }

export function account(options: Options): Account {
  const key = BitcoinKeys.payment(0)
  return { ...options, key, address: key.address }
}

export async function answer(account: Account, method: string, params: unknown): Promise<unknown> {
  const fields = Params.object(params)
  // Every method names the account it is for: the payment address, the only one this wallet has.
  if (Params.string(fields, 'account', 100) !== account.key.address) throw new RpcError(rpcErrors.unauthorized)
  switch (method) {
    case 'getAccountAddresses':
      return addresses(account, fields)
    case 'signMessage':
      return signMessage(account, fields)
    case 'sendTransfer':
      return sendTransfer(account, fields)
    case 'signPsbt':
      return signPsbt(account, fields)
    default:
      throw new RpcError(rpcErrors.unsupported)
  }
}

function addresses({ key }: Account, fields: Params.Fields) {
  const { intentions } = fields
  if (intentions !== undefined && (!Array.isArray(intentions) || intentions.some((i) => i !== 'payment' && i !== 'ordinal')))
    throw Params.invalid('intentions must be a list of "payment" and "ordinal".')
  // The wallet has no ordinal address: asking only for those lists none.
  if (intentions !== undefined && !intentions.includes('payment')) return []
  return [{ address: key.address, publicKey: hex.encode(key.publicKey), path: key.path, intention: 'payment' }]
}

function signMessage({ key }: Account, fields: Params.Fields) {
  const message = Params.string(fields, 'message')
  const address = Params.optionalString(fields, 'address', 100)
  if (address !== undefined && address !== key.address) throw new RpcError(rpcErrors.unauthorized)
  const protocol = Params.optionalString(fields, 'protocol', 10)
  // bitcoin/wallet.ts signs the legacy ("ecdsa", BIP-137) way only.
  if (protocol !== undefined && protocol !== 'ecdsa') throw Params.invalid('protocol must be "ecdsa": this wallet does not sign BIP-322.')
  return { address: key.address, signature: BitcoinWallet.signMessage(message, key) }
}

async function sendTransfer(account: Account, fields: Params.Fields) {
  const to = regtestAddress(fields, 'recipientAddress')
  const changeAddress = fields.changeAddress === undefined ? undefined : regtestAddress(fields, 'changeAddress')
  const amount = Params.string(fields, 'amount', 16)
  // A decimal count of satoshis, from the dust limit to the 21 million bitcoin there will ever be.
  if (!/^[1-9]\d*$/.test(amount) || BigInt(amount) < BitcoinWallet.dustLimit || BigInt(amount) > maxSats)
    throw Params.invalid(`amount must be a whole number of satoshis, at least ${BitcoinWallet.dustLimit}.`)
  // The wallet writes no OP_RETURN output: say so rather than drop the memo silently.
  if (Params.optionalString(fields, 'memo', 80) !== undefined) throw Params.invalid('memo is not supported by this wallet.')
  const { esploraUrl, key } = account
  const { txid } = await BitcoinWallet.transfer({ esploraUrl, key, to, amount: BigInt(amount), changeAddress })
  return { txid }
}

const maxSats = 2_100_000_000_000_000n

function regtestAddress(fields: Params.Fields, key: string): string {
  const address = Params.string(fields, key, 100)
  try {
    // The dev keys are regtest keys (bcrt1q…), so addresses are read as regtest's.
    Address(BitcoinKeys.network).decode(address)
  } catch {
    throw Params.invalid(`${key} is not a regtest address.`)
  }
  return address
}

async function signPsbt(account: Account, fields: Params.Fields) {
  const psbt = Params.string(fields, 'psbt', 200_000)
  const signInputs = inputsToSign(account, fields.signInputs)
  const broadcast = Params.optionalBoolean(fields, 'broadcast') ?? false
  let signed: string
  let final: { hex: string; txid: string } | undefined
  // bitcoin/wallet.ts throws RangeError for what is wrong with the PSBT itself (encoding, inputs).
  try {
    signed = BitcoinWallet.signPsbt(psbt, account.key, signInputs)
    if (broadcast) final = BitcoinWallet.finalizePsbt(signed)
  } catch (error) {
    throw Params.invalid(`psbt ${broadcast ? 'cannot be signed and broadcast' : 'cannot be signed'}: ${(error as Error).message}`)
  }
  if (!final) return { psbt: signed }
  return { psbt: signed, txid: await BitcoinWallet.broadcast(account.esploraUrl, final.hex) }
}

/** signInputs: inputs of the account's own address; another address is one the dapp was not given. */
function inputsToSign({ key }: Account, value: unknown): BitcoinWallet.SignInput[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 1000) throw Params.invalid('signInputs must be a non-empty list.')
  return value.map((item: unknown) => {
    const input = Params.object(item, 'signInputs[]')
    const { index, sighashTypes } = input
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) throw Params.invalid('signInputs[].index must be a non-negative integer.')
    if (sighashTypes !== undefined && (!Array.isArray(sighashTypes) || !sighashTypes.every((t) => Number.isInteger(t) && t >= 0 && t <= 0xff)))
      throw Params.invalid('signInputs[].sighashTypes must be a list of sighash bytes.')
    if (Params.string(input, 'address', 100) !== key.address) throw new RpcError(rpcErrors.unauthorized)
    return { address: key.address, index, ...(sighashTypes !== undefined && { sighashTypes: sighashTypes as number[] }) }
  })
}
