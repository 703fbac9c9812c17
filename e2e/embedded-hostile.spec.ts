/**
 * Hostile tests of the embedded (email) wallet (docs/embedded-wallet.md §12): the host page and the
 * frame-app are not trusted by the secure-site. Each attack is followed by a control that shows the
 * same request going through once the attack is gone, so a test fails if the guard stops working and
 * also if the attack never reached it.
 */
import type { Frame, Page } from '@playwright/test'
import * as Protocol from '@doorway/shared/Protocol'
import { approve, demoAddress, loginByEmail, newEmail, secureFrame, secureTitle } from './embedded.js'
import { eventLog, expect, expectClosed, frameOrigin, hostOrigin, modalFrame, ready, rpc, rpcUrl, secureOrigin, test } from './fixtures.js'

const sendResult = (page: Page) => page.locator('#send-result')
const approval = (page: Page) => secureFrame(page).locator('section.approval')
const approveButton = (page: Page) => secureFrame(page).getByRole('button', { name: 'Approve' })
const signedEntries = (page: Page) => eventLog(page).getByText(/^signed /)
const waitingForSignature = 'Waiting for the signature…'

/** A frame of the page by its origin, to run script in it as a hostile page of that origin would. */
function frameAt(page: Page, origin: string): Frame {
  const frame = page.frame({ url: (url) => url.origin === origin })
  if (!frame) throw new Error(`no frame at ${origin}`)
  return frame
}

/** A fresh email wallet on the demo, the modal closed again: the dapp's buttons are in reach. */
async function loggedIn(page: Page) {
  await ready(page)
  await loginByEmail(page, newEmail())
  const address = await demoAddress(page)
  await page.keyboard.press('Escape')
  await expectClosed(page)
  return address
}

/** "Sign a message" until the secure-site shows the request (its own screen, in its own frame). */
async function askToSign(page: Page) {
  await page.getByRole('button', { name: 'Sign a message' }).click()
  await expect(sendResult(page)).toHaveText(waitingForSignature)
  await expect(approval(page).getByText(/Hello from the Doorway demo/)).toBeVisible()
}

/**
 * Clicks that reached the secure frame, as it saw them: the target and whether the person made it.
 * Recorded in the capture phase, so a click is listed once the secure-site has handled it too.
 */
async function recordSecureClicks(page: Page) {
  const secure = frameAt(page, secureOrigin)
  await secure.evaluate(() => {
    const clicks: string[] = ((window as unknown as { clicks: string[] }).clicks = [])
    const describe = (event: Event) => `${(event.target as Element).className || (event.target as Element).tagName} ${event.isTrusted ? 'trusted' : 'untrusted'}`
    window.addEventListener('click', (event) => clicks.push(describe(event)), true)
  })
  return () => secure.evaluate(() => (window as unknown as { clicks: string[] }).clicks)
}

/**
 * Run in a frame: reads `document` and `indexedDB` of its own window, of its iframe titled `title` and
 * of that iframe's frames, and says what happened to each.
 */
function probe(title: string) {
  const read = (win: Window) =>
    (['document', 'indexedDB'] as const).map((key) => {
      try {
        return `${key}: ${typeof win[key]}`
      } catch (error) {
        return `${key}: ${(error as DOMException).name}`
      }
    })
  const child = document.querySelector<HTMLIFrameElement>(`iframe[title="${title}"]`)!.contentWindow!
  return { self: read(window), child: read(child), grandchildren: Array.from({ length: child.length }, (_, i) => read(child[i]!)) }
}

