/**
 * Smart sessions of spec §7 (/v1/sessions/*, issue 25): ERC-7710 delegations from an address's smart
 * account to a dapp's session key, enforced on chain by the Delegation Framework's DelegationManager
 * (shared/src/Permissions.ts). POST records one once its signature is the address's; GET lists them with
 * their state on their chain; POST …/revoke marks one revoked by the address's signature of
 * `Revoke session {pci}`. docs/api.md "Smart sessions".
 */
import type * as Caip from '@doorway/shared/Caip'
import * as Api from '@doorway/shared/contracts/api'
import type { Session } from '@doorway/shared/contracts/api/sessions'
import * as Permissions from '@doorway/shared/Permissions'
import { Hono } from 'hono'
import { type Address, type Hex, type PublicClient, createPublicClient, custom, getAddress, isAddressEqual, isHash, parseAbi, verifyMessage } from 'viem'
import * as Activity from '../chains/Activity.js'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import { RpcError } from '../rpc.js'
import type { SessionRecord } from '../storage/Storage.js'

export const revokeMessage = Permissions.revokeMessage

/** A slow node does not hold the list: past this, its sessions' state comes from the store and the server's clock. */
export const statusTimeoutMs = 3_000
/** disabledDelegations reads in flight per chain: anvil has no Multicall3, so they are single calls, a few at a time. */
const parallelReads = 8

// The Delegation Framework's public mapping: a delegation its delegator disabled (disableDelegation) can no longer be redeemed.
const delegationManagerAbi = parseAbi(['function disabledDelegations(bytes32 delegationHash) view returns (bool)'])

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.sessions, async ({ params }) => ({ pcis: await withStatus(deps, await storage.sessions.list(getAddress(params.address))) }))

  on(Api.table.createSession, async ({ params, body }) => {
    const address = getAddress(params.address)
    const chainId = body.chainId as Caip.ChainId
    const smartAccounts = config.networks[chainId]?.smartAccounts
    if (!smartAccounts) throw new Http.HttpError(404, `No smart accounts on ${chainId}`)
    const delegation = parsed(() => Permissions.fromJson(body.delegation))
    if (!isAddressEqual(delegation.delegator, address)) throw Http.badRequest(`Invalid delegation: its delegator ${delegation.delegator} is not ${address}`)
    // A session is granted by the account itself; a redelegation would name a parent the api never saw.
    if (delegation.authority.toLowerCase() !== Permissions.rootAuthority.toLowerCase()) throw Http.badRequest('Invalid delegation: a session’s authority is the root authority')
    const limits = parsed(() => Permissions.fromCaveats(delegation.caveats, smartAccounts.environment.caveatEnforcers))
    const pci = Permissions.delegationHash(delegation)

    const recorded = await storage.sessions.get(address, pci)
    if (recorded) return same(recorded, chainId)
    const typedData = Permissions.delegationTypedData(delegation, { chainId: Number(chainId.slice('eip155:'.length)), delegationManager: smartAccounts.environment.DelegationManager })
    const signed = await verify(deps, chainId, (client) => client.verifyTypedData({ ...typedData, address, signature: delegation.signature, mode: 'eoa' }))
    if (!signed) throw new Http.HttpError(401, `The delegation’s signature is not ${address}’s on ${chainId}`)
    const record: SessionRecord = {
      address,
      pci,
      chainId,
      permissions: jsonOf(limits),
      expiry: limits.expiry,
      revoked: false,
      createdAt: deps.now(),
      delegation: Permissions.toJson(delegation) as Record<string, unknown>,
    }
    // Two records of one delegation at once: the first is kept, the second answers as a repeat.
    if (await storage.sessions.add(record)) return { success: true as const, pci }
    return same((await storage.sessions.get(address, pci)) ?? record, chainId)
  })

  on(Api.table.revokeSession, async ({ params, body: { pci, signature } }) => {
    const address = getAddress(params.address)
    const session = await storage.sessions.get(address, pci)
    if (!session || session.revoked) throw new Http.HttpError(404, `No active session ${pci} for ${address}`)
    const message = revokeMessage(pci)
    const chainId = session.chainId as Caip.ChainId
    // A smart account signs by ERC-1271 (ERC-6492 while undeployed), checked on the session's chain; off a served EVM chain only an EOA's signature can be checked.
    const signed = isEvm(config, chainId)
      ? await verify(deps, chainId, (client) => client.verifyMessage({ address, message, signature: signature as Hex, mode: 'eoa' }))
      : await verifyMessage({ address, message, signature: signature as Hex }).catch(() => false)
    if (!signed) throw new Http.HttpError(401, 'The signature is not the address’s signature of the revoke message')
    // A concurrent revoke may have won; the session is revoked either way.
    await storage.sessions.revoke(address, pci)
    return { success: true }
  })

  return app
}

