/**
 * Shared fixtures: every test aborts and counts requests to non-loopback hosts and asserts none were
 * made; console output (from every frame, cross-origin ones included) is collected for assertions.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { test as base, expect, type BrowserContext, type ConsoleMessage, type Locator, type Page } from '@playwright/test'
import { chains, urls } from '@doorway/devnet/stack'

export const frameOrigin = new URL(urls.frame).origin
export const secureOrigin = new URL(urls.secure).origin
export const hostOrigin = new URL(urls.demo).origin
export const apiOrigin = new URL(urls.api).origin
/** The first anvil chain (31337), where the dev wallet's account is funded. */
export const rpcUrl = chains[0]!.rpcUrl

type Fixtures = { loopbackOnly: { requests: string[] }; logs: string[] }

export const test = base.extend<Fixtures>({
  loopbackOnly: [
    async ({ context }, use) => {
      const requests = await loopbackOnly(context)
      await use({ requests })
      expect(requests, 'requests to non-loopback hosts').toEqual([])
    },
    { auto: true },
  ],
  logs: [
    async ({ page }, use) => {
      const logs: string[] = []
      const record = (message: ConsoleMessage) => logs.push(`${message.type()} ${message.text()}`)
      page.on('console', record)
      await use(logs)
      expect(logs.filter((l) => l.includes('Content Security Policy')), 'CSP violations').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

/** Aborts every request of `context` to a host outside loopback, and lists them for the assertion. */
export async function loopbackOnly(context: BrowserContext): Promise<string[]> {
  const requests: string[] = []
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => {
    requests.push(route.request().url())
    return route.abort()
  })
  // WebSockets too (a hosted WalletConnect relay): closed before they connect, and counted.
  await context.routeWebSocket(/^wss?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (ws) => {
    requests.push(ws.url())
    return ws.close()
  })
  return requests
}

/** The modal's frame as a person meets it: by its title. */
export function modalFrame(page: Page) {
  return page.frameLocator('iframe[title="Doorway wallet"]').first()
}

/** Loads the demo and waits until the frame-app holds its config (the modal is preloaded, hidden). */
export async function ready(page: Page, search = '') {
  await page.goto(`/${search}`)
  await expect(modalFrame(page).locator('.backdrop')).toBeAttached()
}

/** Calls the demo's `window.modal` as the dapp would. */
export function dapp<T>(page: Page, fn: (modal: DemoModal) => T | Promise<T>) {
  return page.evaluate(`(${fn.toString()})(window.modal)`) as Promise<T>
}
export type DemoModal = {
  open(options?: { view?: string }): Promise<{ status: string }>
  close(): Promise<void>
  getState(): { open: boolean; view: string; loading: boolean; preferredAccountType?: string; smartAccountDeployed?: boolean }
}

/** The demo's visible event log. */
export function eventLog(page: Page) {
  return page.getByRole('list', { name: 'Event log' })
}

/**
 * Focus inside the cross-origin frame: the host's active element is the modal's iframe and the
 * frame's active element is `locator`. (toBeFocused also asks document.hasFocus(), which headless
 * Chromium answers unreliably for out-of-process frames.)
 */
export async function expectFocusInFrame(page: Page, locator: Locator) {
  await expect
    .poll(async () => {
      const hostFocusOnFrame = await page.evaluate(() => document.activeElement?.tagName === 'IFRAME')
      const active = await locator.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)
      return hostFocusOnFrame && active
    })
    .toBe(true)
}

/**
 * The host's dialog is closed and the page has painted without it. Chromium routes mouse input to an
 * out-of-process frame by the last painted hit-test data, so a click sent before that paint can land
 * in the hidden frame and be lost (seen in about 1 of 100 quick reopenings).
 */
export async function expectClosed(page: Page) {
  // Closed, the dialog stays laid out but unseen and inert, so the frame keeps its card drawn (issue 14).
  await expect(hostDialog(page)).toHaveJSProperty('open', false)
  await expect(hostDialog(page)).toHaveCSS('opacity', '0')
  await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))))
}

/** The SDK's dialog on the host page, open or not (Playwright's role queries do not treat `inert` as hidden). */
export const hostDialog = (page: Page) => page.locator('dialog[aria-label="Wallet connection"]')

/** Opens a view as the dapp would, without waiting for open() to settle. */
export async function openView(page: Page, view: string) {
  await page.evaluate((v) => void (window as unknown as { modal: DemoModal }).modal.open({ view: v }), view)
}

/** The dev wallet's own prompt (it plays an extension's popup on the host page). */
export function walletPrompt(page: Page) {
  return page.getByRole('dialog', { name: 'Doorway Dev Wallet' })
}

/** anvil account 0 of the standard test mnemonic: the dev wallet's account. */
export const devAccount = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

/** From the demo: Connect Wallet → the dev wallet → approve; resolves when the Account view shows. */
export async function connectDevWallet(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await modalFrame(page).getByRole('button', { name: /Doorway Dev Wallet/ }).click()
  await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
  await expect(modalFrame(page).getByRole('dialog', { name: 'Account' })).toBeVisible()
}

/** A JSON-RPC call straight to a local chain, as a block explorer would read it. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const { result, error } = (await response.json()) as { result: T; error?: { message: string } }
  if (error) throw new Error(error.message)
  return result
}

/**
 * axe-core inside the modal's cross-origin frame, on its dialog: no serious or critical violation.
 * Run in the frame itself (no cross-frame orchestration, which can miss an out-of-process frame).
 */
export async function expectAccessible(page: Page, within: { origin: string; selector: string } = { origin: frameOrigin, selector: '[role="dialog"]' }) {
  const frame = page.frames().find((f) => f.url().startsWith(within.origin))!
  // A view still fading in has text at part opacity, which axe measures as low contrast: wait for the
  // running animations that end (view transitions, 150 ms; not a spinner's) to end first.
  await frame.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
  await frame.evaluate(axeSource)
  const results = await frame.evaluate(
    (selector) => (window as unknown as { axe: typeof import('axe-core') }).axe.run(selector, { iframes: false }),
    within.selector,
  )
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([])
  // The dialog was really analysed.
  expect(results.passes.length).toBeGreaterThan(0)
}
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** The dapp's networks with a block explorer, so every Activity entry is a link named by its summary. */
export const explorerOptions = () => {
  const network = ({ id, rpcUrl }: (typeof chains)[number]) => ({
    id,
    name: `Anvil ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    blockExplorers: { default: { url: `${hostOrigin}/explorer` } },
    testnet: true,
  })
  return `?options=${encodeURIComponent(JSON.stringify({ networks: chains.map(network) }))}`
}
