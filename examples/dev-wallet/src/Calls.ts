/**
 * EIP-5792 (the Wallet Call API, version 2.0.0) as an EOA answers it: it cannot run calls atomically, so a
 * batch is one approval and then one transaction per call, in nonce order. Free of the chain and the DOM:
 * the dev wallet (Handlers.ts) and the devnet's WalletConnect test wallet use it, each sending and reading
 * receipts its own way. `import * as Calls from './Calls.js'`.
 */
import { type Address, type Hex, bytesToHex, isAddress, isAddressEqual, numberToHex } from 'viem'
import * as Chains from './Chains.js'
import * as Errors from './Errors.js'
import * as Params from './Params.js'

export const version = '2.0.0'

/** More calls than this is a bundle too large (5740): each is a transaction the person approved at once. */
export const maxCalls = 16

/** EIP-5792 §Error codes, with the spec's names as messages. */
export const errors = {
  unsupportedCapability: () => new Errors.ProviderError(5700, 'Unsupported non-optional capability'),
  unsupportedChain: () => new Errors.ProviderError(5710, 'Unsupported chain id'),
  duplicateId: () => new Errors.ProviderError(5720, 'Duplicate ID'),
  unknownBundle: () => new Errors.ProviderError(5730, 'Unknown bundle id'),
  tooLarge: () => new Errors.ProviderError(5740, 'Bundle too large'),
  atomicityNotSupported: () => new Errors.ProviderError(5760, 'Atomicity not supported'),
}

export type Call = { to?: Address; data?: Hex; value?: Hex }

/** A checked wallet_sendCalls request: its id when the dapp gave one. */
export type Batch = { id: string | undefined; chainId: number; from: Address; calls: readonly Call[] }

/** A batch the wallet sent: the hashes of the calls it broadcast, in nonce order. */
export type Sent = {
  id: string
  chainId: number
  hashes: readonly Hex[]
  /** False when the node refused a call after earlier ones went out: the rest were not sent. */
  complete: boolean
}

/** A transaction receipt as JSON-RPC answers it (hex quantities). */
export type Receipt = {
  status: Hex
  blockHash: Hex
  blockNumber: Hex
  gasUsed: Hex
  transactionHash: Hex
  logs: readonly { address: Address; data: Hex; topics: readonly Hex[] }[]
}

export type Status = {
  version: string
  id: string
  chainId: Hex
  atomic: false
  /** 100 pending, 200 all succeeded, 500 none succeeded, 600 some did and some did not. */
  status: 100 | 200 | 500 | 600
  receipts: Receipt[]
}

/**
 * The one param of wallet_sendCalls, checked: malformed fields are invalid params (-32602); then, in the
 * order the spec lists them, another chain (5710), another sender (4100), atomicity (5760) and a capability
 * the wallet lacks (5700). A missing `from` is the wallet's account, as with eth_sendTransaction.
 */
export function readBatch(params: readonly unknown[], wallet: { chainId: number; address: Address }): Batch {
  const [param] = params
  if (param === null || typeof param !== 'object' || Array.isArray(param)) throw Errors.invalidParams('Expected one batch object')
  if (Params.at(param, 'version') !== version) throw Errors.invalidParams(`Expected version "${version}"`)
  const chainId = Chains.parseId(Params.at(param, 'chainId'))
  const atomicRequired = Params.at(param, 'atomicRequired')
  if (typeof atomicRequired !== 'boolean') throw Errors.invalidParams('Expected atomicRequired, a boolean')
  const id = readId(Params.at(param, 'id'))
  const from = readFrom(Params.at(param, 'from'), wallet.address)
  const calls = readCalls(Params.at(param, 'calls'))
  const capabilities = [Params.at(param, 'capabilities'), ...calls.map((call) => call.capabilities)]
  capabilities.forEach(readCapabilities)

  if (chainId !== wallet.chainId) throw errors.unsupportedChain()
  if (!isAddressEqual(from, wallet.address)) throw Errors.unauthorized()
  // EIP-5792 §atomic: an EOA sends one transaction per call, which a batch that must be atomic refuses.
  if (atomicRequired) throw errors.atomicityNotSupported()
  if (capabilities.some(required)) throw errors.unsupportedCapability()
  return { id, chainId, from, calls: calls.map(({ to, data, value }) => ({ to, data, value })) }
}

/** wallet_getCapabilities for the chains asked (all the wallet serves when none are): none atomic. */
export function capabilities(asked: unknown, served: readonly number[]): Record<Hex, { atomic: { status: 'unsupported' } }> {
  if (asked !== undefined && !Array.isArray(asked)) throw Errors.invalidParams('Expected a list of hex chain ids')
  const ids = asked === undefined ? served : asked.map(Chains.parseId).filter((id) => served.includes(id))
  return Object.fromEntries(ids.map((id) => [numberToHex(id), { atomic: { status: 'unsupported' } }]))
}

/**
 * The batches a wallet knows, by id. An id is reserved while its batch waits for the person and is sent, so
 * a second batch with the same id is refused (5720) even before the first is sent.
 */
