// @vitest-environment jsdom
import * as Errors from '@doorway/shared/Errors'
import { format } from '@doorway/shared/Texts'
import { emailText, secureText } from '@doorway/shared/texts/email'
import { securityText } from '@doorway/shared/texts/embedded'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { Aborted } from '../approval/Approval.js'
import { visibleMs } from '../approval/guard.js'
import { VisibilityObserver, withVisibilityObserver } from '../approval/testing.js'
import * as Describe from './describe.js'
import type * as Manage from './Manage.js'
import * as Security from './Security.js'

const now = Date.UTC(2026, 10, 23, 12)
const minute = 60_000
const email = 'person@example.com'
const host = 'http://localhost:5173'
const zone = { locale: 'en-US', timeZone: 'UTC' }
// jsdom cannot make trusted events: tests that play the person say every event is theirs.
const person = () => true

const here: Manage.DeviceSummary = { id: 'a'.repeat(32), current: true, createdAt: now - 3 * 24 * 60 * minute, lastSeen: now, origin: host, attested: true, browser: 'Chrome 131 on Linux', revoked: false }
const phone: Manage.DeviceSummary = { id: 'b'.repeat(32), current: false, createdAt: now - 60 * minute, lastSeen: now - 5 * minute, origin: 'http://127.0.0.1:5173', attested: false, browser: 'Firefox 128 on macOS', revoked: false }
const gone: Manage.DeviceSummary = { id: 'c'.repeat(32), current: false, createdAt: now - 90 * minute, lastSeen: now - 80 * minute, origin: null, attested: false, browser: null, revoked: true }
const entries = [
  { seq: 1, at: now - 3 * 24 * 60 * minute, kind: 'code.verified', detail: { deviceId: here.id, host, attested: true }, hash: '1'.repeat(64) },
  { seq: 2, at: now - 3 * 24 * 60 * minute + 1, kind: 'wallet.created', detail: { deviceId: here.id }, hash: '2'.repeat(64) },
  { seq: 3, at: now - 60 * minute, kind: 'recovery.released', detail: { deviceId: phone.id }, hash: '3'.repeat(64) },
  { seq: 4, at: now - minute, kind: 'code.sent', detail: { deviceId: here.id, host, purpose: 'export' }, hash: '4'.repeat(64) },
]

function setup(options: { manager?: Partial<Manage.Manager>; verdict?: Manage.Overview['verdict']; isTrusted?: (event: Event) => boolean } = {}) {
  const root = document.body.appendChild(document.createElement('div'))
  const controller = new AbortController()
  const calls = { overviews: 0, codes: [] as string[], removed: [] as [string, string | undefined][] }
  let devices = [here, phone, gone]
  const manager: Manage.Manager = {
    overview: async () => (calls.overviews++, { email, devices, entries, verdict: options.verdict ?? { state: 'verified' } }),
    removeCode: async (h) => (calls.codes.push(h), { email, sent: true }),
    remove: async (id, code) => {
      calls.removed.push([id, code])
      if (code !== undefined && code !== '123456') throw new Errors.DoorwayError(format(emailText.wrong, { n: 4 }))
      devices = devices.map((d) => (d.id === id ? { ...d, revoked: true } : d))
    },
    ...options.manager,
  }
  const outcome = { done: false, error: undefined as unknown }
  Security.show(root, { manager, host, signal: controller.signal, isTrusted: options.isTrusted ?? person, zone, now: () => now }).then(
    () => (outcome.done = true),
    (error: unknown) => (outcome.error = error),
  )
  const button = (name: string | RegExp) => [...root.querySelectorAll('button')].find((b) => (typeof name === 'string' ? b.textContent === name || b.getAttribute('aria-label') === name : name.test(b.getAttribute('aria-label') ?? b.textContent ?? '')) && !b.closest('[hidden]'))
  const status = () => root.querySelector('.approval-status')!
  const list = (label: string) => [...root.querySelector(`[aria-label="${label}"]`)!.children].map((li) => li.textContent)
  const submit = async (code: string) => {
    root.querySelector('input')!.value = code
    root.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }))
    await vi.advanceTimersByTimeAsync(0)
  }
  /** Remove on the phone, then Remove device on a screen seen for 500 ms. */
  const confirmRemove = async () => {
    button(format(securityText.removeLabel, { browser: phone.browser!, origin: `${phone.origin} (reported)` }))!.click()
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(visibleMs)
    button(securityText.removeConfirm)!.click()
    await vi.advanceTimersByTimeAsync(0)
  }
  return { root, controller, calls, outcome, button, status, list, submit, confirmRemove }
}

