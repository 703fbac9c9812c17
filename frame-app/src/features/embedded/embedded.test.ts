import * as Channel from '@doorway/shared/Channel'
import * as Errors from '@doorway/shared/Errors'
import { errors, format } from '@doorway/shared/Texts'
import { emailText } from '@doorway/shared/texts/email'
import * as Protocol from '@doorway/shared/Protocol'
import { expose } from 'comlink'
import { createStore } from 'jotai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { configAtom, hostOriginAtom } from '../../core/config.js'
import { accountAtom } from '../../core/connection.js'
import { embeddedId } from '../../core/connectors/Connector.js'
import { deviceApprovalTimeoutMs, leaveStepAtom, loginAtom, otherEmailAtom, resendLinkAtom, submitCodeAtom, submitEmailAtom } from './emailLogin.js'
import { approvalAtom, cancelApprovalAtom, restoreEmbeddedAtom } from './embedded.js'
import { exportKeyAtom } from './embeddedSession.js'
import * as Storage from '../../core/storage.js'
import * as Requests from '../../host/requests.js'
import { balanceRefreshAtom } from '../balances/balance.js'
import { closeModalAtom, openAtom } from '../../core/modal.js'
import { historyAtom, pushAtom, routeAtom } from '../../core/router.js'
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
type Handlers = Partial<Channel.Handlers<Protocol.SecureApi>>

