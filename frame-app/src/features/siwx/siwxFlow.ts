/**
 * The sign-in steps (spec §4 Sign-in (SIWX), §8, issue 13). The dapp's functions stay on the host page:
 * each is called by name through the host channel, its answer checked here, and cut by a timeout.
 * AppKit's older `siweConfig` is adapted here to the same three steps (session, message, keep), so the
 * host script carries none of it.
 */
import * as Caip from '@doorway/shared/Caip'
import * as Constants from '@doorway/shared/Constants'
import * as Errors from '@doorway/shared/Errors'
import { errors } from '@doorway/shared/Texts'
import { siwxText } from '@doorway/shared/texts/siwx'
import * as Protocol from '@doorway/shared/Protocol'
import * as S from '@doorway/shared/Schema'
import { atom, type Getter, type Setter } from 'jotai'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { type Account, accountAtom, disconnectAtom, toProtocol } from '../../core/connection.js'
import { hostAtom, notifyAtom } from '../../core/host.js'
import { closeModalAtom, openAtom } from '../../core/modal.js'
import * as Namespaces from '../namespaces/registry.js'
import { resetAtom } from '../../core/router.js'
import { type Session, sessionAtom, signInAtom, signViewAtom } from './siwx.js'
import { showToastAtom } from '../../core/toasts.js'

/** The dapp's functions answer in this time or sign-in fails (spec §8 init message); signing waits on a person. */
export const callTimeoutMs = Constants.embeddedRequestTimeoutMs
export const signTimeoutMs = 300_000

const session = S.object({
  data: Protocol.siwxData,
  message: S.string({ max: 8192 }),
  signature: S.string({ max: 65_536 }),
  // AppKit's sessions may carry a CACAO; it stays the dapp's.
  cacao: S.optional(S.unknown),
})
const siwxMessage = S.object({ data: Protocol.siwxData, message: S.string({ min: 1, max: 8192 }) })
const siweSession = S.union(S.literal(null), S.object({ address: S.string({ max: 128 }), chainId: S.number }))
const siweParams = S.union(
  S.literal(null),
  S.object({
    domain: S.optional(S.string({ min: 1, max: 256 })),
    uri: S.optional(S.string({ min: 1, max: 2048 })),
    statement: S.optional(S.string({ max: 2048 })),
    resources: S.optional(S.array(S.string({ max: 2048 }), 32)),
    expiry: S.optional(S.number),
    chains: S.optional(S.array(S.number, 64)),
  }),
)

class InvalidAnswer extends Error {}

/** One call of a dapp function on the host, its answer checked. */
async function call<T>(get: Getter, fn: Protocol.SiwxFunction, args: unknown[], check: S.Schema<T>, timeoutMs = callTimeoutMs): Promise<T> {
  const { host } = get(hostAtom)
  if (!host) throw Errors.notInitialized()
  const answer = await host.call('siwx', { fn, args }, { timeoutMs })
  if (!check(answer)) throw new InvalidAnswer(`siwx.${fn} answered something else than expected`)
  return answer
}

/** The three steps, whichever shape the dapp gave. */
type Adapter = {
  session(account: Account): Promise<Session | null>
  required(): Promise<boolean>
  message(account: Account): Promise<{ data: Protocol.SiwxData; message: string }>
  keep(session: Session): Promise<void>
  signOut(): Promise<void>
}

function adapter(get: Getter): Adapter {
  const config = get(configAtom)
  if (!config?.siwx) throw new Error(errors.siwxNotEnabled)
  return config.siwx.siwe ? siwe(get, config.siwx.required) : siwx(get)
}

