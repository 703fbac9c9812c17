// @vitest-environment jsdom
import * as Errors from '@doorway/shared/Errors'
import { emailLoginThrottled, format } from '@doorway/shared/Texts'
import { secureText } from '@doorway/shared/texts/email'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { Aborted } from '../approval/Approval.js'
import { type Account, Refusal } from '../wallet/Wallet.js'
import * as Login from './Login.js'

const account: Account = { email: 'person@example.com', address: '0x00000000000000000000000000000000000000aa', solanaAddress: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk' }

/** The outcome of a screen's promise once it settles. */
function watch<value>(promise: Promise<value>) {
  const outcome = { value: undefined as value | undefined, error: undefined as unknown }
  promise.then(
    (value) => (outcome.value = value),
    (error: unknown) => (outcome.error = error),
  )
  return outcome
}

/** A request that answers only when the test says, and keeps the signal it was given. */
function pending<result>() {
  const calls: { args: unknown[]; signal: AbortSignal; resolve: (value: result) => void; reject: (error: unknown) => void }[] = []
  const fn = (...args: unknown[]) =>
    new Promise<result>((resolve, reject) => {
      calls.push({ args, signal: args[args.length - 1] as AbortSignal, resolve, reject })
    })
  return { fn, calls }
}

function type(field: HTMLInputElement, value: string) {
  field.value = value
  field.dispatchEvent(new Event('input', { bubbles: true }))
}

function press(target: EventTarget, key: string) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })
  target.dispatchEvent(event)
  return event
}

