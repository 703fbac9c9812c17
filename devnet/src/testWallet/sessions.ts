/**
 * The test wallet's side of its sessions: what it does with a proposal, pairing with a `wc:` URI, and the
 * changes it announces to the dapps (chain, account, disconnect). Free functions over its context.
 */
import type { WalletKitTypes } from '@reown/walletkit'
import type { SessionTypes } from '@walletconnect/types'
import { mnemonicToAccount } from 'viem/accounts'
import { mnemonic } from '../tokens.js'
import * as Context from './context.js'
import { RpcError, rpcErrors } from './errors.js'

/** Approves or rejects a proposal as the policy says, and settles the pairings waiting for it. */
export async function propose(context: Context.Context, proposal: WalletKitTypes.SessionProposal): Promise<void> {
  const { kit, chains, log } = context
  const { id, params } = proposal
  const name = params.proposer.metadata.name || params.proposer.publicKey.slice(0, 8)
  const unsupported = unsupportedChains(params, Context.walletChains(context))
  try {
    if (context.policy === 'reject' || unsupported.length > 0) {
      const reason = unsupported.length
        ? { code: 5100, message: `Unsupported chains. ${unsupported.join(', ')}` }
        : { code: 5000, message: 'User rejected.' }
      await kit.rejectSession({ id, reason })
      log?.(`rejected the proposal from ${name} (${reason.message})`)
      Context.settle(context, undefined)
      return
    }
    const offered = offeredNamespaces(context, params)
    const session = await kit.approveSession({ id, namespaces: Context.namespaces(context, offered) })
    const more = offered.map((key) => `, ${context.others[key]!.address} on ${context.others[key]!.chainId}`).join('')
    log?.(`approved ${name}: ${context.account.address} on ${chains.map((c) => c.id).join(', ')}${more}`)
    Context.settle(context, session)
  } catch (error) {
    log?.(`proposal from ${name} failed: ${(error as Error).message}`)
    Context.settle(context, undefined)
  }
}

/** Pairs with `uri`; resolves with the session the proposal that follows became, or undefined if rejected. */
export async function pair(context: Context.Context, uri: string, timeoutMs: number): Promise<SessionTypes.Struct | undefined> {
  const { waiters } = context
  let timer: ReturnType<typeof setTimeout> | undefined
  let done = (_: SessionTypes.Struct | undefined) => {}
  const outcome = new Promise<SessionTypes.Struct | undefined>((resolve, reject) => {
    timer = setTimeout(() => {
      waiters.delete(done)
      reject(new Error(`No session proposal within ${timeoutMs} ms of pairing`))
    }, timeoutMs)
    done = (session) => {
      clearTimeout(timer)
      resolve(session)
    }
    waiters.add(done)
  })
  // The proposal may already wait in the relay's mailbox: listen before pairing. A pairing that
  // fails ends the wait too, so no timer rejects later with nobody listening.
  try {
    await context.kit.pair({ uri })
  } catch (error) {
    clearTimeout(timer)
    waiters.delete(done)
    throw error
  }
  context.log?.('paired, waiting for the proposal…')
  return outcome
}

export async function switchChain(context: Context.Context, id: number): Promise<void> {
  const { kit } = context
  const chain = context.chains.find((c) => c.id === id)
  if (!chain) throw new RpcError(rpcErrors.unknownChain)
  context.current = chain
  for (const topic of Object.keys(kit.getActiveSessions()))
    await kit.emitSessionEvent({ topic, event: { name: 'chainChanged', data: id }, chainId: Context.caip2(id) })
  context.log?.(`switched to chain ${id}`)
}

export async function changeAccount(context: Context.Context, index: number): Promise<void> {
  const { kit } = context
  context.account = mnemonicToAccount(mnemonic, { addressIndex: index })
  for (const [topic, session] of Object.entries(kit.getActiveSessions())) {
    // The session must list the account before the dapp may use it (CAIP-25): update, then announce.
    await kit.updateSession({ topic, namespaces: Context.namespaces(context, Object.keys(session.namespaces)) })
    const chainId = Context.caip2(context.current.id)
    const data = [`${chainId}:${context.account.address}`]
    await kit.emitSessionEvent({ topic, event: { name: 'accountsChanged', data }, chainId })
  }
  context.log?.(`switched to account ${index}: ${context.account.address}`)
}

/** Ends one session, or all of them. */
export async function disconnect(context: Context.Context, topic: string | undefined): Promise<void> {
  const { kit } = context
  const topics = topic ? [topic] : Object.keys(kit.getActiveSessions())
  for (const t of topics) await kit.disconnectSession({ topic: t, reason: { code: 6000, message: 'User disconnected.' } })
  context.log?.(`disconnected ${topics.length} session(s)`)
}

type Proposed = WalletKitTypes.SessionProposal['params']['requiredNamespaces']

/** Required chains the wallet does not have (CAIP-25: those make the proposal unacceptable). */
function unsupportedChains(params: WalletKitTypes.SessionProposal['params'], have: ReadonlySet<string>): string[] {
  return proposedChains(params.requiredNamespaces).filter((chain) => !have.has(chain))
}

/** The chains a proposal's namespaces name: a key may be a namespace with chains or a chain itself (CAIP-25). */
function proposedChains(namespaces: Proposed | undefined): string[] {
  return Object.entries(namespaces ?? {}).flatMap(([key, ns]) => (key.includes(':') ? [key] : (ns.chains ?? [])))
}

/**
 * The namespaces besides eip155 to offer: those the wallet was created for whose chain the proposal asks
 * for, as required or optional (eip155 is always offered, as before there were others).
 */
function offeredNamespaces(context: Context.Context, params: WalletKitTypes.SessionProposal['params']): Context.OtherNamespace[] {
  const asked = new Set([...proposedChains(params.requiredNamespaces), ...proposedChains(params.optionalNamespaces)])
  return Context.otherNamespaces.filter((key) => {
    const account = context.others[key]
    return account !== undefined && asked.has(account.chainId)
  })
}
