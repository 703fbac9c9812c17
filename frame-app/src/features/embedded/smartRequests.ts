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
import * as Permissions from '@doorway/shared/Permissions'
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
  /** Says that an operation landed on chain (the first one deploys the account). */
  landed(): void
  /** Shows the approval while the secure-site signs `operation`; its signature. */
  signOperation(operation: Record<string, unknown>, environment: SmartAccountChunk.Network['environment'], send: (signature: Hex) => Promise<unknown>): Promise<unknown>
  /** Signs a message or typed data as the owner, shown as the smart account's in the secure-site. */
  signAsOwner(method: 'personal_sign' | 'eth_signTypedData_v4', params: unknown[], environment: SmartAccountChunk.Network['environment']): Promise<Hex>
  /** Smart sessions, when the dapp turned features.smartSessions on: the approval of one delegation, and the api's record of it. */
  sessions?: Sessions | undefined
}

export type Sessions = {
  /** Shows the session's limits while the secure-site signs the delegation; the owner's signature (the account checks it, ERC-1271). */
  sign(delegation: Permissions.DelegationJson, environment: SmartAccountChunk.Network['environment'], justification: string | undefined): Promise<Hex>
  /** Keeps the signed session with the api (POST /v1/sessions/{address}), so the Sessions view lists it and it can be revoked. */
  record(chainId: Caip.ChainId, delegation: Permissions.DelegationJson): Promise<void>
  /** Shows the revoke while the secure-site signs the disabling operation and the revoke message (docs/embedded-wallet.md "Smart sessions"). */
  signRevoke<T>(
    chainId: Caip.ChainId,
    operation: Record<string, unknown>,
    delegation: Permissions.DelegationJson,
    environment: SmartAccountChunk.Network['environment'],
    then: (signature: Hex, revoke: Hex) => Promise<T>,
  ): Promise<T>
  /** The api's record of the revoke (POST /v1/sessions/{address}/revoke), by the account's signature of `Revoke session {pci}`. */
  recordRevoke(pci: Hex, signature: Hex): Promise<void>
}

export const methods: ReadonlySet<string> = new Set([
  'eth_sendTransaction',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_getCapabilities',
  'personal_sign',
  'eth_signTypedData_v4',
  // Smart sessions (issue 25): AppKit's request and ERC-7715's current one, one model (shared/src/Permissions.ts).
  'wallet_grantPermissions',
  'wallet_requestExecutionPermissions',
  'wallet_getSupportedExecutionPermissions',
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
      context.landed()
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
        if (network)
          capabilities[hexId] = {
            atomic: { status: 'supported' },
            paymasterService: { supported: network.paymasterUrl !== undefined },
            // AppKit reads this before wallet_grantPermissions (ERC-7715's capability, its earlier draft).
            ...(context.sessions && { permissions: sessionCapability }),
          }
      }
      return capabilities
    }
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
      return grant(context, method, params)
    case 'wallet_getSupportedExecutionPermissions': {
      if (!context.sessions) break
      const network = await smart.on(context.chainId()).then((on) => on.network, () => undefined)
      const chainIds = network ? [Caip.eip155Hex(context.chainId())] : []
      const supported = { chainIds, ruleTypes: ['expiry'] }
      return { 'native-token-periodic': supported, 'erc20-token-periodic': supported }
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
 * A smart session (issue 25, docs/embedded-wallet.md "Smart sessions"): each request read into the one
 * model before any prompt (a malformed one is refused at once), then per session one approval in the
 * secure-site, which signs the ERC-7710 delegation to the dapp's key with the limits as caveats; the api
 * records it before the dapp gets the context it redeems. wallet_grantPermissions asks for one session;
 * wallet_requestExecutionPermissions for a list, answered in order.
 */
async function grant(context: Context, method: 'wallet_grantPermissions' | 'wallet_requestExecutionPermissions', params: unknown[]): Promise<unknown> {
  const { smart, sessions } = context
  if (!sessions) throw Errors.unsupportedMethod(`Action not allowed: ${method}`)
  // ERC-7715: params is the list of permission requests itself; AppKit's one request is params[0].
  const requests = method === 'wallet_grantPermissions' ? [params[0]] : params
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > maxSessionsPerRequest) throw invalid(`expected a list of 1 to ${maxSessionsPerRequest} permission requests`)
  const chainId = context.chainId()
  const read = (request: unknown, now: number) => {
    try {
      return method === 'wallet_grantPermissions' ? Permissions.fromGrantPermissions(request) : Permissions.fromExecutionPermission(request, { now })
    } catch (error) {
      if (error instanceof Permissions.PermissionError) throw invalid(error.message)
      throw error
    }
  }
  // Malformed requests are refused before anything is asked of the chain or the person.
  for (const request of requests) read(request, Math.floor(Date.now() / 1000))
  const { account, network } = await smart.on(chainId)
  // The chain's clock, not this one: a session that starts "now" must have started for the next block's
  // contracts, and a quiet chain's last block can be older than the wall clock.
  const now = await account.now().catch(() => Math.floor(Date.now() / 1000))
  const grants = requests.map((request) => {
    const grant = read(request, now)
    if (Caip.eip155Hex(`eip155:${grant.chainId}`) !== Caip.eip155Hex(chainId))
      throw new Errors.ProviderRpcError(`The permission is for chain ${Caip.eip155Hex(`eip155:${grant.chainId}`)}, the wallet is on ${Caip.eip155Hex(chainId)}`, { code: eip5792.unsupportedChain })
    if (grant.account && grant.account.toLowerCase() !== smart.address.toLowerCase()) throw Errors.unauthorized()
    if (grant.expiry <= now + minSessionSeconds) throw invalid(`the expiry ${grant.expiry} is past or less than a minute away`)
    if (grant.expiry > now + Permissions.limits.maxSeconds) throw invalid(`the expiry ${grant.expiry} is more than a year away`)
    return grant
  })
  const answers: unknown[] = []
  for (const [i, grant] of grants.entries()) {
    const unsigned = Permissions.delegation({ grant, delegator: smart.address, enforcers: network.enforcers, salt: randomSalt() })
    const signature = await sessions.sign(Permissions.toJson(unsigned), network.environment, grant.justification)
    const signed = { ...unsigned, signature }
    // Recorded first: a session the person cannot see in the Sessions view, nor revoke there, is never handed out.
    // The api checks the signature on chain: an undeployed account's is shown to it in ERC-6492's wrapper (the
    // DelegationManager takes the bare one, in the context, once the dapp has deployed the account).
    await sessions.record(chainId, Permissions.toJson({ ...signed, signature: await account.wrap(signature) }))
    const meta = { delegationManager: network.environment.DelegationManager, ...(!(await account.deployed()) && account.factoryArgs) }
    answers.push(
      method === 'wallet_grantPermissions' ? Permissions.grantPermissionsResponse(requests[i], signed, meta) : Permissions.executionPermissionResponse(requests[i], signed, meta),
    )
  }
  return method === 'wallet_grantPermissions' ? answers[0] : answers
}
/**
 * Revokes a session from the Sessions view: one operation calling DelegationManager.disableDelegation
 * (sponsored where the network is), approved with the api's revoke message, sent and awaited; then the
 * api records it. A redeem after it reverts on chain (CannotUseADisabledDelegation).
 */
