/**
 * Steps of the embedded (email) wallet as a person takes them, shared by its e2e specs: the code from
 * the real mail sink, the secure-site's own frame, and Approve once the secure-site allows it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContextOptions, chromium, type Page } from '@playwright/test'
import { urls } from '@doorway/devnet/stack'
import { type Hex, recoverMessageAddress } from 'viem'
import config, { chromiumArgs } from '../playwright.config.js'
import { expect, loopbackOnly, modalFrame, secureOrigin } from './fixtures.js'

export const secureTitle = 'Doorway secure wallet'
/** The secure-site's own frame, nested in the modal's. */
export const secureFrame = (page: Page) => modalFrame(page).frameLocator(`iframe[title="${secureTitle}"]`)
export const newEmail = () => `e2e-${crypto.randomUUID().slice(0, 12)}@example.com`

export type Mail = { id: number; to: string[]; subject: string; text: string }
export async function inbox(email: string): Promise<Mail[]> {
  const response = await fetch(`${urls.mail}/messages?to=${encodeURIComponent(email)}`)
  return ((await response.json()) as { messages: Mail[] }).messages
}

/** The newest code mailed to `email` after mail `after`, as a person reads it. */
export async function codeFor(email: string, after = 0): Promise<string> {
  let code: string | undefined
  await expect
    .poll(async () => {
      const mail = (await inbox(email)).filter((m) => m.id > after).at(-1)
      code = mail?.text.match(/\b(\d{6})\b/)?.[1]
      return code
    }, { message: `a code mailed to ${email}` })
    .toBeTruthy()
  return code!
}
export const lastMailId = async (email: string) => (await inbox(email)).at(-1)?.id ?? 0

/** The approval link the vault mailed to `email` after mail `after` (docs/embedded-wallet.md §4 VERIFY_DEVICE). */
export async function approvalLink(email: string, after = 0): Promise<{ link: string; mail: Mail }> {
  let found: { link: string; mail: Mail } | undefined
  await expect
    .poll(async () => {
      const mail = (await inbox(email)).filter((m) => m.id > after && /\/approve\?token=/.test(m.text)).at(-1)
      const link = mail?.text.match(/https?:\/\/\S+\/approve\?token=[\w-]+/)?.[0]
      found = link && mail ? { link, mail } : undefined
      return found
    }, { message: `an approval link mailed to ${email}` })
    .toBeTruthy()
  return found!
}

/** The person opens the vault's link in their browser and approves the new device; answers the page they saw. */
export async function approveFromMail(page: Page, email: string, after = 0): Promise<string> {
  const { link } = await approvalLink(email, after)
  const tab = await page.context().newPage()
  try {
    await tab.goto(link)
    const shown = (await tab.locator('main').textContent()) ?? ''
    await tab.getByRole('button', { name: 'Approve this device' }).click()
    await expect(tab.getByRole('heading', { name: /approved/i })).toBeVisible()
    return shown
  } finally {
    await tab.close()
  }
}

/** Connect Wallet → email → the code from the mail sink, pasted → Account. */
export async function loginByEmail(page: Page, email: string) {
  const before = await lastMailId(email)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await submitEmail(page, email)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Confirm Email' })).toBeVisible()
  await enterCode(page, await codeFor(email, before))
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(modalFrame(page).getByText(email)).toBeVisible()
}

/**
 * Connect's "Continue with email" (unless the email step is already shown), then the secure-site's own form
 * (docs/embedded-wallet.md §4): the email typed there, Continue pressed once it can be.
 */
export async function submitEmail(page: Page, email: string) {
  const frame = modalFrame(page)
  if (!(await frame.getByRole('dialog', { name: 'Email', exact: true }).isVisible())) await frame.getByRole('button', { name: 'Continue with email' }).click()
  await secureFrame(page).getByRole('textbox', { name: 'Email' }).fill(email)
  await secureFrame(page).getByRole('button', { name: 'Continue', exact: true }).click()
}

/**
 * After `submitEmail` was refused by the email's 30 s throttle (spec §5), which runs from its last code
 * whichever site asked: the secure-site's Continue counts down; pressed again once it can be, until the
 * code step shows.
 */