function paste(field: HTMLInputElement, text: string) {
  const event = Object.assign(new Event('paste', { bubbles: true, cancelable: true }), { clipboardData: { getData: () => text } })
  field.dispatchEvent(event)
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('showEmail', () => {
  function setup(options: { email?: string } = {}) {
    const root = document.body.appendChild(document.createElement('div'))
    const controller = new AbortController()
    const send = pending<void>()
    const outcome = watch(Login.showEmail(root, { send: send.fn, email: options.email ?? '', signal: controller.signal }))
    const input = () => root.querySelector<HTMLInputElement>('input')!
    const submit = () => root.querySelector<HTMLButtonElement>('button[type=submit]')!
    const status = () => root.querySelector('.login-status')!
    const enter = async (value: string) => {
      type(input(), value)
      root.querySelector('form')!.requestSubmit(submit())
      await vi.advanceTimersByTimeAsync(0)
    }
    return { root, controller, send, outcome, input, submit, status, enter }
  }

  test('behavior: a labelled email field, prefilled and focused; Continue only once something is typed', () => {
    const { root, input, submit } = setup({ email: 'last@example.com' })
    expect(root.querySelector('label')?.textContent).toBe(secureText.label)
    expect(root.querySelector('label')?.htmlFor).toBe(input().id)
    expect(input()).toMatchObject({ type: 'email', inputMode: 'email', autocomplete: 'email', placeholder: secureText.placeholder, value: 'last@example.com' })
    expect(document.activeElement).toBe(input())
    expect(submit().textContent).toBe(secureText.submit)
    expect(submit().disabled).toBe(false)
    type(input(), '  ')
    expect(submit().disabled).toBe(true)
  })

  test('error: an invalid email is an alert, the field keeps the focus, and nothing is sent', async () => {
    const { send, input, status, enter } = setup()
    await enter('person@example')
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe(secureText.invalid)
    expect(input().getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(input())
    expect(send.calls).toHaveLength(0)
  })

  test('behavior: while sending the field and Continue are disabled; once mailed it resolves with the normalized email and goes', async () => {
    const { root, send, outcome, input, submit, enter } = setup()
    await enter('  Person@Example.COM ')
    expect(send.calls.map((call) => call.args[0])).toEqual(['person@example.com'])
    expect(input().disabled).toBe(true)
    expect(submit().disabled).toBe(true)
    expect(submit().textContent).toBe(secureText.sending)
    send.calls[0]!.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toEqual({ email: 'person@example.com' })
    expect(root.textContent).toBe('')
  })

  test('error: a throttle is the spec\'s message and a countdown on Continue, which works again at 0', async () => {
    const { send, outcome, submit, status, enter } = setup()
    await enter('person@example.com')
    send.calls[0]!.reject(new Refusal(format(emailLoginThrottled, { n: 3 }), 'throttled', 3))
    await vi.advanceTimersByTimeAsync(0)
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe('Please try again after 3 seconds')
    expect(submit().textContent).toBe(format(secureText.continueIn, { n: 3 }))
    expect(submit().disabled).toBe(true)
    await vi.advanceTimersByTimeAsync(1000)
    expect(submit().textContent).toBe(format(secureText.continueIn, { n: 2 }))
    expect(submit().disabled).toBe(true)
    await vi.advanceTimersByTimeAsync(2000)
    expect(submit().textContent).toBe(secureText.submit)
    expect(submit().disabled).toBe(false)
    expect(status().textContent).toBe('') // "try again after 3 seconds" is no longer true
    submit().click()
    await vi.advanceTimersByTimeAsync(0)
    expect(send.calls).toHaveLength(2)
    send.calls[1]!.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toEqual({ email: 'person@example.com' })
  })

  test.each([
    ['a mail not sent', new Refusal(secureText.mailFailed, 'mail'), secureText.mailFailed, secureText.retry],
    ['an unreachable server', new Errors.DoorwayError(secureText.unavailable), secureText.unavailable, secureText.retry],
    ['anything else', new TypeError('fetch failed'), secureText.unavailable, secureText.retry],
    ['a refusal for good', new Refusal(secureText.locked, 'locked'), secureText.locked, secureText.submit],
  ])('error: %s is said as an alert and Continue works again (Try again when it may work a moment later)', async (_, error, message, label) => {
    const { send, input, submit, status, enter } = setup()
    await enter('person@example.com')
    send.calls[0]!.reject(error)
    await vi.advanceTimersByTimeAsync(0)
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe(message)
    expect(submit().textContent).toBe(label)
    expect(submit().disabled).toBe(false)
    expect(input().disabled).toBe(false)
    expect(document.activeElement).toBe(input())
  })

  test('error: a server that does not answer in 30 s is the timeout message, its request aborted, and Continue reads Try again', async () => {
    const { send, submit, status, enter } = setup()
    await enter('person@example.com')
    await vi.advanceTimersByTimeAsync(29_999)
    expect(status().textContent).toBe('')
    expect(send.calls[0]!.signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(send.calls[0]!.signal.aborted).toBe(true)
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe(secureText.timedOut)
    expect(submit().textContent).toBe(secureText.retry)
    expect(submit().disabled).toBe(false)
  })

  test('behavior: Escape resolves close and removes the screen', async () => {
    const { root, outcome, input } = setup()
    press(input(), 'Escape')
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toBe('close')
    expect(root.textContent).toBe('')
  })

  test('behavior: the caller\'s abort while sending rejects with Aborted, removes the screen and aborts the request', async () => {
    const { root, controller, send, outcome, enter } = setup()
    await enter('person@example.com')
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.error).toBeInstanceOf(Aborted)
    expect(root.textContent).toBe('')
    expect(send.calls[0]!.signal.aborted).toBe(true)
  })

  test('param: an already aborted signal rejects at once and draws nothing', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const signal = AbortSignal.abort()
    await expect(Login.showEmail(root, { send: async () => {}, email: '', signal })).rejects.toBeInstanceOf(Aborted)
    expect(root.children).toHaveLength(0)
  })
})

describe('showCode', () => {
  function setup(options: { resendIn?: number } = {}) {
    const root = document.body.appendChild(document.createElement('div'))
    const controller = new AbortController()
    const verify = pending<Account | 'VERIFY_DEVICE'>()
    const resend = pending<void>()
    const outcome = watch(
      Login.showCode(root, {
        email: 'person@example.com',
        verify: verify.fn,
        resend: resend.fn,
        resendAt: Date.now() + (options.resendIn ?? 30_000),
        signal: controller.signal,
      }),
    )
    const digits = () => [...root.querySelectorAll<HTMLInputElement>('input')]
    const digit = (n: number) => root.querySelector<HTMLInputElement>(`input[aria-label="${format(secureText.digit, { n })}"]`)!
    const buttons = () => {
      const [next, again, other] = root.querySelectorAll('button')
      return { next: next!, again: again!, other: other! }
    }
    const status = () => root.querySelector('.login-status')!
    const code = () => digits().map((field) => field.value).join('')
    /** The whole code in Digit 1 in one input event, as Playwright's fill and the keyboard's suggestion do. */
    const enter = async (value: string) => {
      type(digit(1), value)
      await vi.advanceTimersByTimeAsync(0)
    }
    return { root, controller, verify, resend, outcome, digits, digit, buttons, status, code, enter }
  }

  test('behavior: says where the code went, in a labelled group of six digit fields, the first focused', () => {
    const { root, digits, digit, buttons } = setup()
    expect(root.textContent).toContain(format(secureText.codeSent, { email: 'person@example.com' }))
    expect(root.textContent).toContain(secureText.codeMailHint)
    const group = root.querySelector('[role="group"]')!
    expect(group.getAttribute('aria-label')).toBe(secureText.codeGroup)
    expect(digits()).toHaveLength(6)
    expect(digits().every((field) => group.contains(field) && field.inputMode === 'numeric')).toBe(true)
    expect(digit(1)).toMatchObject({ autocomplete: 'one-time-code', maxLength: 6 })
    expect(digits().slice(1).map((field) => field.maxLength)).toEqual([1, 1, 1, 1, 1])
    expect(document.activeElement).toBe(digit(1))
    expect(buttons().next.textContent).toBe(secureText.submit)
    expect(buttons().next.disabled).toBe(true)
    expect(buttons().other.textContent).toBe(secureText.otherEmail)
  })

  test('behavior: six digits in one input event on Digit 1 verify the code; an account resolves and the screen goes', async () => {
    const { root, verify, outcome, status, enter } = setup()
    await enter('123456')
    expect(verify.calls.map((call) => call.args[0])).toEqual(['123456'])
    expect(status().textContent).toBe(secureText.verifying)
    expect(status().getAttribute('role')).toBe('status')
    verify.calls[0]!.resolve(account)
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toEqual({ account })
    expect(root.textContent).toBe('')
  })

  test('behavior: typed digit by digit the focus moves on, Backspace on an empty field clears the one before, the arrows move', async () => {
    const { verify, digit, buttons, code } = setup()
    type(digit(1), '1')
    expect(document.activeElement).toBe(digit(2))
    type(digit(2), 'x')
    expect(digit(2).value).toBe('')
    expect(document.activeElement).toBe(digit(2))
    type(digit(2), '2')
    type(digit(3), '3')
    expect(press(digit(4), 'Backspace').defaultPrevented).toBe(true)
    expect(code()).toBe('12')
    expect(document.activeElement).toBe(digit(3))
    press(digit(3), 'ArrowLeft')
    expect(document.activeElement).toBe(digit(2))
    press(digit(2), 'ArrowRight')
    expect(document.activeElement).toBe(digit(3))
    for (const [n, value] of [[3, '3'], [4, '4'], [5, '5']] as const) type(digit(n), value)
    expect(buttons().next.disabled).toBe(true)
    expect(verify.calls).toHaveLength(0)
    type(digit(6), '6')
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls.map((call) => call.args[0])).toEqual(['123456'])
  })

  test('behavior: a paste spreads its digits from the field at hand and a full code is checked', async () => {
    const { verify, digit, code } = setup()
    type(digit(1), '9')
    paste(digit(2), '8 7')
    expect(code()).toBe('987')
    expect(document.activeElement).toBe(digit(4))
    paste(digit(4), '6-5-4-3-2')
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls.map((call) => call.args[0])).toEqual(['987654'])
  })

  test('error: a wrong code is an alert; the fields are cleared and the first one focused for the next try', async () => {
    const { verify, digits, digit, buttons, status, code, enter } = setup()
    await enter('111111')
    expect(digits().every((field) => field.disabled)).toBe(true)
    verify.calls[0]!.reject(new Refusal(format(secureText.wrong, { n: 4 }), 'wrong'))
    await vi.advanceTimersByTimeAsync(0)
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe(format(secureText.wrong, { n: 4 }))
    expect(code()).toBe('')
    expect(digits().every((field) => !field.disabled)).toBe(true)
    expect(document.activeElement).toBe(digit(1))
    expect(buttons().next.disabled).toBe(true)
    await enter('123456')
    expect(verify.calls.map((call) => call.args[0])).toEqual(['111111', '123456'])
  })

  test('error: a throttle on verify disables Continue and Resend with counting labels until it ends', async () => {
    const { verify, buttons, status, code, enter } = setup({ resendIn: 0 })
    expect(buttons().again.disabled).toBe(false)
    await enter('123456')
    verify.calls[0]!.reject(new Refusal(format(secureText.rateLimited, { n: 2 }), 'rateLimited', 2))
    await vi.advanceTimersByTimeAsync(0)
    expect(status().textContent).toBe(format(secureText.rateLimited, { n: 2 }))
    expect(code()).toBe('123456')
    expect(buttons().next).toMatchObject({ disabled: true, textContent: format(secureText.continueIn, { n: 2 }) })
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.resendIn, { n: 2 }) })
    await vi.advanceTimersByTimeAsync(1000)
    expect(buttons().next.textContent).toBe(format(secureText.continueIn, { n: 1 }))
    expect(buttons().again.textContent).toBe(format(secureText.resendIn, { n: 1 }))
    await vi.advanceTimersByTimeAsync(1000)
    expect(buttons().next).toMatchObject({ disabled: false, textContent: secureText.submit })
    expect(buttons().again).toMatchObject({ disabled: false, textContent: secureText.resend })
    buttons().next.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls).toHaveLength(2)
  })

  test('error: a throttle on resend disables Continue and Resend too, and a full code waits for it', async () => {
    const { verify, resend, buttons, enter } = setup({ resendIn: 0 })
    buttons().again.click()
    await vi.advanceTimersByTimeAsync(0)
    resend.calls[0]!.reject(new Refusal(format(secureText.hourly, { n: 5 }), 'hourly', 5))
    await vi.advanceTimersByTimeAsync(0)
    await enter('123456')
    expect(verify.calls).toHaveLength(0)
    expect(buttons().next).toMatchObject({ disabled: true, textContent: format(secureText.continueIn, { n: 5 }) })
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.resendIn, { n: 5 }) })
    await vi.advanceTimersByTimeAsync(5000)
    expect(buttons().next.disabled).toBe(false)
    expect(buttons().again.disabled).toBe(false)
  })

  test('behavior: Resend waits for resendAt, then mails a new code: fields cleared and focused, a notice, and 30 s until the next', async () => {
    const { resend, digit, buttons, status, code } = setup({ resendIn: 2_000 })
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.resendIn, { n: 2 }) })
    await vi.advanceTimersByTimeAsync(2_000)
    expect(buttons().again).toMatchObject({ disabled: false, textContent: secureText.resend })
    type(digit(1), '12')
    buttons().again.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(status().textContent).toBe(secureText.sending)
    resend.calls[0]!.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(status().getAttribute('role')).toBe('status')
    expect(status().textContent).toBe(secureText.resent)
    expect(code()).toBe('')
    expect(document.activeElement).toBe(digit(1))
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.resendIn, { n: 30 }) })
  })

  test.each([
    ['exhausted', secureText.exhausted],
    ['exhausted', secureText.wrongLast],
    ['expired', secureText.expired],
    ['used', secureText.used],
    ['otherDevice', secureText.otherDevice],
  ])('error: a dead code (%s) disables the fields and Continue; "Send a new code" leads once a code may be sent', async (reason, message) => {
    const { verify, resend, digits, digit, buttons, status, code, enter } = setup({ resendIn: 3_000 })
    await enter('123456')
    verify.calls[0]!.reject(new Refusal(message, reason))
    await vi.advanceTimersByTimeAsync(0)
    expect(status().textContent).toBe(message)
    expect(code()).toBe('')
    expect(digits().every((field) => field.disabled)).toBe(true)
    expect(buttons().next.disabled).toBe(true)
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.newCodeIn, { n: 3 }), className: 'login-primary' })
    await vi.advanceTimersByTimeAsync(3_000)
    expect(buttons().again).toMatchObject({ disabled: false, textContent: secureText.newCode })
    type(digit(1), '123456')
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls).toHaveLength(1)

    buttons().again.click()
    await vi.advanceTimersByTimeAsync(0)
    resend.calls[0]!.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(digits().every((field) => !field.disabled)).toBe(true)
    expect(document.activeElement).toBe(digit(1))
    expect(status().textContent).toBe(secureText.resent)
    expect(buttons().again).toMatchObject({ disabled: true, textContent: format(secureText.resendIn, { n: 30 }), className: 'login-secondary' })
    await enter('654321')
    expect(verify.calls.map((call) => call.args[0])).toEqual(['123456', '654321'])
  })

  test('error: a dead code with resendAt passed offers "Send a new code" at once, focused', async () => {
    const { verify, buttons, enter } = setup({ resendIn: 0 })
    await enter('123456')
    verify.calls[0]!.reject(new Refusal(secureText.expired, 'expired'))
    await vi.advanceTimersByTimeAsync(0)
    expect(buttons().again).toMatchObject({ disabled: false, textContent: secureText.newCode })
    expect(document.activeElement).toBe(buttons().again)
  })

  test('error: a 24 h lock disables the fields, Continue and Resend; only "Use another email" works', async () => {
    const { verify, resend, outcome, digits, buttons, status, enter } = setup({ resendIn: 0 })
    await enter('123456')
    verify.calls[0]!.reject(new Refusal(secureText.locked, 'locked'))
    await vi.advanceTimersByTimeAsync(0)
    expect(status().getAttribute('role')).toBe('alert')
    expect(status().textContent).toBe(secureText.locked)
    expect(digits().every((field) => field.disabled && field.value === '')).toBe(true)
    expect(buttons().next.disabled).toBe(true)
    expect(buttons().again.disabled).toBe(true)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(buttons().again.disabled).toBe(true)
    buttons().again.click()
    expect(resend.calls).toHaveLength(0)
    expect(document.activeElement).toBe(buttons().other)
    buttons().other.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toEqual({ action: 'otherEmail' })
  })

  test('error: a check that does not answer in 30 s is the timeout; the code stays and Continue tries again', async () => {
    const { verify, buttons, status, code, enter } = setup()
    await enter('123456')
    await vi.advanceTimersByTimeAsync(30_000)
    expect(verify.calls[0]!.signal.aborted).toBe(true)
    expect(status().textContent).toBe(secureText.timedOut)
    expect(status().getAttribute('role')).toBe('alert')
    expect(code()).toBe('123456')
    expect(buttons().next.disabled).toBe(false)
    buttons().next.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls.map((call) => call.args[0])).toEqual(['123456', '123456'])
  })

  test.each([
    ['VERIFY_DEVICE answered', { action: 'VERIFY_DEVICE' }],
    ['"Use another email"', { action: 'otherEmail' }],
    ['Escape', { action: 'close' }],
  ])('behavior: %s resolves its action and removes the screen', async (name, expected) => {
    const { root, verify, outcome, buttons, enter } = setup()
    if (expected.action === 'VERIFY_DEVICE') {
      await enter('123456')
      verify.calls[0]!.resolve('VERIFY_DEVICE')
    } else if (expected.action === 'otherEmail') buttons().other.click()
    else press(document.activeElement!, 'Escape')
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value, name).toEqual(expected)
    expect(root.textContent).toBe('')
  })

  test('behavior: leaving while a check is under way aborts it: the request\'s signal aborts, the screen goes, and a late answer changes nothing', async () => {
    const { root, controller, verify, outcome, enter } = setup()
    await enter('123456')
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(verify.calls[0]!.signal.aborted).toBe(true)
    expect(outcome.error).toBeInstanceOf(Aborted)
    expect(root.textContent).toBe('')
    verify.calls[0]!.resolve(account)
    await vi.advanceTimersByTimeAsync(0)
    expect(outcome.value).toBeUndefined()
  })

  test('behavior: "Use another email" during a resend aborts the resend', async () => {
    const { resend, outcome, buttons } = setup({ resendIn: 0 })
    buttons().again.click()
    await vi.advanceTimersByTimeAsync(0)
    buttons().other.click()
    await vi.advanceTimersByTimeAsync(0)
    expect(resend.calls[0]!.signal.aborted).toBe(true)
    expect(outcome.value).toEqual({ action: 'otherEmail' })
  })
})
