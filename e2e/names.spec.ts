/**
 * Names (issue 13): choosing one in RegisterAccountName (the spec §5 rule as it is typed, availability,
 * suggestions), the wallet signing the registration, and the name shown on Account, on the demo page
 * (the state's profileName) and wherever the address receives a send.
 *
 * The api keeps one name per address, and its storage outlives a run: names carry a random suffix, and
 * the accounts that register are new each run (an email wallet, a throwaway key). The dev wallet's
 * account is never named here, so every run asserts the same thing.
 */
import type { FrameLocator, Page } from '@playwright/test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import * as Ids from '@doorway/shared/Ids'
import * as Name from '@doorway/shared/Name'
import { approve, loginByEmail, newEmail, secureFrame } from './embedded.js'
import { apiOrigin, connectDevWallet, expect, expectAccessible, expectFocusInFrame, modalFrame, openView, ready, test } from './fixtures.js'

/** A label no earlier run registered: letters, digits and a hyphen (spec §5). */
const uniqueLabel = (prefix = 'e2e') => `${prefix}-${Ids.random().slice(0, 10)}`

/** A new account registers `label` through the api as the modal would (spec §7), signing the message. */
async function registerElsewhere(label: string) {
  const account = privateKeyToAccount(generatePrivateKey())
  const message = Name.registrationMessage({ name: `${label}.${Name.defaultZone}`, attributes: {}, timestamp: Math.floor(Date.now() / 1000), nonce: Ids.random() })
  const response = await fetch(`${apiOrigin}/v1/profile/account?projectId=doorway-demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: Name.ensip11CoinType(31337), address: account.address, message, signature: await account.signMessage({ message }) }),
  })
  expect(response.status).toBe(200)
  return account.address
}

const nameField = (frame: FrameLocator) => frame.getByLabel('Name', { exact: true })
const availability = (frame: FrameLocator, text: string) => frame.getByRole('status').filter({ hasText: text })

/** In RegisterAccountName: the rule refuses what breaks it as it is typed; `label` is then available. */
async function typeName(page: Page, label: string) {
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Choose Name' })).toBeVisible()
  await nameField(frame).fill('ab!')
  await expect(frame.getByRole('alert').filter({ hasText: 'Only letters, digits and hyphens (-) are allowed.' })).toBeVisible()
  await expect(nameField(frame)).toHaveAttribute('aria-invalid', 'true')
  await nameField(frame).fill('abc')
  await expect(frame.getByRole('alert').filter({ hasText: 'A name has at least 4 characters.' })).toBeVisible()
  // Register refuses it too, without asking the wallet.
  await frame.getByRole('button', { name: 'Register name' }).click()
  await expect(frame.getByRole('dialog', { name: 'Choose Name' })).toBeVisible()
  await nameField(frame).fill(label)
  await expect(nameField(frame)).toHaveAttribute('aria-invalid', 'false')
  await expect(availability(frame, `${label}.doorway.id is available`)).toBeVisible()
}

test('behavior: a new email-wallet account chooses a name, approves it in the secure-site, and is called by it on Account and on the demo page', async ({ page }) => {
  test.setTimeout(120_000)
  const label = uniqueLabel()
  const name = `${label}.doorway.id`
  await ready(page)
  await loginByEmail(page, newEmail())
  const frame = modalFrame(page)
  await frame.getByRole('button', { name: 'Choose a name' }).click()
  await typeName(page, label)
  await expectAccessible(page)

  await frame.getByRole('button', { name: 'Register name' }).click()
  // The registration message, signed in the secure-site's own frame.
  await expect(secureFrame(page).getByText(name, { exact: false })).toBeVisible()
  await approve(page)
  await expect(frame.getByRole('dialog', { name: 'Name Registered' })).toContainText(`${name} is now your name`)
  await expectAccessible(page)
  await frame.getByRole('button', { name: 'Back to account' }).click()
  const account = frame.getByRole('dialog', { name: 'Account' })
  await expect(account).toContainText(name)
  await expect(account.getByRole('button', { name: 'Choose a name' })).toBeHidden()
  await expect(page.getByLabel('Name', { exact: true })).toHaveText(name)

  // One name per address: another is refused in the api's words, and the form stays (spec §4, §8).
  await openView(page, 'RegisterAccountName')
  const other = uniqueLabel()
  await nameField(frame).fill(other)
  await expect(availability(frame, `${other}.doorway.id is available`)).toBeVisible()
  await frame.getByRole('button', { name: 'Register name' }).click()
  await approve(page)
  await expect(frame.getByRole('alert').filter({ hasText: `already has the name ${name}` })).toBeVisible()
  await expect(frame.getByRole('dialog', { name: 'Choose Name' })).toBeVisible()
  await expect(nameField(frame)).toHaveValue(other)
})

test('behavior: a taken name offers the free names like it; choosing one fills the field and it is available', async ({ page }) => {
  const taken = uniqueLabel('taken')
  await registerElsewhere(taken)
  await ready(page)
  await connectDevWallet(page)
  await openView(page, 'RegisterAccountName')
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Choose Name' })).toBeVisible()
  await nameField(frame).fill(taken)
  await expect(availability(frame, `${taken}.doorway.id is taken`)).toBeVisible()
  const suggestions = frame.getByRole('list', { name: 'Available names' })
  await expect(suggestions.getByRole('button')).not.toHaveCount(0)
  await expectAccessible(page)
  await suggestions.getByRole('button', { name: `${taken}1.doorway.id` }).click()
  await expect(nameField(frame)).toHaveValue(`${taken}1`)
  await expectFocusInFrame(page, nameField(frame))
  await expect(availability(frame, `${taken}1.doorway.id is available`)).toBeVisible()
})

test('behavior: Send shows the receiver by name, typed as a name or as an address that has one, with the address', async ({ page }) => {
  const label = uniqueLabel('friend')
  const name = `${label}.doorway.id`
  const address = await registerElsewhere(label)
  await ready(page)
  await connectDevWallet(page)
  const frame = modalFrame(page)
  await frame.getByRole('navigation', { name: 'Wallet actions' }).getByRole('button', { name: 'Send' }).click()
  await frame.getByRole('list', { name: 'Tokens you can send' }).getByRole('button', { name: /Ether/ }).click()
  await frame.getByLabel(/^Amount/).fill('0.001')
  await frame.getByRole('button', { name: 'Continue' }).click()

  const card = frame.getByRole('group', { name: 'To' })
  await frame.getByLabel('Address or name').fill(name)
  await expect(card).toContainText(name)
  await expect(card).toContainText(address)

  await frame.getByLabel('Address or name').fill(address)
  await expect(card).toContainText(name)
  await expect(card.locator('[title]')).toHaveAttribute('title', address)
  await frame.getByRole('button', { name: 'Continue' }).click()
  const preview = frame.getByRole('dialog', { name: 'Review Send' }).getByRole('group', { name: 'To' })
  await expect(preview).toContainText(name)
  await expect(preview).toContainText(address)
})
