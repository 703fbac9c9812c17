/**
 * The devnet's Farcaster connect relay (docs/embedded-wallet.md §5 "Farcaster", issue 24): a local
 * stand-in for relay.farcaster.xyz with the HTTP contract `@farcaster/auth-client` 0.7.1 speaks (API v1),
 * so that production is a change of the relay URL. Its connect URIs open the test Farcaster client
 * (client.ts) on the same origin, which plays the Farcaster app. Dev only, never shipped.
 * `import * as FarcasterRelay from './farcaster/relay.js'` → `await FarcasterRelay.start({ port, authKey, rpcUrl })`.
 *
 * - `POST /v1/channel` (CreateChannelRequest) → 201 {channelToken, url, connectUri, nonce}.
 * - `GET /v1/channel/status` (Bearer channelToken) → 202 while pending, 200 once completed, in
 *   StatusAPIResponse's shape (with its `url`). As the real relay does, the completed answer is given
 *   once: reading it closes the channel (then 401).
 * - `POST /v1/channel/authenticate` (Bearer channelToken, X-Farcaster-Auth-Relay-Key) → 201. Like the real
 *   relay it does not check the signature (the app verifies it); unlike it, a second completion is 409,
 *   where the real relay would overwrite the first.
 * - Unknown or expired channel → 401. Bad input → 400, 413 or 415 with {error}.
 *
 * Channels live in memory, at most `limits.channels` at once, each for `channelTtlMs` from creation.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthMethod, CreateChannelAPIResponse, CreateChannelArgs, StatusAPIResponse } from '@farcaster/auth-client'
import * as Ids from '@doorway/shared/Ids'
import { generateSiweNonce } from 'viem/siwe'
import { type Body, HttpError, isLoopbackHost, listenLoopback, readJson, sendJson } from '../httpServer.js'
import * as Client from './client.js'

export const limits = {
  /** Largest request body: a SIWF message and a profile are under 2 KiB. */
  bodyBytes: 16 * 1024,
  /** Channels alive at once; beyond, creating one is 429 until some expire or have their completion read. */
  channels: 1_000,
  /** Longest URL (siweUri, redirectUrl, pfpUrl) or free-text field. */
  text: 2_048,
  /** Longest SIWF message. */
  message: 8 * 1024,
}

/** A channel's lifetime unless `channelTtlMs` says otherwise: minutes, as the real relay's. */
export const defaultChannelTtlMs = 5 * 60_000

export async function start(options: start.Options): Promise<start.ReturnType> {
  const { authKey, rpcUrl, channelTtlMs = defaultChannelTtlMs } = options
  if (typeof authKey !== 'string' || authKey.length < 16) throw new TypeError('start needs an authKey of at least 16 characters')
  if (typeof rpcUrl !== 'string' || !isHttpUrl(rpcUrl)) throw new TypeError('start needs the rpcUrl of the chain with the ID registry')
  if (!(Number.isFinite(channelTtlMs) && channelTtlMs > 0)) throw new TypeError('channelTtlMs must be a positive number of milliseconds')
  const channels = createChannels(channelTtlMs)
  const accounts = Client.createAccounts(rpcUrl)
  // The origin, and so the connect URIs, name the bound port: known once listening.
  const state: { origin?: string } = {}
  const server = await listenLoopback({
    name: 'devnet Farcaster relay',
    port: options.port,
    host: options.host,
    handle: (req, res) => void route({ origin: state.origin, authKey, channels, accounts }, req, res),
    finish: () => Promise.resolve(),
  })
  state.origin = server.url
  return { origin: server.url, stop: server.stop }
}
export declare namespace start {
  type Options = {
    /** 0 picks a free port; `origin` says which. */
    port: number
    /** Loopback only; default 127.0.0.1. */
    host?: string
    /** The key the Farcaster app (here the test client) sends as X-Farcaster-Auth-Relay-Key; others get 401. */
    authKey: string
    /**
     * The anvil chain with Farcaster's ID registry (registry.ts `installRegistry`), where the client page
     * registers each new account's custody address under its fid.
     */
    rpcUrl: string
    /** How long a channel lives from its creation. Default 5 minutes. */
    channelTtlMs?: number
  }
  /** `origin` has no trailing slash: auth-client appends `/v1/…`. */
  type ReturnType = { origin: string; stop(): Promise<void> }
}

