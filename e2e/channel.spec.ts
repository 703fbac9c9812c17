/**
 * The host ⇄ frame channel refuses what it did not ask for (docs/architecture.md §4): messages from a foreign
 * origin or a wrong window, and malformed messages, are logged and never acted on.
 */
import type { Page } from '@playwright/test'
import { dapp, expect, frameOrigin, hostOrigin, modalFrame, ready, secureOrigin, test } from './fixtures.js'

/** A window on another origin that the demo page opened, as an attacker's popup would be. */
async function foreignWindow(page: Page) {
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate((url) => void window.open(url, 'foreign'), `${secureOrigin}/`),
  ])
  await popup.waitForLoadState()
  return popup
}

test('error: a handshake from a foreign origin is ignored by the host and logged (debug level)', async ({ page, logs }) => {
  await ready(page)
  const popup = await foreignWindow(page)
  await popup.evaluate((target) => window.opener.postMessage({ type: 'doorway:ready', version: 1 }, target), hostOrigin)
  await expect.poll(() => logs).toContainEqual(`debug [doorway:sdk] ignored message from ${secureOrigin}`)

  // Never acted on: the real channel still works.
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
})

test('error: malformed and repeated messages from the frame window are ignored by the host and logged', async ({ page, logs }) => {
  await ready(page)
  const frame = page.frames().find((f) => f.url().startsWith(frameOrigin))!
  await frame.evaluate((target) => {
    window.parent.postMessage({ junk: true }, target)
    window.parent.postMessage({ type: 'doorway:ready', version: 1 }, target)
  }, hostOrigin)
  await expect.poll(() => logs.filter((l) => l.startsWith('warning [doorway:sdk] ignored message '))).toHaveLength(2)
  expect(await dapp(page, (modal) => modal.getState().open)).toBe(false)
})

test('error: a connect from a foreign origin gets no channel to the frame', async ({ page, logs }) => {
  await ready(page)
  const popup = await foreignWindow(page)
  await popup.evaluate((target) => {
    const { port1, port2 } = new MessageChannel()
    const replies: unknown[] = ((window as unknown as { replies: unknown[] }).replies = [])
    port1.onmessage = (event) => replies.push(event.data)
    window.opener.frames[0].postMessage({ type: 'doorway:connect', version: 1 }, target, [port2])
    port1.postMessage({ id: 'a'.repeat(32), type: 'APPLY', path: ['open'], argumentList: [{ type: 'RAW', value: {} }] })
  }, frameOrigin)
  // The frame logs when it refuses the connect; a frame that accepted would have logged nothing.
  await expect.poll(() => logs).toContainEqual(expect.stringMatching(new RegExp(`^debug \\[doorway:frame\\] ignored message from ${secureOrigin}`)))
  const answered = await popup.evaluate(() => (window as unknown as { replies: unknown[] }).replies)
  expect(answered).toEqual([])
  expect(await dapp(page, (modal) => modal.getState().open)).toBe(false)
  await expect(modalFrame(page).getByRole('dialog')).toBeHidden()
})

test('error: a malformed message from the host origin is ignored by the frame and logged', async ({ page, logs }) => {
  await ready(page)
  await page.evaluate((target) => {
    document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'doorway:connect', version: 2 }, target)
    document.querySelector('iframe')!.contentWindow!.postMessage('open', target)
  }, frameOrigin)
  await expect
    .poll(() => logs.filter((l) => l.startsWith(`warning [doorway:frame] ignored message from ${hostOrigin}`)))
    .toHaveLength(2)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
})
