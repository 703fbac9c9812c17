/** The api behind the modal (issue 4): balances in the Tokens tab, analytics and its allowlist alert. */
import type { Page } from '@playwright/test'
import { apiOrigin, connectDevWallet, expect, expectClosed, modalFrame, ready, test } from './fixtures.js'

/** Records the api calls every frame makes. */
function apiCalls(page: Page) {
  const calls: URL[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin === apiOrigin) calls.push(url)
  })
  return calls
}

test('behavior: connected, the Tokens tab shows ETH and every ERC-20 balance with values', async ({ page }) => {
  const calls = apiCalls(page)
  await ready(page)
  await connectDevWallet(page)
  const tokens = modalFrame(page).getByRole('list', { name: 'Tokens' })
  await expect(tokens.getByRole('listitem')).toHaveCount(4)
  await expect(tokens.getByRole('listitem').filter({ hasText: /^Ether/ })).toContainText(/[\d,]+\.\d{3} ETH\$[\d,]+\.\d{2}/)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Doorway USD' })).toContainText(/[\d,]+\.\d{3} DUSD\$[\d,]+\.\d{2}/)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Doorway Token' })).toContainText(/[\d,]+\.\d{3} DWT\$[\d,]+\.\d{2}/)
  await expect(tokens.getByRole('listitem').filter({ hasText: 'Doorway Tether USD' })).toContainText(/[\d,]+\.\d{3} DUSDT\$[\d,]+\.\d{2}/)

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
  await expectClosed(page)
  expect(calls.filter((u) => u.pathname === '/e' || u.pathname === '/getAnalyticsConfig')).toEqual([])
})

test('behavior: with analytics on, opening the modal sends an event', async ({ page }) => {
  await ready(page, '?features={"analytics":true}')
  const sent = page.waitForRequest((r) => r.url().startsWith(`${apiOrigin}/e?`) && r.method() === 'POST')
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
  await expectClosed(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(alert).toHaveCount(0)
})

test.describe('wallet catalogue', () => {
  test('behavior: Connect shows recommended wallets and the All Wallets count', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await expect(frame.getByRole('list', { name: 'Recommended wallets' }).getByRole('button')).toHaveCount(4)
    await expect(frame.getByRole('button', { name: /^All Wallets \d+$/ })).toBeVisible()
  })

  test('behavior: All Wallets pages by 40 on scroll and a search narrows the list', async ({ page }) => {
    const calls = apiCalls(page)
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /^All Wallets/ }).click()
    const list = frame.getByRole('list', { name: 'All wallets' })
    await expect(list.getByRole('listitem').first()).toBeVisible()
    const pages = () => calls.filter((u) => u.pathname === '/getWallets' && u.searchParams.get('entries') === '40').map((u) => u.searchParams.get('page'))
    expect(pages()).toEqual(['1'])
    // The list is virtualised: scrolling to its end asks for page 2.
    await list.locator('xpath=..').evaluate((grid) => grid.scrollTo(0, grid.scrollHeight))
    await expect.poll(pages).toEqual(['1', '2'])
    await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', /^(4[1-9]|[5-9]\d)$/)

    await frame.getByRole('searchbox', { name: 'Search wallets' }).fill('rain')
    await expect(list.getByRole('button', { name: 'Rainbow' })).toBeVisible()
    await expect(list.getByRole('listitem')).toHaveCount(1)
    const search = calls.find((u) => u.searchParams.get('search') === 'rain')!
    expect(search.searchParams.get('entries')).toBe('100')

    await frame.getByRole('searchbox', { name: 'Search wallets' }).fill('no such wallet')
    await expect(frame.getByText('No wallet matches your search.')).toBeVisible()
  })

  test('behavior: a search waits 300 ms after the last keystroke and is sent once (spec §9)', async ({ page }) => {
    const calls = apiCalls(page)
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /^All Wallets/ }).click()
    const searchbox = frame.getByRole('searchbox', { name: 'Search wallets' })
    // The frame's own clock: when the last keystroke changed the field, and when the search was sent.
    await searchbox.evaluate((box) => box.addEventListener('input', () => (box.dataset.typedAt = String(performance.now()))))
    await searchbox.pressSequentially('rain', { delay: 50 })
    await expect(frame.getByRole('list', { name: 'All wallets' }).getByRole('listitem')).toHaveCount(1)
    expect(calls.filter((u) => u.searchParams.has('search')).map((u) => u.searchParams.get('search'))).toEqual(['rain'])
    const waitedMs = await searchbox.evaluate((box) => {
      const [sent] = performance.getEntriesByType('resource').filter((e) => e.name.includes('search=rain'))
      return sent!.startTime - Number(box.dataset.typedAt)
    })
    expect(waitedMs).toBeGreaterThanOrEqual(300)
  })

  test('behavior: include and exclude ids are honoured; installed wallets connect as extensions, others by WalletConnect', async ({ page }) => {
    await ready(page, '?options={"includeWalletIds":["rainbow","trust","metamask"],"excludeWalletIds":["trust"]}')
    // A wallet with MetaMask's rdns is installed on this page (it declines every request).
    await page.evaluate(() => {
      const info = { uuid: crypto.randomUUID(), name: 'MetaMask', icon: 'data:image/svg+xml,', rdns: 'io.metamask' }
      const provider = { request: () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })) }
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
    })
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await frame.getByRole('button', { name: /^All Wallets/ }).click()
    const list = frame.getByRole('list', { name: 'All wallets' })
    await expect(list.getByRole('button')).toHaveText(['MetaMask', 'Rainbow'])

    await list.getByRole('button', { name: 'Rainbow' }).click()
    await expect(frame.getByRole('dialog', { name: 'WalletConnect' })).toBeVisible()
    await frame.getByRole('button', { name: 'Back' }).click()
    await list.getByRole('button', { name: 'MetaMask' }).click()
    await expect(frame.getByRole('dialog', { name: 'Connecting' })).toBeVisible()
    await expect(frame.getByRole('alert')).toContainText('Connection declined')
  })
})