export async function untilCodeStep(page: Page) {
  const confirm = modalFrame(page).getByRole('dialog', { name: 'Confirm Email' })
  const idleContinue = secureFrame(page).locator('button:enabled', { hasText: /^Continue$/ })
  await expect
    .poll(
      async () => {
        if (await confirm.isVisible()) return true
        // Gone between the two looks (the code step came): the next poll sees the code step.
        if (await idleContinue.isVisible()) await idleContinue.click({ timeout: 1_000 }).catch(() => {})
        return false
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(true)
}

/** Types the code into the secure-site's first digit: the screen spreads it over the six fields and submits. */
export async function enterCode(page: Page, code: string) {
  await secureFrame(page).getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code)
}

/**
 * Approve in the secure-site, once it lets you: it stays aria-disabled (and ignores clicks) until the
 * request has been fully visible for 500 ms (docs/embedded-wallet.md §7).
 */
export async function approve(page: Page) {
  const button = secureFrame(page).getByRole('button', { name: 'Approve' })
  await expect(button).toHaveAttribute('aria-disabled', 'false')
  await button.click()
}

/** The demo's "Sign a message", approved in the secure-site: the signature recovers to `address`. */
export async function signsAs(page: Page, address: string) {
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Sign a message' }).click()
  await approve(page)
  await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
  const signature = (await page.locator('#send-result').textContent())!.replace('Signed: ', '') as Hex
  const message = JSON.parse((await page.getByRole('list', { name: 'Event log' }).getByText(/^signed /).textContent())!.slice(7)).message
  expect(await recoverMessageAddress({ message, signature })).toBe(address)
}

/** The address the demo page shows for the connection. */
export async function demoAddress(page: Page): Promise<string> {
  await expect(page.locator('#status')).toHaveText('connected')
  return (await page.locator('#address').textContent())!
}

/**
 * A page in a browser profile that allows third-party cookies, as Chrome's default (non-incognito)
 * profile does: the secure frame then gets its own IndexedDB, partitioned by the top-level site.
 * Playwright's own contexts block them, like incognito. The loopback guard applies here too.
 */
export async function withStorageProfile(run: (page: Page) => Promise<void>, device: BrowserContextOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'doorway-profile-'))
  mkdirSync(join(dir, 'Default'))
  writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: config.use?.launchOptions?.executablePath,
    args: chromiumArgs,
    baseURL: config.use?.baseURL,
    ...device,
  })
  try {
    const requests = await loopbackOnly(context)
    await run(context.pages()[0] ?? (await context.newPage()))
    expect(requests, 'requests to non-loopback hosts').toEqual([])
  } finally {
    await context.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Runs in every frame before its own scripts: records the data of every message a window or a
 * MessagePort of this frame receives, bytes as hex, so nothing sent by structured clone is missed.
 */
export function recordMessages() {
  const seen: string[] = []
  ;(window as unknown as { __received: string[] }).__received = seen
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  const record = (data: unknown) => {
    try {
      seen.push(JSON.stringify(data, (_key, value: unknown) => (ArrayBuffer.isView(value) ? hex(new Uint8Array(value.buffer)) : value instanceof ArrayBuffer ? hex(new Uint8Array(value)) : value)))
    } catch {
      seen.push(String(data))
    }
  }
  window.addEventListener('message', (event) => record(event.data), true)
  const add = MessagePort.prototype.addEventListener
  MessagePort.prototype.addEventListener = function (this: MessagePort, type: string, listener: unknown, options?: unknown) {
    if (type === 'message') add.call(this, 'message', (event: Event) => record((event as MessageEvent).data))
    return add.call(this, type, listener as EventListener, options as AddEventListenerOptions)
  } as typeof add
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    ...onmessage,
    set(this: MessagePort, handler: ((event: MessageEvent) => void) | null) {
      onmessage.set!.call(this, handler && ((event: MessageEvent) => (record(event.data), handler.call(this, event))))
    },
  })
}

/**
 * What the frames received, as recorded: every frame but the secure-site's (the host page and the frame-app),
 * or with `secure`, only the secure-site's, i.e. what the frame-app sent down.
 */
export async function received(page: Page, which: 'others' | 'secure' = 'others'): Promise<string> {
  const texts: string[] = []
  for (const frame of page.frames()) {
    if ((new URL(frame.url()).origin === secureOrigin) !== (which === 'secure')) continue
    texts.push(...(await frame.evaluate(() => (window as unknown as { __received?: string[] }).__received ?? [])))
  }
  return texts.join('\n')
}
