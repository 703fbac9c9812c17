/**
 * The wallet's state (account, networks, permitted origins, the prompt queue) and the steps the request
 * handlers share, as free functions over one explicit context that Wallet.create builds.
 */
import { isAddress, isAddressEqual, numberToHex } from 'viem'
import { mnemonicToAccount, type HDAccount } from 'viem/accounts'
import * as Calls from './Calls.js'
import * as Chains from './Chains.js'
import { describe, type Request } from './Describe.js'
import * as Emitter from './Emitter.js'
import * as Errors from './Errors.js'

/** What the approval prompt receives: who asks, for what, in plain words. */
export type Approval = Request & { origin: string; chainId: number; description: string }

export type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

export type Context = {
  readonly account: HDAccount
  readonly origin: string
  readonly storage: Storage
  readonly approve: (approval: Approval) => Promise<boolean>
  readonly events: ReturnType<typeof Emitter.create>
  readonly chains: ReturnType<typeof Chains.create>
  /** The EIP-5792 batches sent for this page, by id (kept for the page's life, as the dapp's are). */
  readonly batches: Calls.Store
  /** The dev controls' listeners, called on any change of network, networks or permission. */
  readonly changed: Set<() => void>
  /** The request flow under way; the next one starts once it settles (see `approved`). */
  queue: Promise<unknown>
}

const permittedKey = 'doorway-dev-wallet:permitted'

export function create(options: create.Options): Context {
  const { approve, storage, origin, mnemonic } = options
  return {
    account: mnemonicToAccount(mnemonic),
    origin,
    storage,
    approve,
    events: Emitter.create(),
    chains: Chains.create(storage, options.chains),
    batches: Calls.create(),
    changed: new Set(),
    queue: Promise.resolve(),
  }
}
export declare namespace create {
  type Options = {
    approve: (approval: Approval) => Promise<boolean>
    storage: Storage
    origin: string
    mnemonic: string
    chains?: Chains.Known | undefined
  }
}

function notify(context: Context) {
  context.changed.forEach((listener) => listener())
}

/**
 * Runs `then` once the person approves `request`, unless `unlessAlready` says no prompt is needed.
 * One request flow at a time, like an extension's popup: a later request is shown only once the
 * earlier one is answered and done (a send is signed and broadcast, so nonces follow each other).
 */
export function approved<T>(context: Context, request: Request, then: () => T | Promise<T>, unlessAlready?: () => boolean) {
  const { origin, chains, approve } = context
  const approval = { ...request, origin, chainId: chains.current(), description: describe(request, origin) }
  const flow = context.queue
    .then(() => unlessAlready?.() || approve(approval))
    .then((yes) => {
      if (!yes) throw Errors.userRejected()
      return then()
    })
  context.queue = flow.catch(() => undefined)
  return flow
}

export function permitted(context: Context): boolean {
  return readOrigins(context.storage).includes(context.origin)
}

export function setPermitted(context: Context, value: boolean) {
  if (value === permitted(context)) return
  const { storage, origin, account } = context
  const others = readOrigins(storage).filter((o) => o !== origin)
  storage.setItem(permittedKey, JSON.stringify(value ? [...others, origin] : others))
  context.events.emit('accountsChanged', value ? [account.address] : [])
  notify(context)
}

export async function connect(context: Context, request: Request) {
  // a second connect queued behind an approved one finds the origin permitted and skips its prompt
  if (!permitted(context))
    await approved(context, request, () => setPermitted(context, true), () => permitted(context))
}

export function requireAccount(context: Context, address: unknown) {
  if (!permitted(context)) throw Errors.unauthorized()
  if (typeof address !== 'string' || !isAddress(address, { strict: false })) throw Errors.invalidParams('Expected an address')
  if (!isAddressEqual(address, context.account.address)) throw Errors.unauthorized()
}

export function setChain(context: Context, id: number) {
  const { chains } = context
  if (!chains.rpcUrl(id)) throw Errors.unrecognizedChain(numberToHex(id))
  if (id === chains.current()) return
  chains.select(id)
  context.events.emit('chainChanged', numberToHex(id))
  notify(context)
}

export function addKnownChain(context: Context, id: number, rpcUrl: string) {
  context.chains.add(id, rpcUrl)
  notify(context)
}

/** The RPC URL of the network the wallet is on now. */
export function rpcUrl(context: Context): string {
  return context.chains.rpcUrl(context.chains.current())!
}

// Entries are whatever storage holds: only this wallet writes them, and `includes` needs no narrowing.
function readOrigins(storage: Storage): unknown[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(permittedKey) ?? '[]')
    return Array.isArray(value) ? value : []
  } catch {
    return []
  }
}
