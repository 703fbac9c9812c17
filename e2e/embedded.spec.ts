/**
 * The embedded (email) wallet end to end (issue 9): a code from the real mail sink, keys only in the
 * secure-site, approval inside the secure-site's own frame, real signatures and transactions on anvil.
 */
import { recoverMessageAddress, type Hex } from 'viem'
import { approve, approveFromMail, codeFor, inbox, demoAddress, enterCode, lastMailId, loginByEmail, newEmail, secureFrame, submitEmail, untilCodeStep, withStorageProfile } from './embedded.js'
import type { Route } from '@playwright/test'
import { urls } from '@doorway/devnet/stack'
import { test as base, expect, expectAccessible, modalFrame, ready, rpc, rpcUrl, secureOrigin } from './fixtures.js'

/**
 * Playwright's contexts, like Chrome's incognito, block third-party cookies, so Chromium denies the
 * secure frame its IndexedDB: the device lives in memory for the page's life (the first test). A
 * profile that allows them (withStorageProfile) keeps the device across reloads.
 */
const test = base
/** anvil account 2 of the test mnemonic. */
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

test.describe('embedded wallet', () => {
  test('behavior: where the browser denies the secure frame its storage (incognito), login still works for the page\'s life', async ({ page }) => {
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    await demoAddress(page)
    await page.reload()
    await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
    await expect(page.locator('#status')).toHaveText('disconnected')
  })

  test('behavior: where the browser gives the secure frame its storage, a reload keeps the session: no code, same address, still signs', async () => {
    test.setTimeout(90_000)
    await withStorageProfile(async (page) => {
      const email = newEmail()
      await ready(page)
      await loginByEmail(page, email)
      const address = await demoAddress(page)
      const mails = await lastMailId(email)
      await page.reload()
      expect(await demoAddress(page)).toBe(address)
      await page.getByRole('button', { name: 'Sign a message' }).click()
      await approve(page)
      await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
      expect(await lastMailId(email)).toBe(mails)
    })
  })

  test('behavior: email login by code; the demo signs and sends after approval in the secure-site; sign out ends the session', async ({ page }) => {
    test.setTimeout(120_000)
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    await expectAccessible(page)
    const address = await demoAddress(page)
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // personal_sign: the modal opens on ApproveTransaction and the secure-site shows the message itself.
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Sign a message' }).click()
    const approval = secureFrame(page)
    await expect(modalFrame(page).getByRole('dialog', { name: 'Approve Transaction' })).toBeVisible()
    await expect(approval.getByText(/Hello from the Doorway demo/)).toBeVisible()
    await expect(approval.getByText('http://localhost:5173', { exact: false })).toBeVisible()
    await approve(page)
    await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
    const signature = (await page.locator('#send-result').textContent())!.replace('Signed: ', '') as Hex
    const message = JSON.parse((await page.getByRole('list', { name: 'Event log' }).getByText(/^signed /).textContent())!.slice(7)).message
    expect(await recoverMessageAddress({ message, signature })).toBe(address)

    // A new wallet has no ETH: the devnet faucet, then a real transaction, mined.
    await page.getByRole('button', { name: 'Fund 1 ETH (devnet)' }).click()
    await expect(page.locator('#send-result')).toHaveText('Funded 1 ETH on the devnet')
    await page.getByRole('button', { name: 'Send 0.001 ETH to yourself' }).click()
    await expect(approval.getByText('Send a transaction')).toBeVisible()
    await approve(page)
    await expect(page.locator('#send-result')).toHaveText(/^Sent: 0x[0-9a-f]{64}$/)
    const hash = (await page.locator('#send-result').textContent())!.replace('Sent: ', '')
    await expect.poll(() => rpc<{ status: string; from: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1', from: address.toLowerCase() })

    // Sign out ends the session on this device: after a reload it stays signed out.
    await expect(page.locator('#send-result')).toHaveText(/^Sent:/)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modalFrame(page).getByRole('button', { name: 'Sign out' }).click()
    await expect(page.locator('#status')).toHaveText('disconnected')
    await page.reload()
    await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
    await expect(page.locator('#status')).toHaveText('disconnected')
  })

  test('security: a second host site is a new device: throttled for the same email, then the code alone unlocks nothing; the wallet comes back, same address, only once the person approves it from the mail', async ({ page }) => {
    test.setTimeout(150_000)
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    const address = await demoAddress(page)

    // 127.0.0.1 is another top-level site: the secure-site's storage there is a new partition.
    await page.goto('http://127.0.0.1:5173/')
    await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
    await expect(page.locator('#status')).toHaveText('disconnected')
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    // Within 30 s of the first code: refused by the server, whichever site asks (spec §5).
    const before = await lastMailId(email)
    await submitEmail(page, email)
    await expect(secureFrame(page).getByRole('alert')).toHaveText(/^Please try again after \d+ seconds$/)
    // The throttle counts down on Continue itself, which stays disabled until it ends.
    await expect(secureFrame(page).getByRole('button', { name: /^Continue in \d+ s$/ })).toBeDisabled()
    await untilCodeStep(page)
    const codeMail = (await inbox(email)).filter((m) => m.id > before).at(-1)!
    // The code mail names the origin the browser attested, not whatever the page claimed.
    expect(codeMail.text).toContain('http://127.0.0.1:5173.')
    await enterCode(page, await codeFor(email, before))
    // The code proved the email, nothing more: this browser waits for the person's approval.
    await expect(modalFrame(page).getByRole('dialog', { name: 'Approve this browser' })).toBeVisible()
    await expect(modalFrame(page).getByRole('status').filter({ hasText: /waiting/i })).toBeVisible()
    await expect(page.locator('#status')).toHaveText('disconnected')
    const shown = await approveFromMail(page, email, before)
    // The vault's page names the attested origin and the browser, so the person knows what they approve.
    expect(shown).toContain('http://127.0.0.1:5173')
    expect(shown).toMatch(/Chrome \d+/)
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
    expect(await demoAddress(page)).toBe(address)
    // The vault tells the owner, in its own mail, that a device recovered the wallet.
    await expect.poll(async () => (await inbox(email)).some((m) => m.id > before && /recovered/i.test(m.subject))).toBe(true)
  })

  test('error: a wrong code says so and keeps the code step; a malformed email never leaves the secure-site; both screens pass axe', async ({ page }) => {
    const email = newEmail()
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await submitEmail(page, 'not-an-email')
    await expect(secureFrame(page).getByRole('alert')).toHaveText('Enter a valid email address')
    await expectAccessible(page, { origin: secureOrigin, selector: 'section' })

    await submitEmail(page, email)
    const code = await codeFor(email)
    const wrong = code === '000000' ? '111111' : '000000'
    await enterCode(page, wrong)
    await expect(secureFrame(page).getByRole('alert')).toHaveText('That code is not right. 4 attempts left.')
    await expect(modalFrame(page).getByRole('dialog', { name: 'Confirm Email' })).toBeVisible()
    await expectAccessible(page)
    await expectAccessible(page, { origin: secureOrigin, selector: 'section' })
    await enterCode(page, code)
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  })

  test('error: a code spent by wrong tries closes its digit fields; the new code it offers, once one may be sent, signs in', async ({ page }) => {
    test.setTimeout(120_000)
    const email = newEmail()
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await submitEmail(page, email)
    const code = await codeFor(email)
    const wrong = code === '000000' ? '111111' : '000000'
    const secure = secureFrame(page)
    const firstDigit = secure.getByRole('textbox', { name: 'Digit 1 of 6' })
    for (const left of ['4 attempts', '3 attempts', '2 attempts', '1 attempt']) {
      await enterCode(page, wrong)
      await expect(secure.getByRole('alert')).toHaveText(`That code is not right. ${left} left.`)
    }
    await enterCode(page, wrong)
    await expect(secure.getByRole('alert')).toHaveText('That code is not right. This was the last attempt: request a new code.')
    await expect(firstDigit).toBeDisabled()
    await expect(secure.getByRole('button', { name: /^Continue/ })).toBeDisabled()
    // The new code is the way on, offered once one may be sent (30 s after the last, spec §5).
    const newCode = secure.getByRole('button', { name: 'Send a new code', exact: true })
    await expect(newCode).toBeEnabled({ timeout: 45_000 })
    const resent = await lastMailId(email)
    await newCode.click()
    await expect(firstDigit).toBeEnabled()
    await enterCode(page, await codeFor(email, resent))
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  })

  test('error: an unknown method is refused with a toast; closing during approval rejects with 4001 and signs nothing', async ({ page }) => {
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    const refused = await page.evaluate(() =>
      (window as unknown as { modal: { getProvider(): { request(a: unknown): Promise<unknown> } } }).modal
        .getProvider()
        .request({ method: 'eth_sign', params: ['0x0000000000000000000000000000000000000000', '0x00'] })
        .catch((e: { code: number; message: string }) => ({ code: e.code, message: e.message })),
    )
    expect(refused).toEqual({ code: 4200, message: 'Action not allowed: eth_sign' })
    await expect(modalFrame(page).getByRole('status').filter({ hasText: 'Action not allowed: eth_sign' })).toBeVisible()

    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Sign a message' }).click()
    await expect(secureFrame(page).getByRole('button', { name: /Approve/ })).toBeVisible()
    await modalFrame(page).getByRole('button', { name: 'Close' }).click()
    await expect(page.locator('#send-result')).toHaveText(/^Not signed: .* \(code 4001\)$/)
    expect(await page.getByRole('list', { name: 'Event log' }).getByText(/^signed /).count()).toBe(0)
  })

  test('error: a stalled mail sink fails within 30 s with its message and a retry; a secure server that never answers fails at 30 s (spec §7); nothing is lost and nothing connects later', async ({ page, context }) => {
    test.setTimeout(150_000)
    const email = newEmail()
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    const secure = secureFrame(page)
    const retry = secure.getByRole('button', { name: 'Try again' })

    // The mail server accepts the connection and never the mail: the server gives up in 25 s and says so.
    await fetch(`${urls.mail}/stall`, { method: 'POST' })
    try {
      await submitEmail(page, email)
      await expect(secure.getByRole('alert')).toHaveText('The code email could not be sent. Try again in a moment.', { timeout: 40_000 })
    } finally {
      await fetch(`${urls.mail}/resume`, { method: 'POST' })
    }
    await expect(secure.getByRole('textbox', { name: 'Email' })).toHaveValue(email)

    // The secure-site's server never answers at all: the modal gives up at 30 s (spec §7).
    const held: Route[] = []
    await context.route(`${secureOrigin}/v1/email/start`, (route) => void held.push(route))
    await retry.click()
    await expect(secure.getByRole('alert')).toHaveText('The secure wallet did not answer in 30 seconds. Check your connection and try again.', { timeout: 45_000 })
    await context.unroute(`${secureOrigin}/v1/email/start`)
    for (const route of held) await route.abort().catch(() => {})
    expect(held.length).toBeGreaterThan(0)
    await expect(frame.getByRole('dialog', { name: 'Email', exact: true })).toBeVisible()

    // Once both work again, the same email goes through.
    const before = await lastMailId(email)
    await retry.click()
    await expect(frame.getByRole('dialog', { name: 'Confirm Email' })).toBeVisible()
    await enterCode(page, await codeFor(email, before))
    await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  })

  test('behavior: the modal\'s Send flow sends through the email wallet unchanged: approved in the secure-site, then the result view', async ({ page }) => {
    test.setTimeout(90_000)
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    const address = await demoAddress(page)
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Fund 1 ETH (devnet)' }).click()
    await expect(page.locator('#send-result')).toHaveText('Funded 1 ETH on the devnet')

    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
    await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /Ether/ }).click()
    await frame.getByLabel(/^Amount/).fill('0.01')
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByLabel('Address or name').fill(receiver)
    await frame.getByRole('button', { name: 'Continue' }).click()
    await frame.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(secureFrame(page).getByText('Send a transaction')).toBeVisible()
    await approve(page)
    await expect(frame.getByRole('dialog', { name: 'Transaction' })).toBeVisible()
    const hash = await frame.getByLabel('Transaction hash', { exact: true }).getAttribute('title')
    await expect.poll(() => rpc<{ status: string; from: string; to: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({
      status: '0x1',
      from: address.toLowerCase(),
      to: receiver.toLowerCase(),
    })
  })
})
