/**
 * The person sees and controls where their embedded wallet is open (issue 22, docs/embedded-wallet.md
 * §10): signed in on one site and, approved from the mail, on a second top-level site (another device:
 * the secure-site's storage is partitioned by site), they open Account → Devices and activity on the
 * first, see both browsers and the activity (checked against the vault's head), remove the second, and
 * that browser's next signature is refused although its key was still unlocked in memory.
 */
import type { Page } from '@playwright/test'
import { approve, approveFromMail, codeFor, demoAddress, enterCode, inbox, lastMailId, loginByEmail, newEmail, secureFrame, submitEmail, untilCodeStep } from './embedded.js'
import { test, expect, expectAccessible, modalFrame, secureOrigin, ready } from './fixtures.js'

const otherSite = 'http://127.0.0.1:5173'

/** The same person on another top-level site: a code (once the 30 s throttle allows), then approval from the mail. */
async function signInElsewhere(page: Page, email: string) {
  await page.goto(`${otherSite}/`)
  await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const before = await lastMailId(email)
  await submitEmail(page, email)
  await untilCodeStep(page)
  await enterCode(page, await codeFor(email, before))
  await expect(modalFrame(page).getByRole('dialog', { name: 'Approve this browser' })).toBeVisible()
  await approveFromMail(page, email, before)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
}

test.describe('embedded wallet devices and activity', () => {
  test('security: the person sees both browsers and the verified activity, removes the other one from here, and its next signature fails', async ({ page, context }) => {
    test.setTimeout(180_000)
    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    const address = await demoAddress(page)
    const other = await context.newPage()
    await signInElsewhere(other, email)
    expect(await demoAddress(other)).toBe(address)

    // From the first browser: Account → Devices and activity, the secure-site's own screen over the view.
    await page.bringToFront()
    await modalFrame(page).getByRole('button', { name: 'Devices and activity' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Devices and Activity' })).toBeVisible()
    const secure = secureFrame(page)
    await expect(secure.getByRole('heading', { name: 'Devices and activity' })).toBeVisible()
    const devices = secure.getByRole('list', { name: 'Devices' }).getByRole('listitem')
    await expect(devices).toHaveCount(2)
    const here = devices.filter({ hasText: 'This browser' })
    const there = devices.filter({ hasText: otherSite })
    await expect(here).toContainText('http://localhost:5173')
    await expect(here).toContainText(/Chrome \d+/)
    await expect(there).toContainText(/Chrome \d+/)
    await expect(there).not.toContainText('This browser')
    const activity = secure.getByRole('list', { name: 'Activity' })
    for (const words of ['Signed in', 'Wallet created', 'Approval link sent', 'Recovered on a new browser']) await expect(activity).toContainText(words)
    await expect(secure.getByText('Activity log verified by the vault')).toBeVisible()
    await expect(secure.getByText("Automatic recovery: the operator's server and vault together could recover this wallet.")).toBeVisible()
    await expectAccessible(page, { origin: secureOrigin, selector: 'section' })

    // Remove the other browser. Chromium drops a click on a cross-origin frame that has only just been
    // placed: click once the secure-site has seen its screen still and visible (the same gate as Approve).
    await expect(secure.locator('section.security')).toHaveAttribute('data-visibility', 'ready')
    const mails = await lastMailId(email)
    await secure.getByRole('button', { name: new RegExp(`^Remove .* at ${otherSite.replace(/\./g, '\\.')}`) }).click()
    await expect(secure.getByText(/^Remove Chrome \d+.* at http:\/\/127\.0\.0\.1:5173\?/)).toBeVisible()
    const removeDevice = secure.getByRole('button', { name: 'Remove device' })
    await expect(removeDevice).toHaveAttribute('aria-disabled', 'false')
    await removeDevice.click()
    // Signed in here a few minutes ago at most: fresh enough, so no code (docs/embedded-wallet.md §3, as the
    // export); past 5 minutes a code is mailed first (secure-site/src/security/Manage.test.ts).
    await expect(secure.getByRole('status').filter({ hasText: 'The device was removed.' })).toBeVisible()
    await expect(there).toContainText('Removed')
    await expect(secure.getByRole('button', { name: /^Remove / })).toHaveCount(0)
    await expect(activity).toContainText('Device removed')
    await expect(secure.getByText('Activity log verified by the vault')).toBeVisible()
    // The owner is told by mail.
    await expect.poll(async () => (await inbox(email)).filter((m) => m.id > mails).map((m) => m.subject)).toContain('A device was removed from your Doorway wallet')
    await secure.getByRole('button', { name: 'Done' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()

    // The removed browser still had its key unlocked in memory: its next signature is refused before anything shows.
    await other.bringToFront()
    await other.keyboard.press('Escape')
    await other.getByRole('button', { name: 'Sign a message' }).click()
    await expect(other.locator('#send-result')).toHaveText(/^Not signed: .* \(code 4100\)$/)
    expect(await other.getByRole('list', { name: 'Event log' }).getByText(/^signed /).count()).toBe(0)

    // This browser still signs.
    await page.bringToFront()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Sign a message' }).click()
    await approve(page)
    await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
  })
})
