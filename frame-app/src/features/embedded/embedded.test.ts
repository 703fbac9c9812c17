import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import { createStore } from 'jotai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { embeddedId } from '../../core/connectors/Connector.js'
import { codeStepAtom, deviceApprovalTimeoutMs, emailStepAtom, leaveStepAtom, loginAtom, otherEmailAtom, resendLinkAtom } from './emailLogin.js'
import { approvalAtom, cancelApprovalAtom, restoreEmbeddedAtom, userOf } from './embedded.js'
import { exportKeyAtom } from './embeddedSession.js'
import * as Storage from '../../core/storage.js'
import { modalStateAtom } from '../../host/modalState.js'
import * as Requests from '../../host/requests.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { closeModalAtom, openAtom } from '../../core/modal.js'
import { historyAtom, popAtom, pushAtom, routeAtom } from '../../core/router.js'
import { toastAtom } from '../../core/toasts.js'
import { secureStatusAtom } from './secure.js'

// Storage (the stored connection) needs a cookie jar in Node, as in core/connection.test.ts.
await vi.hoisted(async () => {
  const { cookieJar } = await import('../../core/cookieJar.testing.js')
  vi.stubGlobal('document', cookieJar())
})
afterAll(() => vi.unstubAllGlobals())
afterEach(() => vi.useRealTimers())

const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const solanaAddress = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
type Handlers = Partial<Channel.Handlers<Protocol.SecureApi>>

/** A store whose secure frame is a real channel to `handlers` (the secure-site's side), over a MessageChannel. */
function setup(handlers: Handlers) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn() {}, debug() {} }
  const aborted: string[] = []
  const all = {
    status: () => ({ version: Protocol.version, origin: 'http://127.0.0.1:5175' }),
    restore: () => ({ account: null }),
    emailStep: () => ({ action: 'VERIFY_OTP' as const }),
    codeStep: () => ({ account: { email: 'ada@example.com', address, solanaAddress } }),
    awaitDevice: () => new Promise(() => {}),
    resendDevice: () => ({ expiresAt: Date.now() + 900_000 }),
    sign: () => ({ result: '0x' }),
    signOut: () => null,
    exportKey: () => null,
    ...handlers,
    abort: ({ op }: { op: string }) => (aborted.push(op), null),
  } as Channel.Handlers<Protocol.SecureApi>
  Channel.create<Protocol.SecureApi, Protocol.SecureClientApi>({ port: port1, log, accepts: Protocol.secureParams, expects: {}, handlers: all, expose })
  const channel = Channel.create<Protocol.SecureClientApi, Protocol.SecureApi>({ port: port2, log, accepts: {}, expects: Protocol.secureResults, handlers: {}, expose })
  const store = createStore()
  store.set(secureStatusAtom, { state: 'ready', origin: 'http://127.0.0.1:5175', channel })
  store.set(hostOriginAtom, 'http://localhost:5173')
  store.set(configAtom, { networks: [{ caipNetworkId: 'eip155:31337', name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrl: 'http://127.0.0.1:8545', testnet: true }] } as never)
  return { store, aborted }
}

/** The person on the code step, through the email step, as the views run them (EmailLogin.tsx). */
async function toCodeStep(store: ReturnType<typeof createStore>) {
  store.set(pushAtom, { view: 'EmailLogin' })
  await store.set(emailStepAtom, new AbortController().signal)
}
async function throughCodeStep(store: ReturnType<typeof createStore>) {
  await toCodeStep(store)
  await store.set(codeStepAtom, new AbortController().signal)
}

