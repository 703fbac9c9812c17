/**
 * Key export of the embedded wallet (issue 9, docs/embedded-wallet.md §8, §12 test 1): shown only
 * inside the secure-site after fresh auth and a hold to reveal. Every message into the host page and
 * the frame-app, and every request from any frame, is recorded: the exported key, its phrase and the
 * shares the secure-site received appear in none of them.
 */
import type { Request } from '@playwright/test'
import { base58 } from '@scure/base'
import { privateKeyToAccount } from 'viem/accounts'
import { demoAddress, inbox, loginByEmail, newEmail, received, recordMessages, secureFrame } from './embedded.js'
import { test, expect, expectAccessible, frameOrigin, modalFrame, ready, secureOrigin } from './fixtures.js'

/** The origin of the frame that made the request; a frame still loading has none (held to the strictest rule). */
function originOf(request: Request): string {
  try {
    return new URL(request.frame().url()).origin
  } catch {
    return 'unknown'
  }
}

/** Every form a leak could take: hex with and without 0x, base64, base64url, the words. */
function forms(secret: { privateKey: `0x${string}`; mnemonic: string; shares: string[] }) {
  const key = Buffer.from(secret.privateKey.slice(2), 'hex')
  const shareForms = secret.shares.flatMap((share) => {
    const bytes = Buffer.from(share, 'base64url')
    return [share, bytes.toString('hex'), bytes.toString('base64')]
  })
  return [secret.privateKey.slice(2), key.toString('base64'), key.toString('base64url'), secret.mnemonic, secret.mnemonic.split(' ').slice(0, 4).join(' '), ...shareForms]
}

test.describe('embedded wallet key export', () => {
  test('security: the key is shown only in the secure-site after fresh auth and a hold; no key, phrase or share bytes reach the host, the frame-app or any request', async ({ page, context }) => {
    test.setTimeout(120_000)
    await context.addInitScript(recordMessages)
    const requests: { origin: string; text: string }[] = []
    const shares: string[] = []
    const onRequest = (request: Request) => requests.push({ origin: originOf(request), text: `${request.url()}\n${request.postData() ?? ''}` })
    context.on('request', onRequest)
    // The shares the secure-site is sent by its own server: they too must go nowhere else.
    context.on('response', async (response) => {
      if (new URL(response.url()).origin !== secureOrigin || !/\/v1\/(session|export|email\/verify)$/.test(new URL(response.url()).pathname)) return
      const body = (await response.json().catch(() => ({}))) as { deviceShare?: string; wallet?: { recovery1?: string } | null }
      for (const share of [body.deviceShare, body.wallet?.recovery1]) if (share) shares.push(share)
    })

    const email = newEmail()
    await ready(page)
    await loginByEmail(page, email)
    const address = await demoAddress(page)

    // Account → Export wallet: the secure-site's own screen over the modal's view.
    await modalFrame(page).getByRole('button', { name: 'Export wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Export Wallet' })).toBeVisible()
    const secure = secureFrame(page)
    await expect(secure.getByRole('heading', { name: 'Export your wallet' })).toBeVisible()
    // Chromium drops a click on a cross-origin frame that has only just been placed: click once the
    // secure-site has seen its screen still and visible (the same gate as Approve).
    await expect(secure.locator('section.export')).toHaveAttribute('data-visibility', 'ready')
    // Signed in a moment ago: fresh enough, so no second code (docs/embedded-wallet.md §3).
    await secure.getByRole('button', { name: 'Continue' }).click()
    const hold = secure.getByRole('button', { name: 'Hold to reveal' })
    // Rebuilding the key (BIP-39's PBKDF2, twice) takes seconds on a loaded machine.
    await expect(hold).toHaveAttribute('aria-disabled', 'false', { timeout: 20_000 })
    const words = secure.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')
    // Hold until the phrase shows (the hold lasts 800 ms), then let go.
    const box = (await hold.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await expect(words).toHaveCount(12)
    await page.mouse.up()
    const mnemonic = (await words.allTextContents()).join(' ')
    const privateKey = (await secure.getByLabel('Private key').textContent()) as `0x${string}`
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    // The same seed's Solana key (issue 23), shown as the base58 of its 64-byte secret.
    const solanaKey = (await secure.getByLabel('Solana secret key').textContent())!
    const solanaSecret = Buffer.from(base58.decode(solanaKey))
    expect(solanaSecret).toHaveLength(64)
    await expectAccessible(page, { origin: secureOrigin, selector: 'section' })

    await secure.getByRole('button', { name: 'Done' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
    // The person is told by mail (the audit entry is asserted in the server's tests).
    await expect.poll(async () => (await inbox(email)).some((m) => /exported/i.test(m.subject))).toBe(true)

    context.off('request', onRequest)
    expect(shares.length, 'shares the secure-site received').toBeGreaterThan(0)
    const leaks = forms({ privateKey, mnemonic, shares })
    const seed = solanaSecret.subarray(0, 32)
    const solanaLeaks = [solanaKey, seed.toString('hex'), seed.toString('base64'), seed.toString('base64url')]
    const messages = await received(page)
    expect(messages.length, 'messages recorded into the host and the frame-app').toBeGreaterThan(1000)
    for (const leak of [...solanaLeaks, ...leaks]) expect(messages.includes(leak), `a message carried ${leak.slice(0, 8)}…`).toBe(false)
    for (const request of requests) {
      // The secure-site sends shares to its own server; the key and phrase go nowhere, not even there.
      const forbidden = [...solanaLeaks, ...(request.origin === secureOrigin ? leaks.slice(0, 5) : leaks)]
      for (const leak of forbidden) expect(request.text.includes(leak), `a request from ${request.origin} carried ${leak.slice(0, 8)}…`).toBe(false)
    }
    expect(requests.some((r) => r.origin === frameOrigin)).toBe(true)
  })
})
