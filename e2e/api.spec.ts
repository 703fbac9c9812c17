/** The api behind the modal (issue 4): balances in the Tokens tab, analytics and its allowlist alert. */
import type { Page } from '@playwright/test'
import { connectDevWallet, expect, modalFrame, ready, test } from './fixtures.js'

/** Records the api calls every frame makes. */
function apiCalls(page: Page) {
  const calls: URL[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin === 'http://127.0.0.1:8787') calls.push(url)
  })
  return calls
}

test('behavior: connected, the Tokens tab shows ETH and both ERC-20 balances with values', async ({ page }) => {
  const calls = apiCalls(page)
  await ready(page)
  await connectDevWallet(page)
  const tokens = modalFrame(page).getByRole('list', { name: 'Tokens' })
  await expect(tokens.getByRole('listitem')).toHaveCount(3)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Ether' })).toContainText(/[\d,]+\.\d{3} ETH\$[\d,]+\.\d{2}/)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Doorway USD' })).toContainText(/[\d,]+\.\d{3} DUSD\$[\d,]+\.\d{2}/)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Doorway Token' })).toContainText(/[\d,]+\.\d{3} DWT\$[\d,]+\.\d{2}/)

  // spec §7: every call carries projectId, st and sv.
  const balance = calls.find((u) => u.pathname.endsWith('/balance'))!
  expect(Object.fromEntries(balance.searchParams)).toMatchObject({ projectId: 'doorway-demo', st: 'appkit', chainId: 'eip155:31337', currency: 'usd' })
  expect(balance.searchParams.get('sv')).toMatch(/^html-doorway-/)
})

test('behavior: analytics is off unless the dapp turns it on: no event is sent', async ({ page }) => {
  const calls = apiCalls(page)
  await ready(page)
  await connectDevWallet(page)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()
  expect(calls.filter((u) => u.pathname === '/e' || u.pathname === '/getAnalyticsConfig')).toEqual([])
})

test('behavior: with analytics on, opening the modal sends an event', async ({ page }) => {
  await ready(page, '?features={"analytics":true}')
  const sent = page.waitForRequest((r) => r.url().startsWith('http://127.0.0.1:8787/e?') && r.method() === 'POST')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const event = (await sent).postDataJSON() as { domain: string; props: { event: string } }
  expect(event).toMatchObject({ domain: 'http://localhost:5173', props: { event: 'MODAL_OPEN' } })
  await expect(modalFrame(page).getByRole('alert')).toHaveCount(0)
})

test("error: an origin off the project's allowlist shows 'Invalid App Configuration', once", async ({ page }) => {
  await ready(page, '?projectId=doorway-foreign&features={"analytics":true}')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  const alert = frame.getByRole('alert')
  await expect(alert).toContainText('Invalid App Configuration')
  await expect(alert).toContainText('Origin http://localhost:5173 not found on Allowlist - update configuration')
  await frame.getByRole('button', { name: 'Dismiss alert' }).click()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(alert).toHaveCount(0)
})
