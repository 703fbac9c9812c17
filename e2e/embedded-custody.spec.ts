/**
 * Custody on the wire (issue 22, docs/embedded-wallet.md §2, §12): through a login, a signature, a key
 * export and a recovery on a second site, every message reaching the host page or the frame-app, and
 * every HTTP body to and from the secure-site's server, is recorded. No message carries a code or a
 * share (nor does any the frame-app sends down: the codes are typed in the secure-site), no body carries
 * a share in clear (each share-sized field is a sealed box), and the exported key and phrase appear nowhere.
 */
import type { Page } from '@playwright/test'
import { privateKeyToAccount } from 'viem/accounts'
import { approve, approveFromMail, codeFor, demoAddress, enterCode, inbox, lastMailId, loginByEmail, newEmail, received, recordMessages, secureFrame, submitEmail, untilCodeStep } from './embedded.js'
import { test, expect, modalFrame, ready, secureOrigin } from './fixtures.js'

/** A Shamir share of the wallet's entropy is 17 bytes: 23 base64url characters. A sealed one is 111 bytes. */
const clearShare = /^[\w-]{22}[AQgw]$/

/** Every string value in a JSON text, at any depth. */
function strings(text: string): string[] {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return []
  }
  const out: string[] = []
  const walk = (value: unknown) => {
    if (typeof value === 'string') out.push(value)
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(json)
  return out
}

/** Account → Export wallet, fresh from the sign-in: the key and phrase as the secure-site shows them. */
async function exportKey(page: Page) {
  await modalFrame(page).getByRole('button', { name: 'Export wallet' }).click()
  const secure = secureFrame(page)
  await expect(secure.locator('section.export')).toHaveAttribute('data-visibility', 'ready')
  await secure.getByRole('button', { name: 'Continue' }).click()
  const hold = secure.getByRole('button', { name: 'Hold to reveal' })
  await expect(hold).toHaveAttribute('aria-disabled', 'false', { timeout: 20_000 })
  const box = (await hold.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  const words = secure.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')
  await expect(words).toHaveCount(12)
  await page.mouse.up()
  const mnemonic = (await words.allTextContents()).join(' ')
  const privateKey = (await secure.getByLabel('Private key').textContent()) as `0x${string}`
  await secure.getByRole('button', { name: 'Done' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  return { mnemonic, privateKey }
}

test('security: through a login, a signature, an export and a recovery on a second site, no message into the host or the frame-app carries a code or a share, and no HTTP body carries a share in clear', async ({ page, context }) => {
  test.setTimeout(180_000)
  await context.addInitScript(recordMessages)
  const bodies: { what: string; text: string }[] = []
  context.on('request', (request) => {
    if (new URL(request.url()).origin === secureOrigin && request.method() === 'POST') bodies.push({ what: `request ${request.url()}`, text: request.postData() ?? '' })
  })
  context.on('response', async (response) => {
    if (new URL(response.url()).origin !== secureOrigin || !new URL(response.url()).pathname.startsWith('/v1/')) return
    bodies.push({ what: `answer ${response.url()}`, text: await response.text().catch(() => '') })
  })

  const email = newEmail()
  await ready(page)
  await loginByEmail(page, email)
  const address = await demoAddress(page)
  const codes = [await codeFor(email)]

  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Sign a message' }).click()
  await approve(page)
  await expect(page.locator('#send-result')).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)

  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  const secret = await exportKey(page)
  expect(privateKeyToAccount(secret.privateKey).address).toBe(address)
  const firstSite = await received(page)
  const sentDown = [await received(page, 'secure')]

  // A second top-level site is a new device: a code, then the person's approval from the vault's mail.
  await page.goto('http://127.0.0.1:5173/')
  await expect(page.locator('#status')).toHaveText('disconnected')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const before = await lastMailId(email)
  await submitEmail(page, email)
  await untilCodeStep(page)
  codes.push(await codeFor(email, before))
  await enterCode(page, codes[1]!)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Approve this browser' })).toBeVisible()
  await approveFromMail(page, email, before)
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
  expect(await demoAddress(page)).toBe(address)
  const messages = `${firstSite}\n${await received(page)}`
  sentDown.push(await received(page, 'secure'))
  expect((await inbox(email)).length).toBeGreaterThan(2)

  // Messages into the host and the frame-app: no code, no key, no phrase.
  expect(messages.length).toBeGreaterThan(1000)
  const key = secret.privateKey.slice(2)
  for (const leak of [...codes, key, Buffer.from(key, 'hex').toString('base64url'), secret.mnemonic.split(' ').slice(0, 4).join(' ')])
    expect(messages.includes(leak), `a message carried ${leak.slice(0, 8)}…`).toBe(false)
  // The email and the codes are typed in the secure-site: nothing the frame-app sent down carries a code.
  expect(sentDown.join('').length).toBeGreaterThan(500)
  for (const code of codes) expect(sentDown.some((text) => text.includes(`"${code}"`)), `the frame-app sent the code ${code}`).toBe(false)
  // HTTP bodies to and from the secure-site's server: every share travels sealed; the key never travels.
  const paths = bodies.map((b) => new URL(b.what.split(' ')[1]!).pathname)
  for (const path of ['/v1/wallet', '/v1/export', '/v1/recovery', '/v1/devices/share']) expect(paths, `a body of ${path} was recorded`).toContain(path)
  for (const body of bodies) {
    for (const value of strings(body.text)) expect(clearShare.test(value), `${body.what} carried a 17-byte value in clear`).toBe(false)
    for (const leak of [key, secret.mnemonic]) expect(body.text.includes(leak), `${body.what} carried the key`).toBe(false)
  }
})