export async function revoke(context: Context, chainId: Caip.ChainId, delegation: unknown): Promise<void> {
  const { sessions, smart } = context
  if (!sessions) throw Errors.unsupportedMethod('Smart sessions are off')
  const parsed = Permissions.fromJson(delegation)
  if (parsed.delegator.toLowerCase() !== smart.address.toLowerCase()) throw Errors.unauthorized()
  const { account, network } = await smart.on(chainId)
  const prepared = await account.prepare([{ to: network.environment.DelegationManager, data: Permissions.disableCalldata(parsed) }]).catch((error: unknown) => {
    throw new Errors.ProviderRpcError(format(embeddedText.bundlerDown, { reason: reasonOf(error) }), { cause: error })
  })
  await sessions.signRevoke(chainId, account.json(prepared), Permissions.toJson(parsed), network.environment, async (signature, revokeSignature) => {
    const receipt = await account.wait(await account.send(prepared, signature))
    context.landed()
    if (!receipt.success) throw new Errors.ProviderRpcError(format(embeddedText.operationReverted, { reason: receipt.reason ?? '' }).trim(), { code: -32000 })
    // Deployed by now (a disable deploys an undeployed account first): the api checks the signature by ERC-1271.
    await sessions.recordRevoke(Permissions.delegationHash(parsed), revokeSignature)
  })
}

/** What wallet_grantPermissions takes (Permissions.fromGrantPermissions), as AppKit asks wallet_getCapabilities. */
const sessionCapability = {
  supported: true,
  signerTypes: ['keys', 'key', 'account'],
  keyTypes: ['secp256k1'],
  permissionTypes: ['native-token-recurring-allowance', 'erc20-recurring-allowance', 'contract-call'],
  policyTypes: ['call-limit'],
}

/** A dapp asks for a few sessions at once at most; each is an approval of its own. */
const maxSessionsPerRequest = 4
/** A session that expires within a minute of its approval would expire before it is used. */
const minSessionSeconds = 60
/** A delegation's salt: random, so two sessions with the same limits are two delegations (two ids, revoked one by one). */
function randomSalt(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return bytes.reduce((n, byte) => (n << 8n) | BigInt(byte), 0n)
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
    context.landed()
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