beforeEach(() => {
  vi.useFakeTimers()
  withVisibilityObserver()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe('show', () => {
  test('behavior: the devices (this browser marked, a reported site, last use, removed ones), the activity in words newest first, the log verified and the custody mode', async () => {
    const { root, list, button } = setup()
    await vi.advanceTimersByTimeAsync(0)
    expect(root.querySelector('h1')?.textContent).toBe(securityText.title)
    expect(root.textContent).toContain(securityText.custody)
    expect(list(securityText.devices)).toEqual([
      `Chrome 131 on Linux ${securityText.thisBrowser}${host}Last used now · Added Nov 20, 2026`,
      `Firefox 128 on macOS${phone.origin} (reported)Last used 5 minutes ago · Added Nov 23, 2026${securityText.remove}`,
      `${securityText.unknownBrowser} ${securityText.removedDevice}${securityText.unknownSite}Last used 1 hour ago · Added Nov 23, 2026`,
    ])
    // Only the other browser, still there, can be removed.
    expect(root.querySelectorAll('.security-remove')).toHaveLength(1)
    expect(button(/^Remove Firefox 128 on macOS at /)).toBeDefined()
    expect(list(securityText.activity)).toEqual([
      `Code sent to export the keyNov 23, 2026, 11:59 AM at ${host}`,
      'Recovered on a new browserNov 23, 2026, 11:00 AM',
      'Wallet createdNov 20, 2026, 12:00 PM',
      `Signed inNov 20, 2026, 12:00 PM at ${host}`,
    ])
    const integrity = root.querySelector('.security-integrity')!
    expect(integrity.textContent).toBe(securityText.verified)
    expect(integrity.getAttribute('role')).toBe('status')
  })

  test('behavior: a log changed outside the wallet is a warning, an alert, before the devices', async () => {
    const { root } = setup({ verdict: { state: 'changed', seq: 3 } })
    await vi.advanceTimersByTimeAsync(0)
    const integrity = root.querySelector('.security-integrity')!
    expect(integrity.textContent).toBe(securityText.changed + securityText.changedHint)
    expect(integrity.getAttribute('role')).toBe('alert')
    expect(integrity.className).toContain('export-warning')
    expect(integrity.compareDocumentPosition(root.querySelector(`[aria-label="${securityText.devices}"]`)!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  test('behavior: a log the vault confirms only in part says so, without the warning', async () => {
    const { root } = setup({ verdict: { state: 'unconfirmed' } })
    await vi.advanceTimersByTimeAsync(0)
    expect(root.querySelector('.security-integrity')!.textContent).toBe(securityText.unconfirmed)
  })

  test('behavior: Remove asks which device, on a visible screen; a code is mailed, the right code removes it, and the list is drawn again', async () => {
    const { root, calls, status, submit, confirmRemove, list } = setup()
    await vi.advanceTimersByTimeAsync(0)
    await confirmRemove()
    expect(root.textContent).toContain(format(securityText.confirmRemove, { browser: phone.browser!, origin: `${phone.origin} (reported)` }))
    expect(calls.codes).toEqual([host])
    expect(root.textContent).toContain(format(securityText.codeSent, { email }))
    await submit('12')
    expect(status().textContent).toBe(secureText.codeInvalid)
    await submit('000000')
    expect(status().textContent).toBe(format(emailText.wrong, { n: 4 }))
    expect(status().getAttribute('role')).toBe('alert')
    await submit('123 456')
    expect(calls.removed).toEqual([
      [phone.id, '000000'],
      [phone.id, '123456'],
    ])
    expect(status().textContent).toBe(securityText.removed)
    expect(calls.overviews).toBe(2)
    expect(list(securityText.devices)[1]).toContain(securityText.removedDevice)
    expect(root.querySelectorAll('.security-remove')).toHaveLength(0)
  })

  test('behavior: signed in within 5 minutes, no code: confirming removes the device at once', async () => {
    const { calls, confirmRemove, status } = setup({ manager: { removeCode: async () => ({ email, sent: false }) } })
    await vi.advanceTimersByTimeAsync(0)
    await confirmRemove()
    expect(calls.removed).toEqual([[phone.id, undefined]])
    expect(status().textContent).toBe(securityText.removed)
  })

  test('security: Remove device stays disabled until the screen was seen for 500 ms, and again once covered', async () => {
    const { calls, button, status } = setup()
    await vi.advanceTimersByTimeAsync(0)
    button(/^Remove Firefox/)!.click()
    const confirm = button(securityText.removeConfirm)!
    expect(confirm.getAttribute('aria-disabled')).toBe('true')
    confirm.click()
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(visibleMs - 1)
    confirm.click()
    expect(calls.codes).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(confirm.getAttribute('aria-disabled')).toBe('false')
    VisibilityObserver.last!.report(false)
    expect(status().textContent).toBe(securityText.hidden)
    confirm.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.codes).toEqual([])
  })

  test('security: events the person did not make remove nothing', async () => {
    const { calls, button, root } = setup({ isTrusted: () => false })
    await vi.advanceTimersByTimeAsync(0)
    button(/^Remove Firefox/)!.click()
    expect(root.querySelector('section')!.dataset.step).toBe('list')
    expect(calls.codes).toEqual([])
  })

  test('behavior: Keep it goes back to the list; Done ends the screen and takes it off the page', async () => {
    const { root, button, calls, outcome } = setup()
    await vi.advanceTimersByTimeAsync(0)
    button(/^Remove Firefox/)!.click()
    expect(root.querySelector('section')!.dataset.step).toBe('confirm')
    button(securityText.keep)!.click()
    expect(root.querySelector('section')!.dataset.step).toBe('list')
    expect(calls.codes).toEqual([])
    button(securityText.done)!.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.done).toBe(true)
    expect(root.querySelector('section')).toBeNull()
  })

  test('error: the modal closing aborts: the promise rejects with Aborted and the screen goes', async () => {
    const { root, controller, outcome } = setup()
    await vi.advanceTimersByTimeAsync(0)
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.error).toBeInstanceOf(Aborted)
    expect(root.querySelector('section')).toBeNull()
  })

  test('error: a list that does not load says why; a server that never answers fails at 30 s', async () => {
    const refused = setup({ manager: { overview: async () => Promise.reject(Errors.unauthorized()) } })
    await vi.advanceTimersByTimeAsync(0)
    expect(refused.status().textContent).toBe(Errors.unauthorized().message)
    document.body.replaceChildren()
    const stalled = setup({ manager: { overview: (signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))) } })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(stalled.status().textContent).toBe(secureText.timedOut)
  })
})

describe('Describe', () => {
  test.each([
    [now - 10_000, 'now'],
    [now - 5 * minute, '5 minutes ago'],
    [now - 3 * 60 * minute, '3 hours ago'],
    [now - 24 * 60 * minute, 'yesterday'],
    [now - 40 * 24 * 60 * minute, 'Oct 14, 2026'],
    [now + minute, 'now'],
  ])('param: relative(%s)', (at, text) => {
    expect(Describe.relative(at, now, zone)).toBe(text)
  })

  test.each([
    [{ kind: 'code.sent', detail: {} }, 'Code sent'],
    [{ kind: 'code.sent', detail: { purpose: 'revoke' } }, 'Code sent to remove a device'],
    [{ kind: 'device.revoked', detail: {} }, 'Device removed'],
    [{ kind: 'key.exported', detail: {} }, 'Key exported'],
    [{ kind: 'something.new', detail: {} }, 'Other activity (something.new)'],
    [{ kind: 'toString', detail: {} }, 'Other activity (toString)'],
  ])('param: kind(%o)', (entry, text) => {
    expect(Describe.kind(entry)).toBe(text)
  })

  test('behavior: a site is marked reported only where the browser did not attest it', () => {
    expect(Describe.site(host, true)).toBe(host)
    expect(Describe.site(host, false)).toBe(`${host} (reported)`)
    expect(Describe.site(null, true)).toBe(securityText.unknownSite)
    expect(Describe.entrySite({ detail: { host, attested: false } })).toBe(`${host} (reported)`)
    expect(Describe.entrySite({ detail: { host } })).toBe(host)
    expect(Describe.entrySite({ detail: { host: 42 } })).toBeUndefined()
  })
})