test.describe('embedded wallet, hostile', () => {
  test.describe.configure({ timeout: 120_000 })

  test('error: neither the host nor the frame-app can reach the secure frame\'s document or IndexedDB, nor the host the frame-app\'s (SecurityError)', async ({ page }) => {
    await loggedIn(page)
    const fromHost = await page.evaluate(probe, 'Doorway wallet')
    const fromFrameApp = await frameAt(page, frameOrigin).evaluate(probe, secureTitle)

    const allowed = ['document: object', 'indexedDB: object']
    const denied = ['document: SecurityError', 'indexedDB: SecurityError']
    // Its own window, read by the same probe, is the control.
    expect(fromHost).toEqual({ self: allowed, child: denied, grandchildren: [denied] })
    expect(fromFrameApp).toEqual({ self: allowed, child: denied, grandchildren: [] })
  })

  test('error: forged handshakes and calls from the host page get no answer and no approval; an untrusted click on Approve signs nothing', async ({ page, logs }) => {
    const address = await loggedIn(page)
    const forgedText = 'Forged by the host page'
    await page.evaluate(
      ({ title, secureOrigin, frameOrigin, hostOrigin, address, text, connect }) => {
        const id = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
        const message = `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`
        const call = (method: string, value: unknown) => ({ id: id(), type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value }] })
        const sign = call('sign', { op: id(), method: 'personal_sign', params: [message, address], chainId: 'eip155:31337', host: hostOrigin })
        const request = call('request', { method: 'personal_sign', params: [message, address] })
        const replies: unknown[] = []
        const ports: MessagePort[] = []
        // The channel's handshake with a port of ours, then a call on that port, in the channel's wire format.
        const offer = (target: Window, origin: string, first: unknown) => {
          const { port1, port2 } = new MessageChannel()
          port1.onmessage = (event) => replies.push(event.data)
          ports.push(port1)
          target.postMessage(connect, origin, [port2])
          port1.postMessage(first)
        }
        const frameApp = document.querySelector<HTMLIFrameElement>(`iframe[title="${title}"]`)!.contentWindow!
        for (let i = 0; i < frameApp.length; i++) {
          offer(frameApp[i]!, secureOrigin, sign)
          // A call posted on the window itself, as if the channel ran there.
          frameApp[i]!.postMessage(sign, secureOrigin)
        }
        offer(frameApp, frameOrigin, request)
        frameApp.postMessage(request, frameOrigin)
        Object.assign(window, { forged: { replies, ports } })
      },
      { title: 'Doorway wallet', secureOrigin, frameOrigin, hostOrigin, address, text: forgedText, connect: { type: Protocol.handshake.connect, version: Protocol.version } },
    )
    // The forgeries arrived, and each side logged it refused them (a side that accepted would not log).
    await expect.poll(() => logs).toContainEqual(expect.stringMatching(new RegExp(`^debug \\[doorway:secure\\] ignored message from ${hostOrigin}`)))
    await expect.poll(() => logs).toContainEqual(expect.stringMatching(new RegExp(`^warning \\[doorway:frame\\] ignored message from ${hostOrigin}`)))

    // The legitimate request, sent later, is the only one the secure-site shows.
    await askToSign(page)
    await expect(approval(page)).toHaveCount(1)
    await expect(secureFrame(page).getByText(forgedText)).toHaveCount(0)

    // A script's click on the enabled Approve: handled at once, and ignored.
    await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'false')
    const clicks = await recordSecureClicks(page)
    await frameAt(page, secureOrigin).evaluate(() => document.querySelector<HTMLButtonElement>('.approval-approve')!.click())
    expect(await clicks()).toEqual(['approval-approve untrusted'])
    await expect(approval(page)).toHaveAttribute('data-visibility', 'ready')
    await expect(sendResult(page)).toHaveText(waitingForSignature)

    // The person's own click signs, once.
    await approve(page)
    await expect(sendResult(page)).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
    expect(await clicks()).toEqual(['approval-approve untrusted', 'approval-approve trusted'])
    await expect(signedEntries(page)).toHaveCount(1)
    // Answered in order, the forged calls would have been answered first: they never were.
    expect(await page.evaluate(() => (window as unknown as { forged: { replies: unknown[] } }).forged.replies)).toEqual([])
    await expect(approval(page)).toHaveCount(0)
  })

  // The frame-app hides the approval from the person while they click where Approve is (docs/embedded-wallet.md §7).
  const obstructions = [
    {
      name: 'opacity: 0 on the secure iframe',
      // A constructed sheet: the frame-app's CSP refuses an injected <style>, not CSSOM.
      apply: (title: string) => {
        const sheet = new CSSStyleSheet()
        sheet.replaceSync(`iframe[title="${title}"] { opacity: 0 !important; }`)
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
        Object.assign(window, { unobstruct: () => (document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet)) })
      },
    },
    {
      name: 'an overlay over the secure iframe that lets clicks through',
      apply: () => {
        const cover = document.createElement('div')
        cover.textContent = 'Claim your prize'
        Object.assign(cover.style, { position: 'fixed', inset: '0', zIndex: '2147483647', background: 'white', pointerEvents: 'none' })
        document.body.append(cover)
        Object.assign(window, { unobstruct: () => cover.remove() })
      },
    },
  ]
  for (const obstruction of obstructions)
    test(`error: clickjacking with ${obstruction.name}: Approve stays disabled and a real click signs nothing until it is seen`, async ({ page }) => {
      await loggedIn(page)
      const frameApp = frameAt(page, frameOrigin)
      await frameApp.evaluate(obstruction.apply, secureTitle)
      await askToSign(page)
      // Shown over its slot (not visibility: hidden), yet reported hidden by the secure-site.
      await expect(modalFrame(page).locator(`iframe[title="${secureTitle}"]`)).toBeVisible()
      await expect(approval(page)).toHaveAttribute('data-visibility', 'hidden')
      await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'true')

      // Real clicks at Approve's place until one reaches the button (Chromium drops input to a
      // cross-origin frame that has just moved), each trusted, each ignored.
      const clicks = await recordSecureClicks(page)
      const box = (await approveButton(page).boundingBox())!
      await expect
        .poll(async () => {
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
          return (await clicks()).length
        })
        .toBeGreaterThan(0)
      expect(new Set(await clicks())).toEqual(new Set(['approval-approve trusted']))
      await expect(approval(page)).toHaveCount(1)
      await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'true')
      await expect(sendResult(page)).toHaveText(waitingForSignature)

      // Once the secure iframe is seen, the same approval goes through.
      await frameApp.evaluate(() => (window as unknown as { unobstruct(): void }).unobstruct())
      await approve(page)
      await expect(sendResult(page)).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
      await expect(signedEntries(page)).toHaveCount(1)
    })

  test('behavior: a double click on Approve sends one transaction', async ({ page }) => {
    const address = await loggedIn(page)
    const nonce = (block: 'latest' | 'pending') => rpc<string>(rpcUrl, 'eth_getTransactionCount', [address, block])
    await page.getByRole('button', { name: 'Fund 1 ETH (devnet)' }).click()
    await expect(sendResult(page)).toHaveText('Funded 1 ETH on the devnet')

    await page.getByRole('button', { name: 'Send 0.001 ETH to yourself' }).click()
    await expect(approval(page).getByText('Send a transaction')).toBeVisible()
    await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'false')
    const clicks = await recordSecureClicks(page)
    await approveButton(page).dblclick()
    await expect(sendResult(page)).toHaveText(/^Sent: 0x[0-9a-f]{64}$/)
    // Both clicks reached the secure frame; the first settled the approval and took Approve away.
    expect(await clicks()).toEqual(['approval-approve trusted', expect.stringMatching(/ trusted$/)])
    const first = await sendResult(page).textContent()
    expect(await nonce('latest')).toBe('0x1')
    expect(await nonce('pending')).toBe('0x1')
    await expect(eventLog(page).getByText(/^sent /)).toHaveCount(1)

    // Control: a second approval does count as a second transaction.
    await page.getByRole('button', { name: 'Send 0.001 ETH to yourself' }).click()
    await expect(approval(page).getByText('Send a transaction')).toBeVisible()
    await approve(page)
    await expect(sendResult(page)).toHaveText(/^Sent: 0x[0-9a-f]{64}$/)
    await expect(sendResult(page)).not.toHaveText(first!)
    expect(await nonce('latest')).toBe('0x2')
    await expect(eventLog(page).getByText(/^sent /)).toHaveCount(2)
  })

  test('error: closing the modal while Approve is enabled rejects with 4001, removes the approval and signs nothing', async ({ page }) => {
    await loggedIn(page)
    await askToSign(page)
    await expect(approveButton(page)).toHaveAttribute('aria-disabled', 'false')
    await modalFrame(page).getByRole('button', { name: 'Close' }).click()
    await expect(sendResult(page)).toHaveText(/^Not signed: .* \(code 4001\)$/)
    await expect(approveButton(page)).toHaveCount(0)
    await expect(approval(page)).toHaveCount(0)
    await expect(signedEntries(page)).toHaveCount(0)

    // Control: asked again and approved, it signs, once.
    await askToSign(page)
    await approve(page)
    await expect(sendResult(page)).toHaveText(/^Signed: 0x[0-9a-f]{130}$/)
    await expect(signedEntries(page)).toHaveCount(1)
  })
})
