import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import * as Protocol from '@doorway/shared/Protocol'
import type * as S from '@doorway/shared/Schema'
import { alerts } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import { secureSocialText } from '@doorway/shared/texts/social'
import { expose } from 'comlink'
import { createStore } from 'jotai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { alertAtom } from '../../core/alerts.js'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { openAtom } from '../../core/modal.js'
import { toastAtom } from '../../core/toasts.js'
import { historyAtom, resetAtom, routeAtom } from '../../core/router.js'
import { loginAtom } from './emailLogin.js'
import { secureStatusAtom } from './secure.js'
import { chooseSocialAtom, closedPollMs, leaveSocialAtom, type Popup, resumeSocialAtom, retrySocialAtom, socialAtom, socialRow } from './socialLogin.js'

// Storage (the stored connection) needs a cookie jar in Node, as in core/connection.test.ts.
await vi.hoisted(async () => {
  const { cookieJar } = await import('../../core/cookieJar.testing.js')
  vi.stubGlobal('document', cookieJar())
})
afterAll(() => vi.unstubAllGlobals())
afterEach(() => vi.useRealTimers())

const secureOrigin = 'http://127.0.0.1:5175'
const flowUrl = `${secureOrigin}/oauth/start?flow=${'a'.repeat(32)}`
const account = { email: 'ada@example.com', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', solanaAddress: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' }
type Redeemed = S.Infer<typeof Protocol.secureResults.socialRedeem>
type Handlers = Partial<Channel.Handlers<Protocol.SecureApi>>

/**
 * A store on Connect whose secure frame is a real channel to `handlers` (the secure-site's side), over a
 * MessageChannel; what it was asked is recorded: the ops aborted, the cancels, the starts and redeems.
 */
function setup(handlers: Handlers = {}) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn() {}, debug() {} }
  const calls = { aborted: [] as string[], cancels: 0, starts: [] as Protocol.SecureParams['socialStart'][], redeems: [] as string[] }
  const all = {
    status: () => ({ version: Protocol.version, origin: secureOrigin }),
    awaitDevice: () => new Promise(() => {}),
    ...handlers,
    socialStart: (params: Protocol.SecureParams['socialStart']) => (calls.starts.push(params), handlers.socialStart ? handlers.socialStart(params) : { url: flowUrl }),
    socialRedeem: (params: Protocol.SecureParams['socialRedeem']) => (calls.redeems.push(params.op), handlers.socialRedeem!(params)),
    socialCancel: () => (calls.cancels++, null),
    abort: ({ op }: { op: string }) => (calls.aborted.push(op), null),
  } as Channel.Handlers<Protocol.SecureApi>
  Channel.create<Protocol.SecureApi, Protocol.SecureClientApi>({ port: port1, log, accepts: Protocol.secureParams, expects: {}, handlers: all, expose })
  const channel = Channel.create<Protocol.SecureClientApi, Protocol.SecureApi>({ port: port2, log, accepts: {}, expects: Protocol.secureResults, handlers: {}, expose })
  const store = createStore()
  store.set(secureStatusAtom, { state: 'ready', origin: secureOrigin, channel })
  store.set(hostOriginAtom, 'http://localhost:5173')
  store.set(configAtom, { networks: [{ caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrl: 'http://127.0.0.1:8545', testnet: true }] } as never)
  return { store, calls }
}

/** The sign-in window as the flow sees it: where it was sent, and whether it is (or reads) closed. */
function popup() {
  const window = { closed: false, closes: 0, location: { href: 'about:blank' }, close: () => ((window.closed = true), window.closes++) }
  return window satisfies Popup
}

/** Redeems the test answers one by one: each call waits for its `answer`. */
function redeems() {
  const waiting: ((answer: Redeemed | Error) => void)[] = []
  const socialRedeem = () => new Promise<Redeemed>((resolve, reject) => waiting.push((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))))
  /** Answers the `n`th redeem (from 1), once it was asked. */
  const answer = async (n: number, value: Redeemed | Error) => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThanOrEqual(n))
    waiting[n - 1]!(value)
  }
  return { socialRedeem, answer, asked: () => waiting.length }
}
const pending = { state: 'pending' as const }

