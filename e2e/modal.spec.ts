import { dapp, eventLog, expect, expectFocusInFrame, frameOrigin, modalFrame, openView, ready, test } from './fixtures.js'

test.describe('opening and closing', () => {
  test('behavior: opens in a cross-site frame as a named, focused dialog', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()

    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeVisible()
    const src = await page.locator('iframe[title="Doorway wallet"]').getAttribute('src')
    expect(new URL(src!).origin).toBe(frameOrigin)
    expect(page.frames().some((f) => f.url().startsWith(frameOrigin))).toBe(true)

    const dialog = modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })
    await expect(dialog).toBeVisible()
    await expectFocusInFrame(page, dialog)
    await expect(eventLog(page)).toContainText('open {"view":"Connect"}')
  })

  test('behavior: Escape closes, focus returns to the opener and open() resolves', async ({ page }) => {
    await ready(page)
    const opener = page.getByRole('button', { name: 'Connect Wallet' })
    await opener.click()
    await expectFocusInFrame(page, modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' }))
    await page.keyboard.press('Escape')

    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()
    await expect(opener).toBeFocused()
    await expect(eventLog(page)).toContainText('close {"status":"closed"}')
    await expect(eventLog(page)).toContainText('open() resolved {"status":"closed"}')
  })

  test('behavior: a click on the backdrop closes; the close button closes', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await page.mouse.click(8, 8)
    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()

    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modalFrame(page).getByRole('button', { name: 'Close' }).click()
    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()
    await expect(eventLog(page).getByText('open() resolved {"status":"closed"}')).toHaveCount(2)
  })

  test('behavior: the page behind does not scroll while open; nothing is injected into <head>', async ({ page }) => {
    await ready(page)
    const head = await page.evaluate(() => document.head.innerHTML)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden')
    expect(await page.evaluate(() => document.head.innerHTML)).toBe(head)
    expect(await page.locator('style').count()).toBe(0)

    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible')
  })

  test('behavior: open() resolves with the state the dapp reads in getState()', async ({ page }) => {
    await ready(page)
    const opened = dapp(page, (modal) => modal.open())
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await dapp(page, (modal) => modal.getState())).toEqual({ open: true, view: 'Connect', loading: false })
    await dapp(page, (modal) => modal.close())
    await expect(opened).resolves.toEqual({ status: 'closed' })
    expect(await dapp(page, (modal) => modal.getState())).toMatchObject({ open: false })
  })
})

test.describe('view stack', () => {
  test('behavior: push a view, go back, no back button at the root', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await expect(frame.getByRole('button', { name: 'Back' })).toHaveCount(0)

    await frame.getByRole('button', { name: 'All Wallets' }).click()
    await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
    await expect(frame.getByText('The wallet catalogue is not available in this version yet.')).toBeVisible()
    expect(await dapp(page, (modal) => modal.getState().view)).toBe('AllWallets')

    await frame.getByRole('button', { name: 'Back' }).click()
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Back' })).toHaveCount(0)
  })

  test('behavior: an explicit view wins; picking a network goes back, which closes a one-view stack', async ({ page }) => {
    await ready(page)
    await openView(page, 'Networks')
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Choose Network' })).toBeVisible()
    const networks = frame.getByRole('list', { name: 'Networks' })
    await expect(networks.getByRole('button', { name: /Anvil 31337.*Active/ })).toHaveAttribute('aria-current', 'true')

    await networks.getByRole('button', { name: /Anvil 31338/ }).click()
    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeHidden()

    await openView(page, 'Networks')
    await expect(networks.getByRole('button', { name: /Anvil 31338.*Active/ })).toHaveAttribute('aria-current', 'true')
  })

  test('behavior: Account has Tokens, NFTs and Activity tabs, usable by keyboard', async ({ page }) => {
    await ready(page)
    await openView(page, 'Account')
    const frame = modalFrame(page)
    const tabs = frame.getByRole('tablist', { name: 'Account sections' })
    await expect(tabs.getByRole('tab')).toHaveText(['Tokens', 'NFTs', 'Activity'])
    await tabs.getByRole('tab', { name: 'Tokens' }).focus()
    await page.keyboard.press('ArrowRight')
    await expectFocusInFrame(page, tabs.getByRole('tab', { name: 'NFTs' }))
    await expect(tabs.getByRole('tab', { name: 'NFTs' })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('End')
    await expect(frame.getByRole('tabpanel')).toHaveText('Transaction history is not available in this version yet.')
  })
})

test.describe('keyboard only', () => {
  test('behavior: open with Enter, Tab stays inside the dialog, Escape closes', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).focus()
    await page.keyboard.press('Enter')
    const frame = modalFrame(page)
    await expectFocusInFrame(page, frame.getByRole('dialog', { name: 'Connect Wallet' }))

    const focused: string[] = []
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab')
      focused.push(await frame.locator(':focus').evaluate((el) => el.getAttribute('aria-label') ?? el.textContent ?? ''))
    }
    // The ring: Close, All Wallets, Terms of Service, Privacy Policy, then Close again.
    expect(focused).toEqual(['Close', 'All Wallets', 'Terms of Service', 'Privacy Policy', 'Close'])
    await page.keyboard.press('Shift+Tab')
    await expectFocusInFrame(page, frame.getByRole('link', { name: 'Privacy Policy' }))

    await frame.getByRole('button', { name: 'All Wallets' }).focus()
    await page.keyboard.press('Enter')
    await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Connect Wallet' }))
  })
})
