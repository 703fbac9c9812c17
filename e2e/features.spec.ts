/** Options and features (spec §1, §5, §8): lazy chunks, the nested secure-site, alerts, errors, theme. */
import type { Page } from '@playwright/test'
import { dapp, expect, expectClosed, modalFrame, openView, ready, secureOrigin, test } from './fixtures.js'

/** Records the URLs every frame of the page fetches. */
function requests(page: Page) {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return urls
}
const chunk = (name: string) => (url: string) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(url)

test('behavior: connect methods follow connectMethodsOrder and their lazy chunks load only when on', async ({ page }) => {
  const urls = requests(page)
  await ready(page, '?features={"connectMethodsOrder":["wallet","social","email"]}')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  const sections = frame.getByRole('dialog').locator('section')
  await expect(sections).toHaveCount(3)
  expect(await sections.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))).toEqual(['Wallets', 'Social login', 'Email'])
  expect(urls.some(chunk('EmailLogin'))).toBe(true)
  expect(urls.some(chunk('SocialLogin'))).toBe(true)
})

test('behavior: with email and socials off, neither chunk nor the secure-site loads', async ({ page }) => {
  const urls = requests(page)
  await ready(page, '?features={"email":false,"socials":false}')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(frame.getByRole('dialog').locator('section')).toHaveCount(1)
  expect(urls.filter((u) => chunk('EmailLogin')(u) || chunk('SocialLogin')(u) || u.startsWith(secureOrigin))).toEqual([])
})

test('behavior: the frame-app handshakes with the secure-site on its own origin', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  // The email step is the secure-site's own form, shown once it answered its status call.
  await modalFrame(page).getByRole('button', { name: 'Continue with email' }).click()
  const secure = modalFrame(page).frameLocator('iframe[title="Doorway secure wallet"]')
  await secure.getByRole('textbox', { name: 'Email' }).fill('ada@example.com')
  await expect(secure.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled()
  expect(page.frames().some((f) => f.url().startsWith(secureOrigin) && f.parentFrame()?.url().startsWith('http://127.0.0.1:5174'))).toBe(true)
})

test('behavior: a feature view is a lazy chunk; with its feature off, opening it fails clearly', async ({ page }) => {
  const urls = requests(page)
  await ready(page, '?features={"swaps":false}')
  expect(urls.some(chunk('Send'))).toBe(false)
  await openView(page, 'Send')
  // Nobody is connected: the Send view says so rather than offering a form.
  await expect(modalFrame(page).getByRole('dialog', { name: 'Send' })).toContainText('No wallet is connected.')
  expect(urls.some(chunk('Send'))).toBe(true)
  await dapp(page, (modal) => modal.close())

  const error = await dapp(page, (modal) => modal.open({ view: 'Swap' }).catch((e: Error) => e.message))
  expect(error).toBe('The Swap view needs features.swaps to be on')
  expect(urls.some(chunk('Swap'))).toBe(false)
  await expectClosed(page)
})

test('behavior: a missing projectId shows the configuration alert, once', async ({ page }) => {
  await ready(page, '?projectId=')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const frame = modalFrame(page)
  const alert = frame.getByRole('alert')
  await expect(alert).toContainText('Project ID Not Configured')
  await frame.getByRole('button', { name: 'Dismiss alert' }).click()
  await expect(alert).toBeHidden()
  await page.keyboard.press('Escape')
  await expectClosed(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(alert).toBeHidden()
})

test('error: bad options throw clear errors up front', async ({ page }) => {
  await ready(page)
  const errors = await page.evaluate(() => {
    const { createModal } = (window as unknown as { Doorway: { createModal(o: object): unknown } }).Doorway
    const network = { id: 1, name: 'One', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }
    const attempt = (options: object) => {
      try {
        createModal(options)
        return 'created'
      } catch (error) {
        return (error as Error).message
      }
    }
    return [
      attempt({ projectId: 'p', networks: [network], siweConfig: {}, siwx: {} }),
      attempt({ projectId: 'p', networks: [] }),
      attempt({ projectId: 'p', networks: [network], themeMode: 'sepia' }),
      attempt({ projectId: 'p', networks: [network], termsConditionsUrl: 'javascript:alert(1)' }),
      attempt({ projectId: 'p', networks: [{ ...network, caipNetworkId: 'eip155' }] }),
    ]
  })
  expect(errors).toEqual([
    'Cannot set both `siweConfig` and `siwx` options',
    'Invalid option `networks`',
    'Invalid option `themeMode`',
    'Invalid option `termsConditionsUrl`',
    'Invalid option `networks`',
  ])
})

test('behavior: embedded mode renders in the given element and closing resets to Connect', async ({ page }) => {
  await ready(page)
  await page.evaluate(() => {
    const host = document.createElement('div')
    host.id = 'embedded'
    host.style.cssText = 'width:400px;height:560px'
    document.body.append(host)
    const { createModal } = (window as unknown as { Doorway: { createModal(o: object): unknown } }).Doorway
    createModal({
      projectId: 'p',
      networks: [{ id: 31337, name: 'Anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }],
      embedded: host,
    })
  })
  const frame = page.frameLocator('#embedded iframe')
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await frame.getByRole('button', { name: 'All Wallets' }).click()
  await frame.getByRole('button', { name: 'Close' }).click()
  await expect(frame.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
})

test('behavior: dark theme by default, light on request; reduced motion turns animations off', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const background = () => modalFrame(page).getByRole('dialog').evaluate((el) => getComputedStyle(el).backgroundColor)
  expect(await background()).toBe('rgb(20, 20, 20)')

  await page.emulateMedia({ reducedMotion: 'reduce' })
  await ready(page, '?themeMode=light')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  expect(await background()).toBe('rgb(255, 255, 255)')
  const duration = await modalFrame(page).getByRole('dialog').locator('.view').evaluate((el) => getComputedStyle(el).animationDuration)
  expect(duration).toBe('0s')
})

test('behavior: the animation durations of spec §2: header text 120 ms, modal height 150 ms, view 150 ms', async ({ page }) => {
  await ready(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const dialog = modalFrame(page).getByRole('dialog', { name: 'Connect Wallet' })
  await expect(dialog).toBeVisible()
  const durations = await dialog.evaluate((card) => ({
    header: getComputedStyle(card.querySelector('h1')!).animationDuration,
    height: getComputedStyle(card.querySelector('.body')!).transitionDuration,
    view: getComputedStyle(card.querySelector('.view')!).animationDuration,
  }))
  expect(durations).toEqual({ header: '0.12s', height: '0.15s', view: '0.15s' })
})
