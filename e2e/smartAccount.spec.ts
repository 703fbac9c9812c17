/**
 * The embedded wallet's smart account (issue 25) against the devnet's real ERC-4337 stack: the canonical
 * EntryPoint v0.7, MetaMask's HybridDeleGator, a real bundler (alto) and an ERC-7677 paymaster per chain.
 * The person switches in the Account view; the account has no ETH, the paymaster pays, and every
 * operation is approved in the secure-site. Balances and code are read straight from the chain.
 */
import type { Page } from '@playwright/test'
import { createPublicClient, type Hex, http, parseAbi } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import * as Anvil from '@doorway/devnet/anvil'
import { chains } from '@doorway/devnet/stack'
import * as Tokens from '@doorway/devnet/tokens'
import { approve, approveFromMail, codeFor, demoAddress, enterCode, lastMailId, loginByEmail, newEmail, secureFrame, submitEmail, untilCodeStep } from './embedded.js'
import { dapp, eventLog, expect, expectAccessible, modalFrame, ready, rpc, rpcUrl, test } from './fixtures.js'

const chain = chains[0]!
const client = createPublicClient({ chain: Anvil.viemChain(chain), transport: http(chain.rpcUrl) })
/** anvil account 2 of the test mnemonic: the receiver. */
const receiver = mnemonicToAccount(Tokens.mnemonic, { addressIndex: 2 }).address
const dusd = () => Tokens.readManifest()!.tokens['eip155:31337']!.find((t) => t.symbol === 'DUSD')!.address as Hex
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function transfer(address, uint256) returns (bool)'])
const dusdOf = (address: string) => client.readContract({ address: dusd(), abi: erc20, functionName: 'balanceOf', args: [address as Hex] })
const ethOf = (address: string) => client.getBalance({ address: address as Hex })
const codeOf = async (address: string) => (await client.getCode({ address: address as Hex })) ?? '0x'
/** spec §3 as the dapp reads it in modal.getState(). */
const accountTypeState = (page: Page) =>
  dapp(page, (modal) => {
    const { preferredAccountType, smartAccountDeployed } = modal.getState()
    return { preferredAccountType, smartAccountDeployed }
  })

/** The demo's "Sign a message", approved in the secure-site: the message and the signature the dapp got. */
async function signMessage(page: Page): Promise<{ message: string; signature: Hex }> {
  const before = await eventLog(page).getByText(/^signed /).count()
  await page.getByRole('button', { name: 'Sign a message' }).click()
  await approve(page)
  await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]+$/)
  await expect(eventLog(page).getByText(/^signed /)).toHaveCount(before + 1)
  const { message, signature } = JSON.parse((await eventLog(page).getByText(/^signed /).last().textContent())!.slice(7)) as { message: string; signature: Hex }
  return { message, signature }
}

/** The open Account view → Account type → the switch; resolves with the address the dapp then sees. */
async function switchAccountType(page: Page, to: 'Switch to smart account' | 'Switch to regular account', from: string): Promise<string> {
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Account' })).toBeVisible()
  const section = frame.getByRole('region', { name: 'Account type' })
  await section.getByRole('button', { name: to }).click()
  await expect(page.locator('#address')).not.toHaveText(from)
  return demoAddress(page)
}

