/**
 * Smart sessions (issue 25) on the wagmi example: the person's embedded smart account grants the page an
 * ERC-7715 permission of 0.01 ETH a day, approved once in the secure-site with its limits in words; the
 * page then spends 0.004 ETH twice with no prompt, and the third spend is refused by the chain's enforcer.
 * A second session is revoked from the modal's Account → Sessions (one approval: the on-chain disable and
 * the api's record), after which its next use is refused on chain. Balances are read from the chain.
 */
import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import * as Anvil from '@doorway/devnet/anvil'
import { chains } from '@doorway/devnet/stack'
import * as Tokens from '@doorway/devnet/tokens'
import { approve, codeFor, enterCode, lastMailId, newEmail, secureFrame, submitEmail } from './embedded.js'
import { expect, expectAccessible, expectClosed, modalFrame, test } from './fixtures.js'

const chain = chains[0]!
const client = createPublicClient({ chain: Anvil.viemChain(chain), transport: http(chain.rpcUrl) })
/** The page's receiver (examples/wagmi/src/Session.tsx): anvil account 2. */
const receiver = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const ethOf = (address: string) => client.getBalance({ address: address as Hex })

const app = (page: Page) => page.getByRole('main')
const sessionLog = (page: Page) => app(page).getByRole('list', { name: 'Session log' })

/** The page's "Spend 0.004 ETH with the session": the next log line, with no approval shown meanwhile. */
async function spend(page: Page): Promise<string> {
  const lines = await sessionLog(page).getByRole('listitem').count()
  await app(page).getByRole('button', { name: 'Spend 0.004 ETH with the session' }).click()
  await expect(sessionLog(page).getByRole('listitem')).toHaveCount(lines + 1, { timeout: 30_000 })
  await expectClosed(page)
  return (await sessionLog(page).getByRole('listitem').last().textContent())!
}

/** The page's "Grant a session", approved in the secure-site after checking what it says. */
async function grant(page: Page) {
  const lines = await sessionLog(page).getByRole('listitem').count()
  await app(page).getByRole('button', { name: 'Grant a session' }).click()
  const secure = secureFrame(page)
  await expect(secure.getByRole('heading', { name: 'Grant a session' })).toBeVisible({ timeout: 20_000 })
  await expect(secure.getByText(/Spend up to 0\.01 ETH\b.* every day/)).toBeVisible()
  await expect(secure.getByText(/without asking/i)).toBeVisible()
  await approve(page)
  await expect(sessionLog(page).getByRole('listitem')).toHaveCount(lines + 1, { timeout: 30_000 })
  await expect(sessionLog(page).getByRole('listitem').last()).toContainText('Session granted')
}

test('behavior: a 0.01 ETH/day session spends 0.004 twice without a prompt, the third is refused on chain; a revoked session is refused too, and Sessions lists both states', async ({ page }) => {
  test.setTimeout(240_000)
  await page.goto('/wagmi/?siwx=optional')
  await expect(app(page).getByLabel('wagmi status')).toHaveText('disconnected')

  // The email wallet through wagmi's connect(); the optional sign-in is declined.
  const email = newEmail()
  const before = await lastMailId(email)
  await app(page).getByRole('button', { name: 'Connect with wagmi' }).click()
  await submitEmail(page, email)
  await enterCode(page, await codeFor(email, before))
  await modalFrame(page).getByRole('dialog', { name: 'Sign In' }).getByRole('button', { name: 'Cancel' }).click()
  await expectClosed(page)
  const eoa = (await app(page).getByLabel('wagmi address').textContent())!

  // Its smart account, from the modal's Account.
  await app(page).getByRole('button', { name: 'Open the modal' }).click()
  const frame = modalFrame(page)
  await frame.getByRole('region', { name: 'Account type' }).getByRole('button', { name: 'Switch to smart account' }).click()
  await expect(app(page).getByLabel('wagmi address')).not.toHaveText(eoa)
  const smart = (await app(page).getByLabel('wagmi address').textContent())! as Hex
  // The modal's own Close button: under load one Escape here left the <dialog> closed but still drawn (see the issue note).
  await frame.getByRole('button', { name: 'Close' }).click()
  await expectClosed(page)
  // The session spends the account's own ETH (the paymaster pays only the gas).
  const { wallet } = Anvil.clients(chain, Tokens.holders[0]!)
  await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: smart, value: parseEther('0.05') }) })

  await grant(page)
  const received = await ethOf(receiver)
  expect(await spend(page)).toMatch(/^Spent 0\.004 ETH without a prompt/)
  expect(await spend(page)).toMatch(/^Spent 0\.004 ETH without a prompt/)
  expect(await ethOf(receiver)).toBe(received + parseEther('0.008'))
  expect(await spend(page)).toContain('NativeTokenPeriodTransferEnforcer:transfer-amount-exceeded')
  expect(await ethOf(receiver)).toBe(received + parseEther('0.008'))

  // A second session, used once, then revoked from the modal's Sessions view.
  await grant(page)
  expect(await spend(page)).toMatch(/^Spent 0\.004 ETH without a prompt/)
  await app(page).getByRole('button', { name: 'Open the modal' }).click()
  // The session key's first spend deployed the account without the modal: opening asks the chain again (spec §3 smartAccountDeployed).
  await expect(frame.getByRole('region', { name: 'Account type' })).not.toContainText('Created on chain')
  await frame.getByRole('button', { name: /^Sessions/ }).click()
  const list = frame.getByRole('list', { name: 'Sessions of this account' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list.getByRole('listitem').filter({ hasText: 'Active' })).toHaveCount(2)
  await expect(list.getByRole('listitem').first()).toContainText('Spend up to 0.01 ETH every day')
  await expectAccessible(page)
  // Newest first: the second session.
  await list.getByRole('listitem').first().getByRole('button', { name: /^Revoke the session/ }).click()
  await expect(secureFrame(page).getByRole('heading', { name: 'Revoke session' })).toBeVisible({ timeout: 20_000 })
  await approve(page)
  await expect(frame.getByRole('status').filter({ hasText: 'Session revoked' })).toBeVisible({ timeout: 30_000 })
  await expect(list.getByRole('listitem').first()).toContainText('Revoked')
  await expect(list.getByRole('listitem').last()).toContainText('Active')
  // The modal's own Close button: under load one Escape here left the <dialog> closed but still drawn (see the issue note).
  await frame.getByRole('button', { name: 'Close' }).click()
  await expectClosed(page)

  const afterRevoke = await ethOf(receiver)
  expect(await spend(page)).toContain('CannotUseADisabledDelegation')
  expect(await ethOf(receiver)).toBe(afterRevoke)
})
