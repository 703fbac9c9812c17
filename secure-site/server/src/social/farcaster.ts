/**
 * Sign In With Farcaster (docs/embedded-wallet.md §5): one more way to prove the person. The server opens a
 * channel on Farcaster's relay for a flow, with the flow's nonce, the person approves it in their Farcaster
 * app, and the signed answer is checked by `@farcaster/auth-client`'s own `verifySignInMessage` (the SIWE
 * signature by viem, its signer as the fid's custody address by the ID registry on Optimism) against that
 * nonce and this server's domain. A relay or RPC that is down or slow never hangs a request: every call
 * has a timeout and the caller's AbortSignal. `import * as Farcaster from './farcaster.js'`.
 */
import { createHash } from 'node:crypto'
import { type CreateChannelAPIResponse, type CreateChannelArgs, type CreateClientArgs, createAppClient, type StatusAPIResponse } from '@farcaster/auth-client'
import { createPublicClient, http, isHex, parseAbi } from 'viem'
import { optimism } from 'viem/chains'
import type { SocialProfile } from '../storage/Storage.js'
import * as Client from './client.js'
import * as Profiles from './profiles.js'

export type FarcasterConfig = {
  /** The relay's origin, e.g. https://relay.farcaster.xyz (prod) or the devnet stand-in. */
  relay: string
  /** An Optimism RPC (prod) or the devnet anvil that has the ID registry installed. */
  rpcUrl: string
  /** The SIWF domain: the secure origin's host (e.g. 127.0.0.1:5175). */
  domain: string
  /** The secure origin + '/farcaster': what the Farcaster app shows as asking. */
  siweUri: string
  /** How long one relay or RPC call may take; `Client.timeoutMs` (10 s) unless a test says. */
  timeoutMs?: number
}

/** The relay or the RPC did not answer in time, could not be reached or failed (5xx, 429): the caller tries again later. */
export class Unavailable extends Error {}

/** The relay's answer to open a channel cannot be used (no channel, another nonce, a link the modal must not show). */
export class Invalid extends Error {}

export const defaultRelay = 'https://relay.farcaster.xyz'

/**
 * The configuration from the environment (API.md Social sign-in): on only when DOORWAY_FARCASTER_RPC is
 * set; DOORWAY_FARCASTER_RELAY moves the relay (Farcaster's by default), DOORWAY_FARCASTER_DEVNET=<origin>
 * points it at the devnet stand-in. URLs are https, or http to loopback only (the devnet and tests).
 */
export function fromEnv(env: Record<string, string | undefined>, secureOrigin: string): FarcasterConfig | undefined {
  const rpc = env.DOORWAY_FARCASTER_RPC || undefined
  if (!rpc) return undefined
  const [variable, relay] = env.DOORWAY_FARCASTER_RELAY
    ? ['DOORWAY_FARCASTER_RELAY', env.DOORWAY_FARCASTER_RELAY]
    : env.DOORWAY_FARCASTER_DEVNET
      ? ['DOORWAY_FARCASTER_DEVNET', env.DOORWAY_FARCASTER_DEVNET]
      : ['DOORWAY_FARCASTER_RELAY', defaultRelay]
  const secure = new URL(secureOrigin)
  return {
    // auth-client and the calls below append /v1/… to the relay, so a path it has is kept without its last slash.
    relay: secureUrl(relay, variable).href.replace(/\/+$/, ''),
    rpcUrl: secureUrl(rpc, 'DOORWAY_FARCASTER_RPC').href,
    domain: secure.host,
    siweUri: `${secure.origin}/farcaster`,
  }
}

/** Opens the relay channel for a flow; its nonce is the flow's (as `siweNonce`), so the answer is bound to this flow. */
export async function open(config: FarcasterConfig, flow: { nonce: string; expiresAt: number }, signal?: AbortSignal): Promise<{ channelToken: string; url: string }> {
  const nonce = siweNonce(flow.nonce)
  const request: CreateChannelArgs = {
    siweUri: config.siweUri,
    domain: config.domain,
    nonce,
    // The signed message expires with the flow, so viem refuses it once the flow could not be redeemed anyway.
    expirationTime: new Date(flow.expiresAt).toISOString(),
    // The custody address signs: it is what the ID registry names for the fid (docs/embedded-wallet.md §5).
    acceptAuthAddress: false,
  }
  const { status, body } = await call(config, { method: 'POST', path: '/v1/channel', json: request }, signal)
  if (status < 200 || status > 299) throw new Invalid(`The Farcaster relay refused to open a channel (${status})`)
  const channel = body as Partial<CreateChannelAPIResponse> | undefined
  if (!token(channel?.channelToken)) throw new Invalid('The Farcaster relay answered no channel token')
  if (channel.nonce !== nonce) throw new Invalid('The Farcaster relay opened the channel with another nonce')
  // The modal shows this link as a QR code and a button: only https (http to loopback for the devnet).
  if (!isSecure(channel.url) || channel.url.length > limits.url) throw new Invalid(`The Farcaster relay answered a link the modal will not show: ${String(channel.url).slice(0, 100)}`)
  return { channelToken: channel.channelToken, url: channel.url }
}

/**
 * One look at the channel: still pending, or the checked profile, or why it is refused (`cause`, for the
 * log). Throws Unavailable when the relay or the RPC did not answer: the next redeem looks again.
 */
