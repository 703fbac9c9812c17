/**
 * Verifiers check a signed-in session before it is kept: one per CAIP-2 namespace, so a session of a
 * namespace nobody verifies is refused by name rather than trusted or crashed on.
 */
import type * as Caip from '@doorway/shared/Caip'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { type Chain, type Client, createPublicClient, http, isHex, type Transport } from 'viem'
import { getChainId, verifyMessage } from 'viem/actions'
import type { SiwxSession } from '../types.js'
import { SiwxError } from './errors.js'
import { formatMessage, solanaPublicKey } from './message.js'

export type Verifier = {
  /** The CAIP-2 namespace whose sessions it verifies. */
  readonly namespace: Caip.Namespace
  /** Resolves when the session is good; otherwise throws a `SiwxError` saying why not. */
  verify(session: SiwxSession): Promise<void>
}

/** Verifies with the verifier of the session's namespace; none there is a `NoVerifier` error. */
export async function verifySession(session: SiwxSession, verifiers: readonly Verifier[]): Promise<void> {
  const namespace = namespaceOf(session)
  const verifier = verifiers.find((candidate) => candidate.namespace === namespace)
  if (!verifier) throw new SiwxError('NoVerifier', `No verifier for ${namespace || 'this'} sessions`)
  await verifier.verify(session)
}

/**
 * eip155 sessions: the message is the text of its data (EIP-4361), its chain is one of `rpcUrls` or
 * `clients`, it is within its Not Before and Expiration Time, and the signature is the account's. viem's
 * `verifyMessage` covers EOAs (EIP-191), contract accounts (ERC-1271) and accounts not deployed yet
 * (ERC-6492, verified with a call that deploys nothing).
 */
export function eip155Verifier(options: eip155Verifier.Options): Verifier {
  const { rpcUrls = {}, clients = {}, now = Date.now } = options
  const made = new Map<string, Client>()
  const clientOf = (chainId: Caip.ChainId) => {
    const given = clients[chainId]
    if (given) return given
    const url = rpcUrls[chainId]
    if (!url) return undefined
    if (!made.has(chainId)) made.set(chainId, createPublicClient({ transport: http(url) }))
    return made.get(chainId)
  }
  return {
    namespace: 'eip155',
    async verify(session) {
      const { data, message, signature } = checkSession(session, 'eip155')
      const client = clientOf(data.chainId)
      if (!client) throw new SiwxError('UnknownChain', `No RPC URL to verify sign-ins on ${data.chainId}`)
      const problem = timeProblem(data, now())
      if (problem) throw problem
      if (typeof signature !== 'string' || !isHex(signature, { strict: true }) || signature.length < 4)
        throw new SiwxError('InvalidSignature', 'The signature is not hex')
      const unavailable = (cause: unknown) => new SiwxError('Unavailable', `Could not verify the signature on ${data.chainId}`, { cause })
      const valid = await verifyMessage(client, { address: data.accountAddress as `0x${string}`, message, signature }).catch((cause: unknown) => {
        throw unavailable(cause)
      })
      if (valid) return
      // viem also answers false when the chain could not be asked: tell a bad signature from a chain down
      await getChainId(client).catch((cause: unknown) => {
        throw unavailable(cause)
      })
      throw new SiwxError('InvalidSignature', `The signature is not ${data.accountAddress}'s`)
    },
  }
}
export declare namespace eip155Verifier {
  type Options = {
    /** An RPC URL per CAIP-2 chain the sessions may be on: `{ 'eip155:1': 'https://…' }`. */
    rpcUrls?: Partial<Record<Caip.ChainId, string>>
    /** Or viem clients of your own; a chain's client is used over its RPC URL. */
    clients?: Partial<Record<Caip.ChainId, Client<Transport, Chain | undefined>>>
    /** The clock the time bounds are checked against (ms). */
    now?: () => number
  }
}

/**
 * solana sessions (Sign In With Solana): the message is the text of its data, it is within its Not Before
 * and Expiration Time, and `signature` is the base58 of the 64-byte ed25519 signature over the message's
 * UTF-8 bytes by the key the address is (what `solana:signMessage` and `solana:signIn` return as bytes, in
 * the text form Solana gives signatures). No chain is asked: a Solana account is its key.
 */
export function solanaVerifier(options: solanaVerifier.Options = {}): Verifier {
  const { now = Date.now } = options
  return {
    namespace: 'solana',
    async verify(session) {
      const { data, message, signature } = checkSession(session, 'solana')
      const problem = timeProblem(data, now())
      if (problem) throw problem
      const bytes = typeof signature === 'string' && /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature) ? base58.decode(signature) : undefined
      if (bytes?.length !== 64) throw new SiwxError('InvalidSignature', 'The signature is not a base58 ed25519 signature (64 bytes)')
      // formatMessage has checked the address is a 32-byte key
      const publicKey = solanaPublicKey(data.accountAddress)!
      if (!verifies(bytes, new TextEncoder().encode(message), publicKey))
        throw new SiwxError('InvalidSignature', `The signature is not ${data.accountAddress}'s`)
    },
  }
}
export declare namespace solanaVerifier {
  type Options = {
    /** The clock the time bounds are checked against (ms). */
    now?: () => number
  }
}

function verifies(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    // zip215 off: RFC 8032's strict rules (no small-order keys, canonical encodings), as Solana's verify_strict
    return ed25519.verify(signature, message, publicKey, { zip215: false })
  } catch {
    // a key or signature that is no curve point
    return false
  }
}

/** The session of `namespace` whose message is the text of its data (EIP-4361, SIWS), else why not. */
function checkSession(session: SiwxSession, namespace: Caip.Namespace): SiwxSession {
  const found = namespaceOf(session)
  if (found !== namespace) throw new SiwxError('UnsupportedNamespace', `The ${namespace} verifier does not verify ${found || 'these'} sessions`)
  if (formatMessage(session.data) !== session.message) throw new SiwxError('MessageMismatch', 'The message is not the text of its data')
  return session
}

/** What is wrong with a session's time bounds at `now` (ms): past its Expiration Time or before its Not Before. */
export function timeProblem(data: SiwxSession['data'], now: number): SiwxError | undefined {
  if (data.expirationTime !== undefined && Date.parse(data.expirationTime) <= now)
    return new SiwxError('Expired', `The sign-in expired at ${data.expirationTime}`)
  if (data.notBefore !== undefined && Date.parse(data.notBefore) > now)
    return new SiwxError('NotYetValid', `The sign-in is not valid before ${data.notBefore}`)
  return undefined
}

// Sessions may come from JSON anyone sent: read the namespace without trusting the shape.
function namespaceOf(session: SiwxSession): string {
  const chainId: unknown = session?.data?.chainId
  if (typeof session?.message !== 'string' || typeof chainId !== 'string') throw new SiwxError('InvalidMessage', 'Not a sign-in session')
  return chainId.split(':')[0] ?? ''
}
