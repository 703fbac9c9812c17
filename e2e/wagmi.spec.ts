/** examples/wagmi: a real client library (wagmi's injected connector) drives the modal's provider. */
import { devAccount, expect, expectClosed, modalFrame, test } from './fixtures.js'
import type { Page } from '@playwright/test'

// The dev wallet's badge has its own "Disconnect"; the example's controls live in <main>.
const app = (page: Page) => page.getByRole('main')

test.describe('wagmi example', () => {
  test('behavior: wagmi connect() opens the modal, resolves on approval, reads balance and chain, disconnects', async ({ page }) => {
    // The example asks for sign-in (siwx.spec.ts); here it is optional and declined, to reach the account.
    await page.goto('/wagmi/?siwx=optional')
    await expect(app(page).getByLabel('wagmi status')).toHaveText('disconnected')
    await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()

    await modalFrame(page).getByRole('button', { name: 'Doorway Dev Wallet' }).click()
    await page.getByRole('dialog', { name: 'Doorway Dev Wallet' }).getByRole('button', { name: 'Approve' }).click()
    await modalFrame(page).getByRole('dialog', { name: 'Sign In' }).getByRole('button', { name: 'Cancel' }).click()
    await expectClosed(page)
    await app(page).getByRole('button', { name: 'Open the modal' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()

    await expect(app(page).getByLabel('wagmi status')).toHaveText('connected')
    await expect(app(page).getByLabel('wagmi address')).toHaveText(devAccount)
    await expect(app(page).getByLabel('wagmi chain')).toHaveText('31337')
    const balance = app(page).getByLabel('wagmi balance')
    await expect(balance).toHaveText(/^\d+(\.\d+)? ETH$/)
    expect(Number.parseFloat((await balance.textContent())!)).toBeGreaterThan(0)
    await expect(page.getByRole('alert')).toHaveCount(0)

    await page.keyboard.press('Escape')
    await expectClosed(page)
    await app(page).getByRole('button', { name: 'Disconnect' }).click()
    await expect(app(page).getByLabel('wagmi status')).toHaveText('disconnected')
    await expect(app(page).getByLabel('wagmi address')).toHaveText('—')
    await expect(app(page).getByRole('button', { name: 'Connect with wagmi' })).toBeEnabled()
  })

  test('error: closing the modal rejects wagmi connect() and the page says so', async ({ page }) => {
    await page.goto('/wagmi/')
    await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()
    await modalFrame(page).getByRole('button', { name: 'Close' }).click()

    await expect(page.getByRole('alert')).toContainText('rejected')
    await expect(app(page).getByLabel('wagmi status')).toHaveText('disconnected')
  })
})
