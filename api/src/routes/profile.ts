/**
 * The name service of spec §7 (/v1/profile/*): names under one zone (Name.defaultZone), registered by a
 * wallet signature over `{ name, attributes, timestamp }` and kept in storage.
 */
import * as Name from '@doorway/shared/Name'
import { Hono } from 'hono'
import { getAddress, verifyMessage } from 'viem'
import type { Deps } from '../deps.js'
import * as Http from '../http.js'
import { NameTaken, type NameRecord } from '../storage/Storage.js'

/** How old a registration message may be; a wallet's clock may run this far ahead. */
export const messageMaxAgeSeconds = 600
export const clockSkewSeconds = 30

const suggestionCount = 4
const maxAttributes = 16
const maxAttributeLength = 512

export function routes(deps: Deps) {
  const { config, storage } = deps
  const app = new Hono()

  app.get('/v1/profile/account/:name', async (c) => {
    Http.project(c, config.projects)
    const record = await storage.names.get(fullName(c.req.param('name')))
    if (!record) throw new Http.HttpError(404, `Name ${c.req.param('name')} is not registered`)
    return c.json(profile(record))
  })

  app.get('/v1/profile/reverse/:address', async (c) => {
    Http.project(c, config.projects)
    const address = Http.address(c.req.param('address'))
    return c.json((await storage.names.byAddress(getAddress(address))).map(profile))
  })

  app.get('/v1/profile/suggestions/:name', async (c) => {
    Http.project(c, config.projects)
    const zone = c.req.query('zone') ?? Name.defaultZone
    if (zone !== Name.defaultZone) throw Http.badRequest(`Invalid zone: only ${Name.defaultZone} is served`)
    const label = labelOf(c.req.param('name'))
    // The name itself when free, then numbered variants that are free too.
    const suggestions: { name: string; registered: false }[] = []
    for (let i = 0; suggestions.length < suggestionCount && i < suggestionCount * 4; i++) {
      const name = `${label}${i === 0 ? '' : i}.${zone}`
      if (!(await storage.names.get(name))) suggestions.push({ name, registered: false })
    }
    return c.json({ suggestions })
  })

  app.post('/v1/profile/account', async (c) => {
    Http.project(c, config.projects)
    const body = await Http.json(c)
    const coinType = coinTypeOf(body.coin_type)
    const address = getAddress(Http.address(typeof body.address === 'string' ? body.address : undefined))
    if (typeof body.message !== 'string' || body.message.length > 4_096) throw Http.badRequest('Invalid message: expected the signed registration message')
    if (typeof body.signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(body.signature)) throw Http.badRequest('Invalid signature: expected hex')
    const message = registration(body.message, deps.now())
    const signed = await verifyMessage({ address, message: body.message, signature: body.signature as `0x${string}` }).catch(() => false)
    if (!signed) throw new Http.HttpError(401, 'The signature is not the address’s signature of the message')
    const record: NameRecord = { name: message.name, address, coinType, attributes: message.attributes, registeredAt: deps.now() }
    try {
      await storage.names.put(record)
    } catch (error) {
      if (error instanceof NameTaken) throw new Http.HttpError(409, `Name ${message.name} is registered to another address`)
      throw error
    }
    return c.json({ success: true })
  })

  return app
}

function profile(record: NameRecord) {
  return { name: record.name, addresses: { [record.coinType]: { address: record.address } }, attributes: record.attributes }
}

/** A label (spec §5: at least 4 letters, digits or hyphens), optionally with the zone after it. */
function labelOf(value: string): string {
  const suffix = `.${Name.defaultZone}`
  const label = value.toLowerCase().endsWith(suffix) ? value.slice(0, -suffix.length) : value
  if (!Name.isValidName(label)) throw Http.badRequest('Invalid name: at least 4 characters, only letters, digits and hyphens')
  return label.toLowerCase()
}

/** Names are stored in full and in lowercase: `alice.doorway.id`. */
const fullName = (value: string) => `${labelOf(value)}.${Name.defaultZone}`

/** SLIP-44 coin type, or an ENSIP-11 EVM coin type (0x80000000 | chainId). */
function coinTypeOf(value: unknown): number {
  const n = typeof value === 'string' && /^[0-9]{1,10}$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 0xffffffff) throw Http.badRequest('Invalid coin_type: expected a coin type number')
  return n
}

/** spec §7: the registration message holds the name, attributes and a Unix timestamp (seconds). */
function registration(text: string, nowMs: number): { name: string; attributes: Record<string, string> } {
  let message: { name?: unknown; attributes?: unknown; timestamp?: unknown }
  try {
    message = JSON.parse(text) as typeof message
  } catch {
    throw Http.badRequest('Invalid message: expected JSON { name, attributes, timestamp }')
  }
  if (typeof message !== 'object' || message === null) throw Http.badRequest('Invalid message: expected JSON { name, attributes, timestamp }')
  if (typeof message.name !== 'string') throw Http.badRequest('Invalid message: name is missing')
  const name = fullName(message.name)
  const attributes = message.attributes ?? {}
  const entries = typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? Object.entries(attributes) : undefined
  if (!entries || entries.length > maxAttributes || !entries.every(([, v]) => typeof v === 'string' && v.length <= maxAttributeLength))
    throw Http.badRequest(`Invalid message: attributes must be at most ${maxAttributes} strings of at most ${maxAttributeLength} characters`)
  const { timestamp } = message
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp)) throw Http.badRequest('Invalid message: timestamp must be Unix seconds')
  const age = nowMs / 1000 - timestamp
  if (age > messageMaxAgeSeconds) throw Http.badRequest('Invalid message: the timestamp is more than 10 minutes old')
  if (age < -clockSkewSeconds) throw Http.badRequest('Invalid message: the timestamp is in the future')
  return { name, attributes: Object.fromEntries(entries) as Record<string, string> }
}
