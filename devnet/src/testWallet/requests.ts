/**
 * The test wallet's answer to each session request: signing with the current account, sending on the
 * request's chain, switching chains; free functions over its context. Every answer is kept for tests.
 */
import { ProviderError } from '@doorway/examples/dev-wallet/Errors'
import type { WalletKitTypes } from '@reown/walletkit'
import { type Address, type Hex, type TypedDataDefinition, createWalletClient, hexToBigInt, http, isAddressEqual, isHex, numberToHex } from 'viem'
import * as Anvil from '../anvil.js'
import type * as TestWallet from '../testWallet.js'
import * as Bitcoin from './bitcoin.js'
import * as Calls from './calls.js'
import * as Context from './context.js'
import { RpcError, rpcErrors } from './errors.js'
import * as Polkadot from './polkadot.js'
import * as Solana from './solana.js'
import * as Sessions from './sessions.js'

/** Answers a session request, records the answer, and sends it back over the session. */
export async function respond(context: Context.Context, event: WalletKitTypes.SessionRequest): Promise<void> {
  const { topic, id, params } = event
  const { method } = params.request
  const { log } = context
  let entry: TestWallet.Handled
  try {
    entry = { method, chainId: params.chainId, result: await dispatch(context, topic, params) }
  } catch (error) {
    const rpc = error instanceof RpcError ? error.rpc : coded(error)
    entry = { method, chainId: params.chainId, error: rpc }
  }
  context.handled.push(entry)
  const response = entry.error ? { id, jsonrpc: '2.0', error: entry.error } : { id, jsonrpc: '2.0', result: entry.result }
  await context.kit
    .respondSessionRequest({ topic, response })
    .catch((error: Error) => log?.(`could not answer ${method}: ${error.message}`))
  log?.(`${method} on ${params.chainId} → ${entry.error ? `error ${entry.error.code}` : JSON.stringify(entry.result)}`)
}

/** The EIP-5792 errors (Calls.ts) keep their code and message; anything else unexpected is internal. */
function coded(error: unknown): { code: number; message: string } {
  if (error instanceof ProviderError) return { code: error.code, message: error.message }
  return { ...rpcErrors.internal, message: (error as Error).message }
}

/** Routes a request by the namespace of its chain (CAIP-2): eip155 here, the others to their modules. */
async function dispatch(context: Context.Context, topic: string, params: WalletKitTypes.SessionRequest['params']): Promise<unknown> {
  const namespace = params.chainId.split(':')[0] ?? ''
  const { method, params: args } = params.request as { method: string; params: unknown }
  // What the session does not list, the dapp was not given, whatever the wallet could do.
  const listed = context.kit.getActiveSessions()[topic]?.namespaces[namespace]?.methods ?? []
  if (namespace === 'eip155') {
    // A method the wallet has but this session lacks was not given; one it never had is unsupported.
    if (!listed.includes(method)) throw new RpcError((Context.methods as readonly string[]).includes(method) ? rpcErrors.unauthorized : rpcErrors.unsupported)
    return answer(context, params)
  }
  const { others } = context
  if (!Context.isOther(namespace) || others[namespace]?.chainId !== params.chainId) throw new RpcError(rpcErrors.unknownChain)
  if (!listed.includes(method)) throw new RpcError(rpcErrors.unauthorized)
  // The chain check above proved the namespace's account is there.
  switch (namespace) {
    case 'solana':
      return Solana.answer(others.solana!, method, args)
    case 'bip122':
      return Bitcoin.answer(others.bip122!, method, args)
    case 'polkadot':
      return Polkadot.answer(others.polkadot!, method, args)
  }
}

async function answer(context: Context.Context, { request, chainId }: WalletKitTypes.SessionRequest['params']): Promise<unknown> {
  const params = (request.params ?? []) as unknown[]
  const { account } = context
  switch (request.method) {
    case 'eth_accounts':
    case 'eth_requestAccounts':
      return [account.address]
    case 'eth_chainId':
      return numberToHex(context.current.id)
    case 'personal_sign': {
      const [message, address] = params
      if (typeof message !== 'string') throw new RpcError(rpcErrors.invalidParams)
      assertOwn(context, address)
      // EIP-1193 personal_sign carries the message hex-encoded; some dapps send plain text.
      return account.signMessage({ message: isHex(message) ? { raw: message } : message })
    }
    case 'eth_signTypedData_v4': {
      const [address, data] = params
      assertOwn(context, address)
      const typed = (typeof data === 'string' ? JSON.parse(data) : data) as TypedDataDefinition
      return account.signTypedData(typed)
    }
    case 'eth_sendTransaction':
      return sendTransaction(context, chainOf(context, chainId), params[0])
    case 'wallet_getCapabilities':
      assertOwn(context, params[0])
      return Calls.getCapabilities(context, params[1])
    case 'wallet_sendCalls':
      return Calls.sendCalls(context, params, (chain, tx) => sendTransaction(context, chain, tx))
    case 'wallet_getCallsStatus':
      return Calls.getCallsStatus(context, params)
    case 'wallet_switchEthereumChain': {
      const [{ chainId: hex } = {}] = params as { chainId?: string }[]
      if (typeof hex !== 'string') throw new RpcError(rpcErrors.invalidParams)
      await Sessions.switchChain(context, Number(hex))
      return null
    }
    default:
      throw new RpcError(rpcErrors.unsupported)
  }
}

function assertOwn(context: Context.Context, address: unknown) {
  if (typeof address !== 'string' || !isHexAddress(address) || !isAddressEqual(address, context.account.address))
    throw new RpcError(rpcErrors.unauthorized)
}

/** A WalletConnect request names its chain (CAIP-2); it must be one of the wallet's. */
function chainOf(context: Context.Context, caip: string): TestWallet.Chain {
  const chain = context.chains.find((c) => Context.caip2(c.id) === caip)
  if (!chain) throw new RpcError(rpcErrors.unknownChain)
  return chain
}

async function sendTransaction(context: Context.Context, chain: TestWallet.Chain, tx: unknown): Promise<Hex> {
  if (typeof tx !== 'object' || tx === null) throw new RpcError(rpcErrors.invalidParams)
  const t = tx as Record<string, string | undefined>
  if (t.from !== undefined) assertOwn(context, t.from)
  const quantity = (key: string) => (t[key] === undefined ? undefined : hexToBigInt(t[key] as Hex))
  const client = createWalletClient({ account: context.account, chain: Anvil.viemChain(chain), transport: http(chain.rpcUrl) })
  const fees =
    t.gasPrice !== undefined
      ? { gasPrice: quantity('gasPrice') }
      : { maxFeePerGas: quantity('maxFeePerGas'), maxPriorityFeePerGas: quantity('maxPriorityFeePerGas') }
  return client.sendTransaction({
    to: t.to as Address | undefined,
    value: quantity('value'),
    data: t.data as Hex | undefined,
    gas: quantity('gas'),
    nonce: t.nonce === undefined ? undefined : Number(t.nonce),
    ...fees,
  } as Parameters<typeof client.sendTransaction>[0])
}

const isHexAddress = (value: string): value is Address => /^0x[0-9a-fA-F]{40}$/.test(value)
