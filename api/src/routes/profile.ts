/**
 * The name service of spec §7 (/v1/profile/*): names under one zone (Name.defaultZone), one per address,
 * registered by a wallet signature over `Name.registrationMessage({ name, attributes, timestamp, nonce })`
 * and kept in storage.
 *
 * POST /v1/profile/account answers { success: true }, or { message } with
 * - 400 for a malformed body or message (nonce: 32 lowercase hex digits), a timestamp more than 10 minutes
 *   old or over 30 s ahead, or a coin_type naming no network this api serves;
 * - 401 when the signature is not the address's signature of the message (any change after signing);
 * - 409 for a replayed registration (its nonce was spent by the address), a name registered to another
 *   address, or an address that already has another name;
 * - 502 when the node that would check a contract account's signature does not answer.
 */
import type * as Caip from '@doorway/shared/Caip'
import * as Api from '@doorway/shared/contracts/api'
import * as Ids from '@doorway/shared/Ids'
import * as Name from '@doorway/shared/Name'
import { Hono } from 'hono'
import { type Address, type Hex, createPublicClient, custom, getAddress } from 'viem'
import type { Config } from '../config.js'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import { RpcError } from '../rpc.js'
import { AddressHasName, NameTaken, type NameRecord, NonceUsed } from '../storage/Storage.js'

/** How old a registration message may be; a wallet's clock may run this far ahead. */
export const messageMaxAgeSeconds = 600
export const clockSkewSeconds = 30
/**
 * A spent nonce is kept while its message could still be accepted, and a minute more for api instances
 * whose clocks differ.
 */
const nonceMarginSeconds = 60

const suggestionCount = 4
const maxAttributes = 16
const maxAttributeLength = 512
// SLIP-44: Ethereum mainnet
const ethereumCoinType = 60

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()
  const on = Http.register(app, config.projects)

  on(Api.table.profile, async ({ params }) => {
    const record = await storage.names.get(fullName(params.name))
    if (!record) throw new Http.HttpError(404, `Name ${params.name} is not registered`)
    return profile(record)
  })

  on(Api.table.reverse, async ({ params }) => (await storage.names.byAddress(getAddress(params.address))).map(profile))

  on(Api.table.suggestions, async ({ params, query }) => {
    const zone = query.zone ?? Name.defaultZone
    const label = labelOf(params.name)
    // The name itself when free, then numbered variants that are free too.
    const suggestions: { name: string; registered: false }[] = []
    for (let i = 0; suggestions.length < suggestionCount && i < suggestionCount * 4; i++) {
      const name = `${label}${i === 0 ? '' : i}.${zone}`
      if (!(await storage.names.get(name))) suggestions.push({ name, registered: false })
    }
    return { suggestions }
  })

  on(Api.table.registerName, async ({ body }) => {
    const coinType = Number(body.coin_type)
    const address = getAddress(body.address)
    const message = registration(body.message, deps.now())
    const chainId = networkOf(config, coinType)
    const signed = await verify(deps, chainId, { address, message: body.message, signature: body.signature as Hex })
    if (!signed) throw new Http.HttpError(401, 'The signature is not the address’s signature of the message')
    const record: NameRecord = { name: message.name, address, coinType, attributes: message.attributes, registeredAt: deps.now() }
    const keepUntil = (message.timestamp + messageMaxAgeSeconds + nonceMarginSeconds) * 1000
    try {
      await storage.names.register(record, { value: message.nonce, keepUntil })
    } catch (error) {
      if (error instanceof NonceUsed) throw new Http.HttpError(409, 'This registration was sent already: sign a new one (its nonce is spent)')
      if (error instanceof NameTaken) throw new Http.HttpError(409, `Name ${message.name} is registered to another address`)
      if (error instanceof AddressHasName) throw new Http.HttpError(409, `Address ${address} already has the name ${error.held}`)
      throw error
    }
    return { success: true }
  })

  return app
}

function profile(record: NameRecord) {
  return { name: record.name, addresses: { [record.coinType]: { address: record.address } }, attributes: record.attributes }
}