describe('socialRow', () => {
  test.each([
    [['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'], 'google', ['x', 'discord', 'farcaster'], ['github', 'apple', 'facebook']],
    [['farcaster', 'github'], 'farcaster', ['github'], []],
    [['apple', 'google', 'x'], 'apple', ['google', 'x'], []],
    [[], undefined, [], []],
  ] as const)('behavior: %j → the wide %s, icons %j, behind More %j', (socials, first, icons, more) => {
    expect(socialRow(socials)).toEqual({ first, icons, more })
  })
})

describe('social sign-in', () => {
  test('behavior: the window goes to the secure-site\'s start page; pending, then done connects the account and shows Account', async () => {
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem })
    const window = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: window })
    expect(store.get(routeAtom)).toEqual({ view: 'ConnectingSocial', provider: 'google' })
    expect(store.get(socialAtom)).toEqual({ provider: 'google', phase: 'waiting', error: null })
    await answer(1, pending)
    expect(window.location.href).toBe(flowUrl)
    expect(calls.starts).toEqual([{ op: expect.stringMatching(/^[0-9a-f]{32}$/), provider: 'google', host: 'http://localhost:5173' }])
    await answer(2, { account: { ...account, username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' } })
    await flow
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    // The provider's name and picture come with the account: Account shows them beside the email.
    expect(store.get(accountAtom)!.connector).toMatchObject({ type: 'AUTH', user: { email: account.email, username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' } })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    expect(calls.redeems).toHaveLength(2)
    expect(new Set(calls.redeems).size).toBe(2)
    // Redeemed: nothing is left to cancel, and leaving what follows ends nothing.
    store.set(leaveSocialAtom)
    expect(calls.cancels).toBe(0)
    expect(window.closes).toBe(1)
  })

  test('behavior: VERIFY_DEVICE goes to the device step with the email, in place of ConnectingSocial, and the wait starts', async () => {
    const awaitDevice = vi.fn(() => new Promise<never>(() => {}))
    const { store } = setup({ socialRedeem: () => ({ action: 'VERIFY_DEVICE' as const, email: account.email }), awaitDevice })
    await store.set(chooseSocialAtom, { provider: 'github', popup: popup() })
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailVerifyDevice' }])
    expect(store.get(loginAtom)).toMatchObject({ email: account.email, waiting: true })
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    expect(store.get(accountAtom)).toBeNull()
  })

  test('behavior: Farcaster opens no window: ConnectingFarcaster gets the connect URI for its QR code, and an account that is no one\'s goes on to add an email', async () => {
    const connectUri = 'https://farcaster.xyz/~/siwf?channelToken=abc'
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem, socialStart: () => ({ url: connectUri }) })
    const flow = store.set(chooseSocialAtom, { provider: 'farcaster', popup: 'qr' })
    expect(store.get(routeAtom)).toEqual({ view: 'ConnectingFarcaster' })
    await answer(1, pending)
    expect(store.get(socialAtom)).toEqual({ provider: 'farcaster', phase: 'waiting', error: null, url: connectUri })
    expect(calls.starts).toEqual([{ op: expect.any(String), provider: 'farcaster', host: 'http://localhost:5173' }])
    await answer(2, { action: 'ADD_EMAIL' })
    await flow
    // In place of ConnectingFarcaster: back from the email step is Connect. Nothing is left to cancel.
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailLogin' }])
    expect(calls.cancels).toBe(0)
  })

  test('behavior: back from a redirect (result_uri), the modal opens on ConnectingSocial and redeems the kept flow', async () => {
    const resumed: string[] = []
    const { store } = setup({ socialResume: ({ flowId }: { flowId: string }) => (resumed.push(flowId), { provider: 'github' as const }), socialRedeem: () => ({ account }) })
    const flowId = 'c'.repeat(32)
    await store.set(resumeSocialAtom, flowId)
    expect(resumed).toEqual([flowId])
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    expect(store.get(openAtom)).toBe(true)
  })

  test('error: back from a redirect the device did not keep: Connect, open, with the reason in a toast', async () => {
    const { store } = setup({
      socialResume: () => {
        throw new Errors.DoorwayError('This sign-in expired or was cancelled: start again')
      },
    })
    await store.set(resumeSocialAtom, 'c'.repeat(32))
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
    expect(store.get(openAtom)).toBe(true)
    expect(store.get(toastAtom).toast).toMatchObject({ message: 'This sign-in expired or was cancelled: start again', variant: 'error' })
  })

  test('behavior: the window closed while pending gets one more redeem; still pending, the flow is cancelled and the view says so', async () => {
    const { socialRedeem, answer, asked } = redeems()
    const { store, calls } = setup({ socialRedeem })
    const window = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: window })
    await vi.waitFor(() => expect(asked()).toBe(1))
    window.closed = true
    await vi.waitFor(() => expect(store.get(socialAtom)?.phase).toBe('checking'), { timeout: closedPollMs * 4 })
    // The redeem in flight began before the window was seen closed: its pending is not the last word.
    await answer(1, pending)
    await answer(2, pending)
    await flow
    expect(asked()).toBe(2)
    expect(store.get(socialAtom)).toEqual({ provider: 'google', phase: 'closed', error: null })
    expect(store.get(routeAtom)).toEqual({ view: 'ConnectingSocial', provider: 'google' })
    await vi.waitFor(() => expect(calls.cancels).toBe(1))
  })

  test('behavior: a window that reads closed early (a provider page with COOP) still connects when the last redeem finds the sign-in done', async () => {
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem })
    const window = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: window })
    await vi.waitFor(() => expect(window.location.href).toBe(flowUrl))
    window.closed = true
    await vi.waitFor(() => expect(store.get(socialAtom)?.phase).toBe('checking'), { timeout: closedPollMs * 4 })
    await answer(1, pending)
    await answer(2, { account })
    await flow
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    expect(calls.cancels).toBe(0)
  })

  test('error: a start that does not answer in 30 s raises the socials timeout alert, ends the flow and leaves the person on Connect (spec §7, §8)', async () => {
    vi.useFakeTimers()
    const { store, calls } = setup({ socialStart: () => new Promise(() => {}), socialRedeem: () => pending })
    const window = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: window })
    await vi.waitFor(() => expect(calls.starts).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(29_000)
    expect(store.get(alertAtom)).toBeNull()
    await vi.advanceTimersByTimeAsync(1_000)
    await flow
    expect(store.get(alertAtom)).toEqual({ key: 'socialsTimeout', ...alerts.socialsTimeout })
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
    expect(window.closes).toBe(1)
    await vi.waitFor(() => expect(calls.aborted).toEqual([calls.starts[0]!.op]))
    await vi.waitFor(() => expect(calls.cancels).toBe(1))
    expect(calls.redeems).toEqual([])
  })

  test('behavior: a click while the secure frame still loads waits for it, within the same 30 s', async () => {
    vi.useFakeTimers()
    const { store, calls } = setup({ socialRedeem: () => new Promise(() => {}) })
    const ready = store.get(secureStatusAtom)
    store.set(secureStatusAtom, { state: 'loading' })
    const window = popup()
    void store.set(chooseSocialAtom, { provider: 'google', popup: window })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(calls.starts).toEqual([])
    store.set(secureStatusAtom, ready)
    await vi.waitFor(() => expect(window.location.href).toBe(flowUrl))
    expect(store.get(alertAtom)).toBeNull()

    // A frame that never loads: the socials timeout alert at 30 s, as for a start that does not answer.
    const stuck = setup()
    stuck.store.set(secureStatusAtom, { state: 'loading' })
    const flow = stuck.store.set(chooseSocialAtom, { provider: 'google', popup: popup() })
    await vi.advanceTimersByTimeAsync(29_900)
    expect(stuck.store.get(alertAtom)).toBeNull()
    await vi.advanceTimersByTimeAsync(200)
    await flow
    expect(stuck.store.get(alertAtom)).toMatchObject({ key: 'socialsTimeout' })
    expect(stuck.store.get(routeAtom)).toEqual({ view: 'Connect' })
  })

  test('error: a refusal shows the secure-site\'s message and closes the window; Try again starts a new flow in a new window', async () => {
    const message = 'You did not allow the app to use your Google account'
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem })
    const first = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: first })
    await answer(1, new Errors.DoorwayError(message))
    await flow
    expect(store.get(socialAtom)).toEqual({ provider: 'google', phase: 'failed', error: message })
    expect(first.closes).toBe(1)
    await vi.waitFor(() => expect(calls.cancels).toBe(1))

    const second = popup()
    const again = store.set(retrySocialAtom, second)
    expect(store.get(socialAtom)).toEqual({ provider: 'google', phase: 'waiting', error: null })
    await answer(2, { account })
    await again
    expect(calls.starts).toHaveLength(2)
    expect(second.location.href).toBe(flowUrl)
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })

  test('error: a redeem the secure-site does not answer in 30 s says so in the view', async () => {
    vi.useFakeTimers()
    const { store, calls } = setup({ socialRedeem: () => new Promise(() => {}) })
    const flow = store.set(chooseSocialAtom, { provider: 'x', popup: popup() })
    await vi.waitFor(() => expect(calls.redeems).toHaveLength(1))
    await vi.advanceTimersByTimeAsync(30_000)
    await flow
    expect(store.get(socialAtom)).toEqual({ provider: 'x', phase: 'failed', error: emailText.timedOut })
    await vi.waitFor(() => expect(calls.aborted).toEqual(calls.redeems))
  })

  test('behavior: leaving the view aborts the redeem there, cancels the flow and closes the window; a late answer connects nothing', async () => {
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem })
    const window = popup()
    const flow = store.set(chooseSocialAtom, { provider: 'discord', popup: window })
    await vi.waitFor(() => expect(calls.redeems).toHaveLength(1))
    store.set(leaveSocialAtom)
    expect(window.closes).toBe(1)
    expect(store.get(socialAtom)).toBeNull()
    await vi.waitFor(() => expect(calls.aborted).toEqual(calls.redeems))
    await vi.waitFor(() => expect(calls.cancels).toBe(1))
    await answer(1, { account })
    await flow
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(store.get(routeAtom)).toEqual({ view: 'ConnectingSocial', provider: 'discord' })
    expect(store.get(accountAtom)).toBeNull()
    expect(calls.redeems).toHaveLength(1)
  })

  test('behavior: an answer that lands once the view is gone, before the view ended the flow, connects nothing', async () => {
    const { socialRedeem, answer, asked } = redeems()
    const { store } = setup({ socialRedeem })
    const flow = store.set(chooseSocialAtom, { provider: 'google', popup: popup() })
    await answer(1, pending)
    await vi.waitFor(() => expect(asked()).toBe(2))
    store.set(resetAtom, { view: 'Connect' })
    await answer(2, { account })
    await flow
    expect(store.get(routeAtom)).toEqual({ view: 'Connect' })
    expect(store.get(accountAtom)).toBeNull()
  })

  test('behavior: a blocked window shows the blocked state and asks nothing; Continue opens one and proceeds', async () => {
    const { socialRedeem, answer } = redeems()
    const { store, calls } = setup({ socialRedeem })
    await store.set(chooseSocialAtom, { provider: 'apple', popup: null })
    expect(store.get(socialAtom)).toEqual({ provider: 'apple', phase: 'blocked', error: null })
    expect(store.get(routeAtom)).toEqual({ view: 'ConnectingSocial', provider: 'apple' })
    expect(calls.starts).toEqual([])

    const window = popup()
    const flow = store.set(retrySocialAtom, window)
    await answer(1, { account })
    await flow
    expect(calls.starts).toMatchObject([{ provider: 'apple' }])
    expect(window.location.href).toBe(flowUrl)
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })

  test('security: a start address off the secure origin is refused: the window goes nowhere, closes, and the flow is cancelled', async () => {
    const { store, calls } = setup({ socialStart: () => ({ url: 'http://evil.test/oauth/start?flow=1' }), socialRedeem: () => pending })
    const window = popup()
    await store.set(chooseSocialAtom, { provider: 'facebook', popup: window })
    expect(window.location.href).toBe('about:blank')
    expect(window.closes).toBe(1)
    expect(store.get(socialAtom)).toEqual({ provider: 'facebook', phase: 'failed', error: secureSocialText.unsafeStart })
    await vi.waitFor(() => expect(calls.cancels).toBe(1))
    expect(calls.redeems).toEqual([])
  })
})
