/**
 * Buy crypto (issue 12) end to end, offline: the modal's form and quote from the api, the devnet's sandbox
 * provider page opened from the top window, paid by test card or bank, and the funds delivered on anvil.
 */
import type { BrowserContext, FrameLocator, Page } from '@playwright/test'
import { type Hex, encodeFunctionData, erc20Abi, formatUnits, parseEther, parseUnits } from 'viem'
import { chains } from '@doorway/devnet/stack'
import * as Tokens from '@doorway/devnet/tokens'
import * as Format from '@doorway/shared/Format'
import { apiOrigin, connectDevWallet, devAccount, expect, expectAccessible, explorerOptions, modalFrame, ready, rpc, test } from './fixtures.js'

const home = chains[0]!
const dusd = () => Tokens.readManifest()!.tokens[`eip155:${home.id}`]!.find((t) => t.symbol === 'DUSD')!.address
const ethBalance = async () => BigInt(await rpc<Hex>(home.rpcUrl, 'eth_getBalance', [devAccount, 'latest']))
const dusdBalance = async () =>
  BigInt(await rpc<Hex>(home.rpcUrl, 'eth_call', [{ to: dusd(), data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [devAccount] }) }, 'latest']))

async function openBuy(page: Page, search = '') {
  await ready(page, search)
  await connectDevWallet(page)
  const frame = modalFrame(page)
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Buy' }).click()
  await expect(frame.getByRole('dialog', { name: 'Buy Crypto' })).toBeVisible()
  return frame
}

