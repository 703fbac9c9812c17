/**
 * Open speed (issue 14), asserted structurally, never with a time: before open() the frame already
 * holds the drawn view that opening shows (opening only shows it), and nothing heavy loads before the
 * person opens the modal: no feature chunk, no WalletConnect code, no secure-site.
 */
import type { Frame, Page } from '@playwright/test'
import { expect, expectClosed, hostDialog, modalFrame, ready, secureOrigin, test } from './fixtures.js'

/** Every request of the page and its frames, as they start. */
function requests(page: Page) {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return urls
}

// What a person's intent may load: the flows, WalletConnect (its views, the QR encoder and the
// connector with the relay socket), the sign-in and the embedded wallet's approval and export; and what
// only another namespace's account or a dapp's request loads (issue 23).
const heavy =
  /\/assets\/(Send|Swap|OnRamp|Receive|Activity|Nfts|RegisterAccountName|SIWXSignMessage|siwxFlow|ConnectingWalletConnect|QrCode|walletConnectConnector|ApproveTransaction|ExportWallet|sendRules|TransactionHash|SolanaSend|bitcoin|polkadot|solanaRequests|requests)-[\w-]+\.js$/

/** The frame-app's document, for waiting until it has gone idle (where the old design warmed WalletConnect). */
const frameDocument = (page: Page) => page.frames().find((f) => f.url().startsWith('http://127.0.0.1:5174'))!
const idle = (frame: Frame) => frame.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 })))

test('behavior: before open() the frame holds the drawn Connect view; opening shows that same view, not a new render', async ({ page }) => {
  await ready(page)
  const frame = modalFrame(page)
  // Hidden from assistive technology while closed, but drawn: its wallet rows laid out.
  const view = frame.locator('.view')
  const walletConnect = view.getByRole('button', { name: /^WalletConnect/, includeHidden: true })
  await expect(walletConnect).toBeAttached()
  expect((await walletConnect.boundingBox())?.height).toBeGreaterThan(0)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet', includeHidden: true })).toBeAttached()
  await expect(hostDialog(page)).toHaveJSProperty('open', false)
  // Tag the drawn view: if opening rendered the view again, the tag would be gone.
  await view.evaluate((element) => element.setAttribute('data-drawn-before-open', ''))

  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(frame.locator('.view[data-drawn-before-open]')).toBeVisible()
  await expect(hostDialog(page)).toHaveJSProperty('open', true)

  // Closing draws the view opening will show next, so the next opening is drawn too.
  await page.keyboard.press('Escape')
  await expectClosed(page)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet', includeHidden: true })).toBeAttached()
})

test('behavior: no feature chunk, WalletConnect code or secure-site is fetched before open(); WalletConnect warms once the modal opens', async ({ page }) => {
  const urls = requests(page)
  await ready(page)
  await expect(modalFrame(page).locator('.view').getByRole('button', { name: /^WalletConnect/, includeHidden: true })).toBeAttached()
  // The old design warmed WalletConnect when the frame went idle: wait for two idle periods.
  await idle(frameDocument(page))
  await idle(frameDocument(page))
  expect(urls.filter((url) => heavy.test(url) || url.startsWith(secureOrigin))).toEqual([])

  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect.poll(() => urls.some((url) => /\/assets\/walletConnectConnector-[\w-]+\.js$/.test(url))).toBe(true)
  await expect.poll(() => urls.some((url) => url.startsWith(secureOrigin))).toBe(true)
})
