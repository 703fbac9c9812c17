/**
 * `@doorway/sdk/siwx`: a ready-made `siwx` for `createModal()` (issue 13, CAIP-122 sign-in: EIP-4361 for
 * eip155 accounts, Sign In With Solana for solana ones, CAIP-122's text for polkadot ones, which only the
 * dapp's server verifies: use `serverSessions`). A module of its own, apart from the script
 * build: a dapp that signs nobody in loads none of it.
 *
 * ```ts
 * import { createDefaultSiwx, serverSessions } from '@doorway/sdk/siwx'
 * const siwx = createDefaultSiwx({ getNonce: () => fetch('/siwx/api/nonce').then((r) => r.json()).then((b) => b.nonce), storage: serverSessions('/siwx/api') })
 * ```
 */
import { getAddress } from 'viem'
import type { Siwx, SiwxData, SiwxInput, SiwxMessage } from '../types.js'
import { SiwxError } from './errors.js'
import { formatMessage } from './message.js'
import { localSessions, type SessionStorage } from './storage.js'
import { timeProblem, type Verifier, verifySession } from './verifiers.js'

export { SiwxError } from './errors.js'
export { formatMessage, parseMessage, registerNamespace } from './message.js'
export { localSessions, type SessionStorage, serverSessions, type WebStorage } from './storage.js'
// timeProblem: for a Verifier of another namespace written outside the SDK (examples/siwx-server's polkadot one)
export { eip155Verifier, solanaVerifier, timeProblem, type Verifier, verifySession } from './verifiers.js'

/**
 * The `Siwx` of a dapp: messages with a nonce from its server, sessions verified (by `verifiers` on this
 * page, the one of the session's namespace: `[eip155Verifier({ rpcUrls }), solanaVerifier()]`, and by the
 * storage when it is the server's) and kept in `storage`.
 */
export function createDefaultSiwx(options: createDefaultSiwx.Options): Siwx {
  const { verifiers = [], storage = localSessions(), required = true, signOutOnDisconnect = true, now = Date.now } = options
  return {
    async createMessage(input) {
      return message(options, input, await options.getNonce(input), now())
    },
    async addSession(session) {
      const namespace = String(session?.data?.chainId).split(':')[0]
      // A session nobody checks is not kept: this page's verifiers or the server must vouch for it.
      if (verifiers.some((verifier) => verifier.namespace === namespace) || !storage.verifies) await verifySession(session, verifiers)
      await storage.add(session)
    },
    revokeSession: (chainId, address) => storage.delete(chainId, address),
    setSessions: (sessions) => storage.set(sessions),
    async getSessions(chainId, address) {
      const sessions = await storage.get(chainId, address)
      return sessions.filter((session) => !timeProblem(session.data, now()))
    },
    getRequired: () => required,
    signOutOnDisconnect,
  }
}
export declare namespace createDefaultSiwx {
  type Options = {
    /** A fresh nonce from the dapp's server (EIP-4361: 8 or more letters and digits), which it checks on sign-in. */
    getNonce(input: SiwxInput): Promise<string>
    /** The domain asking; `location.host` when the message is made. */
    domain?: string
    /** The URI signed into; `location.href` when the message is made. */
    uri?: string
    /** One line shown above the fields, e.g. 'Sign in to Example'. None by default. */
    statement?: string
    /** URIs the person agrees to have resolved (EIP-4361 Resources). */
    resources?: string[]
    /** How long a message stays valid, in ms (its Expiration Time); no expiry by default. */
    expiresIn?: number
    /** Verify on this page before keeping; needed unless `storage` verifies (serverSessions does). */
    verifiers?: readonly Verifier[]
    /** `localSessions()` by default. */
    storage?: SessionStorage
    /** True (the default): the person must sign in to stay connected. */
    required?: boolean
    /** True (the default): sessions are forgotten when the wallet disconnects. */
    signOutOnDisconnect?: boolean
    /** The clock for Issued At, Expiration Time and dropping expired sessions (ms). */
    now?: () => number
  }
}

function message(options: createDefaultSiwx.Options, input: SiwxInput, nonce: string, now: number): SiwxMessage {
  const eip155 = input.chainId.startsWith('eip155:')
  const expirationTime = input.expirationTime ?? (options.expiresIn === undefined ? undefined : new Date(now + options.expiresIn).toISOString())
  const fields: SiwxData = {
    domain: options.domain ?? location.host,
    // EIP-4361 signs the checksummed address; wallets may hand it lowercase
    accountAddress: eip155 ? checksum(input.accountAddress) : input.accountAddress,
    statement: options.statement,
    uri: options.uri ?? location.href,
    version: '1',
    chainId: input.chainId,
    nonce,
    issuedAt: new Date(now).toISOString(),
    expirationTime,
    notBefore: input.notBefore,
    resources: options.resources,
  }
  // Plain data crosses to the frame: no keys standing for nothing.
  const data = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as SiwxData
  const text = formatMessage(data)
  return { ...data, toString: () => text }
}

function checksum(address: string): string {
  try {
    return getAddress(address)
  } catch (cause) {
    throw new SiwxError('InvalidMessage', `${address} is not an eip155 address`, { cause })
  }
}