export function create() {
  const batches = new Map<string, Sent | 'reserved'>()
  return {
    /** The dapp's id when it is new, else a random 32-byte one. */
    reserve(id: string | undefined): string {
      if (id !== undefined && batches.has(id)) throw errors.duplicateId()
      const reserved = id ?? bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
      batches.set(reserved, 'reserved')
      return reserved
    },
    /** Frees an id whose batch was refused or whose first call failed: nothing was sent under it. */
    release(id: string) {
      if (batches.get(id) === 'reserved') batches.delete(id)
    },
    settle(sent: Sent) {
      batches.set(sent.id, sent)
    },
    /** The sent batch `id` names; invalid params for no string, 5730 for an id this wallet never sent. */
    get(id: unknown): Sent {
      if (typeof id !== 'string') throw Errors.invalidParams('Expected a batch id')
      const sent = batches.get(id)
      if (sent === undefined || sent === 'reserved') throw errors.unknownBundle()
      return sent
    },
  }
}
export type Store = ReturnType<typeof create>

/**
 * Sends the calls one after another, each once the one before is broadcast. It stops at the first call the
 * node refuses (EIP-5792: the wallet SHOULD stop at a failed call); when that is the first, nothing was sent
 * and its error is the request's answer.
 */
export async function send(calls: readonly Call[], sendOne: (call: Call, index: number) => Promise<Hex>): Promise<Pick<Sent, 'hashes' | 'complete'>> {
  const hashes: Hex[] = []
  for (const [index, call] of calls.entries()) {
    try {
      hashes.push(await sendOne(call, index))
    } catch (error) {
      if (hashes.length === 0) throw error
      // Calls already broadcast cannot be taken back: the status says what became of them (600).
      return { hashes, complete: false }
    }
  }
  return { hashes, complete: true }
}

/** wallet_getCallsStatus from the receipts of the calls sent: pending until every one is mined. */
export async function status(sent: Sent, receipt: (hash: Hex) => Promise<Receipt | null>): Promise<Status> {
  const found = await Promise.all(sent.hashes.map(receipt))
  // In nonce order, which is the order they are included in (EIP-5792: receipts in onchain order).
  const receipts = found.flatMap((r) => (r ? [trim(r)] : []))
  const succeeded = receipts.filter((r) => r.status === '0x1').length
  const code =
    receipts.length < sent.hashes.length ? 100
    : sent.complete && succeeded === receipts.length ? 200
    : succeeded === 0 ? 500
    : 600
  return { version, id: sent.id, chainId: numberToHex(sent.chainId), atomic: false, status: code, receipts }
}

/** The receipt fields EIP-5792 names, and of each log its address, data and topics. */
function trim({ status, blockHash, blockNumber, gasUsed, transactionHash, logs }: Receipt): Receipt {
  return { logs: logs.map(({ address, data, topics }) => ({ address, data, topics })), status, blockHash, blockNumber, gasUsed, transactionHash }
}

// EIP-5792: a dapp's id is any string of at most 4096 bytes.
function readId(id: unknown): string | undefined {
  if (id === undefined) return undefined
  if (typeof id !== 'string' || id.length === 0 || new TextEncoder().encode(id).length > 4096)
    throw Errors.invalidParams('Expected id, a string of at most 4096 bytes')
  return id
}

function readFrom(from: unknown, account: Address): Address {
  if (from === undefined) return account
  if (typeof from !== 'string' || !isAddress(from, { strict: false })) throw Errors.invalidParams('Expected from, an address')
  return from
}

type RawCall = Call & { capabilities?: unknown }

function readCalls(calls: unknown): RawCall[] {
  if (!Array.isArray(calls) || calls.length === 0) throw Errors.invalidParams('Expected calls, a non-empty list')
  if (calls.length > maxCalls) throw errors.tooLarge()
  return calls.map((call: unknown, index) => {
    if (call === null || typeof call !== 'object' || Array.isArray(call)) throw Errors.invalidParams(`Call ${index} is not an object`)
    const { to, data, value, capabilities } = call as Record<string, unknown>
    if (to !== undefined && (typeof to !== 'string' || !isAddress(to, { strict: false }))) throw Errors.invalidParams(`Call ${index}: to is not an address`)
    if (data !== undefined && (typeof data !== 'string' || !/^0x([0-9a-f]{2})*$/i.test(data))) throw Errors.invalidParams(`Call ${index}: data is not hex bytes`)
    if (value !== undefined && (typeof value !== 'string' || !/^0x[0-9a-f]+$/i.test(value))) throw Errors.invalidParams(`Call ${index}: value is not a hex quantity`)
    return { to: to as Address | undefined, data: data as Hex | undefined, value: value as Hex | undefined, capabilities }
  })
}

function readCapabilities(capabilities: unknown) {
  if (capabilities !== undefined && (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)))
    throw Errors.invalidParams('Expected capabilities, an object')
}

/** EIP-5792 §capabilities: the wallet knows none, so any capability not marked optional is one it lacks. */
function required(capabilities: unknown): boolean {
  return Object.values((capabilities ?? {}) as Record<string, unknown>).some((value) => Params.at(value, 'optional') !== true)
}