/** What the app asked to be signed, as the relay keeps it (the nonce filled in). */
type SignatureParams = StatusAPIResponse['signatureParams'] & { nonce: string }

/** What the Farcaster app posts once the person signed. */
type Completion = {
  message: string
  signature: `0x${string}`
  authMethod?: AuthMethod
  fid: number
  username?: string
  bio?: string
  displayName?: string
  pfpUrl?: string
  verifications: string[]
  custody: `0x${string}`
}

type Channel = {
  expiresAt: number
  nonce: string
  url: string
  signatureParams: SignatureParams
  metadata: StatusAPIResponse['metadata']
  acceptAuthAddress: boolean
  completion?: Completion
}

function createChannels(ttlMs: number) {
  const live = new Map<string, Channel>()
  const prune = (now: number) => {
    for (const [token, channel] of live) if (channel.expiresAt <= now) live.delete(token)
  }
  return {
    open(token: string, channel: Omit<Channel, 'expiresAt'>) {
      const now = Date.now()
      prune(now)
      if (live.size >= limits.channels) throw new HttpError(429, 'Too many sign-in requests are waiting: try again later')
      live.set(token, { ...channel, expiresAt: now + ttlMs })
    },
    /** The live channel, or undefined: an expired one is gone. */
    read(token: string): Channel | undefined {
      const channel = live.get(token)
      if (channel && channel.expiresAt <= Date.now()) live.delete(token)
      return live.get(token)
    },
    close(token: string) {
      live.delete(token)
    },
  }
}

type Channels = ReturnType<typeof createChannels>
type Context = { origin: string | undefined; authKey: string; channels: Channels; accounts: Client.Accounts }

async function route(context: Context, req: IncomingMessage, res: ServerResponse) {
  try {
    // DNS rebinding: a page on another name that resolves to loopback must not drive a sign-in.
    if (!isLoopbackHost(req.headers.host)) throw new HttpError(403, 'Only loopback host names may use the devnet Farcaster relay')
    const { origin } = context
    if (origin === undefined) throw new HttpError(503, 'The devnet Farcaster relay is starting')
    const path = new URL(req.url ?? '/', 'http://loopback').pathname
    if (Client.owns(path)) return await Client.handle(clientContext(context, origin), req, res)
    const endpoint = endpoints[path]
    if (!endpoint) throw new HttpError(404, `No such endpoint: ${path}`)
    if (req.method !== endpoint.method) {
      res.setHeader('allow', endpoint.method)
      throw new HttpError(405, `${path} takes ${endpoint.method}`)
    }
    const body = endpoint.method === 'POST' ? await readJson(req, limits.bodyBytes) : {}
    const { status, json } = endpoint.handle({ ...context, origin }, req, body)
    sendJson(res, status, json)
  } catch (error) {
    if (res.headersSent) return void res.destroy()
    const status = error instanceof HttpError ? error.status : 500
    if (status === 500) console.error('[doorway:farcaster]', error)
    if (status === 413) res.setHeader('connection', 'close')
    sendJson(res, status, { error: status === 500 ? 'Internal error' : (error as Error).message })
  }
}

/** The client page reads channels in process; it completes them over HTTP, as the Farcaster app does. */
function clientContext(context: Context, origin: string): Client.Context {
  return {
    origin,
    authKey: context.authKey,
    accounts: context.accounts,
    request(token) {
      const channel = context.channels.read(token)
      return channel && { state: channel.completion ? 'completed' : 'pending', nonce: channel.nonce, signatureParams: channel.signatureParams }
    },
  }
}

type Endpoint = {
  method: 'GET' | 'POST'
  handle(context: Context & { origin: string }, req: IncomingMessage, body: Body): { status: number; json: unknown }
}