test('behavior: a smart account with 0 ETH signs (ERC-6492, then ERC-1271), sends a batch and a token transfer the paymaster pays; the choice stays for the next connect', async ({ page }) => {
  test.setTimeout(180_000)
  await ready(page)
  const email = newEmail()
  await loginByEmail(page, email)
  const eoa = await demoAddress(page)

  // The switch is explained where it is made, then the dapp hears the new address.
  const frame = modalFrame(page)
  const section = frame.getByRole('region', { name: 'Account type' })
  await expect(section).toContainText('Regular account')
  await expect(section).toContainText('Your address changes')
  await section.getByRole('button', { name: 'Switch to smart account' }).click()
  await expect(page.locator('#address')).not.toHaveText(eoa)
  const smart = await demoAddress(page)
  await expect(section).toContainText('Smart account')
  await expect(section).toContainText('Created on chain with its first transaction')
  await expect(section).toContainText('Network fees paid by the app')
  await expectAccessible(page)
  await expect(eventLog(page).getByText(/^accountChanged /).last()).toContainText(smart)
  expect(await ethOf(smart)).toBe(0n)
  expect(await codeOf(smart)).toBe('0x')
  await expect.poll(() => accountTypeState(page)).toEqual({ preferredAccountType: 'smartAccount', smartAccountDeployed: false })
  // Tokens but no ETH: the Send below spends them (the balances are read again after the batch).
  const { wallet } = Anvil.clients(chain, Tokens.holders[0]!)
  await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: dusd(), abi: erc20, functionName: 'transfer', args: [smart as Hex, 20_000_000n] }) })

  // personal_sign before the account exists: the owner's signature, wrapped in ERC-6492.
  await page.keyboard.press('Escape')
  const first = await signMessage(page)
  expect(await client.verifyMessage({ address: smart as Hex, message: first.message, signature: first.signature })).toBe(true)
  expect(first.signature.length).toBeGreaterThan(132)

  // EIP-5792: two calls in one operation; the secure-site shows both and who pays.
  await page.getByRole('button', { name: 'Send a batch of 2 calls' }).click()
  await expect(secureFrame(page).getByText(/paid by the app/i)).toBeVisible()
  await expect(secureFrame(page).getByText(/Call 2 of 2/)).toBeVisible()
  await approve(page)
  await expect(page.locator('#send-result')).toHaveText(/^Batch confirmed: 0x[0-9a-f]{64}$/, { timeout: 30_000 })
  const batchTx = (await page.locator('#send-result').textContent())!.replace('Batch confirmed: ', '')
  expect((await rpc<{ status: Hex }>(rpcUrl, 'eth_getTransactionReceipt', [batchTx])).status).toBe('0x1')
  expect(await codeOf(smart)).not.toBe('0x')
  expect(await ethOf(smart)).toBe(0n)
  await expect.poll(() => accountTypeState(page)).toEqual({ preferredAccountType: 'smartAccount', smartAccountDeployed: true })

  // Deployed, the same message is an ERC-1271 signature: 65 bytes, checked by the account.
  const second = await signMessage(page)
  expect(second.signature).toMatch(/^0x[0-9a-f]{130}$/)
  expect(await client.verifyMessage({ address: smart as Hex, message: second.message, signature: second.signature })).toBe(true)

  // eth_sendTransaction from the modal's Send: 5 DUSD leave the smart account, and still no ETH is spent.
  const to = await dusdOf(receiver)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /Doorway USD\b/ }).click()
  await frame.getByLabel(/^Amount/).fill('5')
  await frame.getByRole('button', { name: 'Continue' }).click()
  await frame.getByLabel('Address or name').fill(receiver)
  await frame.getByRole('button', { name: 'Continue' }).click()
  await expect(frame.getByRole('dialog', { name: 'Review Send' })).toContainText(/Network fee\s*Paid by the app/)
  await frame.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(secureFrame(page).getByText(/paid by the app/i)).toBeVisible({ timeout: 20_000 })
  await approve(page)
  await expect(frame.getByRole('status').filter({ hasText: 'Confirmed' })).toBeVisible({ timeout: 30_000 })
  expect(await dusdOf(receiver)).toBe(to + 5_000_000n)
  expect(await dusdOf(smart)).toBe(15_000_000n)
  expect(await ethOf(smart)).toBe(0n)

  // The choice is this device's: after signing out and in again, the dapp sees the smart account at once.
  await frame.getByRole('button', { name: 'Done' }).click()
  await frame.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.locator('#status')).toHaveText('disconnected')
  // The same email again within spec §5's 30 s: the secure-site's Continue counts down first.
  const mails = await lastMailId(email)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await submitEmail(page, email)
  await untilCodeStep(page)
  await enterCode(page, await codeFor(email, mails))
  // Signed out, this browser is a new device again: approved from the mailed link.
  await approveFromMail(page, email, mails)
  expect(await demoAddress(page)).toBe(smart)
  await expect(section).toContainText('Smart account')

  await expect(section).not.toContainText('Created on chain with its first transaction')

  // And back: the regular account is the key's own address again.
  expect(await switchAccountType(page, 'Switch to regular account', smart)).toBe(eoa)
  await expect.poll(() => accountTypeState(page)).toEqual({ preferredAccountType: 'eoa', smartAccountDeployed: undefined })
})