/** The same delegation again: the same answer, unless it was recorded on another network (its hash does not cover the network). */
function same(recorded: SessionRecord, chainId: Caip.ChainId) {
  if (recorded.chainId !== chainId) throw new Http.HttpError(409, `Session ${recorded.pci} is recorded on ${recorded.chainId}`)
  return { success: true as const, pci: recorded.pci }
}

/** A value read from the request, or 400 naming what is wrong with it: the client's input, never the server's fault. */
function parsed<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw Http.badRequest(`Invalid delegation: ${error instanceof Error ? error.message : 'unreadable'}`)
  }
}

/** Limits as JSON: amounts (bigints) as decimal strings. */
function jsonOf(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)))
}

const isEvm = (config: Config, chainId: Caip.ChainId) => {
  const network = config.networks[chainId]
  return network !== undefined && (network.kind === undefined || network.kind === 'evm')
}

/**
 * viem's public client on the chain's node through deps.rpc (its timeout, and `signal`'s). `answered()`
 * is false once a request got no answer, as opposed to a JSON-RPC error, which is an answer (a reverted
 * signature check).
 */
function chainClient(deps: Deps, chainId: Caip.ChainId, signal?: AbortSignal): { client: PublicClient; unanswered: () => unknown } {
  let unanswered: unknown
  const request = ({ method, params }: { method: string; params?: unknown }) =>
    deps.rpc(chainId, method, params as unknown[] | undefined, signal).catch((error: unknown) => {
      if (!(error instanceof RpcError)) unanswered = error
      throw error
    })
  return { client: createPublicClient({ transport: custom({ request }, { retryCount: 0 }) }), unanswered: () => unanswered }
}

/**
 * A signature check on the chain (viem: ECDSA, ERC-1271 once deployed, ERC-6492 before): true or false,
 * or 502 when the node did not answer, since then nothing was learnt about the signature.
 */
async function verify(deps: Deps, chainId: Caip.ChainId, check: (client: PublicClient) => Promise<boolean>): Promise<boolean> {
  const { client, unanswered } = chainClient(deps, chainId)
  // viem answers false for a signature that fails on chain, and throws for one it cannot even parse.
  const valid = await check(client).catch(() => false)
  const error = unanswered()
  if (!valid && error) throw new Http.HttpError(502, `Could not check the signature on ${chainId}: ${error instanceof Error ? error.message : 'the node did not answer'}`)
  return valid
}

/**
 * Each session's state, in the store's order. On a chain with smart accounts: one latest block (its time,
 * since a devnet's clock may run ahead of the server's) and one disabledDelegations read per session;
 * revoked beats expired. Where the chain does not answer, or no longer has smart accounts, the store's
 * revoked flag and the server's clock say it.
 */
async function withStatus(deps: Deps, records: SessionRecord[]): Promise<Session[]> {
  const byChain = new Map<string, SessionRecord[]>()
  for (const record of records) byChain.set(record.chainId, [...(byChain.get(record.chainId) ?? []), record])
  const stated = new Map<SessionRecord, Session>()
  await Promise.all(
    [...byChain].map(async ([chainId, sessions]) => {
      for (const [record, session] of await onChain(deps, chainId as Caip.ChainId, sessions)) stated.set(record, session)
    }),
  )
  return records.map((record) => stated.get(record)!)
}

async function onChain(deps: Deps, chainId: Caip.ChainId, sessions: SessionRecord[]): Promise<[SessionRecord, Session][]> {
  const fromServer = (record: SessionRecord): [SessionRecord, Session] => [record, stateOf(record, { disabled: false, now: Math.floor(deps.now() / 1000), from: 'server' })]
  const manager = deps.config.networks[chainId]?.smartAccounts?.environment.DelegationManager
  if (!manager) return sessions.map(fromServer)
  const { client } = chainClient(deps, chainId, AbortSignal.timeout(statusTimeoutMs))
  const block = await client.getBlock({ blockTag: 'latest' }).catch(() => undefined)
  if (!block) return sessions.map(fromServer)
  const now = Number(block.timestamp)
  return Activity.mapLimited(sessions, parallelReads, async (record) => {
    // A pci that is no delegation hash (recorded before issue 25) has no entry on chain to read.
    if (!isHash(record.pci)) return fromServer(record)
    const disabled = await client
      .readContract({ address: manager as Address, abi: delegationManagerAbi, functionName: 'disabledDelegations', args: [record.pci] })
      .catch(() => undefined)
    if (disabled === undefined) return fromServer(record)
    return [record, stateOf(record, { disabled, now, from: 'chain' })]
  })
}

function stateOf(record: SessionRecord, { disabled, now, from }: { disabled: boolean; now: number; from: Session['statusFrom'] }): Session {
  const status = record.revoked || disabled ? 'revoked' : now >= record.expiry ? 'expired' : 'active'
  return { ...record, status, statusFrom: from }
}
