import { dapp, type DemoModal, eventLog, expect, expectClosed, expectFocusInFrame, frameOrigin, hostDialog, modalFrame, openView, ready, test } from './fixtures.js'

test.describe('opening and closing', () => {
  test('behavior: opens in a cross-site frame as a named, focused dialog', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()

    await expect(page.getByRole('dialog', { name: 'Wallet connection' })).toBeVisible()
    const src = await page.locator('iframe[title="Doorway wallet"]').getAttribute('src')
    expect(new URL(src!).origin).toBe(frameOrigin)
    expect(page.frames().some((f) => f.url().startsWith(frameOrigin))).toBe(true)

    const dialog = modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })
    await expect(dialog).toBeVisible()
    await expectFocusInFrame(page, dialog)
    await expect(eventLog(page)).toContainText('open {"view":"Connect"}')
  })

  test('behavior: Escape closes, focus returns to the opener and open() resolves', async ({ page }) => {
    await ready(page)
    const opener = page.getByRole('button', { name: 'Connect Wallet' })
    await opener.click()
    await expectFocusInFrame(page, modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' }))
    await page.keyboard.press('Escape')

    await expectClosed(page)
    await expect(opener).toBeFocused()
    await expect(eventLog(page)).toContainText('close {"status":"closed"}')
    await expect(eventLog(page)).toContainText('open() resolved {"status":"closed"}')
  })

  test('behavior: a dialog the browser closes by itself (its close watcher) ends the opening, never left drawn', async ({ page }) => {
    await ready(page)
    const opener = page.getByRole('button', { name: 'Connect Wallet' })
    await opener.click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    // What Chrome does on a second Escape with no activation between: close, with no `cancel` first.
    await hostDialog(page).evaluate((dialog: HTMLDialogElement) => dialog.close())

    await expectClosed(page)
    await expect(opener).toBeFocused()
    await expect(eventLog(page)).toContainText('open() resolved {"status":"closed"}')
    expect(await dapp(page, (modal) => modal.getState().open)).toBe(false)
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible')
  })

  test('behavior: closed and opened again at once, the modal stays open (our own close is not the browser\'s)', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    // The dialog's `close` event of the first close may come a task later, into the second opening: it must not end it.
    await dapp(page, (modal) => {
      void modal.close()
      void modal.open()
    })
    await page.evaluate(() => new Promise((later) => setTimeout(() => setTimeout(() => requestAnimationFrame(later)))))
    await expect(eventLog(page).getByText('open {"view":"Connect"}')).toHaveCount(2)
    await expect(hostDialog(page)).toHaveJSProperty('open', true)
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await dapp(page, (modal) => modal.getState().open)).toBe(true)
  })

  test('behavior: a click on the backdrop closes; the close button closes', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await page.mouse.click(8, 8)
    await expectClosed(page)

    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modalFrame(page).getByRole('button', { name: 'Close' }).click()
    await expectClosed(page)
    await expect(eventLog(page).getByText('open() resolved {"status":"closed"}')).toHaveCount(2)
  })

  test('behavior: the page behind does not scroll while open; nothing is injected into <head>', async ({ page }) => {
    await ready(page)
    const head = await page.evaluate(() => document.head.innerHTML)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden')
    expect(await page.evaluate(() => document.head.innerHTML)).toBe(head)
    expect(await page.locator('style').count()).toBe(0)

    await page.keyboard.press('Escape')
    await expectClosed(page)
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible')
  })

  test('behavior: open() resolves with the state the dapp reads in getState()', async ({ page }) => {
    await ready(page)
    const opened = dapp(page, (modal) => modal.open())
    await expect(modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await dapp(page, (modal) => modal.getState())).toEqual({ open: true, view: 'Connect', loading: false, status: 'disconnected' })
    await dapp(page, (modal) => modal.close())
    await expect(opened).resolves.toEqual({ status: 'closed' })
    expect(await dapp(page, (modal) => modal.getState())).toMatchObject({ open: false })
  })
})