/** A store whose secure frame is a real channel to `handlers` (the secure-site's side), over a MessageChannel. */
function setup(handlers: Handlers) {
  const { port1, port2 } = new MessageChannel()
  const log = { warn() {}, debug() {} }
  const aborted: string[] = []
  const all = {
    status: () => ({ version: Protocol.version, origin: 'http://127.0.0.1:5175' }),
    restore: () => ({ account: null }),
    connectEmail: () => ({ action: 'VERIFY_OTP' as const }),
    connectOtp: () => ({ account: { email: 'ada@example.com', address } }),
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

describe('email login', () => {
  test('error: an invalid email is refused in the modal and never reaches the secure-site', async () => {
    const connectEmail = vi.fn(() => ({ action: 'VERIFY_OTP' as const }))
    const { store } = setup({ connectEmail })
    await store.set(submitEmailAtom, 'not-an-email')
    expect(store.get(loginAtom)).toMatchObject({ email: 'not-an-email', error: emailText.invalid })
    expect(connectEmail).not.toHaveBeenCalled()
  })

  test('behavior: CONNECT_EMAIL with the pinned host, then the code step and a 30 s resend wait', async () => {
    const connectEmail = vi.fn((_: { email: string; host: string }) => ({ action: 'VERIFY_OTP' as const }))
    const { store } = setup({ connectEmail })
    const before = Date.now()
    await store.set(submitEmailAtom, ' Ada@Example.com ')
    expect(connectEmail.mock.calls[0]![0]).toMatchObject({ email: 'ada@example.com', host: 'http://localhost:5173' })
    expect(store.get(routeAtom)).toEqual({ view: 'EmailVerifyOtp' })
    expect(store.get(loginAtom).resendAt).toBeGreaterThanOrEqual(before + 30_000)
  })

  test("error: the server's throttle message is shown as it is (spec §5)", async () => {
    const message = format(errors.emailLoginThrottled, { n: 21 })
    const { store } = setup({ connectEmail: () => Promise.reject(new Errors.DoorwayError(message)) })
    await store.set(submitEmailAtom, 'ada@example.com')
    expect(store.get(loginAtom)).toMatchObject({ error: 'Please try again after 21 seconds', retry: false, busy: null })
  })

  test('error: a secure-site that never answers fails at 30 s with a retry, and is told to abort (spec §7)', async () => {
    vi.useFakeTimers()
    const { store, aborted } = setup({ connectEmail: () => new Promise(() => {}) })
    const submitted = store.set(submitEmailAtom, 'ada@example.com')
    expect(store.get(loginAtom).busy).toBe('sending')
    await vi.advanceTimersByTimeAsync(29_999)
    expect(store.get(loginAtom).busy).toBe('sending')
    await vi.advanceTimersByTimeAsync(1)
    await submitted
    expect(store.get(loginAtom)).toMatchObject({ error: emailText.timedOut, retry: true, busy: null })
    await vi.waitFor(() => expect(aborted).toHaveLength(1))
  })

  test('error: the code and a returning device time out at 30 s too, are aborted there, and connect nothing later (spec §7)', async () => {
    vi.useFakeTimers()
    const { store, aborted } = setup({ connectOtp: () => new Promise(() => {}), restore: () => new Promise(() => {}) })
    const verifying = store.set(submitCodeAtom, '123456')
    await vi.advanceTimersByTimeAsync(29_999)
    expect(store.get(loginAtom).busy).toBe('verifying')
    await vi.advanceTimersByTimeAsync(1)
    await verifying
    expect(store.get(loginAtom)).toMatchObject({ error: emailText.timedOut, retry: true, busy: null })

    Storage.write('connection', { namespace: 'eip155', connectorId: embeddedId })
    const restoring = store.set(restoreEmbeddedAtom)
    await vi.advanceTimersByTimeAsync(30_000)
    await restoring
    await vi.waitFor(() => expect(aborted).toHaveLength(2))
    expect(store.get(accountAtom)).toBeNull()
  })

  test('error: a code that is not 6 digits is refused in the modal', async () => {
    const connectOtp = vi.fn(() => ({ account: { email: 'ada@example.com', address } }))
    const { store } = setup({ connectOtp })
    await store.set(submitCodeAtom, '12345')
    expect(store.get(loginAtom).error).toBe(emailText.codeInvalid)
    expect(connectOtp).not.toHaveBeenCalled()
  })

  test('behavior: CONNECT_OTP connects the embedded account (type AUTH, user email) and shows Account', async () => {
    const { store } = setup({})
    await store.set(submitCodeAtom, '123456')
    await vi.waitFor(() => expect(store.get(accountAtom)).not.toBeNull())
    const account = store.get(accountAtom)!
    expect(account).toMatchObject({ address, chainId: 'eip155:31337' })
    expect(account.connector).toMatchObject({ type: 'AUTH', user: { email: 'ada@example.com' } })
    expect(store.get(routeAtom)).toEqual({ view: 'Account' })
  })
})

/** An approval the test settles: the ops the secure-site was asked to wait under, and its answer. */
function approval() {
  const ops: string[] = []
  let settle!: { approve: () => void; refuse: (error: Error) => void }
  const awaitDevice = vi.fn(({ op }: { op: string }) => {
    ops.push(op)
    return new Promise<{ account: Protocol.EmbeddedAccount }>((resolve, reject) => {
      settle = { approve: () => resolve({ account: { email: 'ada@example.com', address } }), refuse: reject }
    })
  })
  return { ops, awaitDevice, settle: () => settle }
}

/** A store on the device step: email, code, then VERIFY_DEVICE from the secure-site. */
async function onDeviceStep(handlers: Handlers) {
  const secure = setup({ connectOtp: () => ({ action: 'VERIFY_DEVICE' as const }), ...handlers })
  await secure.store.set(submitEmailAtom, 'ada@example.com')
  await secure.store.set(submitCodeAtom, '123456')
  return secure
}

describe('device approval', () => {
  test('behavior: VERIFY_DEVICE puts the device step in place of the code step and waits for the approval', async () => {
    const { ops, awaitDevice } = approval()
    const before = Date.now()
    const { store } = await onDeviceStep({ awaitDevice })
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }, { view: 'EmailVerifyDevice' }])
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
    expect(store.get(historyAtom)).toEqual([{ view: 'Connect' }])
    expect(store.get(loginAtom)).toMatchObject({ email: 'ada@example.com', waiting: false, error: null })
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
    await store.set(submitEmailAtom, 'ada@example.com')
    await store.set(submitCodeAtom, '123456')
    await vi.waitFor(() => expect(awaitDevice).toHaveBeenCalledTimes(2))
    store.set(leaveStepAtom)
    await vi.waitFor(() => expect(aborted).toEqual([ops[1]]))
    expect(store.get(loginAtom).waiting).toBe(false)
  })

  test('behavior: a VERIFY_DEVICE answer after the person left the code step starts no wait', async () => {
    const { awaitDevice } = approval()
    const { store } = setup({ connectOtp: () => ({ action: 'VERIFY_DEVICE' as const }), awaitDevice })
    await store.set(submitCodeAtom, '123456')
    expect(store.get(routeAtom)).toEqual({ view: 'Connect' })
    expect(awaitDevice).not.toHaveBeenCalled()
  })
})

/** A connected store (CONNECT_OTP done) whose secure-site signs with `sign`. */
async function connected(sign: Handlers['sign']) {
  const secure = setup({ sign })
  await secure.store.set(submitCodeAtom, '123456')
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
    await store.set(submitCodeAtom, '123456')
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
    await store.set(submitCodeAtom, '123456')
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