/** Buy in the modal: the provider's page opens in a new tab from the top window; resolves with it. */
async function buy(context: BrowserContext, frame: FrameLocator): Promise<Page> {
  const opened = context.waitForEvent('page')
  await expect(frame.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled()
  await frame.getByRole('button', { name: 'Buy', exact: true }).click()
  const provider = await opened
  await expect(provider.getByRole('heading', { name: 'Buy crypto' })).toBeVisible()
  await expect(frame.getByRole('heading', { name: 'Buy in progress' })).toBeVisible()
  await expect(frame.getByRole('link', { name: 'Continue to payment' })).toHaveAttribute('href', provider.url())
  return provider
}

async function payByCard(provider: Page, number: string) {
  await provider.getByRole('textbox', { name: 'Card number' }).fill(number)
  await provider.getByRole('textbox', { name: 'Expiry date (MM/YY)' }).fill('12/39')
  await provider.getByRole('textbox', { name: 'CVC' }).fill('123')
  await provider.getByRole('button', { name: 'Pay' }).click()
}

test('behavior: 50 USD of ETH by test card: the provider page opens and pays, the ETH arrives on anvil, the modal ends in success, its balance and Activity update', async ({ page, context }) => {
  const frame = await openBuy(page, explorerOptions())
  await frame.getByRole('group', { name: 'Suggested amounts' }).getByRole('button', { name: '$50.00' }).click()
  const quote = frame.getByRole('region', { name: 'Quote' })
  await expect(quote).toContainText('$50.00')
  await expect(quote).toContainText(/0\.016 ETH/)
  await expectAccessible(page)
  const before = await ethBalance()
  const provider = await buy(context, frame)
  await expectAccessible(page)
  // The provider shows the order: what is paid, what is delivered, and where.
  await expect(provider.locator('#pay')).toHaveText('50.00 USD')
  await expect(provider.locator('#wallet')).toHaveText(devAccount)
  const delivered = (await provider.locator('#receive').textContent())!.replace(' ETH', '')
  await payByCard(provider, '4242 4242 4242 4242')
  await expect(provider.getByRole('status').filter({ hasText: /^Success:/ })).toBeVisible({ timeout: 15_000 })
  // The modal reads the order every 3 s.
  await expect(frame.getByRole('heading', { name: 'Purchase complete' })).toBeVisible({ timeout: 10_000 })
  expect(await ethBalance()).toBe(before + parseEther(delivered))
  await expectAccessible(page)
  await frame.getByRole('button', { name: 'Done' }).click()
  // The modal's own balance follows the chain.
  await expect(frame.getByLabel('Balance')).toHaveText(`${Format.formatQuantity(formatUnits(before + parseEther(delivered), 18))} ETH`)
  await frame.getByRole('tablist', { name: 'Account sections' }).getByRole('tab', { name: 'Activity' }).click()
  await expect(frame.getByRole('link', { name: new RegExp(`^Bought, .*\\+${Format.formatQuantity(delivered).replace('.', '\\.')} ETH`) }).first()).toBeVisible()
})

test('behavior: DUSD by bank settles after a delay and is delivered', async ({ page, context }) => {
  const frame = await openBuy(page)
  await frame.getByRole('combobox', { name: 'Crypto to buy' }).selectOption({ label: 'DUSD (Doorway USD) on Anvil 31337' })
  await frame.getByRole('group', { name: 'Payment method' }).getByRole('radio', { name: 'Bank account' }).check()
  await frame.getByRole('textbox', { name: /^Amount/ }).fill('100')
  await expect(frame.getByRole('region', { name: 'Quote' })).toContainText('98.500 DUSD')
  const before = await dusdBalance()
  const provider = await buy(context, frame)
  await provider.getByRole('radio', { name: 'Bank account (ACH)' }).check()
  await provider.getByRole('button', { name: 'Pay' }).click()
  await expect(provider.getByRole('status').filter({ hasText: 'waiting for your bank to settle' })).toBeVisible()
  // The sandbox bank settles about 3 s after paying; the modal reads the order every 3 s.
  await expect(provider.getByRole('status').filter({ hasText: /^Success:/ })).toBeVisible({ timeout: 20_000 })
  await expect(frame.getByRole('heading', { name: 'Purchase complete' })).toBeVisible({ timeout: 10_000 })
  expect(await dusdBalance()).toBe(before + parseUnits('98.5', 6))
})

test('error: a declined card ends in failure with the provider\'s reason, nothing is delivered, and Try again keeps the form', async ({ page, context }) => {
  const frame = await openBuy(page)
  await frame.getByRole('textbox', { name: /^Amount/ }).fill('75')
  await expect(frame.getByRole('region', { name: 'Quote' })).toContainText('$75.00')
  const before = await ethBalance()
  const provider = await buy(context, frame)
  await payByCard(provider, '4000 0000 0000 0002')
  await expect(provider.getByRole('status').filter({ hasText: 'Failed: Your card was declined' })).toBeVisible()
  await expect(frame.getByRole('heading', { name: 'Purchase failed' })).toBeVisible({ timeout: 10_000 })
  await expect(frame.getByRole('alert').filter({ hasText: 'Your card was declined' })).toBeVisible()
  expect(await ethBalance()).toBe(before)
  await frame.getByRole('button', { name: 'Try again' }).click()
  await expect(frame.getByRole('textbox', { name: /^Amount/ })).toHaveValue(/^75(\.00)?$/)
})

test('error: amounts outside the card\'s limits are explained beside the field and nothing is quoted or bought', async ({ page }) => {
  const frame = await openBuy(page)
  const amount = frame.getByRole('textbox', { name: /^Amount/ })
  for (const value of ['5', '8000']) {
    await amount.fill(value)
    await expect(frame.getByRole('alert').filter({ hasText: 'Card payments are from $10.00 to $7,500.00' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Buy', exact: true })).toBeDisabled()
  }
  // A bank account takes 8000.
  await frame.getByRole('group', { name: 'Payment method' }).getByRole('radio', { name: 'Bank account' }).check()
  await expect(frame.getByRole('alert').filter({ hasText: /payments are from/ })).toHaveCount(0)
  await expect(frame.getByRole('button', { name: 'Buy', exact: true })).toBeEnabled()
})

test('error: with the api unreachable, the sample options and the mocked quote (spec §8) say so, and there is no Buy', async ({ page, context }) => {
  await context.route(`${apiOrigin}/v1/onramp/**`, (route) => route.abort('connectionrefused'))
  const frame = await openBuy(page)
  await expect(frame.getByText('Sample data: the buy service is unreachable.')).toBeVisible()
  await frame.getByRole('textbox', { name: /^Amount/ }).fill('50')
  await expect(frame.getByRole('status').filter({ hasText: 'Estimate only — Buy is unavailable.' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Buy', exact: true })).toHaveCount(0)
  await expectAccessible(page)
})