test.describe('view stack', () => {
  test('behavior: push a view, go back, no back button at the root', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const frame = modalFrame(page)
    await expect(frame.getByRole('button', { name: 'Back' })).toHaveCount(0)

    await frame.getByRole('button', { name: 'All Wallets' }).click()
    await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
    await expect(frame.getByRole('searchbox', { name: 'Search wallets' })).toBeVisible()
    expect(await dapp(page, (modal) => modal.getState().view)).toBe('AllWallets')

    await frame.getByRole('button', { name: 'Back' }).click()
    await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Back' })).toHaveCount(0)
  })

  test('behavior: an explicit view wins; picking a network goes back, which closes a one-view stack', async ({ page }) => {
    await ready(page)
    await openView(page, 'Networks')
    const frame = modalFrame(page)
    await expect(frame.getByRole('dialog', { name: 'Choose Network' })).toBeVisible()
    const networks = frame.getByRole('list', { name: 'Networks' })
    await expect(networks.getByRole('button', { name: /Anvil 31337.*Active/ })).toHaveAttribute('aria-current', 'true')

    await networks.getByRole('button', { name: /Anvil 31338/ }).click()
    await expectClosed(page)

    await openView(page, 'Networks')
    await expect(networks.getByRole('button', { name: /Anvil 31338.*Active/ })).toHaveAttribute('aria-current', 'true')
  })

  test('behavior: Account has Tokens, NFTs and Activity tabs, usable by keyboard', async ({ page }) => {
    await ready(page)
    await openView(page, 'Account')
    const frame = modalFrame(page)
    const tabs = frame.getByRole('tablist', { name: 'Account sections' })
    await expect(tabs.getByRole('tab')).toHaveText(['Tokens', 'NFTs', 'Activity'])
    await tabs.getByRole('tab', { name: 'Tokens' }).focus()
    await page.keyboard.press('ArrowRight')
    await expectFocusInFrame(page, tabs.getByRole('tab', { name: 'NFTs' }))
    await expect(tabs.getByRole('tab', { name: 'NFTs' })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('End')
    await expect(frame.getByRole('tabpanel')).toHaveText('No wallet is connected.')
  })
})

test.describe('keyboard only', () => {
  test('behavior: open with Enter, Tab stays inside the dialog, Escape closes', async ({ page }) => {
    await ready(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).focus()
    await page.keyboard.press('Enter')
    const frame = modalFrame(page)
    await expectFocusInFrame(page, frame.getByRole('dialog', { name: 'Connect Wallet' }))

    // Tab walks every control once and wraps to the first: the ring never leaves the dialog.
    const focused: string[] = []
    do {
      await page.keyboard.press('Tab')
      focused.push(await frame.locator(':focus').evaluate((el) => el.getAttribute('aria-label') ?? el.textContent ?? ''))
    } while (focused.length < 30 && (focused.length === 1 || focused.at(-1) !== 'Close'))
    expect(focused[0]).toBe('Close')
    expect(focused.at(-1)).toBe('Close')
    expect(focused).toContain('Doorway Dev WalletInstalled')
    expect(focused.slice(-4, -1)).toEqual([expect.stringMatching(/^All Wallets/), 'Terms of Service', 'Privacy Policy'])
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME')
    await page.keyboard.press('Shift+Tab')
    await expectFocusInFrame(page, frame.getByRole('link', { name: 'Privacy Policy' }))

    await frame.getByRole('button', { name: 'All Wallets' }).focus()
    await page.keyboard.press('Enter')
    await expect(frame.getByRole('dialog', { name: 'All Wallets' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Connect Wallet' }))
  })
})

test.describe('SDK lifecycle', () => {
  const anvil = { id: 31337, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }
  type Sdk = { createModal(options: object): DemoModal & { element: HTMLElement; destroy(): void; subscribe(e: string, cb: (d: unknown) => void): () => void } }

  test('behavior: unsubscribe stops events; a throwing subscriber does not stop the others', async ({ page }) => {
    await ready(page)
    const counts = await page.evaluate(async () => {
      const modal = (window as unknown as { modal: DemoModal & { subscribe(e: string, cb: () => void): () => void } }).modal
      let kept = 0
      let dropped = 0
      modal.subscribe('close', () => {
        throw new Error('dapp bug')
      })
      modal.subscribe('close', () => kept++)
      const unsubscribe = modal.subscribe('close', () => dropped++)
      for (let i = 0; i < 2; i++) {
        const opened = modal.open()
        await modal.close()
        await opened
        unsubscribe()
      }
      return { kept, dropped }
    })
    expect(counts).toEqual({ kept: 2, dropped: 1 })
  })

  test('behavior: destroy() removes the modal and settles a pending open()', async ({ page }) => {
    await ready(page)
    const result = await page.evaluate(async (network) => {
      const sdk = (window as unknown as { Doorway: Sdk }).Doorway
      const modal = sdk.createModal({ projectId: 'p', networks: [network] })
      // open() places and loads the frame at once (otherwise that waits for the page to go idle).
      const opened = modal.open()
      const frames = document.querySelectorAll('iframe').length
      modal.destroy()
      return { before: frames, after: document.querySelectorAll('iframe').length, opened: await opened, inDom: modal.element.isConnected }
    }, anvil)
    expect(result).toEqual({ before: 2, after: 1, opened: { status: 'closed' }, inDom: false })
    await expectClosed(page)
  })

  test('behavior: disableAppend leaves placement to the dapp', async ({ page }) => {
    await ready(page)
    const appended = await page.evaluate((network) => {
      const sdk = (window as unknown as { Doorway: Sdk }).Doorway
      const modal = sdk.createModal({ projectId: 'p', networks: [network], disableAppend: true })
      const before = modal.element.isConnected
      document.querySelector('main')!.append(modal.element)
      void modal.open({ view: 'Networks' })
      return before
    }, anvil)
    expect(appended).toBe(false)
    await expect(page.locator('main').frameLocator('iframe').getByRole('dialog', { name: 'Choose Network' })).toBeVisible()
  })
})
