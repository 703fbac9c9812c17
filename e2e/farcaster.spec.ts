/**
 * Sign In With Farcaster (issue 24 item 5, docs/embedded-wallet.md §5) in Chromium, against the devnet's
 * stand-in of the Farcaster connect relay and its test Farcaster app (devnet/src/farcaster/), with the
 * server checking each answer with @farcaster/auth-client against the ID registry on anvil. The phone is
 * a second page that opens what the QR code says, as a phone's camera would; each test signs in as a new
 * Farcaster account, so runs never meet each other's wallets.
 */
import { devices, type Page } from '@playwright/test'
import { approveFromMail, codeFor, demoAddress, enterCode, lastMailId, newEmail, secureFrame, signsAs } from './embedded.js'
import { expect, expectAccessible, loopbackOnly, modalFrame, ready, test } from './fixtures.js'
import { scanQr } from './walletConnect.js'

const newUsername = () => `e2e-${crypto.randomUUID().slice(0, 8)}`

/** Connect Wallet → Farcaster: the QR code, read as a phone camera would. */
async function farcasterQr(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('region', { name: 'Social login' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
  await expect(frame.getByRole('heading', { name: 'Sign in with Farcaster' })).toBeVisible()
  return scanQr(frame, 'QR code to sign in with Farcaster')
}

/** The phone: the Farcaster app at the scanned link approves, as a new account or as one it signed in with before. */
async function approveOnPhone(page: Page, uri: string, account: { username: string } | { fid: number }) {
  const phone = await page.context().newPage()
  try {
    await phone.goto(uri)
    if ('username' in account) {
      await phone.getByRole('textbox', { name: 'Username' }).fill(account.username)
      await phone.getByRole('button', { name: 'Sign in as a new account' }).click()
    } else await phone.getByRole('button', { name: new RegExp(`fid ${account.fid}\\b`) }).click()
    await expect(phone.getByText(/Signed in/)).toBeVisible()
  } finally {
    await phone.close()
  }
}

/** Farcaster shares no email: the secure-site's form says why; the mailed code links the account to that email's wallet. */
async function addEmail(page: Page, email: string) {
  const secure = secureFrame(page)
  await expect(secure.getByText('Farcaster signed you in, but it shares no email.', { exact: false })).toBeVisible()
  const before = await lastMailId(email)
  await secure.getByRole('textbox', { name: 'Email' }).fill(email)
  // The form fits its slot with the note above it: Continue is on screen, not clipped below.
  await expect(secure.getByRole('button', { name: 'Continue', exact: true })).toBeInViewport({ ratio: 1 })
  await secure.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Confirm Email' })).toBeVisible()
  await enterCode(page, await codeFor(email, before))
}


test('behavior: a new Farcaster account approves from the QR code, adds an email and gets a wallet that signs; its name shows in Account', async ({ page }) => {
  test.setTimeout(90_000)
  const username = newUsername()
  const email = newEmail()
  await ready(page)
  const uri = await farcasterQr(page)
  await expectAccessible(page)
  await approveOnPhone(page, uri, { username })
  await addEmail(page, email)
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByText(username)).toBeVisible()
  const user = await page.evaluate(() => (window as unknown as { modal: { getState(): { user?: { email: string; username?: string } } } }).modal.getState().user)
  expect(user).toMatchObject({ email, username })
  await signsAs(page, await demoAddress(page))
})

test('behavior: the same Farcaster account on another browser reaches the same wallet, after the mailed approval of that browser', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const username = newUsername()
  const email = newEmail()
  await ready(page)
  const first = await farcasterQr(page)
  // The test app keeps the accounts it made: the fid is what the page said it signed in as.
  const phone = await page.context().newPage()
  await phone.goto(first)
  await phone.getByRole('textbox', { name: 'Username' }).fill(username)
  await phone.getByRole('button', { name: 'Sign in as a new account' }).click()
  const fid = Number(/fid (\d+)/.exec((await phone.getByText(/\(fid \d+\) signed in to/).textContent()) ?? '')?.[1])
  await phone.close()
  expect(fid).toBeGreaterThan(0)
  await addEmail(page, email)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  const address = await demoAddress(page)

  const other = await browser.newContext()
  const outside = await loopbackOnly(other)
  try {
    const second = await other.newPage()
    await ready(second)
    const before = await lastMailId(email)
    await approveOnPhone(second, await farcasterQr(second), { fid })
    // Linked already: no email to add, but this browser is a new device for the wallet.
    await expect(modalFrame(second).getByRole('dialog', { name: 'Approve this browser' })).toBeVisible()
    await approveFromMail(second, email, before)
    await expect(modalFrame(second).getByRole('dialog', { name: 'Account' })).toBeVisible()
    expect(await demoAddress(second)).toBe(address)
    expect(outside, 'requests to non-loopback hosts').toEqual([])
  } finally {
    await other.close()
  }
})

test('error: Cancel ends the sign-in: an approval that comes later connects nothing', async ({ page }) => {
  await ready(page)
  const uri = await farcasterQr(page)
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: 'Cancel' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await approveOnPhone(page, uri, { username: newUsername() })
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(page.locator('#status')).toHaveText('disconnected')
})

test('behavior: on a phone (Pixel 7) there is no QR code to scan: "Open Farcaster" opens the app, which approves', async ({ browser }) => {
  test.setTimeout(90_000)
  const context = await browser.newContext(devices['Pixel 7'])
  const outside = await loopbackOnly(context)
  try {
    const page = await context.newPage()
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('region', { name: 'Social login' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
    await expect(frame.getByRole('heading', { name: 'Sign in with Farcaster' })).toBeVisible()
    await expect(frame.getByRole('img', { name: 'QR code to sign in with Farcaster' })).toHaveCount(0)
    const app = page.waitForEvent('popup')
    await frame.getByRole('button', { name: 'Open Farcaster' }).click()
    const phone = await app
    await phone.getByRole('textbox', { name: 'Username' }).fill(newUsername())
    await phone.getByRole('button', { name: 'Sign in as a new account' }).click()
    await expect(phone.getByText(/\(fid \d+\) signed in to/)).toBeVisible()
    await phone.close()
    await addEmail(page, newEmail())
    await expect(frame.getByRole('dialog', { name: 'Account' })).toBeInViewport({ ratio: 1 })
    expect(outside, 'requests to non-loopback hosts').toEqual([])
  } finally {
    await context.close()
  }
})
