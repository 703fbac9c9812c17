/**
 * The embedded wallet's requests when the person's account is its smart account (issue 25, spec §3
 * account types): a transaction, or an EIP-5792 batch, becomes one user operation that the secure-site
 * shows and signs (smartAccount.ts builds and sends it); messages are signed by the owner key and checked
 * by the account (ERC-1271), wrapped in ERC-6492 while it is undeployed. The chunk with viem's bundler
 * client loads only here, on the first request that needs it.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { embeddedText } from '@doorway/shared/texts/embedded'
import type { Address, Hex } from 'viem'
import type * as SmartAccountChunk from './smartAccount.js'

/** The person's smart account: one address, and its chunk on each chain that has smart accounts. */
export type Smart = {
  address: Address
  /** Whether an ERC-7677 paymaster pays on the connect-time chain (spec §5/§6: then there is no gas check). */
  sponsored: boolean
  /** The account on `chainId`, built once; rejects with a message when the chain has no smart accounts. */
  on(chainId: Caip.ChainId): Promise<{ account: SmartAccountChunk.Account; network: SmartAccountChunk.Network }>
}

/** What the connector lends: the current chain, and the approval of one operation (the secure-site signs it). */
export type Context = {
  smart: Smart
  chainId(): Caip.ChainId
  /** Shows the approval while the secure-site signs `operation`; its signature. */
  signOperation(operation: Record<string, unknown>, environment: SmartAccountChunk.Network['environment'], send: (signature: Hex) => Promise<unknown>): Promise<unknown>
  /** Signs a message or typed data as the owner, shown as the smart account's in the secure-site. */
  signAsOwner(method: 'personal_sign' | 'eth_signTypedData_v4', params: unknown[], environment: SmartAccountChunk.Network['environment']): Promise<Hex>
}

export const methods: ReadonlySet<string> = new Set([
  'eth_sendTransaction',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_getCapabilities',
  'personal_sign',
  'eth_signTypedData_v4',
])

/** EIP-5792's error codes that these requests can meet. */
const eip5792 = { unsupportedCapability: 5700, unsupportedChain: 5710, unknownBundle: 5730, tooLarge: 5740 } as const
/** One operation carries at most this many calls: enough for any dapp's batch, not a gas bomb. */
export const maxCalls = 16

/** The batches sent, by account and id (the operation hash): getCallsStatus answers an account only for its own. */
const sent = new Map<string, Caip.ChainId>()
const sentKey = (smart: Smart, id: string) => `${smart.address.toLowerCase()}:${id.toLowerCase()}`

export async function request(context: Context, method: string, params: unknown[]): Promise<unknown> {
  const { smart } = context
  switch (method) {
    case 'eth_sendTransaction': {
      const tx = object(params[0], 'transaction')
      sender(tx.from)
      const receipt = await send(context, [call(tx)], true)
      return receipt
    }
    case 'wallet_sendCalls': {
      const batch = object(params[0], 'batch')
      sender(batch.from)
      const chainId = context.chainId()
      if (batch.chainId !== undefined && String(batch.chainId).toLowerCase() !== Caip.eip155Hex(chainId))
        throw new Errors.ProviderRpcError(`The batch is for chain ${String(batch.chainId)}, the wallet is on ${Caip.eip155Hex(chainId)}`, { code: eip5792.unsupportedChain })
      unsupportedCapabilities(batch.capabilities)
      if (!Array.isArray(batch.calls) || batch.calls.length === 0) throw invalid('calls must be a non-empty list')
      if (batch.calls.length > maxCalls) throw new Errors.ProviderRpcError(`At most ${maxCalls} calls in a batch`, { code: eip5792.tooLarge })
      for (const item of batch.calls as unknown[]) unsupportedCapabilities(object(item, 'call').capabilities)
      const id = (await send(context, (batch.calls as unknown[]).map((item) => call(object(item, 'call'))), false)) as Hex
      sent.set(sentKey(smart, id), chainId)
      return { id }
    }
    case 'wallet_getCallsStatus': {
      const id = params[0]
      const chainId = typeof id === 'string' ? sent.get(sentKey(smart, id)) : undefined
      if (!chainId) throw new Errors.ProviderRpcError('Unknown bundle id', { code: eip5792.unknownBundle })
      const { account } = await smart.on(chainId)
      const receipt = await account.receipt(id as Hex)
      const base = { version: '2.0.0', id, chainId: Caip.eip155Hex(chainId), atomic: true }
      if (!receipt) return { ...base, status: 100 }
      const { receipt: tx } = receipt
      return {
        ...base,
        // 200 confirmed; 500: the operation reverted on chain, so none of its calls took effect (atomic).
        status: receipt.success ? 200 : 500,
        receipts: [
          { logs: receipt.logs.map(({ address, data, topics }) => ({ address, data, topics })), status: receipt.success ? '0x1' : '0x0', blockHash: tx.blockHash, blockNumber: hex(tx.blockNumber), gasUsed: hex(tx.gasUsed), transactionHash: tx.transactionHash },
        ],
      }
    }
    case 'wallet_getCapabilities': {
      const asked = Array.isArray(params[1]) ? (params[1] as unknown[]).filter((x): x is string => typeof x === 'string') : [Caip.eip155Hex(context.chainId())]
      const capabilities: Record<string, unknown> = {}
      for (const hexId of asked) {
        const chainId = `eip155:${Number(hexId)}` as Caip.ChainId
        const network = await smart.on(chainId).then((on) => on.network, () => undefined)
        if (network) capabilities[hexId] = { atomic: { status: 'supported' }, paymasterService: { supported: network.paymasterUrl !== undefined } }
      }
      return capabilities
    }
    case 'personal_sign':
    case 'eth_signTypedData_v4': {
      const { account, network } = await smart.on(context.chainId())
      return account.wrap(await context.signAsOwner(method, params, network.environment))
    }
  }
  throw Errors.unsupportedMethod(`Action not allowed: ${method}`)

  function sender(from: unknown) {
    if (from !== undefined && (typeof from !== 'string' || from.toLowerCase() !== smart.address.toLowerCase())) throw Errors.unauthorized()
  }
}

