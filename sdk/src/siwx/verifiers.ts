/**
 * Verifiers check a signed-in session before it is kept: one per CAIP-2 namespace, so a session of a
 * namespace nobody verifies is refused by name rather than trusted or crashed on.
 */
import type * as Caip from '@doorway/shared/Caip'
import { type Chain, type Client, createPublicClient, http, isHex, type Transport } from 'viem'
import { getChainId, verifyMessage } from 'viem/actions'
import type { SiwxSession } from '../types.js'
import { SiwxError } from './errors.js'
import { formatMessage } from './message.js'

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
      const namespace = namespaceOf(session)
      if (namespace !== 'eip155')
        throw new SiwxError('UnsupportedNamespace', `The eip155 verifier does not verify ${namespace || 'these'} sessions`)
      const { data, message, signature } = session
      if (formatMessage(data) !== message) throw new SiwxError('MessageMismatch', 'The message is not the text of its data')
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