const siwx = (get: Getter): Adapter => ({
  async session(account) {
    const sessions = await call(get, 'getSessions', [account.chainId, account.address], S.array(session, 64))
    return sessions.find((s) => same(s.data.accountAddress, account.address) && s.data.chainId === account.chainId) ?? null
  },
  required: () => call(get, 'getRequired', [], S.union(S.boolean, S.literal(null))).then(Boolean),
  async message(account) {
    const input = { accountAddress: account.address, chainId: account.chainId }
    const message = await call(get, 'createMessage', [input], siwxMessage)
    // The dapp must not make the person sign for another account or chain.
    if (!same(message.data.accountAddress, account.address) || message.data.chainId !== account.chainId)
      throw new InvalidAnswer('siwx.createMessage made a message for another account or chain')
    return message
  },
  keep: (s) => call(get, 'addSession', [s], S.literal(null)).then(() => {}),
  signOut: () => call(get, 'setSessions', [[]], S.literal(null)).then(() => {}),
})

/** AppKit's SIWE config: one session per dapp, its own message text, its own verification. */
const siwe = (get: Getter, required: boolean): Adapter => ({
  async session(account) {
    const current = await call(get, 'getSession', [], siweSession)
    if (!current || !same(current.address, account.address) || `eip155:${current.chainId}` !== account.chainId) return null
    return { data: dataFor(get, account, '-'), message: '', signature: '' }
  },
  required: async () => required,
  async message(account) {
    const params = (await call(get, 'getMessageParams', [], siweParams)) ?? {}
    const nonce = await call(get, 'getNonce', [account.address], S.string({ min: 1, max: 256 }))
    const data: Protocol.SiwxData = {
      ...dataFor(get, account, nonce),
      ...(params.domain && { domain: params.domain }),
      ...(params.uri && { uri: params.uri }),
      ...(params.statement && { statement: params.statement }),
      ...(params.resources && { resources: params.resources }),
      ...(params.expiry && { expirationTime: new Date(Date.now() + params.expiry * 1000).toISOString() }),
    }
    // AppKit passes the CAIP-10 address and the chain number.
    const args = { ...data, address: `${account.chainId}:${account.address}`, chainId: Number(Caip.parseChainId(account.chainId).reference), iat: data.issuedAt }
    return { data, message: await call(get, 'createMessage', [args], S.string({ min: 1, max: 8192 })) }
  },
  async keep({ message, signature }) {
    if (!(await call(get, 'verifyMessage', [{ message, signature }], S.boolean))) throw new InvalidAnswer('siweConfig.verifyMessage refused the signature')
    await call(get, 'onSignIn', [(await call(get, 'getSession', [], siweSession)) ?? undefined], S.unknown)
  },
  async signOut() {
    await call(get, 'signOut', [], S.unknown)
    await call(get, 'onSignOut', [], S.unknown)
  },
})

