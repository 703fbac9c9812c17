// @vitest-environment jsdom
/**
 * The login's steps as main.ts runs them (login/steps.ts), against the real secure-site server and vault
 * in-process (server/testStack.ts): the email and the code typed in this DOM create the wallet; another
 * email, Escape or the caller giving up withdraws the mailed code at the server at once. The wallet made
 * after the code is Wallet.test.ts's and the e2e's: here PGlite runs in jsdom's realm and takes no Buffer,
 * so the server cannot store a wallet.
 */
import * as Embedded from '@doorway/secure-site/server/storage/embedded'
import type { Storage } from '@doorway/secure-site/server/storage/Storage'
import * as TestStack from '@doorway/secure-site/server/testStack'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { Aborted } from '../approval/Approval.js'
import * as Device from '../wallet/Device.js'
import * as Wallet from '../wallet/Wallet.js'
import * as LoginSteps from './steps.js'

const origin = { host: 'http://localhost:5173', attested: true }
let db: PGlite
let storage: Storage
let stack: TestStack.Stack

beforeAll(async () => {
  db = new PGlite()
  storage = await Embedded.fromPGlite(db)
  stack = await TestStack.start({ storage })
}, 60_000) // PGlite starts slowly on a loaded machine
afterAll(async () => {
  await stack.close()
  await storage.close()
})

let n = 0
const newEmail = () => `steps${++n}-${Date.now()}@example.test`
const codeFor = (email: string) => stack.mails.filter((m) => m.to === email).at(-1)!.subject.match(/(\d{6})$/)![1]!

/** A fresh page: its wallet, the steps over it, and the person's hands on its DOM. */
function page() {
  const wallet = Wallet.create({ store: Device.memoryStore(), base: 'http://127.0.0.1:5175', ...stack.keys.build, fetch: stack.fetch })
  const root = document.body.appendChild(document.createElement('div'))
  const field = (name: string) => root.querySelector<HTMLInputElement>(`input[aria-label="${name}"], input[type="email"]`)
  const button = (text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === text)!
  const type = (input: HTMLInputElement, value: string) => {
    input.value = value
    input.dispatchEvent(new Event('input', { bubbles: true }))
  }
  return { wallet, root, steps: LoginSteps.steps(wallet, root), field, button, type }
}

/** Whether the server still takes `email`'s last code: a withdrawn one is spent. */
const open = async (email: string) => (await db.query<{ used: number | null }>('SELECT used_at AS used FROM otp_challenges WHERE email = $1 ORDER BY created_at DESC LIMIT 1', [email])).rows[0]!.used === null

describe('login steps', () => {
  test('behavior: the email and the code typed in the secure-site are what the server mails and verifies; the frame gets only that a code went out', async () => {
    const { steps, field, button, type } = page()
    const email = newEmail()
    const emailStep = steps.email(origin, new AbortController().signal)
    await vi.waitFor(() => expect(field('Email')).not.toBeNull())
    type(field('Email')!, ` ${email.toUpperCase()} `)
    button('Continue').click()
    expect(await emailStep).toEqual({ action: 'VERIFY_OTP' })
    expect(stack.mails.at(-1)!.text).toContain(`at ${origin.host}. The code expires`)

    const leaving = new AbortController()
    const codeStep = steps.code(leaving.signal).catch((error: unknown) => error)
    await vi.waitFor(() => expect(field('Digit 1 of 6')).not.toBeNull())
    type(field('Digit 1 of 6')!, codeFor(email))
    // Verified: the code is spent and the server knows the user by the email typed.
    await vi.waitFor(async () => expect(await open(email)).toBe(false))
    expect(await storage.users.byEmail(email)).toMatchObject({ email })
    leaving.abort()
    expect(await codeStep).toBeInstanceOf(Aborted)
  })

  test('behavior: "Use another email" withdraws the code at the server and says so to the frame', async () => {
    const { steps, field, button, type } = page()
    const email = newEmail()
    const emailStep = steps.email(origin, new AbortController().signal)
    await vi.waitFor(() => expect(field('Email')).not.toBeNull())
    type(field('Email')!, email)
    button('Continue').click()
    await emailStep
    const codeStep = steps.code(new AbortController().signal)
    await vi.waitFor(() => expect(field('Digit 1 of 6')).not.toBeNull())
    expect(await open(email)).toBe(true)
    button('Use another email').click()
    expect(await codeStep).toEqual({ action: 'otherEmail' })
    expect(await open(email)).toBe(false)
  })

  test('behavior: the frame giving up on the code step (the view left) withdraws the code too', async () => {
    const { steps, field, button, type, root } = page()
    const email = newEmail()
    const emailStep = steps.email(origin, new AbortController().signal)
    await vi.waitFor(() => expect(field('Email')).not.toBeNull())
    type(field('Email')!, email)
    button('Continue').click()
    await emailStep
    const leaving = new AbortController()
    const codeStep = steps.code(leaving.signal)
    await vi.waitFor(() => expect(field('Digit 1 of 6')).not.toBeNull())
    leaving.abort()
    await expect(codeStep).rejects.toBeInstanceOf(Aborted)
    await vi.waitFor(async () => expect(await open(email)).toBe(false))
    expect(root.childElementCount).toBe(0)
  })

  test('error: a code step with no code mailed on this page is refused as an expired code', async () => {
    await expect(page().steps.code(new AbortController().signal)).rejects.toMatchObject({ reason: 'expired' })
  })
})