/** A label (spec §5: at least 4 letters, digits or hyphens), optionally with the zone after it. */
function labelOf(value: string): string {
  const label = Name.stripZone(value)
  if (!Name.isValidName(label)) throw Http.badRequest('Invalid name: at least 4 characters, only letters, digits and hyphens')
  return label.toLowerCase()
}

/** Names are stored in full and in lowercase: `alice.doorway.id`. */
const fullName = (value: string) => `${labelOf(value)}.${Name.defaultZone}`

/** The served network a coin type names: 60 is Ethereum (eip155:1), 0x80000000 | chainId an EVM chain (ENSIP-11). */
function networkOf(config: Config, coinType: number): Caip.ChainId {
  const chain = coinType === ethereumCoinType ? 1 : coinType > 0x80000000 ? coinType - 0x80000000 : undefined
  if (chain === undefined) throw Http.badRequest(`Unsupported coin_type ${coinType}: expected 60 (Ethereum) or an EVM chain’s 0x80000000 | chainId`)
  const chainId: Caip.ChainId = `eip155:${chain}`
  if (!config.networks[chainId]) throw Http.badRequest(`Unsupported coin_type ${coinType}: this api does not serve ${chainId}`)
  return chainId
}

/**
 * viem's verifyMessage on the network's node (deps.rpc): an EOA's signature is recovered without a call;
 * a contract account's is checked on chain (ERC-1271, or ERC-6492 before it is deployed).
 */
async function verify(deps: Deps, chainId: Caip.ChainId, signed: { address: Address; message: string; signature: Hex }): Promise<boolean> {
  let unanswered: unknown
  const request = ({ method, params }: { method: string; params?: unknown }) =>
    deps.rpc(chainId, method, params as unknown[] | undefined).catch((error: unknown) => {
      // A JSON-RPC error (the validator reverting) is an answer about the signature; no answer is not.
      if (!(error instanceof RpcError)) unanswered = error
      throw error
    })
  const client = createPublicClient({ transport: custom({ request }, { retryCount: 0 }) })
  // viem answers false for a signature that fails on chain, and throws for one it cannot even parse.
  const valid = await client.verifyMessage({ ...signed, mode: 'eoa' }).catch(() => false)
  if (!valid && unanswered)
    throw new Http.HttpError(502, `Could not check the signature on ${chainId}: ${unanswered instanceof Error ? unanswered.message : 'the node did not answer'}`)
  return valid
}

/** spec §7: the registration message (Name.registrationMessage) holds the name, attributes, a Unix timestamp (seconds) and a nonce. */
function registration(text: string, nowMs: number): { name: string; attributes: Record<string, string>; timestamp: number; nonce: string } {
  const shape = 'Invalid message: expected JSON { name, attributes, timestamp, nonce }'
  let message: { name?: unknown; attributes?: unknown; timestamp?: unknown; nonce?: unknown }
  try {
    message = JSON.parse(text) as typeof message
  } catch {
    throw Http.badRequest(shape)
  }
  if (typeof message !== 'object' || message === null) throw Http.badRequest(shape)
  if (typeof message.name !== 'string') throw Http.badRequest('Invalid message: name is missing')
  const name = fullName(message.name)
  const attributes = message.attributes ?? {}
  const entries = typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? Object.entries(attributes) : undefined
  if (!entries || entries.length > maxAttributes || !entries.every(([, v]) => typeof v === 'string' && v.length <= maxAttributeLength))
    throw Http.badRequest(`Invalid message: attributes must be at most ${maxAttributes} strings of at most ${maxAttributeLength} characters`)
  const { timestamp, nonce } = message
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp)) throw Http.badRequest('Invalid message: timestamp must be Unix seconds')
  const age = nowMs / 1000 - timestamp
  if (age > messageMaxAgeSeconds) throw Http.badRequest('Invalid message: the timestamp is more than 10 minutes old')
  if (age < -clockSkewSeconds) throw Http.badRequest('Invalid message: the timestamp is in the future')
  if (!Ids.isId(nonce)) throw Http.badRequest('Invalid message: nonce must be 32 lowercase hex digits (128 random bits)')
  return { name, attributes: Object.fromEntries(entries) as Record<string, string>, timestamp, nonce }
}