describe('email login', () => {
  test('behavior: the email step runs in the secure-site with the pinned host; a mailed code opens the code step', async () => {
    const emailStep = vi.fn((_: { op: string; host: string }) => ({ action: 'VERIFY_OTP' as const }))
    const { store } = setup({ emailStep })
    await toCodeStep(store)
    expect(emailStep.mock.calls[0]![0]).toMatchObject({ host: 'http://localhost:5173', op: expect.stringMatching(/^[0-9a-f]{32}$/) })
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailLogin' }, { view: 'EmailVerifyOtp' }])
  })

  test('behavior: the code step connects the embedded account (type AUTH, user email) and shows Account', async () => {
    const { store } = setup({})
    await throughCodeStep(store)
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    const account = store.get(accountAtom)!
    expect(account).toMatchObject({ address, chainId: 'eip155:31337' })
    expect(account.connector).toMatchObject({ type: 'AUTH', user: { email: 'ada@example.com' } })
    // A code names no provider: no name or picture beside the email.
    expect(userOf(account.connector)).toEqual({ email: 'ada@example.com' })
    expect(store.get(modalStateAtom).user).toEqual({ email: 'ada@example.com' })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })

  test('behavior: "Use another email" in the secure-site goes back to the email step; Escape there closes the modal', async () => {
    const { store } = setup({ codeStep: () => ({ action: 'otherEmail' as const }), emailStep: () => ({ action: 'VERIFY_OTP' as const }) })
    await throughCodeStep(store)
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailLogin' }])

    const closing = setup({ emailStep: () => ({ action: 'close' as const }) })
    closing.store.set(openAtom, true)
    await toCodeStep(closing.store)
    expect(closing.store.get(openAtom)).toBe(false)
    expect(closing.store.get(routeAtom)).toEqual({ view: 'Connect' })
  })

  test('behavior: leaving a step ends it in the secure-site, and its late answer moves nothing', async () => {
    let answer!: (value: { action: 'VERIFY_OTP' }) => void
    const { store, aborted } = setup({ emailStep: () => new Promise((resolve) => (answer = resolve)) })
    store.set(pushAtom, { view: 'EmailLogin' })
    const leaving = new AbortController()
    const step = store.set(emailStepAtom, leaving.signal)
    await vi.waitFor(() => expect(answer).toBeDefined())
    leaving.abort()
    store.set(popAtom)
    await step
    await vi.waitFor(() => expect(aborted).toHaveLength(1))
    answer({ action: 'VERIFY_OTP' })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
  })

  test('error: a step the secure-site fails says why in a toast and goes back a view', async () => {
    const { store } = setup({ codeStep: () => Promise.reject(new Errors.DoorwayError(emailText.expired)) })
    await throughCodeStep(store)
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: emailText.expired })
    expect(store.get(routeAtom)).toEqual({ view: 'EmailLogin' })
  })

  test("behavior: a returning device after a social sign-in reconnects with the provider's name and picture: the connection's user has both, the host's state the name", async () => {
    const profile = { username: 'Ada Lovelace', avatar: 'https://lh3.example/ada.png' }
    const { store } = setup({ restore: () => ({ account: { email: 'ada@example.com', address, solanaAddress, ...profile } }) })
    Storage.write('connection', { namespace: 'eip155', connectorId: embeddedId })
    await store.set(restoreEmbeddedAtom)
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    expect(userOf(store.get(accountAtom)!.connector)).toEqual({ email: 'ada@example.com', ...profile })
    expect(store.get(modalStateAtom).user).toEqual({ email: 'ada@example.com', username: 'Ada Lovelace' })
  })

  test('error: a returning device times out at 30 s, is aborted there, and connects nothing later (spec §7)', async () => {
    vi.useFakeTimers()
    const { store, aborted } = setup({ restore: () => new Promise(() => {}) })
    Storage.write('connection', { namespace: 'eip155', connectorId: embeddedId })
    const restoring = store.set(restoreEmbeddedAtom)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(aborted).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    await restoring
    await vi.waitFor(() => expect(aborted).toHaveLength(1))
    expect(store.get(accountAtom)).toBeNull()
  })
})

/** An approval the test settles: the ops the secure-site was asked to wait under, and its answer. */
function approval() {
  const ops: string[] = []
  let settle!: { approve: () => void; refuse: (error: Error) => void }
  const awaitDevice = vi.fn(({ op }: { op: string }) => {
    ops.push(op)
    return new Promise<{ account: Protocol.EmbeddedAccount }>((resolve, reject) => {
      settle = { approve: () => resolve({ account: { email: 'ada@example.com', address, solanaAddress } }), refuse: reject }
    })
  })
  return { ops, awaitDevice, settle: () => settle }
}

/** A store on the device step: email, code, then VERIFY_DEVICE from the secure-site. */
async function onDeviceStep(handlers: Handlers) {
  const secure = setup({ codeStep: () => ({ action: 'VERIFY_DEVICE' as const, email: 'ada@example.com' }), ...handlers })
  await throughCodeStep(secure.store)
  return secure
}

