// @vitest-environment jsdom
import { format } from '@doorway/shared/Texts'
import { approveText } from '@doorway/shared/texts/approve'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import * as Approval from './Approval.js'
import type { Description } from './describe.js'
import { VisibilityObserver, withVisibilityObserver } from './testing.js'

const description: Description = {
  method: 'personal_sign',
  title: approveText.methods.personal_sign,
  rows: [
    { label: approveText.network, value: 'eip155:31337' },
    { label: approveText.from, value: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', mono: true },
    { label: approveText.message, value: '<b>not markup</b>' },
  ],
  message: '0x3c623e',
}
const host = { origin: 'https://dapp.example', attested: true }
// jsdom cannot make trusted events: tests that play the person say every event is theirs.
const person = () => true

function setup(options: Partial<Approval.ask.Options> = {}) {
  const root = document.body.appendChild(document.createElement('div'))
  const controller = new AbortController()
  const outcome = { value: undefined as string | undefined, error: undefined as unknown, settled: 0 }
  const promise = Approval.ask(root, { description, host, signal: controller.signal, isTrusted: person, ...options })
  promise.then(
    (value) => ((outcome.value = value), outcome.settled++),
    (error: unknown) => ((outcome.error = error), outcome.settled++),
  )
  const button = (name: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === name)!
  return { root, controller, outcome, promise, approve: () => button(approveText.approve), reject: () => button(approveText.reject) }
}

beforeEach(() => {
  vi.useFakeTimers()
  VisibilityObserver.last = undefined
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe('ask', () => {
  test('behavior: a warning row (a Solana program the wallet cannot read) is marked as one; others are not', () => {
    withVisibilityObserver()
    const warning = { label: approveText.warning, value: approveText.unknownProgram, tone: 'warning' as const }
    const { root } = setup({ description: { title: approveText.methods.solana_signTransaction, rows: [warning, ...description.rows] } })
    const rows = [...root.querySelectorAll('dl > div')]
    expect(rows.filter((row) => row.classList.contains('approval-row-warning')).map((row) => row.querySelector('dd')?.textContent)).toEqual([approveText.unknownProgram])
  })

  test('behavior: an accessible screen of the request, its host and custody, with focus on Reject', () => {
    withVisibilityObserver()
    const { root, approve, reject } = setup()
    // Titled by what is asked: the section's name is the request's.
    expect(root.querySelector('h1')?.textContent).toBe(approveText.methods.personal_sign)
    expect(root.querySelector('section')?.getAttribute('aria-labelledby')).toBe(root.querySelector('h1')?.id)
    const rows = [...root.querySelectorAll('dl > div')].map((div) => [div.querySelector('dt')?.textContent, div.querySelector('dd')?.textContent])
    expect(rows).toEqual([
      [approveText.host, format(approveText.hostAttested, { origin: 'https://dapp.example' })],
      [approveText.network, 'eip155:31337'],
      [approveText.from, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      [approveText.message, '<b>not markup</b>'],
    ])
    expect(root.querySelector('b')).toBeNull()
    expect(root.textContent).toContain(approveText.custody)
    expect(root.querySelector('[data-mono]')?.textContent).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(document.activeElement).toBe(reject())
    // Both stay in the Tab order: Approve waits with aria-disabled and says why.
    for (const button of [reject(), approve()]) expect([button.tabIndex, button.disabled, button.type]).toEqual([0, false, 'button'])
    expect(approve().getAttribute('aria-disabled')).toBe('true')
    expect(root.querySelector('[role="status"]')?.textContent).toBe(approveText.waitVisible)
    expect(approve().getAttribute('aria-describedby')).toBe(root.querySelector('[role="status"]')?.id)
  })

  test("behavior: a request the person started (a revoke) names the host as the site, not as who asked", () => {
    withVisibilityObserver()
    const { root } = setup({ description: { ...description, hostLabel: approveText.hostSite } })
    expect(root.querySelector('dl > div dt')?.textContent).toBe(approveText.hostSite)
  })

  test('behavior: a reported host is marked as reported', () => {
    withVisibilityObserver()
    const { root } = setup({ host: { origin: 'https://dapp.example', attested: false } })
    expect(root.querySelector('dd')?.textContent).toBe(format(approveText.hostReported, { origin: 'https://dapp.example' }))
  })

  test('behavior: Approve works only after 500 ms of being seen (IntersectionObserver v2)', async () => {
    withVisibilityObserver()
    const { approve, outcome } = setup()
    expect(VisibilityObserver.last?.options).toMatchObject({ trackVisibility: true, delay: 100 })
    await vi.advanceTimersByTimeAsync(1_000) // not yet reported visible: time alone does not count
    approve().click()
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs - 1)
    approve().click()
    expect(approve().getAttribute('aria-disabled')).toBe('true')
    expect(outcome.settled).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(approve().getAttribute('aria-disabled')).toBe('false')
    approve().click()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toBe('approved')
  })

  test('behavior: covered or transparent, Approve is disabled again and the 500 ms restart', async () => {
    withVisibilityObserver()
    const { root, approve, outcome } = setup()
    const observer = VisibilityObserver.last!
    observer.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    expect(approve().getAttribute('aria-disabled')).toBe('false')
    observer.report(false) // the frame set opacity:0 or laid something over the iframe
    expect(approve().getAttribute('aria-disabled')).toBe('true')
    expect(root.querySelector('[role="status"]')?.textContent).toBe(approveText.hidden)
    approve().click()
    observer.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs - 100)
    observer.report(false) // hidden again before the 500 ms were up
    observer.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs - 1)
    approve().click()
    expect(outcome.settled).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    approve().click()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toBe('approved')
  })

  test('behavior: without IntersectionObserver v2, Approve is held for 800 ms with a visible progress', async () => {
    const { root, outcome } = setup()
    const approve = [...root.querySelectorAll('button')].find((b) => b.textContent === approveText.hold)!
    expect(approve).toBeDefined()
    expect(approve.querySelector('.approval-progress')).not.toBeNull()
    approve.dispatchEvent(new PointerEvent('pointerdown', { button: 0 }))
    expect(approve.dataset.holding).toBeUndefined() // not yet visible for 500 ms
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    approve.click() // a click is not a hold
    approve.dispatchEvent(new PointerEvent('pointerdown', { button: 0 }))
    expect(approve.dataset.holding).toBe('')
    await vi.advanceTimersByTimeAsync(Approval.holdMs - 1)
    approve.dispatchEvent(new PointerEvent('pointerup'))
    expect(approve.dataset.holding).toBeUndefined()
    await vi.advanceTimersByTimeAsync(Approval.holdMs)
    expect(outcome.settled).toBe(0)
    approve.dispatchEvent(new PointerEvent('pointerdown', { button: 0 }))
    await vi.advanceTimersByTimeAsync(Approval.holdMs)
    expect(outcome.value).toBe('approved')
  })

  test('behavior: without IntersectionObserver v2, Space held for 800 ms approves, released early it does not', async () => {
    const { root, outcome } = setup()
    const approve = root.querySelector<HTMLButtonElement>('.approval-approve')!
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    approve.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', cancelable: true }))
    await vi.advanceTimersByTimeAsync(Approval.holdMs - 1)
    approve.dispatchEvent(new KeyboardEvent('keyup', { key: ' ' })) // let go too early
    await vi.advanceTimersByTimeAsync(Approval.holdMs)
    expect(outcome.settled).toBe(0)
    approve.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', cancelable: true }))
    await vi.advanceTimersByTimeAsync(Approval.holdMs / 2)
    approve.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', repeat: true, cancelable: true })) // auto-repeat does not restart
    await vi.advanceTimersByTimeAsync(Approval.holdMs / 2)
    expect(outcome.value).toBe('approved')
  })

  test('behavior: without IntersectionObserver v2, a hidden page restarts the 500 ms', async () => {
    let state: DocumentVisibilityState = 'visible'
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state)
    const { root } = setup()
    const approve = root.querySelector<HTMLButtonElement>('.approval-approve')!
    await vi.advanceTimersByTimeAsync(Approval.visibleMs - 1)
    state = 'hidden'
    document.dispatchEvent(new Event('visibilitychange'))
    expect(root.querySelector('[role="status"]')?.textContent).toBe(approveText.hidden)
    state = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(Approval.visibleMs - 1)
    expect(approve.getAttribute('aria-disabled')).toBe('true')
    await vi.advanceTimersByTimeAsync(1)
    expect(approve.getAttribute('aria-disabled')).toBe('false')
  })

  test('error: a click the person did not make is ignored', async () => {
    withVisibilityObserver()
    const { approve, outcome, controller, promise } = setup({ isTrusted: undefined }) // the browser's own isTrusted
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    approve().click() // jsdom's click(), like a script's, is not trusted
    approve().dispatchEvent(new MouseEvent('click', { bubbles: true }))
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.settled).toBe(0)
    controller.abort()
    await expect(promise).rejects.toBeInstanceOf(Approval.Aborted)
  })

  test('error: abort rejects with Aborted, and a later click signs nothing', async () => {
    withVisibilityObserver()
    const { root, approve, controller, outcome, promise } = setup()
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    const button = approve()
    controller.abort()
    await expect(promise).rejects.toMatchObject({ name: 'Aborted', code: 4001, message: 'Request was aborted' })
    button.click()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome).toMatchObject({ value: undefined, settled: 1 })
    expect(root.childElementCount).toBe(0)
  })

  test('error: an already aborted signal rejects without showing anything', async () => {
    const { root, promise } = setup({ signal: AbortSignal.abort() })
    await expect(promise).rejects.toBeInstanceOf(Approval.Aborted)
    expect(root.childElementCount).toBe(0)
  })

  test('behavior: a double click approves once', async () => {
    withVisibilityObserver()
    const { approve, outcome, controller } = setup()
    VisibilityObserver.last!.report(true)
    await vi.advanceTimersByTimeAsync(Approval.visibleMs)
    const button = approve()
    button.click()
    button.click()
    controller.abort() // too late: the request is already approved
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome).toMatchObject({ value: 'approved', error: undefined, settled: 1 })
  })

  test('behavior: Reject works at once, before the screen was seen', async () => {
    withVisibilityObserver()
    const { reject, promise } = setup()
    reject().click()
    await expect(promise).resolves.toBe('rejected')
  })

  test('behavior: Escape rejects', async () => {
    withVisibilityObserver()
    const { promise } = setup()
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await expect(promise).resolves.toBe('rejected')
  })

  test.each([
    ['approved', 'IntersectionObserver v2'],
    ['rejected', 'hold-to-confirm'],
  ])('behavior: once %s, the screen, its observer and timers are gone (%s)', async (outcome, mode) => {
    if (mode === 'IntersectionObserver v2') withVisibilityObserver()
    const { root, approve, reject, promise } = setup()
    if (outcome === 'approved') {
      VisibilityObserver.last!.report(true)
      await vi.advanceTimersByTimeAsync(Approval.visibleMs)
      approve().click()
    } else {
      await vi.advanceTimersByTimeAsync(1) // jsdom's own timer for focus(); the 500 ms are still running
      expect(vi.getTimerCount()).toBe(1)
      reject().click()
    }
    await expect(promise).resolves.toBe(outcome)
    expect(root.childElementCount).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
    if (VisibilityObserver.last) expect(VisibilityObserver.last.disconnected).toBe(true)
  })
})