export async function look(config: FarcasterConfig, flow: { nonce: string; channelToken: string }, signal?: AbortSignal): Promise<look.ReturnType> {
  const { status, body } = await call(config, { method: 'GET', path: '/v1/channel/status', token: flow.channelToken }, signal)
  if (status === 202) return 'pending'
  // The relay forgets a channel after a while: an unknown channel (401) will not come back, so the flow fails.
  if (status !== 200) return invalid(`The Farcaster relay answered ${status} for the channel`)
  const answer = body as Partial<StatusAPIResponse> | undefined
  if (answer?.state === 'pending') return 'pending'
  const { message, signature, fid } = answer ?? {}
  if (answer?.state !== 'completed' || typeof message !== 'string' || !isHex(signature) || !Number.isSafeInteger(fid)) return invalid('The Farcaster relay answered a malformed completed channel')
  const app = createAppClient({ relay: config.relay, ethereum: ethereum(config, signal) })
  const verified = await app.verifySignInMessage({ nonce: siweNonce(flow.nonce), domain: config.domain, message, signature, acceptAuthAddress: false })
  if (verified.isError) {
    if (signal?.aborted) throw signal.reason
    // auth-client says `unavailable` when the ID registry could not be read. viem's signature check recovers a
    // plain key's signature without the RPC and reads a failed contract call as `false`: a bad one stays invalid.
    if (verified.error?.errCode === 'unavailable') throw new Unavailable('The Optimism RPC did not answer', { cause: verified.error })
    return invalid(`verifySignInMessage refused the answer: ${verified.error?.message ?? 'no reason'}`)
  }
  // The name and picture are the relay's word for its fid: they are used only when it is the fid that signed.
  if (verified.fid !== fid) return invalid(`The Farcaster relay named fid ${fid} for a message signed for fid ${verified.fid}`)
  return { profile: profile(verified.fid, answer) }
}
export declare namespace look {
  type ReturnType = 'pending' | { profile: SocialProfile } | { reason: 'invalid'; cause: string }
}

const invalid = (cause: string) => ({ reason: 'invalid', cause }) as const

/** At most what is stored and shown: a channel token, and a connect link that still fits a QR code. */
export const limits = { channelToken: 512, url: 2_000 } as const

/**
 * EIP-4361 nonces are letters and digits only and the flow's is base64url (Flow.create), so the message
 * carries the hex SHA-256 of the flow's nonce: still one per flow, and checked against it.
 */
export const siweNonce = (flowNonce: string) => createHash('sha256').update(flowNonce).digest('hex')

/** The person as Farcaster names them: the fid, the username and the picture; Farcaster gives no email. */
function profile(fid: number, answer: Partial<StatusAPIResponse>): SocialProfile {
  const username = typeof answer.username === 'string' ? answer.username.trim().slice(0, Profiles.limits.username) || null : null
  const avatar = typeof answer.pfpUrl === 'string' && answer.pfpUrl.length <= Profiles.limits.avatar && /^https?:\/\//.test(answer.pfpUrl) && isUrl(answer.pfpUrl) ? answer.pfpUrl : null
  return { subject: String(fid), email: null, emailVerified: false, username, avatar }
}

/** Farcaster's ID registry on Optimism, where auth-client's viemConnector reads the fid a custody address holds. */
const idRegistry = { address: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b', abi: parseAbi(['function idOf(address owner) view returns (uint256)']) } as const

/**
 * auth-client's viemConnector with what it cannot be given: a timeout per call, the caller's AbortSignal
 * and no retries (the next redeem looks again). Auth addresses are not accepted, so only the ID registry is read.
 */
function ethereum(config: FarcasterConfig, signal: AbortSignal | undefined): CreateClientArgs['ethereum'] {
  const transport = http(config.rpcUrl, { timeout: config.timeoutMs ?? Client.timeoutMs, retryCount: 0, ...(signal && { fetchOptions: { signal } }) })
  const publicClient = createPublicClient({ chain: optimism, transport })
  return {
    publicClient,
    getFid: (custody) => publicClient.readContract({ ...idRegistry, functionName: 'idOf', args: [custody] }),
    isValidAuthAddress: () => Promise.resolve(false),
  }
}

type Call = { method: 'GET' | 'POST'; path: string; json?: unknown; token?: string }

/**
 * One request to the relay, aborted after the timeout or with the caller's signal. auth-client's own
 * createChannel and status take no signal, so a relay that never answers would hold them: these are the
 * same two requests (its index.d.ts shapes), with one. Throws Unavailable when the relay did not answer
 * or failed (5xx, 429, 408); any other status is the caller's to judge.
 */
async function call(config: FarcasterConfig, { method, path, json, token }: Call, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
  const timeout = AbortSignal.timeout(config.timeoutMs ?? Client.timeoutMs)
  const headers: Record<string, string> = { accept: 'application/json', ...(json !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) }
  let status: number
  let text: string
  try {
    const response = await fetch(`${config.relay}${path}`, { method, headers, body: json === undefined ? null : JSON.stringify(json), signal: signal ? AbortSignal.any([signal, timeout]) : timeout, redirect: 'error' })
    status = response.status
    text = await response.text()
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    throw new Unavailable(`The Farcaster relay did not answer ${method} ${path}`, { cause: error })
  }
  if (status >= 500 || status === 429 || status === 408) throw new Unavailable(`The Farcaster relay answered ${status} to ${method} ${path}`)
  return { status, body: parse(text) }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const token = (value: unknown): value is string => typeof value === 'string' && value.length <= limits.channelToken && /^[\x21-\x7e]+$/.test(value)

function isSecure(value: unknown): value is string {
  if (typeof value !== 'string' || !isUrl(value)) return false
  return new URL(value).protocol === 'https:' || Client.isLoopbackHttp(value)
}

function isUrl(value: string): boolean {
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

/** A URL the configuration may name: https, or http to loopback only. */
function secureUrl(value: string, variable: string): URL {
  if (isSecure(value)) return new URL(value)
  throw new Error(`${variable} is not an https URL (http only to 127.0.0.1, localhost or [::1]): ${value}`)
}