describe('device approval', () => {
  test('behavior: VERIFY_DEVICE puts the device step in place of the code step and waits for the approval', async () => {
    const { ops, awaitDevice } = approval()
    const before = Date.now()
    const { store } = await onDeviceStep({ awaitDevice })
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailLogin' }, { view: 'EmailVerifyDevice' }])
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    expect(ops[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(store.get(loginAtom)).toMatchObject({ email: 'ada@example.com', waiting: true, busy: null, error: null })
    expect(store.get(loginAtom).resendAt).toBeGreaterThanOrEqual(before + 30_000)
    expect(store.get(accountAtom)).toBeNull()
  })

  test('behavior: the approval connects the account and shows Account, as a verified code does', async () => {
    const { awaitDevice, settle } = approval()
    const { store } = await onDeviceStep({ awaitDevice })
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    settle().approve()
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    expect(store.get(accountAtom)!.connector).toMatchObject({ type: 'AUTH', user: { email: 'ada@example.com' } })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    expect(store.get(loginAtom)).toMatchObject({ waiting: false, email: '' })
  })

  test('param: the wait lasts the link\'s 15 minutes, not 30 s, then ends in the secure-site with its own message', async () => {
    vi.useFakeTimers()
    const { ops, awaitDevice } = approval()
    const start = Date.now()
    const { store, aborted } = await onDeviceStep({ awaitDevice })
    // vi.waitFor moves the fake clock too: the wait began between `start` and `called`.
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    const called = Date.now()
    await vi.advanceTimersByTimeAsync(start + deviceApprovalTimeoutMs - 1 - Date.now())
    expect(store.get(loginAtom)).toMatchObject({ waiting: true, error: null })
    await vi.advanceTimersByTimeAsync(called - start + 1)
    expect(store.get(loginAtom)).toMatchObject({ waiting: false, error: emailText.approvalTimedOut })
    await vi.waitFor(() => expect(aborted).toEqual([ops[0]]))
  })

  test('behavior: Resend link asks for a new link, says so and waits 30 s before the next', async () => {
    const resendDevice = vi.fn((_: { op: string }) => ({ expiresAt: Date.now() + 900_000 }))
    const { store } = await onDeviceStep({ resendDevice })
    const before = Date.now()
    await store.set(resendLinkAtom)
    expect(resendDevice).toHaveBeenCalledOnce()
    expect(store.get(loginAtom)).toMatchObject({ notice: emailText.linkResent, busy: null, waiting: true })
    expect(store.get(loginAtom).resendAt).toBeGreaterThanOrEqual(before + 30_000)
  })

  test("error: the secure-site's throttle on links is shown as it is, and the wait goes on", async () => {
    const message = format(emailText.approvalThrottled, { n: 120 })
    const { store } = await onDeviceStep({ resendDevice: () => Promise.reject(new Errors.DoorwayError(message)) })
    await store.set(resendLinkAtom)
    expect(store.get(loginAtom)).toMatchObject({ error: message, busy: null, notice: null, waiting: true })
  })

  test('error: a denied approval is shown; a new link starts the wait again', async () => {
    const { ops, awaitDevice, settle } = approval()
    const { store } = await onDeviceStep({ awaitDevice })
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    settle().refuse(new Errors.DoorwayError(emailText.approvalDenied))
    await vi.waitFor(() => expect(store.get(loginAtom)).toMatchObject({ error: emailText.approvalDenied, waiting: false }))
    expect(store.get(routeAtom)).toEqual({ view: 'EmailVerifyDevice' })
    await store.set(resendLinkAtom)
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledTimes(2))
    expect(ops[1]).not.toBe(ops[0])
    expect(store.get(loginAtom)).toMatchObject({ waiting: true, error: null, notice: emailText.linkResent })
  })

  test('behavior: "Use another email" ends the wait in the secure-site and returns to the email step', async () => {
    const { ops, awaitDevice } = approval()
    const { store, aborted } = await onDeviceStep({ awaitDevice })
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    store.set(otherEmailAtom)
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailLogin' }])
    expect(store.get(loginAtom)).toMatchObject({ waiting: false, error: null })
    await vi.waitFor(() => expect(aborted).toEqual([ops[0]]))
  })

  test('behavior: closing the modal ends the wait (the view leaves), and an approval landing after that connects nothing', async () => {
    const { ops, awaitDevice, settle } = approval()
    const { store, aborted } = await onDeviceStep({ awaitDevice })
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledOnce())
    store.set(openAtom, true)
    store.set(closeModalAtom)
    expect(store.get(routeAtom)).toEqual({ view: 'Connect' })
    settle().approve()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(store.get(accountAtom)).toBeNull()
    expect(store.get(openAtom)).toBe(false)

    // What the view does when it goes away: the secure-site is told to stop waiting.
    await throughCodeStep(store)
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledTimes(2))
    store.set(leaveStepAtom)
    await vi.waitFor(() => expect(aborted).toEqual([ops[1]]))
    expect(store.get(loginAtom).waiting).toBe(false)
  })

  test('behavior: a VERIFY_DEVICE answer after the person left the code step starts no wait', async () => {
    const { awaitDevice } = approval()
    const { store } = setup({ codeStep: () => ({ action: 'VERIFY_DEVICE' as const, email: 'ada@example.com' }), awaitDevice })
    await store.set(codeStepAtom, new AbortController().signal)
    expect(store.get(routeAtom)).toEqual({ view: 'Connect' })
    expect(awaitDevice).not.toHaveBeenCalled()
  })
})