function dataFor(get: Getter, account: Account, nonce: string): Protocol.SiwxData {
  // The pinned host origin (docs/architecture.md §4), never a name the page claims.
  const origin = get(hostOriginAtom) ?? location.origin
  return { accountAddress: account.address, chainId: account.chainId, domain: new URL(origin).host, uri: origin, version: '1', nonce, issuedAt: new Date().toISOString() }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * Is there a session for the connected account? Yes: a connection made now goes on to the account
 * (open() settles with the session). No: the person is asked, and a restored connection opens the
 * modal to ask.
 */
export const checkAtom = atom(null, async (get, set, { restored }: { restored: boolean }) => {
  const account = get(accountAtom)
  if (!account) return
  try {
    const flow = adapter(get)
    const [found, required] = await Promise.all([flow.session(account), flow.required()])
    if (get(accountAtom) !== account) return
    if (found) {
      set(sessionAtom, found)
      set(signInAtom, { step: 'idle' })
      if (restored) return
      settle(set, account, found)
      return set(resetAtom, { view: 'Account' })
    }
    set(signInAtom, { step: 'ready', required })
    if (!restored) return
    set(resetAtom, { view: get(signViewAtom) })
    set(openAtom, true)
    set(notifyAtom, { type: 'show' })
  } catch (error) {
    await set(initFailedAtom, error)
  }
})

/**
 * The person chose to sign: the dapp makes the message, the wallet (or the dapp's own signMessage)
 * signs it, the dapp keeps the session; then the modal closes (spec §4). A declined signature asks
 * again with 'Signature declined' (spec §8).
 */
export const signAtom = atom(null, async (get, set) => {
  const state = get(signInAtom)
  if (state.step !== 'ready') return
  const { required } = state
  const config = get(configAtom)
  const account = get(accountAtom)
  const fail = (error: string) => set(signInAtom, { step: 'ready', required, error })
  // spec §8 sign-in errors, where they apply
  if (!config?.siwx) return fail(errors.siwxNotEnabled)
  if (!account) return fail(errors.noActiveCaipAddress)
  if (!config.networks.some((n) => n.caipNetworkId === account.chainId)) return fail(errors.noActiveCaipNetwork)
  set(signInAtom, { step: 'signing', required })
  const flow = adapter(get)
  let message: Awaited<ReturnType<Adapter['message']>>
  try {
    message = await flow.message(account)
  } catch (error) {
    return set(initFailedAtom, error)
  }
  let signature: string
  try {
    signature = await sign(get, account, message.message)
  } catch (error) {
    if (get(accountAtom) !== account) return
    // spec §8: 'Signature declined', or the smart-account text for smart accounts.
    const declined = (error as Errors.DoorwayError).code === Errors.codes.userRejected
    return fail(declined ? (account.connector.accountType === 'smartAccount' ? errors.smartAccountsNotSupported : errors.signatureDeclined) : siwxText.signFailed)
  }
  const signed: Session = { ...message, signature }
  try {
    await flow.keep(signed)
  } catch {
    return fail(siwxText.notAccepted)
  }
  if (get(accountAtom) !== account) return
  set(sessionAtom, signed)
  set(signInAtom, { step: 'idle' })
  settle(set, account, signed)
  set(resetAtom, { view: 'Account' })
  set(closeModalAtom)
})

/** The dapp's own signMessage when it gave one; otherwise the wallet, in its namespace's format (features/namespaces). */
async function sign(get: Getter, account: Account, message: string): Promise<string> {
  if (get(configAtom)?.siwx?.signMessage) {
    const args = { message, chainId: account.chainId, accountAddress: account.address }
    return call(get, 'signMessage', [args], S.string({ min: 1, max: 65_536 }), signTimeoutMs)
  }
  const runtime = await Namespaces.of(account.chainId).load()
  return runtime.signIn(account, message)
}

/** spec §4: cancelling disconnects when sign-in is required, otherwise closes (connected, without a session). */
export const cancelAtom = atom(null, async (get, set) => {
  const state = get(signInAtom)
  const account = get(accountAtom)
  if (state.step === 'idle') return
  set(signInAtom, { step: 'idle' })
  if (state.required || !account) {
    set(resetAtom, { view: 'Connect' })
    return set(disconnectAtom)
  }
  settle(set, account)
  set(resetAtom, { view: 'Account' })
  set(closeModalAtom)
})

/** spec §8: sign-in could not start: the message, a disconnect, and back to Connect. */
export const initFailedAtom = atom(null, async (get, set, error: unknown) => {
  get(hostAtom).warn('sign-in failed to start', error)
  set(signInAtom, { step: 'idle' })
  set(showToastAtom, { variant: 'error', message: errors.authenticationInitFailed })
  set(resetAtom, { view: 'Connect' })
  await set(disconnectAtom)
})

/** The dapp forgets its sessions (signOutOnDisconnect); a failure is logged, the disconnect stands. */
export const signOutAtom = atom(null, async (get) => {
  await adapter(get).signOut().catch(get(hostAtom).warn)
})

/** open() settles with the connection, and the session when there is one. */
function settle(set: Setter, account: Account, found?: Session) {
  const result = { status: 'connected' as const, ...toProtocol(account), ...(found && { session: { data: found.data, message: found.message, signature: found.signature } }) }
  set(notifyAtom, { type: 'result', result })
}