/**
 * One operation for `calls`: built before the approval shows (a bundler or paymaster that is down is said
 * at once), approved and signed in the secure-site, sent. For eth_sendTransaction it waits for inclusion
 * and answers the transaction hash; for a batch, the operation hash (its EIP-5792 id).
 */
async function send(context: Context, calls: SmartAccountChunk.Call[], wait: boolean): Promise<unknown> {
  const chainId = context.chainId()
  const { account, network } = await context.smart.on(chainId)
  const prepared = await account.prepare(calls).catch((error: unknown) => {
    throw new Errors.ProviderRpcError(format(embeddedText.bundlerDown, { reason: reasonOf(error) }), { cause: error })
  })
  return context.signOperation(account.json(prepared), network.environment, async (signature) => {
    const hash = await account.send(prepared, signature)
    if (!wait) return hash
    const receipt = await account.wait(hash)
    if (!receipt.success) throw new Errors.ProviderRpcError(format(embeddedText.operationReverted, { reason: receipt.reason ?? '' }).trim(), { code: -32000 })
    return receipt.receipt.transactionHash
  })
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`the ${what} is not an object`)
  return value as Record<string, unknown>
}

const hexPattern = /^0x[0-9a-fA-F]*$/
function call(item: Record<string, unknown>): SmartAccountChunk.Call {
  const { to, value, data } = item
  if (typeof to !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(to)) throw invalid('a call has no "to" address (a smart account does not deploy contracts from a call)')
  if (value !== undefined && (typeof value !== 'string' || !hexPattern.test(value) || value === '0x')) throw invalid('a call’s value is not a hex quantity')
  const input = data ?? item.input
  if (input !== undefined && (typeof input !== 'string' || !hexPattern.test(input) || input.length % 2 !== 0)) throw invalid('a call’s data is not hex bytes')
  return { to: to as Address, value: value === undefined ? 0n : BigInt(value), ...(input !== undefined && { data: input as Hex }) }
}

/** EIP-5792: a capability the dapp needs that the wallet lacks is refused (5700); optional ones are ignored. */
function unsupportedCapabilities(capabilities: unknown) {
  if (capabilities === undefined) return
  for (const [name, value] of Object.entries(object(capabilities, 'capabilities'))) {
    if (name === 'paymasterService') continue // this wallet's own paymaster pays, where the network has one
    if ((value as { optional?: unknown } | null)?.optional !== true) throw new Errors.ProviderRpcError(`Unsupported capability: ${name}`, { code: eip5792.unsupportedCapability })
  }
}

const invalid = (reason: string) => new Errors.ProviderRpcError(`Invalid request: ${reason}`, { code: -32602 })
const hex = (n: bigint) => `0x${n.toString(16)}`

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)
  return message.split('\n')[0]!.slice(0, 200)
}
