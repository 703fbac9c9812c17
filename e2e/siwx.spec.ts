/**
 * Sign in with X on connect (issue 13, spec §4): the wagmi example requires sign-in through
 * `@doorway/sdk/siwx` and the example server (examples/siwx-server), which verifies the signature and
 * keeps the session in a cookie. `?siwx=optional` makes it optional.
 */
import type { Page } from '@playwright/test'
import { chains, urls } from '@doorway/devnet/stack'
import * as TestWallet from '@doorway/devnet/testWallet'
import { approve, codeFor, lastMailId, newEmail, secureFrame, submitEmail, enterCode } from './embedded.js'
import { devAccount, expect, expectAccessible, expectClosed, hostDialog, modalFrame, test, walletPrompt } from './fixtures.js'
import { scanQr } from './walletConnect.js'

const app = (page: Page) => page.getByRole('main')
const signView = (page: Page) => modalFrame(page).getByRole('dialog', { name: 'Sign In' })
const signInStatus = (page: Page) => app(page).getByLabel('sign-in status')

/** wagmi's connect → the dev wallet → approve the connection; the sign view follows. */
async function connect(page: Page, search = '') {
  await page.goto(`/wagmi/${search}`)
  await expect(signInStatus(page)).toHaveText('Not signed in')
  await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()
  await modalFrame(page).getByRole('button', { name: 'Doorway Dev Wallet' }).click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(signView(page)).toBeVisible()
}

test.describe('sign-in required', () => {
  test('behavior: connecting opens SIWXSignMessage with close disabled; signing closes the modal and the server has a verified session', async ({ page }) => {
    await connect(page)
    await expect(signView(page)).toContainText(`${'http://localhost:5173'} asks you to sign in`)
    await expect(signView(page).getByRole('button', { name: 'Close' })).toBeDisabled()
    await expectAccessible(page)
    // Escape does not close it either.
    await page.keyboard.press('Escape')
    await expect(signView(page)).toBeVisible()

    await signView(page).getByRole('button', { name: 'Sign in' }).click()
    await expect(walletPrompt(page)).toContainText('localhost:5173 wants you to sign in with your Ethereum account')
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expectClosed(page)
    await expect(signInStatus(page)).toHaveText(new RegExp(`^Signed in as ${devAccount} on eip155:31337 \\(verified by the server\\)$`, 'i'))
    await expect(app(page).getByLabel('wagmi status')).toHaveText('connected')

    // A reload with a live session asks nothing.
    await page.reload()
    await expect(app(page).getByLabel('wagmi status')).toHaveText('connected')
    await expect(signInStatus(page)).toHaveText(/^Signed in as/)
    await expect(hostDialog(page)).toHaveJSProperty('open', false)
  })

  test('error: declining the signature shows "Signature declined" and asks again', async ({ page }) => {
    await connect(page)
    await signView(page).getByRole('button', { name: 'Sign in' }).click()
    await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
    await expect(signView(page).getByRole('alert')).toHaveText('Signature declined')
    await expect(signView(page).getByRole('button', { name: 'Close' })).toBeDisabled()
    await expect(signView(page).getByRole('button', { name: 'Sign in' })).toBeEnabled()
    await expect(signInStatus(page)).toHaveText('Not signed in')
  })

  test('behavior: cancelling disconnects', async ({ page }) => {
    await connect(page)
    await signView(page).getByRole('button', { name: 'Cancel and disconnect' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await expect(app(page).getByLabel('wagmi status')).toHaveText('disconnected')
    await expect(signInStatus(page)).toHaveText('Not signed in')
  })
})

test.describe('sign-in optional', () => {
  test('behavior: with getRequired false, close is enabled and cancelling only closes; the wallet stays connected', async ({ page }) => {
    await connect(page, '?siwx=optional')
    await expect(signView(page).getByRole('button', { name: 'Close' })).toBeEnabled()
    await signView(page).getByRole('button', { name: 'Cancel' }).click()
    await expectClosed(page)
    await expect(app(page).getByLabel('wagmi status')).toHaveText('connected')
    await expect(signInStatus(page)).toHaveText('Not signed in')
  })
})

test('behavior: open() settles with the signed-in session', async ({ page }) => {
  await page.goto('/wagmi/')
  await app(page).getByRole('button', { name: 'Open the modal' }).click()
  await modalFrame(page).getByRole('button', { name: 'Doorway Dev Wallet' }).click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await signView(page).getByRole('button', { name: 'Sign in' }).click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expectClosed(page)
  await expect(app(page).getByLabel('open() result')).toHaveText(new RegExp(`^connected, signed in as ${devAccount}$`, 'i'))
  await expect(signInStatus(page)).toHaveText(/^Signed in as/)
})

test.describe('every connector signs in', () => {
  test('behavior: the email wallet signs in through the secure-site’s approval; close stays disabled there', async ({ page }) => {
    const email = newEmail()
    const before = await lastMailId(email)
    await page.goto('/wagmi/')
    await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()
    await submitEmail(page, email)
    await enterCode(page, await codeFor(email, before))
    await expect(signView(page)).toBeVisible()
    await signView(page).getByRole('button', { name: 'Sign in' }).click()

    const approval = modalFrame(page).getByRole('dialog', { name: 'Approve Transaction' })
    await expect(approval.getByRole('button', { name: 'Close' })).toBeDisabled()
    await expect(secureFrame(page).getByText('localhost:5173 wants you to sign in with your Ethereum account')).toBeVisible()
    await approve(page)
    await expectClosed(page)
    await expect(signInStatus(page)).toHaveText(/^Signed in as 0x[0-9a-fA-F]{40} on eip155:31337 \(verified by the server\)$/)
    expect((await signInStatus(page).textContent())!.toLowerCase()).toContain((await app(page).getByLabel('wagmi address').textContent())!.toLowerCase())
  })

  test('behavior: a WalletConnect wallet signs in; the server verifies its account', async ({ page }, info) => {
    const wallet = await TestWallet.create({ relayUrl: urls.relay, chains, accountIndex: 1, storagePrefix: `e2e-siwx-${info.testId}-${Date.now()}` })
    try {
      await page.goto('/wagmi/')
      await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()
      await modalFrame(page).getByRole('button', { name: /^WalletConnect/ }).click()
      expect(await wallet.pair(await scanQr(modalFrame(page)))).toBeDefined()
      await expect(signView(page)).toBeVisible()
      await signView(page).getByRole('button', { name: 'Sign in' }).click()
      await expectClosed(page)
      await expect(signInStatus(page)).toHaveText(/^Signed in as 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 on eip155:31337 \(verified by the server\)$/i)
      expect(wallet.requests().map((r) => r.method)).toContain('personal_sign')
    } finally {
      await wallet.stop()
    }
  })
})
