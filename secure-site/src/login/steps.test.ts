// @vitest-environment jsdom
/**
 * The login's steps as main.ts runs them (login/steps.ts), against the real secure-site server and vault
 * in-process (server/testStack.ts): the email and the code typed in this DOM create the wallet; another
 * email, Escape or the caller giving up withdraws the mailed code at the server at once. The wallet made
 * after the code is Wallet.test.ts's and the e2e's: here PGlite runs in jsdom's realm and takes no Buffer,
 * so the server cannot store a wallet.
 */
import * as TestStack from '@doorway/secure-site/server/testStack'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { Aborted } from '../approval/Approval.js'
import * as Device from '../wallet/Device.js'
import * as Wallet from '../wallet/Wallet.js'
import * as LoginSteps from './steps.js'

const origin = { host: 'http://localhost:5173', attested: true }

const place = TestStack.perFile(beforeAll, afterAll)

let n = 0
const newEmail = () => `steps${++n}-${Date.now()}@example.test`
const codeFor = (email: string) => place.stack.mails.filter((m) => m.to === email).at(-1)!.subject.match(/(\d{6})$/)![1]!

/** A fresh page: its wallet, the steps over it, and the person's hands on its DOM. */
function page() {
  const wallet = Wallet.create({ store: Device.memoryStore(), base: 'http://127.0.0.1:5175', ...place.stack.keys.build, fetch: place.stack.fetch })
  const root = document.body.appendChild(document.createElement('div'))
  const field = (name: string) => root.querySelector<HTMLInputElement>(`input[aria-label="${name}"], input[type="email"]`)
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === text)!
  const type = (input: HTMLInputElement, value: string) => {
    input.value = value
    input.dispatchEvent(new Event('input', { bubbles: true }))
  }
  const steps = LoginSteps.steps(wallet, root)
  /** The person types `typed` in the email screen and presses Continue: the step's outcome. */
  const submitEmail = async (typed: string) => {
    const step = steps.email(origin, new AbortController().signal)
    await vi.waitFor(() => expect(field('Email')).not.toBeNull())
    type(field('Email')!, typed)
    button('Continue').click()
    return step
  }
  /** The code step (`outcome`), once its screen shows; `leaving` aborts it as the frame does when its view goes. */
  const codeScreen = async (leaving = new AbortController()) => {
    const outcome = steps.code(leaving.signal)
    outcome.catch(() => {}) // awaited by the test, or aborted with it
    await vi.waitFor(() => expect(field('Digit 1 of 6')).not.toBeNull())
    return { outcome }
  }
  return { wallet, root, steps, field, button, type, submitEmail, codeScreen }
}

/** Whether the server still takes `email`'s last code: a withdrawn one is spent. */
const open = async (email: string) => (await place.db.query<{ used: number | null }>('SELECT used_at AS used FROM otp_challenges WHERE email = $1 ORDER BY created_at DESC LIMIT 1', [email])).rows[0]!.used === null

describe('login steps', () => {
  test('behavior: the email and the code typed in the secure-site are what the server mails and verifies; the frame gets only that a code went out', async () => {
    const { field, type, submitEmail, codeScreen } = page()
    const email = newEmail()
    expect(await submitEmail(` ${email.toUpperCase()} `)).toEqual({ action: 'VERIFY_OTP' })
    expect(place.stack.mails.at(-1)!.text).toContain(`at ${origin.host}. The code expires`)

    const leaving = new AbortController()
    const codeStep = (await codeScreen(leaving)).outcome.catch((error: unknown) => error)
    type(field('Digit 1 of 6')!, codeFor(email))
    // Verified: the code is spent and the server knows the user by the email typed.
    await vi.waitFor(async () => expect(await open(email)).toBe(false))
    expect(await place.storage.users.byEmail(email)).toMatchObject({ email })
    leaving.abort()
    expect(await codeStep).toBeInstanceOf(Aborted)
  })

  test('behavior: "Use another email" withdraws the code at the server and says so to the frame', async () => {
    const { button, submitEmail, codeScreen } = page()
    const email = newEmail()
    await submitEmail(email)
    const { outcome } = await codeScreen()
    expect(await open(email)).toBe(true)
    button('Use another email').click()
    expect(await outcome).toEqual({ action: 'otherEmail' })
    expect(await open(email)).toBe(false)
  })

  test('behavior: the frame giving up on the code step (the view left) withdraws the code too', async () => {
    const { root, submitEmail, codeScreen } = page()
    const email = newEmail()
    await submitEmail(email)
    const leaving = new AbortController()
    const { outcome } = await codeScreen(leaving)
    leaving.abort()
    await expect(outcome).rejects.toBeInstanceOf(Aborted)
    await vi.waitFor(async () => expect(await open(email)).toBe(false))
    expect(root.childElementCount).toBe(0)
  })

  test('error: a code step with no code mailed on this page is refused as an expired code', async () => {
    await expect(page().steps.code(new AbortController().signal)).rejects.toMatchObject({ reason: 'expired' })
  })
})