const endpoints: Record<string, Endpoint> = {
  '/healthcheck': { method: 'GET', handle: () => ({ status: 200, json: { status: 'OK' } }) },
  '/v1/channel': { method: 'POST', handle: (context, req, body) => ({ status: 201, json: createChannel(context, req, body) }) },
  '/v1/channel/status': { method: 'GET', handle: (context, req) => status(context, req) },
  '/v1/channel/authenticate': { method: 'POST', handle: (context, req, body) => ({ status: 201, json: authenticate(context, req, body) }) },
}

/** The real relay also answers the URI as `connectUri`, which older clients read. */
function createChannel({ origin, channels }: Context & { origin: string }, req: IncomingMessage, body: Body): CreateChannelAPIResponse & { connectUri: string } {
  const request = channelRequest(body)
  // auth-client's generateNonce is viem's generateSiweNonce: the same nonce an app would make.
  const nonce = request.nonce ?? generateSiweNonce()
  const channelToken = Ids.random()
  // The connect URI opens the test client; the parameter keeps its name: auth-client's parseSignInURI reads it.
  const url = `${origin}/client?${new URLSearchParams({ channelToken })}`
  channels.open(channelToken, {
    nonce,
    url,
    signatureParams: { ...request, nonce },
    metadata: { ip: req.socket.remoteAddress ?? 'Unknown', userAgent: header(req, 'user-agent') ?? 'Unknown' },
    acceptAuthAddress: request.acceptAuthAddress ?? false,
  })
  return { channelToken, url, connectUri: url, nonce }
}

function status({ channels }: Context, req: IncomingMessage): { status: number; json: StatusAPIResponse } {
  const token = bearer(req)
  const channel = channels.read(token)
  if (!channel) throw new HttpError(401, 'Unauthorized')
  // The real relay answers a completed channel once and closes it: an app must keep what it read.
  if (channel.completion) channels.close(token)
  return { status: channel.completion ? 200 : 202, json: answer(channel) }
}

function authenticate({ authKey, channels, accounts }: Context, req: IncomingMessage, body: Body): StatusAPIResponse {
  const key = header(req, 'x-farcaster-auth-relay-key') ?? header(req, 'x-farcaster-connect-auth-key')
  if (key === undefined || !sameSecret(key, authKey)) throw new HttpError(401, 'Unauthorized')
  const channel = channels.read(bearer(req))
  if (!channel) throw new HttpError(401, 'Unauthorized')
  const posted = authenticateRequest(body)
  if (channel.completion) throw new HttpError(409, 'This channel is already completed')
  // The real relay asks a hub for the fid's custody and verified addresses; here the client's accounts are the hub.
  const user = accounts.find(posted.fid)
  if (!user) throw new HttpError(400, `fid ${posted.fid} is not a devnet Farcaster user`)
  channel.completion = { ...posted, custody: user.custody, verifications: [] }
  return answer(channel)
}

/** The channel in StatusAPIResponse's shape (auth-client 0.7.1 index.d.ts), field for field. */
function answer(channel: Channel): StatusAPIResponse {
  const { nonce, url, signatureParams, metadata, acceptAuthAddress, completion } = channel
  return { state: completion ? 'completed' : 'pending', nonce, url, ...completion, signatureParams, metadata, acceptAuthAddress }
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name]
  return typeof value === 'string' ? value : undefined
}

function bearer(req: IncomingMessage): string {
  const token = /^Bearer (\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1]
  if (!token) throw new HttpError(401, 'Unauthorized')
  return token
}

function sameSecret(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(a), digest(b))
}

const badRequest = (message: string) => new HttpError(400, message)

