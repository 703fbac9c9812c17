/**
 * The modal as the Doorway wallet of a Solana dapp (issue 23): examples/solana lists the page's Wallet
 * Standard wallets with @wallet-standard/app and drives them with @solana/wallet-adapter's
 * StandardWalletAdapter, as wallet-adapter-react does. Doorway is one of them; connecting opens the modal,
 * and the wallet the person picks there (the dev wallet, or the email wallet) signs for the dapp.
 */
import type { Page } from '@playwright/test'
import * as SolanaKeys from '@doorway/devnet/solana/keys'
import { urls } from '@doorway/devnet/stack'
import { approve as approveInSecureSite, codeFor, enterCode, lastMailId, newEmail, secureFrame, submitEmail } from './embedded.js'
import { expect, expectAccessible, expectClosed, modalFrame, rpc, test, walletPrompt } from './fixtures.js'

const devSolana = SolanaKeys.address(0)
const freshAddress = () => SolanaKeys.address(2_000_000 + Math.floor(Math.random() * 1_000_000))
const lamports = async (address: string) => BigInt((await rpc<{ value: number }>(urls.solana, 'getBalance', [address])).value)

async function openDapp(page: Page) {
  await page.goto(`${urls.demo}solana/`)
  await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
  const wallets = page.getByRole('region', { name: 'Wallets' })
  // The modal registers beside the page's own Solana wallet; the dapp finds both.
  await expect(wallets.getByRole('button', { name: 'Connect Doorway', exact: true })).toBeVisible()
  await expect(wallets.getByRole('button', { name: 'Connect Doorway Dev Wallet' })).toBeVisible()
  return wallets
}

/** Connect Doorway: the modal opens on Connect for Solana, the person picks the dev wallet and approves. */
async function connectThroughDoorway(page: Page) {
  const wallets = await openDapp(page)
  await wallets.getByRole('button', { name: 'Connect Doorway', exact: true }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await frame.getByRole('button', { name: /Doorway Dev Wallet/ }).click()
  await expect(walletPrompt(page)).toContainText('solana')
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(page.getByRole('status')).toHaveText('Connected with Doorway')
  await expect(page.getByRole('region', { name: 'Account' })).toContainText(devSolana)
  // The modal shows the new account with its balance, as after any connection; the person closes it to go on.
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(frame.getByLabel('Balance')).toHaveText(/^[\d,]+\.\d{3} SOL$/)
  await page.keyboard.press('Escape')
  await expectClosed(page)
}

async function sendSol(page: Page, to: string, amount: string) {
  const account = page.getByRole('region', { name: 'Account' })
  await account.getByLabel('Receiver').fill(to)
  await account.getByLabel('Amount (SOL)').fill(amount)
  await account.getByRole('button', { name: 'Send SOL' }).click()
}

test.describe('a Solana dapp on @solana/wallet-adapter', () => {
  test('behavior: finds the modal as the Doorway wallet; connecting opens Connect for Solana; the dev wallet signs a message and a SOL send that lands', async ({ page }) => {
    await connectThroughDoorway(page)
    await expect(page.getByRole('region', { name: 'Account' })).toContainText(/Balance: [\d.]+ SOL/)

    await page.getByRole('button', { name: 'Sign a message' }).click()
    await expect(walletPrompt(page)).toContainText('Hello from the Solana example')
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect(page.getByRole('status')).toHaveText('Signature verified')

    const to = freshAddress()
    await sendSol(page, to, '0.01')
    await expect(walletPrompt(page)).toContainText('Sign a transaction on solana:localnet')
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await expect(page.getByRole('status')).toHaveText(/^Confirmed \w{64,88}$/)
    expect(await lamports(to)).toBe(10_000_000n)
  })

  test('behavior: closing the modal refuses the connection and the dapp says so; a refused signature sends nothing', async ({ page }) => {
    const wallets = await openDapp(page)
    await wallets.getByRole('button', { name: 'Connect Doorway', exact: true }).click()
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await expect(page.getByRole('status')).toHaveText(/^Not connected: /)
    await expect(page.getByRole('region', { name: 'Account' })).toBeHidden()

    await connectThroughDoorway(page)
    const to = freshAddress()
    await sendSol(page, to, '0.01')
    await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
    await expect(page.getByRole('status')).toHaveText(/^Not sent: /)
    expect(await lamports(to)).toBe(0n)
  })

  test('behavior: the email wallet answers for Doorway: the SOL send is approved in the secure-site and lands', async ({ page }) => {
    const wallets = await openDapp(page)
    await wallets.getByRole('button', { name: 'Connect Doorway', exact: true }).click()
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    const email = newEmail()
    const before = await lastMailId(email)
    await submitEmail(page, email)
    await expect(frame.getByRole('dialog', { name: 'Confirm Email' })).toBeVisible()
    await enterCode(page, await codeFor(email, before))
    await expect(page.getByRole('status')).toHaveText('Connected with Doorway')
    await page.keyboard.press('Escape')
    await expectClosed(page)
    const address = (await page.locator('#address').textContent())!
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    await rpc(urls.solana, 'requestAirdrop', [address, 1_000_000_000])
    await expect.poll(() => lamports(address)).toBe(1_000_000_000n)

    const to = freshAddress()
    await sendSol(page, to, '0.02')
    // The modal opens on its approval: the secure-site says what is signed, in words.
    await expect(secureFrame(page).locator('body')).toContainText('0.02 SOL')
    await expect(secureFrame(page).locator('body')).toContainText(to.slice(0, 4))
    await approveInSecureSite(page)
    await expect(page.getByRole('status')).toHaveText(/^Confirmed \w{64,88}$/)
    expect(await lamports(to)).toBe(20_000_000n)
  })
})
