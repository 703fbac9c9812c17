/**
 * The wallet's answer to each EIP-1193 request: the methods it answers itself, one free function each
 * over the wallet's context; refused signing methods; everything else forwarded to the chain's node.
 */
import { type Hex, hexToNumber, isHex, numberToHex, type TypedDataDefinition } from 'viem'
import * as Calls from './Calls.js'
import * as Chains from './Chains.js'
import * as Context from './Context.js'
import type { Request } from './Describe.js'
import * as Errors from './Errors.js'
import * as Params from './Params.js'
import * as Rpc from './Rpc.js'
import * as Transaction from './Transaction.js'

export type Handler = (context: Context.Context, params: unknown[], request: Request) => unknown

export const handlers: Readonly<Record<string, Handler>> = {
  eth_requestAccounts: requestAccounts,
  eth_accounts: accounts,
  eth_chainId: chainId,
  net_version: netVersion,
  wallet_requestPermissions: requestPermissions,
  wallet_getPermissions: getPermissions,
  wallet_revokePermissions: revokePermissions,
  wallet_switchEthereumChain: switchEthereumChain,
  wallet_addEthereumChain: addEthereumChain,
  personal_sign: personalSign,
  eth_signTypedData_v4: signTypedData,
  eth_sendTransaction: sendTransaction,
  wallet_getCapabilities: getCapabilities,
  wallet_sendCalls: sendCalls,
  wallet_getCallsStatus: getCallsStatus,
}

// Signing methods the node would answer with its own unlocked keys, bypassing the prompt.
const refused = new Set(['eth_sign', 'eth_signTransaction', 'eth_signTypedData', 'eth_signTypedData_v3'])

/** The provider's `request`: a handler's answer, a refusal, or the node's answer. */
export async function request(context: Context.Context, { method, params }: Request): Promise<unknown> {
  // own keys only: a method named like an Object.prototype member is no handler
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
  if (handler) return handler(context, Array.isArray(params) ? params : [], { method, params })
  if (refused.has(method) || method.startsWith('wallet_')) throw Errors.unsupportedMethod(method)
  return Rpc.request(Context.rpcUrl(context), method, params ?? [])
}

async function requestAccounts(context: Context.Context, _: unknown[], request: Request) {
  await Context.connect(context, request)
  return [context.account.address]
}

function accounts(context: Context.Context) {
  return Context.permitted(context) ? [context.account.address] : []
}

function chainId(context: Context.Context) {
  return numberToHex(context.chains.current())
}

function netVersion(context: Context.Context) {
  return String(context.chains.current())
}

async function requestPermissions(context: Context.Context, _: unknown[], request: Request) {
  await Context.connect(context, request)
  return [accountsPermission(context)]
}

function getPermissions(context: Context.Context) {
  return Context.permitted(context) ? [accountsPermission(context)] : []
}

function accountsPermission({ origin }: Context.Context) {
  return { parentCapability: 'eth_accounts', invoker: origin }
}

function revokePermissions(context: Context.Context) {
  Context.setPermitted(context, false)
  return null
}

function switchEthereumChain(context: Context.Context, [param]: unknown[]) {
  Context.setChain(context, Chains.parseId(Params.at(param, 'chainId')))
  return null
}

async function addEthereumChain(context: Context.Context, [param]: unknown[], request: Request) {
  const id = Chains.parseId(Params.at(param, 'chainId'))
  const rpcUrl = Params.at(Params.at(param, 'rpcUrls'), 0)
  if (typeof rpcUrl !== 'string') throw Errors.invalidParams('Expected rpcUrls with at least one URL')
  return Context.approved(context, request, () => {
    Context.addKnownChain(context, id, rpcUrl)
    // Common wallet behaviour (MetaMask, Rabby): adding a network also switches to it.
    Context.setChain(context, id)
    return null
  })
}

async function personalSign(context: Context.Context, [message, address]: unknown[], request: Request) {
  Context.requireAccount(context, address)
  if (typeof message !== 'string') throw Errors.invalidParams('Expected a message')
  const { account } = context
  return Context.approved(context, request, () => account.signMessage({ message: isHex(message) ? { raw: message } : message }))
}

async function signTypedData(context: Context.Context, [address, data]: unknown[], request: Request) {
  Context.requireAccount(context, address)
  const typed = parseTypedData(data)
  return Context.approved(context, request, () => context.account.signTypedData(typed))
}

async function sendTransaction(context: Context.Context, [param]: unknown[], request: Request) {
  const tx = Transaction.readParams(param)
  const { account } = context
  // like extension wallets, a missing `from` means the connected account
  Context.requireAccount(context, tx.from ?? account.address)
  // The chain the dapp asked on; a network switch while the prompt waits does not move the payment.
  const rpcUrl = Context.rpcUrl(context)
  const chainId = context.chains.current()
  return Context.approved(context, request, async () => {
    const prepared = await Transaction.prepare(rpcUrl, chainId, { ...tx, from: account.address })
    return Rpc.request(rpcUrl, 'eth_sendRawTransaction', [await account.signTransaction(prepared)])
  })
}

/** EIP-5792 for this EOA: every chain it knows, none atomic. */
function getCapabilities(context: Context.Context, [address, chainIds]: unknown[]) {
  Context.requireAccount(context, address)
  return Calls.capabilities(chainIds, context.chains.list().map((chain) => chain.id))
}

/**
 * EIP-5792: one prompt for the batch, then one transaction per call in nonce order, all within the prompt's
 * flow so no other request's transaction takes a nonce between them. Answers once every call is broadcast,
 * not mined; wallet_getCallsStatus follows them.
 */
async function sendCalls(context: Context.Context, params: unknown[], request: Request) {
  if (!Context.permitted(context)) throw Errors.unauthorized()
  const { account, batches } = context
  const chainId = context.chains.current()
  const batch = Calls.readBatch(params, { chainId, address: account.address })
  const id = batches.reserve(batch.id)
  const rpcUrl = Context.rpcUrl(context)
  try {
    return await Context.approved(context, request, async () => {
      const nonce = hexToNumber(await Rpc.request<Hex>(rpcUrl, 'eth_getTransactionCount', [account.address, 'pending']))
      const sent = await Calls.send(batch.calls, async (call, index) => {
        const prepared = await Transaction.prepare(rpcUrl, chainId, { ...call, from: account.address, nonce: numberToHex(nonce + index) })
        return Rpc.request<Hex>(rpcUrl, 'eth_sendRawTransaction', [await account.signTransaction(prepared)])
      })
      batches.settle({ id, chainId, ...sent })
      return { id }
    })
  } finally {
    batches.release(id)
  }
}

function getCallsStatus(context: Context.Context, [id]: unknown[]) {
  if (!Context.permitted(context)) throw Errors.unauthorized()
  const sent = context.batches.get(id)
  // The batch's own chain, wherever the wallet is now; networks are only ever added, so it is still known.
  const rpcUrl = context.chains.rpcUrl(sent.chainId)!
  return Calls.status(sent, (hash) => Rpc.request<Calls.Receipt | null>(rpcUrl, 'eth_getTransactionReceipt', [hash]))
}

// Only the shape that tells typed data apart: viem checks the fields themselves when it hashes them.
function parseTypedData(data: unknown): TypedDataDefinition {
  try {
    const typed: unknown = typeof data === 'string' ? JSON.parse(data) : data
    if (typed && typeof typed === 'object' && 'types' in typed && 'primaryType' in typed) return typed as TypedDataDefinition
  } catch {
    // not JSON: the same refusal as JSON that is not typed data
  }
  throw Errors.invalidParams('Expected EIP-712 typed data')
}