// What EIP-4361 accepts as a domain and a nonce, as viem's createSiweMessage checks them: a request the
// client could not sign is refused when the channel is made, not when the person approves.
const domainPattern =
  /^(([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+([a-zA-Z]{2,63}|[xX][nN]--[a-zA-Z0-9-]{0,58}[a-zA-Z0-9])|((25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(25[0-5]|2[0-4]\d|[01]?\d\d?)|localhost)(:\d{1,5})?$/
const noncePattern = /^[a-zA-Z0-9]{8,128}$/
// RFC 3339, which SIWE's notBefore and expirationTime are.
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i
// The characters an RFC 3986 URI may hold, as viem's isUri allows them.
const uriCharacters = /^[a-z0-9:/?#[\]@!$&'()*+,;=.\-_~%]+$/i

/** The CreateChannelRequest's fields, checked; fields it does not know are dropped, as the real relay's schema does. */
function channelRequest(body: Body): CreateChannelArgs {
  const siweUri = text(body, 'siweUri')
  if (!isHttpUrl(siweUri)) throw badRequest('siweUri must be an http(s) URL')
  const domain = text(body, 'domain')
  if (!domainPattern.test(domain)) throw badRequest('domain must be a host name or IPv4 address, with an optional :port')
  const nonce = optionalText(body, 'nonce')
  if (nonce !== undefined && !noncePattern.test(nonce)) throw badRequest('nonce must be 8 to 128 letters and digits')
  const notBefore = dateTime(body, 'notBefore')
  const expirationTime = dateTime(body, 'expirationTime')
  const requestId = optionalText(body, 'requestId')
  const redirectUrl = optionalText(body, 'redirectUrl')
  const acceptAuthAddress = body.acceptAuthAddress
  if (acceptAuthAddress !== undefined && typeof acceptAuthAddress !== 'boolean') throw badRequest('acceptAuthAddress must be a boolean')
  return defined({ siweUri, domain, nonce, notBefore, expirationTime, requestId, redirectUrl, acceptAuthAddress })
}

/** The AuthenticateRequest's fields, checked as the real relay's schema does. */
function authenticateRequest(body: Body): Omit<Completion, 'custody' | 'verifications'> {
  const message = text(body, 'message', { max: limits.message })
  const signature = text(body, 'signature')
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw badRequest('signature must be a 65-byte hex signature')
  const fid = body.fid
  if (typeof fid !== 'number' || !Number.isSafeInteger(fid) || fid < 1) throw badRequest('fid must be a positive integer')
  const authMethod = body.authMethod
  if (authMethod !== undefined && authMethod !== 'custody' && authMethod !== 'authAddress') throw badRequest("authMethod must be 'custody' or 'authAddress'")
  const username = optionalText(body, 'username')
  if (username !== undefined && !/^[a-z0-9][a-z0-9-]{0,15}(\.eth)?$/.test(username)) throw badRequest('username must be a Farcaster username')
  const pfpUrl = optionalText(body, 'pfpUrl')
  if (pfpUrl !== undefined && !isHttpUrl(pfpUrl)) throw badRequest('pfpUrl must be an http(s) URL')
  const bio = optionalText(body, 'bio')
  const displayName = optionalText(body, 'displayName')
  return defined({ message, signature: signature as `0x${string}`, authMethod, fid, username, bio, displayName, pfpUrl })
}

function text(body: Body, name: string, options: { min?: number; max?: number } = {}): string {
  const value = body[name]
  const { min = 1, max = limits.text } = options
  if (typeof value !== 'string' || value.length < min || value.length > max) throw badRequest(`${name} must be a string of ${min} to ${max} characters`)
  return value
}

/** An optional field; when given it may be empty, as the real relay's schema allows (an empty bio). */
const optionalText = (body: Body, name: string) => (body[name] === undefined ? undefined : text(body, name, { min: 0 }))

function dateTime(body: Body, name: string): string | undefined {
  const value = optionalText(body, name)
  if (value !== undefined && (!dateTimePattern.test(value) || Number.isNaN(Date.parse(value)))) throw badRequest(`${name} must be an RFC 3339 date-time`)
  return value
}

function isHttpUrl(value: string): boolean {
  if (!uriCharacters.test(value)) return false
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/** The object without its undefined fields: an absent option stays absent in the answers. */
function defined<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T
}