/** A connected store (CONNECT_OTP done) whose secure-site signs with `sign`. */
async function connected(sign: Handlers['sign']) {
  const secure = setup({ sign })
  await throughCodeStep(secure.store)
  await vi.waitFor(() => expect(secure.store.get(accountAtom)).not.toBeNull())
  return secure
}

describe('approval', () => {
  test('behavior: an unsafe request from the dapp opens ApproveTransaction; on success the modal closes again and the balance is read (spec §4)', async () => {
    const { store } = await connected(() => ({ result: '0x1234' }))
    store.set(openAtom, false)
    const request = Requests.create(store)({ method: 'personal_sign', params: ['0x00', address] })
    expect(store.get(routeAtom)).toMatchObject({ view: 'ApproveTransaction' })
    expect(store.get(openAtom)).toBe(true)
    expect(await request).toBe('0x1234')
    expect(store.get(openAtom)).toBe(false)
    expect(store.get(balanceRefreshAtom)).toBe(1)
  })

  test('behavior: opened over Account, the approval is popped on success and on error (spec §4)', async () => {
    let answer: () => unknown = () => ({ result: '0x1234' })
    const { store } = await connected(() => answer() as never)
    store.set(openAtom, true)
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    await store.get(accountAtom)!.connector.request({ method: 'personal_sign', params: ['0x00', address] })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    answer = () => Promise.reject(Errors.userRejected())
    await expect(store.get(accountAtom)!.connector.request({ method: 'personal_sign', params: ['0x00', address] })).rejects.toMatchObject({ code: 4001 })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
    expect(store.get(openAtom)).toBe(true)
  })

  test('error: an unknown method is refused at once and its error toast comes 300 ms later (spec §4)', async () => {
    const { store } = await connected(() => ({ result: '0x' }))
    vi.useFakeTimers()
    await expect(store.get(accountAtom)!.connector.request({ method: 'eth_sign', params: [] })).rejects.toMatchObject({ code: Errors.codes.unsupportedMethod })
    await vi.advanceTimersByTimeAsync(299)
    expect(store.get(toastAtom).toast).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(store.get(toastAtom).toast).toMatchObject({ variant: 'error', message: 'Action not allowed: eth_sign' })
  })

  test('error: leaving the approval rejects with 4001 and aborts the request in the secure-site', async () => {
    let started!: () => void
    const signing = new Promise<void>((resolve) => (started = resolve))
    const { store, aborted } = setup({ sign: () => (started(), new Promise(() => {})) })
    await throughCodeStep(store)
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    const request = store.get(accountAtom)!.connector.request({ method: 'personal_sign', params: ['0x00', address] })
    await signing
    expect(store.get(routeAtom)).toMatchObject({ view: 'ApproveTransaction' })
    const { op } = store.get(approvalAtom)!
    store.set(cancelApprovalAtom, op)
    await expect(request).rejects.toMatchObject({ code: Errors.codes.userRejected })
    await vi.waitFor(() => expect(aborted).toContain(op))
    expect(store.get(approvalAtom)).toBeNull()
  })
})

describe('key export', () => {
  test('behavior: the secure-site runs the export with the pinned host; when it is done the view is popped', async () => {
    const exportKey = vi.fn((_params: { op: string; host: string }) => null)
    const { store } = setup({ exportKey })
    await throughCodeStep(store)
    store.set(pushAtom, { view: 'ExportWallet' })
    await store.set(exportKeyAtom, new AbortController().signal)
    expect(exportKey.mock.calls[0]![0]).toMatchObject({ host: 'http://localhost:5173' })
    expect(store.get(routeAtom)).toMatchObject({ view: 'Account' })
  })

  test('behavior: leaving the view ends the export in the secure-site', async () => {
    let started!: () => void
    const exporting = new Promise<void>((resolve) => (started = resolve))
    const { store, aborted } = setup({ exportKey: () => (started(), new Promise(() => {})) })
    store.set(pushAtom, { view: 'ExportWallet' })
    const leaving = new AbortController()
    const run = store.set(exportKeyAtom, leaving.signal)
    await exporting
    leaving.abort()
    await run
    await vi.waitFor(() => expect(aborted).toHaveLength(1))
  })
})
